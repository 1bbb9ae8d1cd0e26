package fleet

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// workUntilDone runs Work with wo until total jobs are done or failed.
func workUntilDone(t *testing.T, f *Fleet, wo WorkOptions, total int) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- f.Work(ctx, wo) }()
	waitDone(t, f, total, 3*time.Minute)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Work: %v", err)
	}
}

// hangingSite answers no request until the test ends.
func hangingSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-t.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var quickRetry = func(int) time.Duration { return 100 * time.Millisecond }

// TestEveryFailedAttemptIsARow: an attempt that fails before the map — no
// browser, no host slot within the job's timeout — during it — the map
// panics, the site's robots.txt refuses it — or after it — the audit store down while reconciling — is a row
// with its code, as a failed map is, so Failures (fleet status) names the
// site and why.
func TestEveryFailedAttemptIsARow(t *testing.T) {
	tests := []struct {
		name     string
		chromium bool
		// run queues the sites and works them; it returns the failures
		// wanted and how many failed rows.
		run func(t *testing.T, f *Fleet) ([]Failure, int)
	}{
		{name: "browser unreachable", run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			f.MaxAttempts = 2
			site := "https://a.example/"
			if _, err := f.Add(t.Context(), inputs([]string{site})); err != nil {
				t.Fatal(err)
			}
			workUntilDone(t, f, WorkOptions{Workers: 1, BrowserURL: "http://127.0.0.1:1", Map: testMapOptions(), Backoff: quickRetry}, 1)
			return []Failure{{Site: site, Code: "browser", Attempt: 2}}, 2
		}},
		{name: "no host slot within the job timeout", chromium: true, run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			f.MaxAttempts = 1
			hang := hangingSite(t)
			sites := []string{hang + "/a", hang + "/b"} // one host: one holds the slot, one waits for it
			if _, err := f.Add(t.Context(), inputs(sites)); err != nil {
				t.Fatal(err)
			}
			mo := testMapOptions()
			mo.FetchTimeout, mo.RunTimeout = time.Minute, 2*time.Minute // the job's timeout ends it
			workUntilDone(t, f, WorkOptions{Workers: 2, PerHost: 1, Offline: true, Map: mo, JobTimeout: 2 * time.Second}, 2)
			return []Failure{{Site: sites[0], Code: "timeout", Attempt: 1}, {Site: sites[1], Code: "timeout", Attempt: 1}}, 2
		}},
		{name: "robots.txt disallows", chromium: true, run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			f.MaxAttempts = 3 // not retried: one attempt, one row
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					w.Write([]byte("User-agent: *\nDisallow: /\n"))
					return
				}
				w.Write([]byte("<!doctype html><title>x</title><p>x"))
			}))
			t.Cleanup(srv.Close)
			site := srv.URL + "/"
			if _, err := f.Add(t.Context(), inputs([]string{site})); err != nil {
				t.Fatal(err)
			}
			workUntilDone(t, f, WorkOptions{Workers: 1, Offline: true, Map: testMapOptions()}, 1)
			return []Failure{{Site: site, Code: "disallowed", Attempt: 1}}, 1
		}},
		{name: "map panicked", chromium: true, run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			f.MaxAttempts = 2
			site := serveVariants(t, 1)[0]
			if _, err := f.Add(t.Context(), inputs([]string{site})); err != nil {
				t.Fatal(err)
			}
			mo := testMapOptions()
			mo.OnPage = func(string) { panic("a bug the page found") }
			workUntilDone(t, f, WorkOptions{Workers: 1, Offline: true, Map: mo, Backoff: quickRetry}, 1)
			return []Failure{{Site: site, Code: "other", Attempt: 2}}, 2
		}},
		{name: "audit store down", chromium: true, run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			site := rescanOfConfirmed(t, f)
			down := shared.AuditLookupFunc(func(context.Context, shared.AuditQuery) (shared.AuditAnswer, error) {
				return shared.AuditAnswer{}, errors.New("the audit store is down")
			})
			workUntilDone(t, f, WorkOptions{Workers: 1, Offline: true, Map: testMapOptions(), Audit: down}, 2)
			return []Failure{{Site: site, Code: "audit", Attempt: 1}}, 1
		}},
		{name: "no audit store for a confirmed site", chromium: true, run: func(t *testing.T, f *Fleet) ([]Failure, int) {
			site := rescanOfConfirmed(t, f)
			// A worker with no audit store takes the re-scan: it must not
			// record a graph that drops the owner's confirmation.
			workUntilDone(t, f, WorkOptions{Workers: 1, Offline: true, Map: testMapOptions()}, 2)
			latest, err := f.Latest(t.Context(), site)
			if err != nil {
				t.Fatal(err)
			}
			if st := latest.Actions[0].Verification.Status(); st != shared.StatusVerified {
				t.Errorf("the site's latest graph lost its confirmation: %s is %s", latest.Actions[0].ID, st)
			}
			return []Failure{{Site: site, Code: "audit", Attempt: 1}}, 1
		}},
	}
	for _, driver := range drivers {
		for _, tt := range tests {
			t.Run(driver+"/"+tt.name, func(t *testing.T) {
				if tt.chromium {
					topologytest.NeedChromium(t)
				}
				f := openFor(t, driver)
				want, wantRows := tt.run(t, f)
				got, err := f.Failures(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Failure{}, "Error", "At")); diff != "" {
					t.Errorf("Failures (-want +got):\n%s", diff)
				}
				var rows int
				if err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM fleet_maps WHERE ok = 0`).Scan(&rows); err != nil || rows != wantRows {
					t.Errorf("%d failed rows (%v), want %d: one per failed attempt", rows, err, wantRows)
				}
			})
		}
	}
}

// rescanOfConfirmed maps a fixture site, has its owner confirm an action
// (imported as the site's latest graph) and queues its re-scan, which
// then fails at its first attempt (MaxAttempts 1). It returns the site.
func rescanOfConfirmed(t *testing.T, f *Fleet) string {
	t.Helper()
	ctx := t.Context()
	site := serveVariants(t, 2)[1] // electrician01
	if _, err := f.Add(ctx, inputs([]string{site})); err != nil {
		t.Fatal(err)
	}
	workUntilDone(t, f, WorkOptions{Workers: 1, Offline: true, Map: testMapOptions()}, 1)
	g, err := f.Latest(ctx, site)
	if err != nil {
		t.Fatal(err)
	}
	store, err := audit.Open(ctx, filepath.Join(t.TempDir(), "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	notify := "owner@example.com"
	limits := shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 3, Per: shared.PerDay}, Notify: &notify}
	if g, _, err = verifier.Confirm(ctx, g, g.Actions[0].ID, verifier.Confirmation{By: "Owner", Limits: limits}, store); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Import(ctx, g); err != nil {
		t.Fatal(err)
	}
	f.MaxAttempts = 1
	if n, err := f.QueueRescans(ctx, time.Now()); err != nil || n != 1 {
		t.Fatalf("QueueRescans = %d, %v", n, err)
	}
	return site
}
