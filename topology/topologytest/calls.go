package topologytest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/frontlatch/frontlatch/topology"
)

// Calls counts the CDP calls of a browser from CountingBrowser, so a test
// can say how many round trips a page cost.
type Calls struct {
	mu      sync.Mutex
	methods map[string]int
	evals   []string // the source of every Runtime.evaluate / callFunctionOn
}

// Method is how many calls of a CDP method were made (e.g. "Page.navigate").
func (c *Calls) Method(m string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.methods[m]
}

// Evaluates counts the in-page evaluations (Runtime.evaluate and
// Runtime.callFunctionOn) whose source contains marker ("" for all).
func (c *Calls) Evaluates(marker string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.evals {
		if strings.Contains(e, marker) {
			n++
		}
	}
	return n
}

// Sources returns the evaluations' sources, each cut to n bytes.
func (c *Calls) Sources(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.evals))
	for i, e := range c.evals {
		if len(e) > n {
			e = e[:n]
		}
		out[i] = e
	}
	return out
}

// Reset forgets the calls counted so far.
func (c *Calls) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.methods, c.evals = map[string]int{}, nil
}

func (c *Calls) add(method string, params any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.methods[method]++
	switch p := params.(type) {
	case proto.RuntimeEvaluate:
		c.evals = append(c.evals, p.Expression)
	case *proto.RuntimeEvaluate:
		c.evals = append(c.evals, p.Expression)
	case proto.RuntimeCallFunctionOn:
		c.evals = append(c.evals, p.FunctionDeclaration+argsOf(p.Arguments))
	case *proto.RuntimeCallFunctionOn:
		c.evals = append(c.evals, p.FunctionDeclaration+argsOf(p.Arguments))
	}
}

// argsOf keeps the arguments of a call, where rod passes the source of
// the function it runs.
func argsOf(args []*proto.RuntimeCallArgument) string {
	var b strings.Builder
	for _, a := range args {
		if a != nil {
			if raw, err := json.Marshal(a.Value); err == nil {
				b.WriteString(" ")
				b.Write(raw)
			}
		}
	}
	return b.String()
}

type countingClient struct {
	c     *cdp.Client
	calls *Calls
}

func (cc countingClient) Event() <-chan *cdp.Event { return cc.c.Event() }

func (cc countingClient) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	cc.calls.add(method, params)
	return cc.c.Call(ctx, sessionID, method, params)
}

// CountingBrowser launches a headless Chromium of its own (closed when the
// test ends) whose every CDP call is counted. It needs Chromium
// (NeedChromium).
func CountingBrowser(tb testing.TB) (*rod.Browser, *Calls) {
	tb.Helper()
	NeedChromium(tb)
	bin, err := topology.ResolveChromium("")
	if err != nil {
		tb.Fatal(err)
	}
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(true).
		Set("disable-gpu").Set("no-first-run").Set("disable-background-networking").
		Set("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
	// Launch has no deadline of its own (it waits for the DevTools URL on
	// the browser's stderr): bound it. Cleanup only after a launch that
	// worked (it blocks after a failed one), Kill before it.
	type launched struct {
		u   string
		err error
	}
	done := make(chan launched, 1)
	go func() {
		u, err := l.Launch()
		done <- launched{u, err}
	}()
	var u string
	select {
	case res := <-done:
		if res.err != nil {
			tb.Fatalf("launch chromium: %v", res.err)
		}
		u = res.u
	case <-time.After(30 * time.Second):
		l.Kill()
		tb.Fatal("launch chromium: no DevTools URL within 30s")
	}
	tb.Cleanup(l.Cleanup)
	tb.Cleanup(l.Kill)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := cdp.StartWithURL(ctx, u, nil)
	if err != nil {
		tb.Fatalf("connect to chromium: %v", err)
	}
	calls := &Calls{methods: map[string]int{}}
	b := rod.New().Client(countingClient{c: client, calls: calls})
	if err := b.Connect(); err != nil {
		tb.Fatalf("connect to chromium: %v", err)
	}
	tb.Cleanup(func() {
		if err := b.Timeout(5 * time.Second).Close(); err != nil {
			tb.Logf("close the counting browser: %v (it is killed next)", err)
		}
	})
	return b, calls
}
