package fleet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// TestStopIsNoFailure: a job still running when the worker stops (Ctrl-C)
// is cancelled by the stop, not failed by the site: no failure is
// recorded, no attempt is used, and the job is queued again as it was.
func TestStopIsNoFailure(t *testing.T) {
	topologytest.NeedChromium(t)
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			var asked atomic.Int64
			hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				select { // never answers, until the browser gives up or the test ends
				case <-r.Context().Done():
				case <-t.Context().Done():
				}
			}))
			defer hang.Close()
			f := openFor(t, driver)
			f.MaxAttempts = 2
			if _, err := f.Add(t.Context(), []Input{{URL: hang.URL + "/"}}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			mo := testMapOptions()
			mo.FetchTimeout, mo.PageTimeout, mo.RunTimeout = time.Minute, time.Minute, 2*time.Minute
			go func() {
				done <- f.Work(ctx, WorkOptions{Workers: 1, Offline: true, Map: mo, JobTimeout: 2 * time.Minute})
			}()
			deadline := time.Now().Add(time.Minute)
			for asked.Load() == 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if asked.Load() == 0 {
				t.Fatal("the site was never asked for a page")
			}
			cancel() // Ctrl-C, mid-map
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Work: %v", err)
				}
			case <-time.After(90 * time.Second): // StopGrace and more
				t.Fatal("Work did not stop")
			}
			if fails, err := f.Failures(t.Context()); err != nil || len(fails) != 0 {
				t.Errorf("Failures = %+v, %v; want none: the worker stopped, the site did not fail", fails, err)
			}
			var rows int
			if err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM fleet_maps`).Scan(&rows); err != nil || rows != 0 {
				t.Errorf("%d fleet_maps rows (%v), want none", rows, err)
			}
			type job struct {
				State       string
				Attempt     int
				MaxAttempts int
			}
			var got job
			if err := f.db.QueryRowContext(t.Context(), `SELECT state, attempt, max_attempts FROM river_job WHERE kind = $1`, MapArgs{}.Kind()).
				Scan(&got.State, &got.Attempt, &got.MaxAttempts); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(job{State: "available", Attempt: 0, MaxAttempts: 2}, got); diff != "" {
				t.Errorf("the job after the stop (-want +got):\n%s", diff)
			}
		})
	}
}
