package fleet

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// clinicGraph is a mapped fixture graph, read as a file Export wrote.
const clinicGraph = "../fixtures/graphs/clinic01.json"

func readGraph(t *testing.T, path string) *shared.ActionGraph {
	t.Helper()
	data, err := shared.ReadDocumentFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatalf("%s: %v", path, issues)
	}
	return g
}

// confirmedClinic is clinic01's graph with its first action confirmed by
// the owner, as the portal writes it.
func confirmedClinic(t *testing.T) *shared.ActionGraph {
	t.Helper()
	ctx := t.Context()
	store, err := audit.Open(ctx, filepath.Join(t.TempDir(), "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	g := readGraph(t, clinicGraph)
	notify := "owner@example.com"
	limits := shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 3, Per: shared.PerDay}, Notify: &notify}
	g, _, err = verifier.Confirm(ctx, g, g.Actions[0].ID, verifier.Confirmation{By: "Owner", Limits: limits}, store)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestImport: Import validates a graph, records it as its site's latest
// under the site Add would give it, and a graph with confirmed actions is
// then re-scanned; what it refuses records nothing.
func TestImport(t *testing.T) {
	const site = "https://harbourside-dental.com.au/"
	tests := []struct {
		name     string
		graph    func(t *testing.T) *shared.ActionGraph
		wantErr  error // matched with errors.Is; nil: imported
		wantURL  bool  // the error is a *URLError
		rescans  int   // QueueRescans after the import
		wantSite string
	}{
		{name: "confirmed", graph: confirmedClinic, rescans: 1, wantSite: site},
		{name: "mapped only", graph: func(t *testing.T) *shared.ActionGraph { return readGraph(t, clinicGraph) }, rescans: 0, wantSite: site},
		{name: "site spelled otherwise", graph: func(t *testing.T) *shared.ActionGraph {
			g := confirmedClinic(t)
			g.Site.URL = "HTTPS://Harbourside-Dental.com.au"
			return g
		}, rescans: 1, wantSite: site},
		{name: "nil", graph: func(*testing.T) *shared.ActionGraph { return nil }, wantErr: shared.ErrInvalidGraph},
		{name: "invalid", graph: func(t *testing.T) *shared.ActionGraph {
			g := confirmedClinic(t)
			g.GraphID = ""
			return g
		}, wantErr: shared.ErrInvalidGraph},
		{name: "not a site URL", graph: func(t *testing.T) *shared.ActionGraph {
			g := confirmedClinic(t)
			g.Site.URL = "ftp://harbourside-dental.com.au/"
			return g
		}, wantErr: ErrInvalidURL, wantURL: true},
	}
	for _, driver := range drivers {
		for _, tt := range tests {
			t.Run(driver+"/"+tt.name, func(t *testing.T) {
				ctx := t.Context()
				f := openFor(t, driver)
				g := tt.graph(t)
				got, err := f.Import(ctx, g)
				if tt.wantErr != nil {
					var ue *URLError
					if !errors.Is(err, tt.wantErr) || errors.As(err, &ue) != tt.wantURL {
						t.Fatalf("Import = %q, %v; want an error matching %v (a *URLError: %t)", got, err, tt.wantErr, tt.wantURL)
					}
					if st, err := f.Status(ctx); err != nil || st.Sites != 0 {
						t.Errorf("after a refused import: %+v, %v; want nothing recorded", st, err)
					}
					return
				}
				if err != nil || got != tt.wantSite {
					t.Fatalf("Import = %q, %v; want %q", got, err, tt.wantSite)
				}
				latest, err := f.Latest(ctx, tt.wantSite)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := shared.Write(g)
				have, _ := shared.Write(latest)
				if diff := cmp.Diff(string(want), string(have)); diff != "" {
					t.Errorf("Latest after Import (-want +got):\n%s", diff)
				}
				if n, err := f.QueueRescans(ctx, time.Now()); err != nil || n != tt.rescans {
					t.Errorf("QueueRescans = %d, %v; want %d", n, err, tt.rescans)
				}
				// A second import of the same graph is a row of its own.
				if _, err := f.Import(context.WithoutCancel(ctx), g); err != nil {
					t.Errorf("a second Import: %v", err)
				}
				var rows int
				if err := f.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM fleet_maps WHERE site = $1 AND ok = 1`, tt.wantSite).Scan(&rows); err != nil || rows != 2 {
					t.Errorf("%d rows after two imports (%v), want 2", rows, err)
				}
			})
		}
	}
}
