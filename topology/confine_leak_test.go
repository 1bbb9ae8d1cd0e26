package topology

import (
	"context"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// TestConfinedTabsReleaseGoroutinesOnClose opens and closes many tabs of
// one Confined, left open: the watch of each tab's dropped messages ends
// with the tab, not only with the Confined's Close.
func TestConfinedTabsReleaseGoroutinesOnClose(t *testing.T) {
	b := browserForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	site, c := confinedSite(ctx, t, b, "<!doctype html><p>hi</p>")
	open := func(i int) {
		if i%2 == 0 {
			p, err := c.OpenPage(ctx, site+"/", PageOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Timeout(5 * time.Second).Close(); err != nil {
				t.Fatal(err)
			}
			return
		}
		p, err := c.NewPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Timeout(5 * time.Second).Close(); err != nil {
			t.Fatal(err)
		}
	}
	open(0)
	open(1)
	before := settledGoroutines()
	const tabs = 10
	for i := range tabs {
		open(i)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		after := settledGoroutines()
		if after < before+tabs/2 { // a leak keeps at least one goroutine per tab
			return
		}
		if time.Now().After(deadline) {
			var sb strings.Builder
			_ = pprof.Lookup("goroutine").WriteTo(&sb, 1)
			t.Log(sb.String())
			t.Fatalf("goroutines grew from %d to %d over %d confined tabs opened and closed", before, after, tabs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
