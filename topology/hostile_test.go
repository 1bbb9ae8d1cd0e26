package topology

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// hostileBound is how long any hostile page may hold a run here: a hang
// check on a shared 2-core machine (load average 25 when measured), not a
// speed target.
const hostileBound = 90 * time.Second

// Hostile pages never hang or crash a run: each ends as a failed observation
// within its timeout, and the shared browser keeps working for later tests.
func TestHostilePages(t *testing.T) {
	short := func(o *settings) {
		o.ActionTimeout = 5 * time.Second
		o.LoadTimeout = 3 * time.Second
		o.NavigationTimeout = 4 * time.Second
	}
	tests := []struct {
		name       string
		path       string
		edit       func(*settings)
		reason     FailReason
		wantStates int
		graphLevel bool // the failure has a null stateId
	}{
		{"endless script", "/loop.html", short, FailTimedOut, 0, true},
		{"alert and confirm", "/dialogs.html", short, FailDialog, 1, false},
		{"never finishes loading", "/slowload.html", short, FailLoadTimeout, 1, false},
		{"server never answers", "/never-answers", short, FailNavigationTimeout, 0, true},
		{"navigates away on load", "/redirect.html", short, FailNavigatedAway, 1, false},
		// A huge DOM is slow to extract on a loaded 2-core machine, not
		// stuck: it gets a longer step bound than the pages that hang.
		{"huge DOM", "/huge.html", func(o *settings) { short(o); o.MaxElements = 300; o.ActionTimeout = 20 * time.Second }, FailDOMTruncated, 1, false},
		{"alert storm", "/alert-storm.html", short, FailDialog, 1, false},
		{"cross-origin iframe", "/cross-frame.html", func(o *settings) { short(o); o.Offline = false }, FailFrameInaccessible, 1, false},
		{"unreachable host", "http://127.0.0.1:1/", short, FailNavigationFailed, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			g := runGraph(t, ModeScan, tc.path, tc.edit)
			fs := failures(g, tc.reason)
			if len(fs) == 0 {
				t.Fatalf("no %s failure; got %v: %+v", tc.reason, g.Summary.FailedObservationsByReason, g.FailedObservations)
			}
			if len(g.States) != tc.wantStates {
				t.Errorf("%d states, want %d", len(g.States), tc.wantStates)
			}
			if got := fs[0].StateID == nil; got != tc.graphLevel {
				t.Errorf("graph-level (null stateId) = %v, want %v", got, tc.graphLevel)
			}
			// The bound is a hang check, not a speed target: every case ends
			// within its own timeouts, far below it even on a loaded machine.
			if took := time.Since(start); took > hostileBound {
				t.Errorf("took %v, bound %v", took, hostileBound)
			}
			t.Logf("%s: %s in %v", tc.reason, fs[0].Message, time.Since(start).Round(time.Millisecond))
		})
	}
	t.Run("100,000-node DOM", func(t *testing.T) {
		start := time.Now()
		g := runGraph(t, ModeScan, "/huge-dom.html", func(o *settings) { short(o); o.ActionTimeout = 20 * time.Second })
		if len(g.States) != 1 {
			t.Fatalf("%d states, want 1; failures %v", len(g.States), g.Summary.FailedObservationsByReason)
		}
		element(t, g, g.States[0].StateID, "Filter")
		if took := time.Since(start); took > hostileBound {
			t.Errorf("scan of a 100,000-node DOM took %v, bound %v", took, hostileBound)
		}
		t.Logf("100,000 nodes in %v", time.Since(start).Round(time.Millisecond))
	})
	// A form of 20,000 inputs (slow to lay out, not stuck: the huge DOM's
	// longer step bound): the light capture (the mapper's) reads it with
	// no step timing out; the full capture's locator verification of its
	// 1,500 elements against a 40,000-element document may run out of its
	// step timeout, which is then a recorded failure, never a hang.
	for _, light := range []bool{true, false} {
		t.Run(fmt.Sprintf("a form of 20,000 inputs, light %v", light), func(t *testing.T) {
			start := time.Now()
			g := runGraph(t, ModeScan, "/huge-form.html", func(o *settings) { short(o); o.Light = light; o.ActionTimeout = 20 * time.Second })
			if len(g.States) != 1 {
				t.Fatalf("%d states, want 1; failures %v", len(g.States), g.Summary.FailedObservationsByReason)
			}
			for _, f := range failures(g, FailTimedOut) {
				if light || !strings.HasPrefix(f.Message, "locator verification did not finish") {
					t.Errorf("timed out: %s", f.Message)
				}
				if n, _ := evidenceValue(f.Evidence, "unverified-locators"); n == "" || n == "0" {
					t.Errorf("a verification that did not finish says %q locators are left unverified", n)
				}
			}
			// not-found and ambiguous are claims about verified locators
			// only: none for an element whose locators were not all tried.
			untried := map[string]bool{}
			for _, e := range g.Elements {
				for _, l := range e.Locators {
					if _, ok := evidenceValue(l.Evidence, "unverified"); ok {
						untried[e.ElementID] = true
					}
				}
			}
			for _, reason := range []FailReason{FailNotFound, FailAmbiguous} {
				for _, f := range failures(g, reason) {
					if f.ElementID != nil && untried[*f.ElementID] {
						t.Errorf("%s for %s, whose locators were not all verified", reason, *f.ElementID)
					}
				}
			}
			t.Logf("%d elements with locators left unverified", len(untried))
			if len(failures(g, FailDOMTruncated)) == 0 {
				t.Error("20,001 actionable candidates past MaxElements, and no dom-truncated failure")
			}
			if took := time.Since(start); took > hostileBound {
				t.Errorf("scan of a 20,000-input form took %v, bound %v", took, hostileBound)
			}
			t.Logf("20,000 inputs in %v; failures %v", time.Since(start).Round(time.Millisecond), g.Summary.FailedObservationsByReason)
		})
	}
	t.Run("redirect target is the state", func(t *testing.T) {
		g := runGraph(t, ModeScan, "/redirect.html", short)
		if !strings.HasSuffix(g.States[0].URL, "/plain.html") || !strings.HasSuffix(g.Metadata.EntryURL, "/plain.html") {
			t.Errorf("state URL %q, entryUrl %q; want the page navigated to", g.States[0].URL, g.Metadata.EntryURL)
		}
	})
	t.Run("dialogs are counted", func(t *testing.T) {
		g := runGraph(t, ModeScan, "/dialogs.html", short)
		var msgs []string
		for _, f := range failures(g, FailDialog) {
			msgs = append(msgs, f.Message)
		}
		want := []string{"JavaScript dialog auto-accepted: alert: Welcome!", "JavaScript dialog auto-accepted: confirm: Accept cookies?"}
		if diff := cmp.Diff(want, msgs); diff != "" {
			t.Errorf("dialog failures (-want +got):\n%s", diff)
		}
	})
	t.Run("offline blocks other origins", func(t *testing.T) {
		g := runGraph(t, ModeScan, "/cross-frame.html", short)
		blocked := ""
		for _, e := range g.States[0].Evidence {
			if e.Fact == "offline-blocked-request" {
				blocked = e.Value
			}
		}
		if !strings.Contains(blocked, "localhost") {
			t.Errorf("no blocked request to the other origin in evidence %v", g.States[0].Evidence)
		}
	})
}

// A click that freezes the page costs one failed observation; the tab is
// replaced and the remaining safe actions are still explored.
func TestExploreSurvivesFreezingClick(t *testing.T) {
	g := runGraph(t, ModeExplore, "/loop-click.html", func(o *settings) { o.ActionTimeout = 5 * time.Second })
	entry := g.States[0].StateID
	freeze := element(t, g, entry, "Freeze")
	if !hasFailureFor(g, FailTimedOut, freeze.ElementID) {
		t.Errorf("no timed-out failure for the freezing click; failures %v", g.Summary.FailedObservationsByReason)
	}
	details := element(t, g, entry, "Show details")
	found := false
	for _, e := range g.Edges {
		if e.ElementID == details.ElementID && e.ToStateID != nil && *e.ToStateID != entry {
			found = true
		}
	}
	if !found {
		t.Errorf("the click after the freeze was not explored: edges %+v", g.Edges)
	}
}

// ignoreRunVolatile drops exactly what may differ between two runs.
var ignoreRunVolatile = cmp.Options{
	cmpopts.IgnoreFields(Metadata{}, "CrawlSessionID", "GeneratedAt"),
	cmpopts.IgnoreFields(StateNode{}, "CreatedAt"),
	cmpopts.IgnoreFields(ActionEdge{}, "CreatedAt"),
	cmpopts.IgnoreFields(SkippedAction{}, "CreatedAt"),
	cmpopts.IgnoreFields(FailedObservation{}, "CreatedAt"),
	cmpopts.IgnoreFields(LocatorCandidate{}, "LastVerifiedAt"),
}

func TestDeterminism(t *testing.T) {
	for _, path := range []string{"/modal.html", "/volatile.html"} {
		t.Run(path, func(t *testing.T) {
			a := runGraph(t, ModeExplore, path, nil)
			b := runGraph(t, ModeExplore, path, nil)
			if a.Metadata.CrawlSessionID == b.Metadata.CrawlSessionID {
				t.Errorf("crawlSessionId repeated across runs: %s", a.Metadata.CrawlSessionID)
			}
			if a.Metadata.InputFingerprint != b.Metadata.InputFingerprint {
				t.Errorf("inputFingerprint differs: %s vs %s", a.Metadata.InputFingerprint, b.Metadata.InputFingerprint)
			}
			if diff := cmp.Diff(a, b, ignoreRunVolatile); diff != "" {
				t.Errorf("two runs differ (-first +second):\n%s", diff)
			}
			if len(a.States) == 0 || len(a.Elements) == 0 {
				t.Errorf("empty graph: %+v", a.Summary)
			}
		})
	}
}
