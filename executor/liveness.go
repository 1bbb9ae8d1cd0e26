package executor

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/frontlatch/frontlatch/verifier/audit"
)

// DefaultHeartbeat is the default of Options.Heartbeat: how often an
// executor with attempts in flight renews its lease in the audit store, and
// how often it marks the attempts of instances that died since.
const DefaultHeartbeat = 10 * time.Second

// leaseBeats is how many heartbeats a lease lasts: an instance is taken for
// dead once it has not renewed its lease for leaseBeats×Heartbeat, so a
// renewal or two that is late or lost (a slow store, a busy machine) does
// not make its attempts in flight look abandoned.
const leaseBeats = 3

// liveness is an executor's part in telling live instances from dead ones
// on a shared store (see Options.Heartbeat).
//
// An executor records a heartbeat — "alive now, and until 3×Heartbeat from
// now" — before it begins an attempt, unless it recorded one less than a
// Heartbeat ago, and its ticker renews it every Heartbeat while attempts
// are in flight. An idle executor writes nothing: only an instance with
// attempts in flight needs to be told from a dead one, and the heartbeats
// table (the store only inserts) grows with the time calls are in flight,
// not with the time executors run.
type liveness struct {
	every    time.Duration
	inflight atomic.Int64 // attempts begun, or about to be, and not yet completed
	mu       sync.Mutex   // one heartbeat write at a time
	lastBeat atomic.Int64 // e.now() of the last heartbeat recorded, Unix ns (0: none)

	tickMu      sync.Mutex // one round of the ticker at a time
	recoveredTo time.Time  // At of the ticker's last recovery, under tickMu

	stop     context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

func (l *liveness) lease() time.Duration { return leaseBeats * l.every }

// startLiveness starts the ticker (stopped by Close): every interval it
// renews the lease while attempts are in flight and marks the attempts of
// the instances whose leases ran out since its last round. The first
// round looks back to now: what died before is RecoverAbandoned's, which a
// process calls as it starts. The ticker holds the executor weakly, so
// that one dropped without Close is still garbage collected, and its
// ticker stops then.
func (e *Executor) startLiveness(every time.Duration) {
	if every <= 0 {
		every = DefaultHeartbeat
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	e.live.every, e.live.stop, e.live.done = every, cancel, done
	e.live.recoveredTo = e.now().UTC()
	runtime.AddCleanup(e, func(stop context.CancelFunc) { stop() }, cancel)
	ex := weak.Make(e)
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !tickIfAlive(ctx, ex) {
					return
				}
			}
		}
	}()
}

// tickIfAlive runs a round of the ticker for the executor ex points to,
// holding it only for the round; false when it has been collected.
func tickIfAlive(ctx context.Context, ex weak.Pointer[Executor]) bool {
	e := ex.Value()
	if e == nil {
		return false
	}
	e.tick(ctx)
	return true
}

// stopLiveness stops the ticker and waits for its round in flight.
func (e *Executor) stopLiveness() {
	e.live.stopOnce.Do(func() {
		e.live.stop()
		<-e.live.done
	})
}

// tick is one round of the ticker. Each store call is bounded by the
// interval, so a round never outlasts the next one by much.
func (e *Executor) tick(ctx context.Context) {
	e.live.tickMu.Lock()
	defer e.live.tickMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, e.live.every)
	defer cancel()
	if e.live.inflight.Load() > 0 {
		// Half an interval: a renewal just made by a call is not repeated,
		// and the lease never has less than 2×Heartbeat left.
		if err := e.beat(ctx, e.live.every/2); err != nil && ctx.Err() == nil {
			e.log.Warn("executor: a heartbeat was not recorded in the audit store; other instances may take this one's attempts in flight for abandoned once its lease runs out",
				"instance", e.instance, "err", err)
		}
	}
	at := e.now().UTC()
	n, err := e.store.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: e.instance, At: at, LapsedSince: e.live.recoveredTo})
	if err != nil {
		if ctx.Err() == nil {
			e.log.Warn("executor: the attempts of instances that died could not be looked for; the next round tries again",
				"instance", e.instance, "err", err)
		}
		return // the next round looks back to the same time
	}
	e.live.recoveredTo = at
	if n > 0 {
		e.log.Warn("executor: attempts of instances no longer alive marked outcome unknown; they still count against their caps",
			"attempts", n, "instance", e.instance)
	}
}

// renewLease records a heartbeat before an attempt begins, unless one was
// recorded less than a Heartbeat ago (the lease then has 2×Heartbeat left
// at least). A heartbeat that is not recorded does not stop the call:
// what is at stake is that another instance might mark the attempt outcome
// unknown while it is in flight (its completion then clears the mark), not
// what is sent; it is logged.
func (e *Executor) renewLease(ctx context.Context) {
	if err := e.beat(ctx, e.live.every); err != nil && ctx.Err() == nil {
		e.log.Warn("executor: a heartbeat was not recorded in the audit store before an attempt; other instances may take it for abandoned while it is in flight",
			"instance", e.instance, "err", err)
	}
}

// beat records a heartbeat with a fresh lease unless the last one was
// recorded less than minAge ago, by e.now(). Callers at once wait for one
// write.
func (e *Executor) beat(ctx context.Context, minAge time.Duration) error {
	fresh := func(now time.Time) bool { return now.UnixNano()-e.live.lastBeat.Load() < int64(minAge) }
	if fresh(e.now()) {
		return nil
	}
	e.live.mu.Lock()
	defer e.live.mu.Unlock()
	now := e.now().UTC()
	if fresh(now) {
		return nil
	}
	if err := e.store.Heartbeat(ctx, e.instance, now, e.live.lease()); err != nil {
		return err
	}
	e.live.lastBeat.Store(now.UnixNano())
	return nil
}
