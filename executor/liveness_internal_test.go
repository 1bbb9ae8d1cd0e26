package executor

import (
	"io"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// These tests run the ticker's rounds by hand (tick), on a clock they set:
// each executor's Heartbeat is an hour, so its own ticker never fires
// while they run.

var leaseT0 = time.Date(2026, 9, 2, 1, 0, 0, 0, time.UTC)

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// at sets the clock to leaseT0+d.
func (c *testClock) at(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = leaseT0.Add(d)
}

type leaseEnv struct {
	t     *testing.T
	st    *audit.Store
	clock *testClock
}

func newLeaseEnv(t *testing.T, st *audit.Store) *leaseEnv {
	return &leaseEnv{t: t, st: st, clock: &testClock{t: leaseT0}}
}

func (e *leaseEnv) executor(instance string) *Executor {
	e.t.Helper()
	ex, err := New(Options{Store: e.st, Instance: instance, Heartbeat: time.Hour, Now: e.clock.now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { _ = ex.Close() })
	return ex
}

// begin begins an attempt of instance now, as BeginAttempt is called by
// Execute (which renews the lease first, when it is old).
func (e *leaseEnv) begin(instance string) audit.Attempt {
	e.t.Helper()
	a, err := e.st.BeginAttempt(e.t.Context(), audit.Begin{ActionID: "x:y:z", Cap: shared.VolumeCap{Max: 100, Per: shared.PerDay},
		Request: []byte(`{}`), Instance: instance, At: e.clock.now()})
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// states maps each attempt's name to pending, unknown or completed.
func (e *leaseEnv) states(atts map[string]audit.Attempt) map[string]string {
	e.t.Helper()
	out := map[string]string{}
	for name, a := range atts {
		got, err := e.st.Attempt(e.t.Context(), a.ID)
		if err != nil {
			e.t.Fatal(err)
		}
		out[name] = audittest.State(got)
	}
	return out
}

// The ticker renews the lease while a call is in flight, however long it
// lasts, and marks the attempts of an instance that died while it ran once
// that instance's lease has run out; an idle executor renews nothing, so
// an attempt whose completion was lost is marked once the lease runs out.
func TestTickerRenewsTheLeaseAndRecovers(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		ctx := t.Context()
		env := newLeaseEnv(t, st)
		a, b := env.executor("a"), env.executor("b")

		a.live.inflight.Add(1) // a call of a's, as Execute does
		a.renewLease(ctx)      // lease to 3h
		atts := map[string]audit.Attempt{"a in flight": env.begin("a")}
		// c began a call and died: its lease runs out at 3h.
		if err := st.Heartbeat(ctx, "c", leaseT0, 3*time.Hour); err != nil {
			t.Fatal(err)
		}
		atts["c's, c died"] = env.begin("c")

		env.clock.at(2 * time.Hour)
		a.tick(ctx) // a call in flight: renewed to 5h
		env.clock.at(4 * time.Hour)
		b.tick(ctx) // c's lease ran out in (0, 4h]; a's lasts
		want := map[string]string{"a in flight": "pending", "c's, c died": "unknown"}
		if diff := cmp.Diff(want, env.states(atts)); diff != "" {
			t.Fatalf("at 4h (-want +got):\n%s", diff)
		}

		// a's call ends; another attempt of a's lost its completion.
		if err := st.CompleteAttempt(ctx, atts["a in flight"].ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200}); err != nil {
			t.Fatal(err)
		}
		a.live.inflight.Add(-1)
		atts["a's, completion lost"] = env.begin("a")
		env.clock.at(4*time.Hour + 30*time.Minute)
		a.tick(ctx) // idle: no renewal, a's lease ends at 5h
		env.clock.at(6 * time.Hour)
		b.tick(ctx)
		want = map[string]string{"a in flight": "completed", "c's, c died": "unknown", "a's, completion lost": "unknown"}
		if diff := cmp.Diff(want, env.states(atts)); diff != "" {
			t.Errorf("at 6h (-want +got):\n%s", diff)
		}
	})
}

// Before an attempt, the lease is renewed only when the last renewal is a
// Heartbeat old or more: a renewal skipped at 30 min leaves the lease
// ending at 3h, one made at 1h moves it to 4h.
func TestRenewLeaseOncePerHeartbeat(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		ctx := t.Context()
		env := newLeaseEnv(t, st)
		d, other := env.executor("d"), env.executor("other")
		recoverAt := func(at time.Duration) int {
			t.Helper()
			env.clock.at(at)
			n, err := other.RecoverAbandoned(ctx, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		d.renewLease(ctx) // to 3h
		first := env.begin("d")
		env.clock.at(30 * time.Minute)
		d.renewLease(ctx) // skipped
		if n := recoverAt(3*time.Hour - time.Nanosecond); n != 0 {
			t.Errorf("just before 3h: marked %d, want 0 (d's lease lasts)", n)
		}
		if n := recoverAt(3 * time.Hour); n != 1 {
			t.Errorf("at 3h: marked %d, want 1 (the renewal at 30 min was skipped)", n)
		}

		env.clock.at(3 * time.Hour)
		d.renewLease(ctx) // to 6h
		second := env.begin("d")
		if n := recoverAt(6*time.Hour - time.Nanosecond); n != 0 {
			t.Errorf("just before 6h: marked %d, want 0 (d renewed at 3h)", n)
		}
		if n := recoverAt(6 * time.Hour); n != 1 {
			t.Errorf("at 6h: marked %d, want 1", n)
		}
		for _, a := range []audit.Attempt{first, second} {
			if got, err := st.Attempt(ctx, a.ID); err != nil || !got.Unknown {
				t.Errorf("attempt %s: %+v, %v; want unknown", a.ID, got, err)
			}
		}
	})
}

// Close stops the ticker, once, however often it is called.
func TestCloseStopsTheTicker(t *testing.T) {
	st := audittest.Open(t, audittest.URL(t, audit.DriverSQLite))
	ex, err := New(Options{Store: st, Heartbeat: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-ex.live.done:
		t.Fatal("the ticker stopped before Close")
	default:
	}
	for range 2 {
		if err := ex.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ex.live.done:
		default:
			t.Fatal("the ticker still runs after Close")
		}
	}
}

// TestUnclosedExecutorStopsItsTicker: an executor dropped without Close
// stops its heartbeat ticker once it is garbage collected. Before, the
// ticker's goroutine held the executor, so neither was ever freed.
func TestUnclosedExecutorStopsItsTicker(t *testing.T) {
	st := audittest.Open(t, audittest.URL(t, audit.DriverSQLite))
	done := func() chan struct{} {
		ex, err := New(Options{Store: st, Heartbeat: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return ex.live.done
	}()
	// A bounded number of collections, not a time: the executor is
	// unreachable from the first.
	for range 1000 {
		runtime.GC()
		select {
		case <-done:
			return
		default:
			runtime.Gosched()
		}
	}
	t.Fatal("the ticker of an executor dropped without Close is still running after 1000 garbage collections")
}
