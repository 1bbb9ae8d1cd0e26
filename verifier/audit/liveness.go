package audit

import (
	"context"
	"time"
)

// Heartbeat records that the executor instance is alive at at (zero = now)
// and is to be taken for alive until at+lease: RecoverAbandoned leaves the
// instance's attempts alone while any of its heartbeats lasts. An executor
// records one before it begins an attempt and then, while it has attempts
// in flight, more often than lease, so that its lease never runs out while
// it lives. Each heartbeat is a row of its own (the store only inserts).
// The times are the caller's clock, which RecoverOptions.At is compared
// with: the clocks of the machines sharing a store must agree to well
// within a lease. An empty instance, a lease that is not positive, or one
// that ends after 2262-04-11 (the store keeps times as Unix nanoseconds) is
// ErrInvalid.
func (s *Store) Heartbeat(ctx context.Context, instance string, at time.Time, lease time.Duration) error {
	const op = "heartbeat"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	if err := s.checkText(op, "instance", instance, true); err != nil {
		return err
	}
	if lease <= 0 {
		return s.invalid(op, "lease %v: it must be positive", lease)
	}
	if err := s.checkTime(op, "at", at); err != nil {
		return err
	}
	at = nowOr(at)
	if err := s.checkTime(op, "at+lease", at.Add(lease)); err != nil {
		return err
	}
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		_, err := q.exec(ctx, `INSERT INTO heartbeats (instance, seen_ns, until_ns, recorded_ns) VALUES (?, ?, ?, ?)`,
			instance, ns(at), ns(at.Add(lease)), time.Now().UnixNano())
		return err
	})
	return s.dbErr(op, err)
}

// RecoverOptions says which attempts RecoverAbandoned marks.
type RecoverOptions struct {
	// Instance is the recovering executor's own id. Its attempts are
	// marked only when begun before Before; the attempts of every other
	// instance, only when that instance holds no lease at At (see
	// Heartbeat).
	Instance string
	// Before bounds the marking of Instance's own attempts: those begun
	// before it (zero: none of them). An executor restarted under the
	// same id passes the time it started.
	Before time.Time
	// At is when the other instances' liveness is judged (zero = now): an
	// instance whose heartbeats all ran out at or before At is dead, and
	// so is one that never recorded a heartbeat (an older binary).
	At time.Time
	// LapsedSince, when not zero, narrows the other instances to those
	// whose last lease ran out after it (and at or before At): the
	// instances that died since an earlier recovery judged at LapsedSince.
	// Instances that never recorded a heartbeat are then left out. It is
	// for a recovery run often while an executor serves — a few index
	// reads — where the recovery at start, with LapsedSince zero, reads
	// every attempt.
	LapsedSince time.Time
}

// RecoverAbandoned marks as outcome unknown (an inserted abandonment row)
// every attempt that has no completion, is not yet marked, and was either
// begun by another instance than o.Instance that is not alive at o.At —
// none of its heartbeats lasts past o.At — or begun by o.Instance before
// o.Before. Call it when an executor starts, with its own new instance id:
// the attempts a killed process left behind become Unknown and keep
// counting against the cap, while those of the executors still running
// beside it on the same store, whose leases hold, are left alone. Calls
// with o.LapsedSince set catch, later, the instances that die while it
// runs. A completion that arrives late is still accepted and clears the
// mark. It returns how many it marked.
func (s *Store) RecoverAbandoned(ctx context.Context, o RecoverOptions) (int, error) {
	const op = "recover-abandoned"
	if err := s.ready(ctx, op); err != nil {
		return 0, err
	}
	if err := s.checkText(op, "Instance", o.Instance, false); err != nil {
		return 0, err
	}
	for _, f := range []struct {
		name string
		t    time.Time
	}{{"At", o.At}, {"Before", o.Before}, {"LapsedSince", o.LapsedSince}} {
		if err := s.checkTime(op, f.name, f.t); err != nil {
			return 0, err
		}
	}
	at := ns(nowOr(o.At))
	const pending = `NOT EXISTS (SELECT 1 FROM completions c WHERE c.attempt_id = a.id)
		  AND NOT EXISTS (SELECT 1 FROM abandonments b WHERE b.attempt_id = a.id)`
	const dead = `NOT EXISTS (SELECT 1 FROM heartbeats h WHERE h.instance = a.instance AND h.until_ns > ?)`
	const mark = `INSERT INTO abandonments (attempt_id, instance, recorded_ns) SELECT a.id, ?, ? FROM attempts a WHERE `
	var n int64
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		n = 0
		now := time.Now().UnixNano()
		var m int64
		var err error
		if o.LapsedSince.IsZero() {
			m, err = q.exec(ctx, mark+`a.instance <> ? AND `+pending+` AND `+dead+`
				ON CONFLICT (attempt_id) DO NOTHING`,
				o.Instance, now, o.Instance, at)
		} else {
			m, err = q.exec(ctx, mark+`a.instance IN (SELECT l.instance FROM heartbeats l
				WHERE l.until_ns > ? AND l.until_ns <= ? AND l.instance <> ?) AND `+pending+` AND `+dead+`
				ON CONFLICT (attempt_id) DO NOTHING`,
				o.Instance, now, ns(o.LapsedSince), at, o.Instance, at)
		}
		if err != nil {
			return err
		}
		n += m
		if !o.Before.IsZero() {
			m, err = q.exec(ctx, mark+`a.instance = ? AND a.begun_ns < ? AND `+pending+`
				ON CONFLICT (attempt_id) DO NOTHING`,
				o.Instance, now, o.Instance, ns(o.Before))
			if err != nil {
				return err
			}
			n += m
		}
		return nil
	})
	if err != nil {
		return 0, s.dbErr(op, err)
	}
	return int(n), nil
}
