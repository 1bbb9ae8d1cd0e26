package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// Confirmation is the record of an owner's yes: written by the verifier's
// portal, read back by the consent gate through LookupAudit.
type Confirmation struct {
	Ref         string // set by RecordConfirmation ("aud_" + random) when empty, returned
	GraphID     string
	ActionID    string
	ConfirmedBy string
	ConfirmedAt shared.Timestamp // kept exactly as given; LookupAudit compares it byte for byte
	Method      shared.ConfirmationMethod
	Digest      string // shared.ConsentDigest(subject)
	Subject     []byte // shared.CanonicalConsent(subject)
}

// Event is one entry of an action's confirmation history.
type Event struct {
	Kind     string // EventConfirmation or EventRevocation
	Ref      string
	ActionID string
	By       string    // who confirmed or revoked
	At       time.Time // when (a confirmation's ConfirmedAt, parsed)
	Reason   string    // a revocation's reason
	// Confirmation is the full record, for a confirmation event.
	Confirmation *Confirmation
}

// Event kinds.
const (
	EventConfirmation = "confirmation"
	EventRevocation   = "revocation"
)

// RecordConfirmation appends a confirmation. It sets Ref ("aud_" + 32 hex
// digits) when c.Ref is empty and returns the record as written. The
// digest must be shared.ConsentDigest of the subject: when Subject is given
// it must hash to Digest (the canonical bytes shared.CanonicalConsent
// wrote), otherwise ErrInvalid. A Ref that is already recorded is
// ErrDuplicate and writes nothing.
func (s *Store) RecordConfirmation(ctx context.Context, c Confirmation) (Confirmation, error) {
	const op = "record-confirmation"
	if err := s.ready(ctx, op); err != nil {
		return Confirmation{}, err
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{
		{"Ref", c.Ref, false}, {"GraphID", c.GraphID, false}, {"ActionID", c.ActionID, true},
		{"ConfirmedBy", c.ConfirmedBy, true}, {"Digest", c.Digest, true},
	} {
		if err := s.checkText(op, f.name, f.v, f.required); err != nil {
			return Confirmation{}, err
		}
	}
	if !c.ConfirmedAt.Valid() {
		return Confirmation{}, s.invalid(op, "ConfirmedAt %q is not an RFC 3339 date-time", c.ConfirmedAt)
	}
	if !c.Method.Valid() || c.Method == shared.ConfirmedUnknown {
		return Confirmation{}, s.invalid(op, "Method %q is not a known confirmation method", c.Method)
	}
	hexPart, ok := strings.CutPrefix(c.Digest, shared.ConsentDigestPrefix)
	if b, err := hex.DecodeString(hexPart); !ok || err != nil || len(b) != sha256.Size || strings.ToLower(hexPart) != hexPart {
		return Confirmation{}, s.invalid(op, "Digest %q is not %s followed by 64 lower-case hex digits", c.Digest, shared.ConsentDigestPrefix)
	}
	if len(c.Subject) > MaxSubject {
		return Confirmation{}, s.invalid(op, "Subject is %d bytes, more than %d", len(c.Subject), MaxSubject)
	}
	if len(c.Subject) > 0 {
		sum := sha256.Sum256(c.Subject)
		if shared.ConsentDigestPrefix+hex.EncodeToString(sum[:]) != c.Digest {
			return Confirmation{}, s.invalid(op, "Digest does not match Subject: the digest must be shared.ConsentDigest of the subject whose canonical bytes are given")
		}
	}
	if c.Ref == "" {
		c.Ref = newID("aud_")
	}
	if c.Subject == nil {
		c.Subject = []byte{}
	}
	err := s.db.write(ctx, writeOpts{durable: true}, func(q querier) error {
		n, err := q.exec(ctx, `INSERT INTO confirmations
			(ref, graph_id, action_id, confirmed_by, confirmed_at, method, digest, subject, recorded_ns)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ref) DO NOTHING`,
			c.Ref, c.GraphID, c.ActionID, c.ConfirmedBy, string(c.ConfirmedAt), string(c.Method), c.Digest, c.Subject, time.Now().UnixNano())
		if err != nil {
			return err
		}
		if n == 0 {
			return s.fail(op, ErrDuplicate, nil, "audit record %q already exists", c.Ref)
		}
		return nil
	})
	if err != nil {
		return Confirmation{}, s.dbErr(op, err)
	}
	return c, nil
}

// Revocation is the record of an owner withdrawing a confirmation.
type Revocation struct {
	ActionID string // the action the confirmation Ref is of; required
	Ref      string // the confirmation's audit record; required
	By       string // who revokes; required
	At       time.Time
	Reason   string
}

// RecordRevocation appends a revocation of the confirmation r.Ref of
// action r.ActionID. A ref that is unknown, or that records a confirmation
// of another action, is ErrNotFound and writes nothing: a graph file that
// names another action's audit record cannot get that one revoked.
// Revoking twice appends a second record; the confirmation stays revoked.
func (s *Store) RecordRevocation(ctx context.Context, r Revocation) error {
	const op = "record-revocation"
	if err := s.ready(ctx, op); err != nil {
		return err
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"actionID", r.ActionID, true}, {"ref", r.Ref, true}, {"by", r.By, true}, {"reason", r.Reason, false}} {
		if err := s.checkText(op, f.name, f.v, f.required); err != nil {
			return err
		}
	}
	if err := s.checkTime(op, "At", r.At); err != nil {
		return err
	}
	at := nowOr(r.At)
	err := s.db.write(ctx, writeOpts{durable: true}, func(q querier) error {
		var actionID string
		found, err := one(ctx, q, "SELECT action_id FROM confirmations WHERE ref = ?", []any{r.Ref}, &actionID)
		if err != nil {
			return err
		}
		if !found || actionID != r.ActionID {
			return s.fail(op, ErrNotFound, nil, "no confirmation of action %q has audit record %q", r.ActionID, r.Ref)
		}
		_, err = q.exec(ctx, `INSERT INTO revocations (ref, revoked_by, revoked_ns, reason, recorded_ns)
			VALUES (?, ?, ?, ?, ?)`, r.Ref, r.By, ns(at), r.Reason, time.Now().UnixNano())
		return err
	})
	return s.dbErr(op, err)
}

// LookupAudit implements shared.AuditLookup as docs/contract.md "The audit
// lookup" says:
//
//   - Found only when a confirmation with q.Ref exists and its action id,
//     confirmer and confirmedAt equal the query's exactly (byte for byte);
//     otherwise Found is false and nothing else is set;
//   - Digest and Subject are the ones written at confirmation, never
//     q.Digest (the gate compares them);
//   - Revoked when a revocation of q.Ref was recorded;
//   - an error (matching ErrUnavailable) whenever the store cannot tell —
//     closed, unreachable, context done — never a guess.
func (s *Store) LookupAudit(ctx context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
	const op = "lookup-audit"
	if err := s.ready(ctx, op); err != nil {
		return shared.AuditAnswer{}, err
	}
	if q.Ref == "" || len(q.Ref) > MaxText || !storable(q.Ref) {
		return shared.AuditAnswer{}, nil // no record has that reference
	}
	var actionID, by, at, digest string
	var subject []byte
	var revoked int64
	found, err := one(ctx, s.db, `SELECT c.action_id, c.confirmed_by, c.confirmed_at, c.digest, c.subject,
			(SELECT COUNT(*) FROM revocations r WHERE r.ref = c.ref)
		FROM confirmations c WHERE c.ref = ?`, []any{q.Ref}, &actionID, &by, &at, &digest, &subject, &revoked)
	if err != nil {
		return shared.AuditAnswer{}, s.dbErr(op, err)
	}
	if err := ctx.Err(); err != nil { // done during the query: cannot tell
		return shared.AuditAnswer{}, s.fail(op, ErrUnavailable, err, "")
	}
	if !found || actionID != q.ActionID || by != q.ConfirmedBy || at != string(q.ConfirmedAt) {
		return shared.AuditAnswer{}, nil
	}
	if len(subject) == 0 {
		subject = nil // no subject was kept with this record
	}
	return shared.AuditAnswer{Found: true, Revoked: revoked > 0, Digest: digest, Subject: subject}, nil
}

// Confirmation returns the confirmation recorded under ref (ErrNotFound
// when there is none).
func (s *Store) Confirmation(ctx context.Context, ref string) (Confirmation, error) {
	const op = "confirmation"
	if err := s.ready(ctx, op); err != nil {
		return Confirmation{}, err
	}
	var cs []storedConfirmation
	var err error
	if storable(ref) {
		if cs, err = s.confirmations(ctx, op, "ref", ref); err != nil {
			return Confirmation{}, err
		}
	}
	if len(cs) == 0 {
		return Confirmation{}, s.fail(op, ErrNotFound, nil, "no confirmation with audit record %q", ref)
	}
	return cs[0].Confirmation, nil
}

type storedConfirmation struct {
	Confirmation
	recorded int64
}

// confirmations reads the confirmations whose column col ("ref" or
// "action_id") equals v, in recording order.
func (s *Store) confirmations(ctx context.Context, op, col, v string) ([]storedConfirmation, error) {
	r, err := s.db.query(ctx, `SELECT ref, graph_id, action_id, confirmed_by, confirmed_at, method, digest, subject, recorded_ns
		FROM confirmations WHERE `+col+` = ? ORDER BY recorded_ns, ref`, v)
	if err != nil {
		return nil, s.dbErr(op, err)
	}
	defer r.Close()
	var out []storedConfirmation
	for r.Next() {
		var c storedConfirmation
		var at, method string
		if err := r.Scan(&c.Ref, &c.GraphID, &c.ActionID, &c.ConfirmedBy, &at, &method, &c.Digest, &c.Subject, &c.recorded); err != nil {
			return nil, s.dbErr(op, err)
		}
		c.ConfirmedAt, c.Method = shared.Timestamp(at), shared.ConfirmationMethod(method)
		if c.Subject == nil {
			c.Subject = []byte{}
		}
		out = append(out, c)
	}
	return out, s.dbErr(op, r.Err())
}

// History returns an action's confirmations and revocations, oldest first
// (by the time each states, then by the order they were recorded).
func (s *Store) History(ctx context.Context, actionID string) ([]Event, error) {
	const op = "history"
	if err := s.ready(ctx, op); err != nil {
		return nil, err
	}
	if err := s.checkText(op, "actionID", actionID, true); err != nil {
		return nil, err
	}
	cs, err := s.confirmations(ctx, op, "action_id", actionID)
	if err != nil {
		return nil, err
	}
	type ev struct {
		Event
		recorded int64
	}
	var evs []ev
	for _, c := range cs {
		c := c
		at, _ := c.ConfirmedAt.Time()
		evs = append(evs, ev{Event{Kind: EventConfirmation, Ref: c.Ref, ActionID: c.ActionID, By: c.ConfirmedBy,
			At: at.UTC(), Confirmation: &c.Confirmation}, c.recorded})
	}
	r, err := s.db.query(ctx, `SELECT r.ref, r.revoked_by, r.revoked_ns, r.reason, r.recorded_ns
		FROM revocations r JOIN confirmations c ON c.ref = r.ref
		WHERE c.action_id = ? ORDER BY r.id`, actionID)
	if err != nil {
		return nil, s.dbErr(op, err)
	}
	defer r.Close()
	for r.Next() {
		e := ev{Event: Event{Kind: EventRevocation, ActionID: actionID}}
		var at int64
		if err := r.Scan(&e.Ref, &e.By, &at, &e.Reason, &e.recorded); err != nil {
			return nil, s.dbErr(op, err)
		}
		e.At = fromNS(at)
		evs = append(evs, e)
	}
	if err := r.Err(); err != nil {
		return nil, s.dbErr(op, err)
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if !evs[i].At.Equal(evs[j].At) {
			return evs[i].At.Before(evs[j].At)
		}
		return evs[i].recorded < evs[j].recorded
	})
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = e.Event
	}
	return out, nil
}
