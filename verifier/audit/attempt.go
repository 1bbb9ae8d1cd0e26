package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// Begin is what BeginAttempt writes before the network call.
type Begin struct {
	ActionID string
	// AuditRef is the confirmation's audit record the gate resolved. When
	// it is set, BeginAttempt refuses the attempt if the record was revoked
	// (ErrRevoked), in the transaction that would write it: a revocation
	// that lands after the gate's check and before the attempt — while the
	// executor fetched the live page, say — is not outrun.
	AuditRef       string
	IdempotencyKey string           // "" = none
	Cap            shared.VolumeCap // enforced atomically: attempts begun in the current window (fixed windows: hour/day/week/month, UTC) < Cap.Max
	Request        []byte           // JSON of what will be sent
	At             time.Time        // zero = now
	Instance       string           // the executor process's id
}

// Attempt is one begun execution and, once known, its completion.
type Attempt struct {
	ID             string
	ActionID       string
	AuditRef       string
	IdempotencyKey string
	BegunAt        time.Time
	Request        []byte
	Instance       string
	Completed      *Completion // nil while pending (or abandoned: outcome unknown)
	Unknown        bool        // begun, never completed, and marked abandoned by recovery
}

// Completion is how an attempt ended.
type Completion struct {
	Outcome  string // OutcomeFired, OutcomeFailed or OutcomeUnknown
	Status   int    // HTTP status the site answered, 0 when none
	Response []byte // what the site answered (kept up to MaxResponse bytes)
	// Sent is what was sent, as the JSON the attempt's Request is in, when
	// only the call itself knew it: a browser door's page adds its own
	// tokens and fields to what the attempt recorded before the call. nil
	// means the attempt's Request is what was sent. At most MaxRequest
	// bytes are kept; past that, nil, and Error says so.
	Sent  []byte
	Error string
	At    time.Time // zero = now
	// Notifications are notification tries recorded with the completion,
	// in its transaction (AttemptID is the completed attempt's): for a
	// target known not to be sent to ("not sent: …") when the attempt
	// completes, which saves a write of its own. Nothing is recorded when
	// the completion is not.
	Notifications []Notification
}

// Completion outcomes.
const (
	OutcomeFired   = "fired"
	OutcomeFailed  = "failed"
	OutcomeUnknown = "unknown"
)

// Refusal is an audited refusal: by the gate or input checks (RecordRefusal,
// Kind RefusalRefused) or by the volume cap (BeginAttempt, Kind
// RefusalCap). Refusals never count against the cap.
type Refusal struct {
	ActionID       string
	IdempotencyKey string
	Kind           string
	Reasons        []string
	At             time.Time
}

// Refusal kinds.
const (
	RefusalRefused = "refused"
	RefusalCap     = "cap-reached"
)

// Notification is one try at notifying the confirmation's target.
type Notification struct {
	AttemptID string
	Try       int
	Status    int
	Error     string
	At        time.Time
}

// Window returns the fixed UTC window of a cap period that holds t:
// the hour, the day, the ISO week (from Monday 00:00) or the calendar
// month. ok is false for an unknown period.
func Window(per shared.CapPeriod, t time.Time) (start, end time.Time, ok bool) {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch per {
	case shared.PerHour:
		start = t.Truncate(time.Hour)
		return start, start.Add(time.Hour), true
	case shared.PerDay:
		return day, day.AddDate(0, 0, 1), true
	case shared.PerWeek:
		start = day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
		return start, start.AddDate(0, 0, 7), true
	case shared.PerMonth:
		start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
		return start, start.AddDate(0, 1, 0), true
	}
	return time.Time{}, time.Time{}, false
}

const attemptColumns = `a.id, a.action_id, a.audit_ref, COALESCE(a.idempotency_key, ''), a.begun_ns, a.request, a.instance,
	c.outcome, c.status, c.response, cs.sent, c.error, c.at_ns, (SELECT COUNT(*) FROM abandonments b WHERE b.attempt_id = a.id)
	FROM attempts a LEFT JOIN completions c ON c.attempt_id = a.id LEFT JOIN completion_sent cs ON cs.attempt_id = a.id`

// scanAttempts reads rows selected with attemptColumns.
func scanAttempts(r rows) ([]Attempt, error) {
	defer r.Close()
	var out []Attempt
	for r.Next() {
		var a Attempt
		var begun int64
		var outcome, errText *string
		var status, at *int64
		var response, sent []byte
		var abandoned int64
		if err := r.Scan(&a.ID, &a.ActionID, &a.AuditRef, &a.IdempotencyKey, &begun, &a.Request, &a.Instance,
			&outcome, &status, &response, &sent, &errText, &at, &abandoned); err != nil {
			return nil, err
		}
		a.BegunAt = fromNS(begun)
		if a.Request == nil {
			a.Request = []byte{}
		}
		if outcome != nil {
			c := &Completion{Outcome: *outcome, Response: response, Sent: sent}
			if status != nil {
				c.Status = int(*status)
			}
			if errText != nil {
				c.Error = *errText
			}
			if at != nil {
				c.At = fromNS(*at)
			}
			if c.Response == nil {
				c.Response = []byte{}
			}
			a.Completed = c
		}
		a.Unknown = abandoned > 0 && a.Completed == nil
		out = append(out, a)
	}
	return out, r.Err()
}

// BeginAttempt writes the attempt BEFORE the network call, in one write
// transaction with the checks that allow it:
//
//  1. with an idempotency key already used for this action it writes
//     nothing new and returns the first attempt with ErrDuplicate;
//  2. when b.AuditRef was revoked it records a refusal (Kind
//     RefusalRefused, reason confirmation.revoked) and returns ErrRevoked;
//  3. when b.Cap.Max attempts of the action were already begun in the
//     current window (Window(b.Cap.Per, b.At)) — completed, pending or of
//     unknown outcome alike — it records a refusal (Kind RefusalCap) and
//     returns ErrCapReached;
//  4. otherwise it inserts the attempt and returns it.
//
// The transaction is SQLite's BEGIN IMMEDIATE or, on PostgreSQL, holds
// pg_advisory_xact_lock on the action id, so concurrent callers in any
// number of goroutines and processes never begin more than Cap.Max.
// A cap with Max < 1 or an unknown period is ErrInvalid: nothing fires
// without a cap.
func (s *Store) BeginAttempt(ctx context.Context, b Begin) (Attempt, error) {
	const op = "begin-attempt"
	if err := s.ready(ctx, op); err != nil {
		return Attempt{}, err
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"ActionID", b.ActionID, true}, {"AuditRef", b.AuditRef, false}, {"IdempotencyKey", b.IdempotencyKey, false}, {"Instance", b.Instance, false}} {
		if err := s.checkText(op, f.name, f.v, f.required); err != nil {
			return Attempt{}, err
		}
	}
	if len(b.Request) > MaxRequest {
		return Attempt{}, s.invalid(op, "Request is %d bytes, more than %d", len(b.Request), MaxRequest)
	}
	if b.Cap.Max < 1 {
		return Attempt{}, s.invalid(op, "volume cap max %d: it must be at least 1", b.Cap.Max)
	}
	if err := s.checkTime(op, "At", b.At); err != nil {
		return Attempt{}, err
	}
	at := nowOr(b.At)
	from, to, ok := Window(b.Cap.Per, at)
	if !ok {
		return Attempt{}, s.invalid(op, "volume cap period %q: it must be hour, day, week or month", b.Cap.Per)
	}
	var key any // NULL: any number of attempts without a key
	if b.IdempotencyKey != "" {
		key = b.IdempotencyKey
	}
	req := b.Request
	if req == nil {
		req = []byte{}
	}
	a := Attempt{ID: newID("att_"), ActionID: b.ActionID, AuditRef: b.AuditRef, IdempotencyKey: b.IdempotencyKey,
		BegunAt: at, Request: req, Instance: b.Instance}
	var result error
	err := s.db.write(ctx, writeOpts{lock: b.ActionID, durable: true}, func(q querier) error {
		result = nil
		if key != nil {
			r, err := q.query(ctx, "SELECT "+attemptColumns+" WHERE a.action_id = ? AND a.idempotency_key = ?", b.ActionID, key)
			if err != nil {
				return err
			}
			prev, err := scanAttempts(r)
			if err != nil {
				return err
			}
			if len(prev) > 0 {
				a, result = prev[0], s.fail(op, ErrDuplicate, nil, "idempotency key %q was already used for action %q (attempt %s)", b.IdempotencyKey, b.ActionID, prev[0].ID)
				return nil
			}
		}
		if b.AuditRef != "" {
			var revoked int64
			if _, err := one(ctx, q, "SELECT COUNT(*) FROM revocations WHERE ref = ?", []any{b.AuditRef}, &revoked); err != nil {
				return err
			}
			if revoked > 0 {
				reason := fmt.Sprintf("%s: audit record %s was revoked before the attempt began", shared.RefuseConfirmationRevoked, b.AuditRef)
				if err := insertRefusal(ctx, q, b.ActionID, b.IdempotencyKey, RefusalRefused, []string{reason}, at); err != nil {
					return err
				}
				a, result = Attempt{}, s.fail(op, ErrRevoked, nil, "action %q: %s", b.ActionID, reason)
				return nil
			}
		}
		n, err := s.windowCount(ctx, q, b.ActionID, ns(from), ns(to))
		if err != nil {
			return err
		}
		if n >= int64(b.Cap.Max) {
			reason := fmt.Sprintf("cap.reached: %d of %d per %s begun in the window from %s", n, b.Cap.Max, b.Cap.Per, from.Format(time.RFC3339))
			if err := insertRefusal(ctx, q, b.ActionID, b.IdempotencyKey, RefusalCap, []string{reason}, at); err != nil {
				return err
			}
			a, result = Attempt{}, s.fail(op, ErrCapReached, nil, "action %q: %s", b.ActionID, reason)
			return nil
		}
		rowid, err := q.insert(ctx, `INSERT INTO attempts
			(id, action_id, audit_ref, idempotency_key, cap_max, cap_per, request, begun_ns, instance, recorded_ns)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.ActionID, a.AuditRef, key, int64(b.Cap.Max), string(b.Cap.Per), req, ns(at), b.Instance, time.Now().UnixNano())
		if err != nil {
			return err
		}
		s.attemptBegun(b.ActionID, ns(from), ns(to), n, rowid, a.ID)
		return nil
	})
	if err != nil {
		return Attempt{}, s.dbErr(op, err)
	}
	return a, result
}

// CapReached reports whether c.Max attempts of actionID were already begun
// in the cap window holding at (zero = now). It is a read, for refusing
// early — before work that costs something, such as fetching a page —
// and decides nothing: BeginAttempt's check, in its write transaction, is
// the one that counts, and may still refuse when this said there was room.
// A cap with Max < 1 or an unknown period is ErrInvalid.
func (s *Store) CapReached(ctx context.Context, actionID string, c shared.VolumeCap, at time.Time) (bool, error) {
	const op = "cap-reached"
	if err := s.ready(ctx, op); err != nil {
		return false, err
	}
	if err := s.checkText(op, "actionID", actionID, true); err != nil {
		return false, err
	}
	if c.Max < 1 {
		return false, s.invalid(op, "volume cap max %d: it must be at least 1", c.Max)
	}
	if err := s.checkTime(op, "at", at); err != nil {
		return false, err
	}
	from, to, ok := Window(c.Per, nowOr(at))
	if !ok {
		return false, s.invalid(op, "volume cap period %q: it must be hour, day, week or month", c.Per)
	}
	// Counting stops at Max: whether the cap is reached needs no more.
	var n int64
	if _, err := one(ctx, s.db, `SELECT COUNT(*) FROM (SELECT 1 FROM attempts
		WHERE action_id = ? AND begun_ns >= ? AND begun_ns < ? LIMIT ?) w`,
		[]any{actionID, ns(from), ns(to), int64(c.Max)}, &n); err != nil {
		return false, s.dbErr(op, err)
	}
	return n >= int64(c.Max), nil
}

// RecordCapRefusal appends a refusal by the volume cap (Kind RefusalCap)
// that the caller decided through CapReached, before beginning anything.
func (s *Store) RecordCapRefusal(ctx context.Context, actionID, idempotencyKey, reason string, at time.Time) error {
	const op = "record-cap-refusal"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"actionID", actionID, true}, {"idempotencyKey", idempotencyKey, false}, {"reason", reason, true}} {
		if err := s.checkText(op, f.name, f.v, f.required); err != nil {
			return err
		}
	}
	if err := s.checkTime(op, "at", at); err != nil {
		return err
	}
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		return insertRefusal(ctx, q, actionID, idempotencyKey, RefusalCap, []string{reason}, nowOr(at))
	})
	return s.dbErr(op, err)
}

func insertRefusal(ctx context.Context, q querier, actionID, key, kind string, reasons []string, at time.Time) error {
	js, err := json.Marshal(reasons)
	if err != nil {
		return err
	}
	_, err = q.exec(ctx, `INSERT INTO refusals (action_id, idempotency_key, kind, reasons, at_ns, recorded_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, actionID, key, kind, string(js), ns(at), time.Now().UnixNano())
	return err
}

// CompleteAttempt appends the attempt's completion. An unknown attempt is
// ErrNotFound; a second completion is ErrAlreadyCompleted and writes
// nothing. An attempt that recovery marked abandoned may still be completed
// (the truth arrived late); it then is no longer Unknown.
func (s *Store) CompleteAttempt(ctx context.Context, attemptID string, c Completion) error {
	const op = "complete-attempt"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	if err := s.checkText(op, "attemptID", attemptID, true); err != nil {
		return err
	}
	switch c.Outcome {
	case OutcomeFired, OutcomeFailed, OutcomeUnknown:
	default:
		return s.invalid(op, "outcome %q: it must be %s, %s or %s", c.Outcome, OutcomeFired, OutcomeFailed, OutcomeUnknown)
	}
	if c.Status < 0 || c.Status > 999 {
		return s.invalid(op, "status %d is not an HTTP status", c.Status)
	}
	if len(c.Sent) > MaxRequest {
		note := fmt.Sprintf("what was sent, %d bytes, is over MaxRequest and not kept", len(c.Sent))
		if c.Error != "" {
			note = c.Error + "; " + note
		}
		c.Error, c.Sent = note, nil
	}
	c.Error = excerpt(c.Error)
	resp := c.Response
	if len(resp) > MaxResponse {
		resp = resp[:MaxResponse]
	}
	if resp == nil {
		resp = []byte{}
	}
	if err := s.checkTime(op, "At", c.At); err != nil {
		return err
	}
	at := nowOr(c.At)
	for i := range c.Notifications {
		n := &c.Notifications[i]
		if n.Try < 1 || n.Status < 0 || n.Status > 999 {
			return s.invalid(op, "notification %d: try %d (from 1) or status %d (0 or an HTTP status) out of range", i, n.Try, n.Status)
		}
		if err := s.checkTime(op, fmt.Sprintf("notification %d: At", i), n.At); err != nil {
			return err
		}
		n.AttemptID, n.Error, n.At = attemptID, excerpt(n.Error), nowOr(n.At)
	}
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		// The foreign key to attempts refuses a completion of no attempt.
		n, err := q.exec(ctx, `INSERT INTO completions (attempt_id, outcome, status, response, error, at_ns, recorded_ns)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (attempt_id) DO NOTHING`,
			attemptID, c.Outcome, int64(c.Status), resp, c.Error, ns(at), time.Now().UnixNano())
		if foreignKeyViolation(err) {
			return s.fail(op, ErrNotFound, nil, "no attempt %q", attemptID)
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return s.fail(op, ErrAlreadyCompleted, nil, "attempt %q", attemptID)
		}
		if c.Sent != nil {
			if _, err := q.exec(ctx, `INSERT INTO completion_sent (attempt_id, sent) VALUES (?, ?)`, attemptID, c.Sent); err != nil {
				return err
			}
		}
		for _, nt := range c.Notifications {
			if err := insertNotification(ctx, q, nt); err != nil {
				return err
			}
		}
		return nil
	})
	return s.dbErr(op, err)
}

func insertNotification(ctx context.Context, q querier, n Notification) error {
	_, err := q.exec(ctx, `INSERT INTO notifications (attempt_id, try, status, error, at_ns, recorded_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, n.AttemptID, int64(n.Try), int64(n.Status), n.Error, ns(n.At), time.Now().UnixNano())
	return err
}

// RecordRefusal appends a refusal by the gate or the input checks, with
// every reason. It is audited and never counted by the cap.
func (s *Store) RecordRefusal(ctx context.Context, actionID, idempotencyKey string, reasons []string, at time.Time) error {
	const op = "record-refusal"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	if err := s.checkText(op, "actionID", actionID, true); err != nil {
		return err
	}
	if err := s.checkText(op, "idempotencyKey", idempotencyKey, false); err != nil {
		return err
	}
	if err := s.checkTime(op, "at", at); err != nil {
		return err
	}
	if len(reasons) == 0 {
		return s.invalid(op, "no reason given")
	}
	for i, r := range reasons {
		if err := s.checkText(op, fmt.Sprintf("reasons[%d]", i), r, true); err != nil {
			return err
		}
	}
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		return insertRefusal(ctx, q, actionID, idempotencyKey, RefusalRefused, reasons, nowOr(at))
	})
	return s.dbErr(op, err)
}

// Refusals returns an action's refusals, oldest first.
func (s *Store) Refusals(ctx context.Context, actionID string) ([]Refusal, error) {
	const op = "refusals"
	if err := s.ready(ctx, op); err != nil {
		return nil, err
	}
	if !storable(actionID) {
		return nil, nil // no record holds it
	}
	r, err := s.db.query(ctx, `SELECT action_id, idempotency_key, kind, reasons, at_ns FROM refusals
		WHERE action_id = ? ORDER BY id`, actionID)
	if err != nil {
		return nil, s.dbErr(op, err)
	}
	defer r.Close()
	var out []Refusal
	for r.Next() {
		var f Refusal
		var reasons string
		var at int64
		if err := r.Scan(&f.ActionID, &f.IdempotencyKey, &f.Kind, &reasons, &at); err != nil {
			return nil, s.dbErr(op, err)
		}
		if err := json.Unmarshal([]byte(reasons), &f.Reasons); err != nil {
			return nil, s.fail(op, ErrUnavailable, err, "stored reasons do not read")
		}
		f.At = fromNS(at)
		out = append(out, f)
	}
	return out, s.dbErr(op, r.Err())
}

// Attempts returns an action's attempts, oldest first.
func (s *Store) Attempts(ctx context.Context, actionID string) ([]Attempt, error) {
	const op = "attempts"
	if err := s.ready(ctx, op); err != nil {
		return nil, err
	}
	if !storable(actionID) {
		return nil, nil // no record holds it
	}
	r, err := s.db.query(ctx, "SELECT "+attemptColumns+" WHERE a.action_id = ? ORDER BY a.begun_ns, a.recorded_ns, a.id", actionID)
	if err != nil {
		return nil, s.dbErr(op, err)
	}
	out, err := scanAttempts(r)
	return out, s.dbErr(op, err)
}

// Attempt returns one attempt by id (ErrNotFound when there is none).
func (s *Store) Attempt(ctx context.Context, attemptID string) (Attempt, error) {
	const op = "attempt"
	if err := s.ready(ctx, op); err != nil {
		return Attempt{}, err
	}
	var out []Attempt
	if storable(attemptID) {
		r, err := s.db.query(ctx, "SELECT "+attemptColumns+" WHERE a.id = ?", attemptID)
		if err != nil {
			return Attempt{}, s.dbErr(op, err)
		}
		if out, err = scanAttempts(r); err != nil {
			return Attempt{}, s.dbErr(op, err)
		}
	}
	if len(out) == 0 {
		return Attempt{}, s.fail(op, ErrNotFound, nil, "no attempt %q", attemptID)
	}
	return out[0], nil
}

// RecordNotification appends one try at notifying about an attempt
// (status 0 and errText when the target did not answer). An unknown
// attempt is ErrNotFound.
func (s *Store) RecordNotification(ctx context.Context, attemptID string, try int, status int, errText string, at time.Time) error {
	const op = "record-notification"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	if err := s.checkText(op, "attemptID", attemptID, true); err != nil {
		return err
	}
	errText = excerpt(errText)
	if try < 1 || status < 0 || status > 999 {
		return s.invalid(op, "try %d (from 1) or status %d (0 or an HTTP status) out of range", try, status)
	}
	if err := s.checkTime(op, "at", at); err != nil {
		return err
	}
	err := s.db.write(ctx, writeOpts{}, func(q querier) error {
		var x int64
		found, err := one(ctx, q, "SELECT 1 FROM attempts WHERE id = ?", []any{attemptID}, &x)
		if err != nil {
			return err
		}
		if !found {
			return s.fail(op, ErrNotFound, nil, "no attempt %q", attemptID)
		}
		return insertNotification(ctx, q, Notification{AttemptID: attemptID, Try: try, Status: status, Error: errText, At: nowOr(at)})
	})
	return s.dbErr(op, err)
}

// Notifications returns an attempt's notification tries, oldest first.
func (s *Store) Notifications(ctx context.Context, attemptID string) ([]Notification, error) {
	const op = "notifications"
	if err := s.ready(ctx, op); err != nil {
		return nil, err
	}
	if !storable(attemptID) {
		return nil, nil // no record holds it
	}
	r, err := s.db.query(ctx, `SELECT attempt_id, try, status, error, at_ns FROM notifications
		WHERE attempt_id = ? ORDER BY id`, attemptID)
	if err != nil {
		return nil, s.dbErr(op, err)
	}
	defer r.Close()
	var out []Notification
	for r.Next() {
		var n Notification
		var try, status, at int64
		if err := r.Scan(&n.AttemptID, &try, &status, &n.Error, &at); err != nil {
			return nil, s.dbErr(op, err)
		}
		n.Try, n.Status, n.At = int(try), int(status), fromNS(at)
		out = append(out, n)
	}
	return out, s.dbErr(op, r.Err())
}
