package topologytest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology"
)

// Chromium is a browser started by StartChromium, as another program (a
// chromedp or Playwright program, a browser pool) would start it.
type Chromium struct {
	// URL is its DevTools WebSocket URL (ws://127.0.0.1:PORT/devtools/browser/…).
	URL string
	// HTTP is its DevTools HTTP endpoint, http://127.0.0.1:PORT.
	HTTP string

	cmd  *exec.Cmd
	done chan struct{} // closed once cmd.Wait has returned
}

// devtoolsLine is what Chromium prints once it listens for DevTools.
var devtoolsLine = regexp.MustCompile(`DevTools listening on (ws://(127\.0\.0\.1:\d+)/\S+)`)

// StartChromium starts Debian's Chromium, headless, with a DevTools port
// on 127.0.0.1 (port; 0 for any free one), a profile of its own and
// nothing resolving but loopback, and returns once it listens. It ends
// with the test: Chromium and every helper process it started are killed,
// and the profile is removed once they are gone (t.TempDir would race the
// helpers still writing there). Call NeedChromium first.
func StartChromium(tb testing.TB, port int) *Chromium {
	tb.Helper()
	bin, err := topology.ResolveChromium("")
	if err != nil {
		tb.Fatal(err)
	}
	profile, err := os.MkdirTemp("", "frontlatch-topologytest-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--user-data-dir="+profile, "--remote-debugging-address=127.0.0.1", fmt.Sprintf("--remote-debugging-port=%d", port),
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost", "about:blank")
	// A process group of its own, so that Kill ends the helpers too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &Chromium{cmd: cmd, done: make(chan struct{})}
	found := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := devtoolsLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m
				break
			}
		}
		for sc.Scan() { // keep draining so Chromium never blocks on stderr
		}
		_ = cmd.Wait()
		close(c.done)
	}()
	tb.Cleanup(func() {
		c.Kill()
		for range 50 { // helpers of the killed group may still be exiting
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		tb.Logf("topologytest: the Chromium profile %s could not be removed", profile)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case m := <-found:
		c.URL, c.HTTP = strings.TrimSpace(m[1]), "http://"+m[2]
		return c
	case <-c.done:
		tb.Fatal("topologytest: Chromium exited before it listened for DevTools")
	case <-ctx.Done():
		tb.Fatal("topologytest: Chromium printed no DevTools URL within 30 s")
	}
	return nil
}

// Kill ends Chromium and its helper processes, as a crash would, and
// returns once Chromium has exited. It is safe to call more than once.
func (c *Chromium) Kill() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	<-c.done
}
