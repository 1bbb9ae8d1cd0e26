package fleet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// TestRescanReconciles: the operator's loop through the exported API only —
// map, Export, the owner confirms in the portal (verifier.Confirm on the
// exported file), Import — makes the site's latest graph one with
// owner-confirmed actions; the periodic job's QueueRescans re-scans it, and
// the re-scan is reconciled against the audit store: a confirmation of what
// the site still does is kept, one of what it no longer does expires.
func TestRescanReconciles(t *testing.T) {
	topologytest.NeedChromium(t)
	ctx := t.Context()
	f := openTemp(t)
	store, err := audit.Open(ctx, filepath.Join(t.TempDir(), "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	urls := serveVariants(t, 3) // brochure01, electrician01, wpforms01
	site := urls[1]
	if _, err := f.Add(ctx, inputs(urls)); err != nil {
		t.Fatal(err)
	}
	work := func() {
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- f.Work(wctx, WorkOptions{Workers: 2, Offline: true, Map: testMapOptions(), Audit: store})
		}()
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) {
			st, _ := f.Status(ctx)
			if st.Queued+st.Running == 0 && st.Done > 0 {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	work()
	if n, err := f.QueueRescans(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("QueueRescans before any confirmation = %d, %v; want 0", n, err)
	}

	// The operator exports the graphs; the owner of electrician01 confirms
	// both of its actions in the portal, which writes the confirmed graph
	// back to the exported file; the operator imports that file. One action
	// is confirmed as the site used to be (its form then posted elsewhere),
	// so it has drifted.
	dir := t.TempDir()
	if _, err := f.Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	path, g := exportedGraphOf(t, dir, site)
	notify := "owner@example.com"
	limits := shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 3, Per: shared.PerDay}, Notify: &notify}
	// The callback form drifts; the other action (the phone link) stays.
	var kept, drifted string
	for _, a := range g.Actions {
		if a.Kind == shared.KindCallback && len(a.Access) > 0 && a.Access[0].Submission != nil {
			drifted = a.ID
		} else {
			kept = a.ID
		}
	}
	if kept == "" || drifted == "" {
		t.Fatalf("electrician01 mapped with %d actions, want its callback form and another", len(g.Actions))
	}
	for i := range g.Actions {
		if g.Actions[i].ID == drifted {
			old := "https://old-host.example/callback"
			g.Actions[i].Access[0].Submission.Endpoint = &old
		}
	}
	for _, id := range []string{kept, drifted} {
		if g, _, err = verifier.Confirm(ctx, g, id, verifier.Confirmation{By: "Owner", Limits: limits}, store); err != nil {
			t.Fatal(err)
		}
	}
	data, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	data, err = shared.ReadDocumentFile(path)
	if err != nil {
		t.Fatal(err)
	}
	confirmed, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatalf("the confirmed graph does not read: %v", issues)
	}
	if got, err := f.Import(ctx, confirmed); err != nil || got != site {
		t.Fatalf("Import = %q, %v; want %q", got, err, site)
	}

	n, err := f.QueueRescans(ctx, time.Now())
	if err != nil || n != 1 {
		t.Fatalf("QueueRescans = %d, %v; want the one confirmed site", n, err)
	}
	if n, _ := f.QueueRescans(ctx, time.Now()); n != 0 {
		t.Errorf("a second QueueRescans in the same hour queued %d", n)
	}
	work()
	after, err := f.Latest(ctx, site)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range after.Actions {
		switch a.ID {
		case kept:
			if a.Verification.Status() != shared.StatusVerified {
				t.Errorf("%s: %s after the re-scan, want still verified", a.ID, a.Verification.Status())
			}
		case drifted:
			u, ok := a.Verification.(shared.Unverified)
			if !ok || u.Note == nil || !strings.HasPrefix(*u.Note, verifier.DriftedNotePrefix) || !strings.Contains(*u.Note, "$.doors[0].endpoint") {
				t.Errorf("%s: %v after the re-scan, want unverified and drifted naming the endpoint", a.ID, a.Verification)
			}
		}
	}
}

// exportedGraphOf finds, among the files Export wrote into dir, the graph
// of site, and returns its path and the graph.
func exportedGraphOf(t *testing.T, dir, site string) (string, *shared.ActionGraph) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		data, err := shared.ReadDocumentFile(p)
		if err != nil {
			t.Fatal(err)
		}
		g, issues := shared.Read(data)
		if len(issues) > 0 {
			t.Fatalf("%s: %v", p, issues)
		}
		if u, err := SiteURL(g.Site.URL); err == nil && u == site {
			return p, g
		}
	}
	t.Fatalf("no exported graph of %s among %d files", site, len(files))
	return "", nil
}
