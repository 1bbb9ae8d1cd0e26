package topology

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestOpenPageReleasesHandlersOnClose opens and closes pages under one
// long-lived context, as a crawler does, and checks the goroutines that
// serve each page's event handlers end with the page, not with the context.
func TestOpenPageReleasesHandlersOnClose(t *testing.T) {
	b := browserForTest(t)
	url := testSite.URL
	ctx := context.Background()
	open := func() {
		p, err := b.OpenPage(ctx, url+"/about.html", testOptions().PageOptions)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Timeout(5 * time.Second).Close(); err != nil {
			t.Fatal(err)
		}
	}
	open() // warm up rod's own per-browser goroutines
	before := settledGoroutines()
	const pages = 8
	for range pages {
		open()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		after := settledGoroutines()
		if after < before+pages { // a leak keeps at least one goroutine per page
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines grew from %d to %d over %d open/close cycles: OpenPage leaks per page", before, after, pages)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// settledGoroutines is runtime.NumGoroutine once it has stopped changing
// (a second at most), for tests that count what a tab leaves behind.
func settledGoroutines() int {
	var n int
	for range 50 {
		n = runtime.NumGoroutine()
		time.Sleep(20 * time.Millisecond)
		if runtime.NumGoroutine() == n {
			break
		}
	}
	return n
}

// TestOpenPageHandlersOutliveCtx opens a page under a context that ends as
// soon as OpenPage returns, as a caller bounding only the opening does, and
// uses the page afterwards: its handlers still answer what the page asks —
// an offline page's request to its own site is let through, a dialog is
// accepted — rather than leaving the page waiting on them.
func TestOpenPageHandlersOutliveCtx(t *testing.T) {
	b := browserForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	p, err := b.OpenPage(ctx, testSite.URL+"/about.html", testOptions().PageOptions)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Timeout(5 * time.Second).Close()
	for _, tc := range []struct{ name, js, want string }{
		{"a request to the site", `() => fetch("/about.html").then(r => String(r.status))`, "200"},
		{"a dialog", `() => { alert("hello"); return "accepted"; }`, "accepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := p.Timeout(5 * time.Second).Eval(tc.js)
			if err != nil {
				t.Fatalf("after the opening ctx ended: %v", err)
			}
			if got := res.Value.Str(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
