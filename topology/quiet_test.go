package topology

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// The quiescence signal waits for what a page still does after its load
// event (a timer, a request it renders), and never longer than its bounds
// for a page that is never quiet.
func TestQuiescence(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		wantName string     // an element that exists only once the page is done
		wantFail FailReason // "" for none of load-timeout / timed-out
		bound    time.Duration
		anyFail  bool // under load a never-quiet page may still find a quiet window
	}{
		{"form built by a timer after load", "/late.html", "Book now", "", 10 * time.Second, false},
		{"a timer after load, Symbol.for replaced", "/late-symbol.html", "Book now", "", 10 * time.Second, false},
		{"a timer after load, the recorder spoofed", "/late-spoof.html", "Book now", "", 10 * time.Second, false},
		{"form rendered from a request", "/fetched.html", "Send", "", 10 * time.Second, false},
		{"request that never ends", "/longpoll.html", "Open chat", "", 10 * time.Second, false},
		{"style animation every frame", "/animated.html", "Shop", "", 10 * time.Second, false},
		{"timeout chain changing the DOM forever", "/poll.html", "", FailTimedOut, 15 * time.Second, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			g := runGraph(t, ModeScan, tc.path, nil)
			took := time.Since(start)
			if took > tc.bound {
				t.Errorf("scan took %v, bound %v", took, tc.bound)
			}
			if len(g.States) != 1 {
				t.Fatalf("%d states, want 1; failures %v", len(g.States), g.Summary.FailedObservationsByReason)
			}
			if tc.wantName != "" {
				element(t, g, g.States[0].StateID, tc.wantName)
			}
			for _, r := range []FailReason{FailLoadTimeout, FailTimedOut} {
				if tc.anyFail {
					break
				}
				if got := len(failures(g, r)) > 0; got != (r == tc.wantFail) {
					t.Errorf("%s failure = %v, want %v (failures %v)", r, got, r == tc.wantFail, g.Summary.FailedObservationsByReason)
				}
			}
			t.Logf("%s in %v", tc.path, took.Round(time.Millisecond))
		})
	}
}

// A Session opens page after page in one tab, and explores the page it
// shows without loading it again: only the resets between clicks reload it.
func TestSession(t *testing.T) {
	b := browserForTest(t)
	ctx := context.Background()
	s, err := b.NewSession(ctx, testOptions().PageOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first, err := s.Open(ctx, siteURL("/plain.html"))
	if err != nil {
		t.Fatal(err)
	}
	target := first.TargetID
	countedLoads.Store(0)
	p, err := s.Open(ctx, siteURL("/counted/modal.html"))
	if err != nil {
		t.Fatal(err)
	}
	if p.TargetID != target {
		t.Errorf("Open used a new tab %s, want the session's %s", p.TargetID, target)
	}
	g, err := s.Explore(ctx, testOptions().ExploreOptions)
	if err != nil {
		t.Fatal(err)
	}
	validateGraph(t, g)
	if len(g.Edges) < 2 {
		t.Fatalf("%d edges, want several (the modal page has safe triggers)", len(g.Edges))
	}
	// One load by Open, then one reset per click after the first.
	if got, want := countedLoads.Load(), int64(len(g.Edges)); got != want {
		t.Errorf("modal page loaded %d times for %d edges, want %d", got, len(g.Edges), want)
	}
	if !strings.HasSuffix(g.Metadata.EntryURL, "/counted/modal.html") {
		t.Errorf("entry URL %s, want the page Open left", g.Metadata.EntryURL)
	}
	// The session stays usable after exploring.
	if _, err := s.Open(ctx, siteURL("/about.html")); err != nil {
		t.Errorf("Open after Explore: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := s.Open(ctx, siteURL("/plain.html")); err != ErrSessionClosed {
		t.Errorf("Open after Close: %v, want ErrSessionClosed", err)
	}
}

// A page that freezes replaces the session's tab; the next Open works.
func TestSessionSurvivesStuckPage(t *testing.T) {
	b := browserForTest(t)
	ctx := context.Background()
	o := testOptions()
	o.ActionTimeout, o.LoadTimeout = 3*time.Second, 2*time.Second
	s, err := b.NewSession(ctx, o.PageOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Open(ctx, siteURL("/loop.html")); err == nil {
		t.Fatal("an endless script opened without error")
	}
	if _, err := s.Open(ctx, siteURL("/plain.html")); err != nil {
		t.Errorf("Open after a stuck page: %v", err)
	}
}

// TestIsFavicon: the browser's own favicon request is told from the page's
// requests, which quiescence waits for.
func TestIsFavicon(t *testing.T) {
	for _, tc := range []struct {
		url  string
		typ  proto.NetworkResourceType
		want bool
	}{
		{"http://127.0.0.1:8080/favicon.ico", proto.NetworkResourceTypeOther, true},
		{"http://127.0.0.1:8080/favicon.ico", proto.NetworkResourceTypeFetch, false}, // the page fetched it
		{"http://127.0.0.1:8080/img/favicon.ico", proto.NetworkResourceTypeOther, false},
		{"http://127.0.0.1:8080/api", proto.NetworkResourceTypeOther, false},
	} {
		t.Run(string(tc.typ)+" "+tc.url, func(t *testing.T) {
			e := &proto.NetworkRequestWillBeSent{Type: tc.typ, Request: &proto.NetworkRequest{URL: tc.url}}
			if got := isFavicon(e); got != tc.want {
				t.Errorf("isFavicon = %v, want %v", got, tc.want)
			}
		})
	}
}
