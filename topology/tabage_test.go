package topology

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// TestExploreClicksInAnOldTab explores a page whose tab is older than the
// bound it was created under (ActionTimeout+NavigationTimeout), and a
// session whose NewSession context was cancelled: each click runs under a
// bound of its own, so the modal's "Book now" still opens it.
func TestExploreClicksInAnOldTab(t *testing.T) {
	b := browserForTest(t)
	po := PageOptions{ActionTimeout: 1500 * time.Millisecond, NavigationTimeout: 1500 * time.Millisecond, LoadTimeout: 1500 * time.Millisecond, Offline: true}
	eo := func() ExploreOptions {
		return ExploreOptions{MaxDepth: 1, ExploreOnly: []RiskCategory{RiskDisclosure}}
	}
	check := func(t *testing.T, g *Graph) {
		t.Helper()
		for _, f := range g.FailedObservations {
			t.Logf("failure %s: %s", f.Reason, f.Message)
		}
		book := element(t, g, g.States[0].StateID, "Book now")
		for _, e := range g.Edges {
			if e.ElementID == book.ElementID && e.ToStateID != nil {
				return
			}
		}
		t.Fatalf("no edge from Book now among %d edges (failures %v)", len(g.Edges), g.Summary.FailedObservationsByReason)
	}
	t.Run("explore, entry state held 4s", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		o := eo()
		o.OnState = func(ctx context.Context, p *rod.Page, s *StateNode) error {
			if s.OpenedByEdgeID == nil {
				time.Sleep(4 * time.Second)
			}
			return nil
		}
		g, err := b.Explore(ctx, siteURL("/modal.html"), po, o)
		if err != nil {
			t.Fatal(err)
		}
		check(t, g)
	})
	t.Run("session 4s old, its NewSession context cancelled", func(t *testing.T) {
		nctx, ncancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, err := b.NewSession(nctx, po)
		ncancel()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		time.Sleep(4 * time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		if _, err := s.Open(ctx, siteURL("/modal.html")); err != nil {
			t.Fatal(err)
		}
		g, err := s.Explore(ctx, eo())
		if err != nil {
			t.Fatal(err)
		}
		check(t, g)
	})
}
