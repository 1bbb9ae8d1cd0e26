package executor_test

import (
	"errors"
	"net/http"
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

// countingTransport counts the requests an executor makes, by method.
type countingTransport struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.Method]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (c *countingTransport) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// TestCapRefusesBeforeThePageFetch: a form with system tokens whose cap is
// used up is refused without fetching its page — no request at all — and
// the refusal is audited as the cap's; with an idempotency key the page is
// fetched (a repeated key must get its first result) and the store refuses.
func TestCapRefusesBeforeThePageFetch(t *testing.T) {
	srv, graph := site(t, "wpforms01")
	st := openStore(t)
	tr := &countingTransport{n: map[string]int{}}
	ex := newExecutor(t, st, executor.Options{HTTPClient: &http.Client{Transport: tr}})
	const id = "wpforms01:contact:wpforms-form-412"
	action := executortest.ConfirmAction(t, st, graph, id, executortest.Limits(1, shared.PerDay, "owner@example.test"))
	input := map[string]any{"wpforms[fields][0]": "Sam Lee", "wpforms[fields][1]": "sam@example.org", "wpforms[fields][4]": "A quote, please."}
	if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input}); err != nil {
		t.Fatal(err)
	}
	if got := tr.take(); got["GET"] != 1 || got["POST"] != 1 {
		t.Fatalf("first call: requests %v, want one GET (the page) and one POST", got)
	}
	_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input})
	if !errors.Is(err, executor.ErrCapReached) {
		t.Fatalf("second call: err = %v, want ErrCapReached", err)
	}
	if got := tr.take(); len(got) != 0 {
		t.Errorf("second call, cap used up: requests %v, want none", got)
	}
	_, err = ex.Execute(t.Context(), executor.Call{Action: action, Input: input, IdempotencyKey: "new-key"})
	if !errors.Is(err, executor.ErrCapReached) {
		t.Fatalf("third call, with a key: err = %v, want ErrCapReached", err)
	}
	if got := tr.take(); got["GET"] != 1 || got["POST"] != 0 {
		t.Errorf("third call, with a key: requests %v, want the page's GET only", got)
	}
	if n := len(submissions(t, srv, "wpforms01")); n != 1 {
		t.Errorf("the site received %d submissions, want 1", n)
	}
	refs, err := st.Refusals(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 2 || refs[0].Kind != audit.RefusalCap || refs[1].Kind != audit.RefusalCap || refs[1].IdempotencyKey != "new-key" {
		t.Errorf("refusals %+v, want two cap refusals, the second under new-key", refs)
	}
}
