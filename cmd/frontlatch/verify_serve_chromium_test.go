package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/portal"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// The owner's journey through the command: `frontlatch verify serve`
// prints an address; Chromium opens it, reads the disclosure, sets the
// limits and clicks confirm; the graph written passes the consent gate with
// the store the command wrote to.
func TestVerifyServeConfirmInChromium(t *testing.T) {
	topologytest.NeedChromium(t)
	graph := copyGraph(t)
	storePath := filepath.Join(t.TempDir(), "audit.db")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"verify", "serve", "--store", storePath, graph}, &stdout, &stderr) }()
	u := printedURL(t, &stdout, &stderr, done)

	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bctx, bcancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer bcancel()
	const step = 30 * time.Second
	p, err := b.Rod().Context(bctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	el := func(sel string) *rod.Element {
		t.Helper()
		e, err := p.Timeout(step).Element(sel)
		must(err)
		return e.Timeout(step)
	}
	must(p.Timeout(step).Navigate(u))
	must(p.Timeout(step).WaitLoad())

	g, err := portal.ReadGraphFile(t.Context(), graph)
	must(err)
	a := g.Actions[0]
	wait := p.Timeout(step).WaitNavigation(proto.PageLifecycleEventNameLoad)
	must(el(`a[href="/action/`+a.ID+`"]`).Click(proto.InputMouseButtonLeft, 1))
	wait()
	summary, err := el("#summary").Text()
	must(err)
	if summary != a.SideEffects.Summary {
		t.Errorf("disclosure shown %q, the action states %q", summary, a.SideEffects.Summary)
	}
	fill := func(sel, v string) {
		e := el(sel)
		must(e.SelectAllText())
		must(e.Input(v))
	}
	fill("#cap-max", "4")
	must(el("#cap-per").Select([]string{"per month"}, true, rod.SelectorTypeText))
	fill("#notify", "https://hooks.example.com/clinic")
	fill("#confirmed-by", "Sam Reid")
	wait = p.Timeout(step).WaitNavigation(proto.PageLifecycleEventNameLoad)
	must(el("#confirm-button").Click(proto.InputMouseButtonLeft, 1))
	wait()
	status, err := el("#confirmed-status").Text()
	must(err)
	if !strings.Contains(status, "Agents may now use it") {
		t.Fatalf("after clicking confirm: %q", status)
	}

	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	}
	store, err := audit.Open(t.Context(), storePath)
	must(err)
	defer store.Close()
	g, err = portal.ReadGraphFile(t.Context(), graph)
	must(err)
	ab, err := shared.WriteAction(&g.Actions[0])
	must(err)
	if err := shared.AssertLiveExecutionAllowed(ab, store); err != nil {
		t.Errorf("the graph written by verify serve does not pass the gate: %v", err)
	}
	if c := g.Actions[0].Verification.(shared.Verified).Confirmation; c.Limits.VolumeCap.Max != 4 || c.Limits.VolumeCap.Per != shared.PerMonth || c.ConfirmedBy != "Sam Reid" {
		t.Errorf("confirmation = %+v", c)
	}
}
