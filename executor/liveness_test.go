package executor_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// TestRecoverAbandonedLeavesLiveInstancesAlone: two executors share one
// store; while the first has a call in flight (the site holds it), the
// second starts and recovers. The first's attempt is not marked outcome
// unknown — its heartbeat lease lasts — while the attempt a dead instance
// left (one that never recorded a heartbeat) is. The first call then
// completes as fired.
func TestRecoverAbandonedLeavesLiveInstancesAlone(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		received, release := make(chan struct{}, 1), make(chan struct{})
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				http.NotFound(w, r)
				return
			}
			_, _ = io.Copy(io.Discard, r.Body)
			received <- struct{}{}
			select { // hold the submission until the test lets it go
			case <-release:
			case <-r.Context().Done():
			}
			_, _ = io.WriteString(w, "we will call you")
		}))
		defer site.Close()
		graph, err := fixtures.MappedGraph("electrician01", site.URL)
		if err != nil {
			t.Fatal(err)
		}
		action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(5, shared.PerDay, "owner@example.test"))

		first := newExecutor(t, st, executor.Options{Instance: "first"})
		var releaseOnce sync.Once
		letGo := func() { releaseOnce.Do(func() { close(release) }) }
		t.Cleanup(letGo) // before the executor's Close, which waits for the call
		type result struct {
			res *executor.Result
			err error
		}
		done := make(chan result, 1)
		go func() {
			res, err := first.Execute(context.Background(), executor.Call{Action: action, Input: goodCallback()})
			done <- result{res, err}
		}()
		select {
		case <-received:
		case r := <-done:
			t.Fatalf("the call ended before the site held it: %+v, %v", r.res, r.err)
		}
		// What a process killed before the first one started left behind.
		_, err = st.BeginAttempt(t.Context(), audit.Begin{ActionID: callback, Cap: shared.VolumeCap{Max: 5, Per: shared.PerDay},
			Request: []byte(`{}`), Instance: "killed-long-ago"})
		if err != nil {
			t.Fatal(err)
		}

		second := newExecutor(t, st, executor.Options{Instance: "second"})
		n, err := second.RecoverAbandoned(t.Context(), time.Now())
		if err != nil || n != 1 {
			t.Errorf("RecoverAbandoned = %d, %v; want 1 (the dead instance's attempt only)", n, err)
		}
		if diff := cmp.Diff(map[string]string{"first": "pending", "killed-long-ago": "unknown"}, states(t, st)); diff != "" {
			t.Errorf("while the first call is in flight (-want +got):\n%s", diff)
		}

		letGo()
		r := <-done
		if r.err != nil || r.res.Status != http.StatusOK {
			t.Fatalf("the first call: %+v, %v; want fired", r.res, r.err)
		}
		if diff := cmp.Diff(map[string]string{"first": "completed", "killed-long-ago": "unknown"}, states(t, st)); diff != "" {
			t.Errorf("after the first call (-want +got):\n%s", diff)
		}
	})
}

// states maps each instance that began an attempt of callback to the
// state of its (one) attempt: pending, unknown or completed.
func states(t *testing.T, st *audit.Store) map[string]string {
	t.Helper()
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, a := range atts {
		out[a.Instance] = audittest.State(a)
	}
	return out
}
