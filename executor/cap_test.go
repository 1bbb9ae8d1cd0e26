package executor_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// TestCapUnderConcurrency: 100 concurrent calls against a cap of 10 fire
// exactly 10, on every store driver.
func TestCapUnderConcurrency(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		srv, graph := site(t, "electrician01")
		ex := newExecutor(t, st, executor.Options{})
		action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(10, shared.PerDay, "owner@example.test"))
		const calls = 100
		var wg sync.WaitGroup
		errs := make([]error, calls)
		for i := range calls {
			wg.Go(func() {
				_, errs[i] = ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
			})
		}
		wg.Wait()
		fired, capped := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				fired++
			case errors.Is(err, executor.ErrCapReached) && errors.Is(err, executor.ErrRefused):
				capped++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}
		if fired != 10 || capped != calls-10 {
			t.Errorf("fired %d, capped %d; want 10 and %d", fired, capped, calls-10)
		}
		if n := len(submissions(t, srv, "electrician01")); n != 10 {
			t.Errorf("the site received %d submissions, want 10", n)
		}
		atts, err := st.Attempts(t.Context(), callback)
		if err != nil || len(atts) != 10 {
			t.Errorf("%d attempts (%v), want 10", len(atts), err)
		}
		refs, err := st.Refusals(t.Context(), callback)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range refs {
			if r.Kind == audit.RefusalCap {
				n++
			}
		}
		if n != calls-10 {
			t.Errorf("%d cap refusals audited, want %d", n, calls-10)
		}
	})
}
