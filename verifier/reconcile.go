package verifier

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// ErrInvalidGraph is matched by the errors of functions given a graph that
// is not a valid 0.1 graph (it is shared.ErrInvalidGraph).
var ErrInvalidGraph = shared.ErrInvalidGraph

// ErrUnknownAction is matched (through *ActionError) when an action id is
// not in the graph.
var ErrUnknownAction = errors.New("verifier: unknown action")

// ActionError names the action an error is about.
type ActionError struct {
	ActionID string
	Err      error
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("verifier: action %q: %v", e.ActionID, e.Err)
}
func (e *ActionError) Unwrap() error { return e.Err }

// DriftedNotePrefix begins the note of an action whose confirmation
// Reconcile withdrew: the owner's portal lists such actions as "needs your
// confirmation again".
const DriftedNotePrefix = "drifted: "

// RevokedNotePrefix begins the note of an action whose confirmation was
// revoked.
const RevokedNotePrefix = "revoked: "

// Reconciled says what Reconcile did with one action of the new graph that
// was verified or sandbox-tested in the old one.
type Reconciled struct {
	ActionID string
	// Kept is true when the owner's confirmation carried over unchanged.
	Kept bool
	// Changes lists what differs from what the owner confirmed (empty when
	// Kept, or when the confirmation was refused for another reason).
	Changes []shared.ConsentChange
	// Refusal is the consent gate's verdict on the carried-over
	// confirmation when it was not kept.
	Refusal *shared.UnverifiedActionError
}

// Reconcile carries the owner confirmations of old over to a re-scan of the
// same site, next, and returns the graph to keep. next is not modified.
//
// An action of next keeps its old confirmation only while everything the
// owner confirmed is unchanged. The decision is the consent gate's own —
// the confirmation is attached to the re-scanned action and the gate
// (shared.AssertLiveExecutionAllowedContext with audit as its lookup) must
// grant it — so reconciliation and every live call apply one rule, not two.
// Otherwise the action is unverified with a note beginning DriftedNotePrefix
// that names what drifted (shared.CompareConsent of what was confirmed and
// what the action is now). Sandbox runs carry over while the action's doors
// and consequences are unchanged.
//
// Actions of old that next no longer has are dropped; the graph's notes say
// so. When the audit store cannot be reached, Reconcile returns the error and
// no graph: a store outage must not withdraw (or keep) consent.
func Reconcile(ctx context.Context, old, next *shared.ActionGraph, audit shared.AuditLookup) (*shared.ActionGraph, []Reconciled, error) {
	if old == nil || next == nil {
		return nil, nil, fmt.Errorf("verifier: reconcile: %w: nil graph", ErrInvalidGraph)
	}
	out, err := cloneGraph(next)
	if err != nil {
		return nil, nil, fmt.Errorf("verifier: reconcile: the new graph: %w", err)
	}
	before := map[string]*shared.Action{}
	for i := range old.Actions {
		before[old.Actions[i].ID] = &old.Actions[i]
	}
	var report []Reconciled
	seen := map[string]bool{}
	for i := range out.Actions {
		a := &out.Actions[i]
		seen[a.ID] = true
		prev := before[a.ID]
		if prev == nil {
			continue
		}
		switch v := prev.Verification.(type) {
		case shared.Verified:
			r, err := carryConfirmation(ctx, prev, a, v, audit)
			if err != nil {
				return nil, nil, err
			}
			report = append(report, r)
		case shared.SandboxTested:
			if len(shared.CompareConsent(shared.ConsentSubjectOf(prev, shared.ConfirmationLimits{}), shared.ConsentSubjectOf(a, shared.ConfirmationLimits{}))) == 0 {
				a.Verification = shared.SandboxTested{SandboxRuns: v.SandboxRuns, Note: v.Note}
			}
		}
	}
	var gone []string
	for _, a := range old.Actions {
		if !seen[a.ID] && a.Verification != nil && a.Verification.Status() != shared.StatusUnverified {
			gone = append(gone, a.ID)
		}
	}
	if len(gone) > 0 {
		note := "reconciled: no longer on the site, confirmation dropped: " + strings.Join(gone, ", ")
		if out.Notes != nil && *out.Notes != "" {
			note = *out.Notes + "\n" + note
		}
		out.Notes = &note
	}
	if _, err := shared.Write(out); err != nil {
		return nil, nil, fmt.Errorf("verifier: reconcile: %w", err)
	}
	return out, report, nil
}

// carryConfirmation attaches prev's confirmation to a and keeps it only when
// the gate grants it.
func carryConfirmation(ctx context.Context, prev, a *shared.Action, v shared.Verified, audit shared.AuditLookup) (Reconciled, error) {
	r := Reconciled{ActionID: a.ID}
	candidate := *a
	candidate.Verification = v
	data, err := shared.WriteAction(&candidate)
	if err != nil {
		return r, &ActionError{ActionID: a.ID, Err: err}
	}
	gateErr := shared.AssertLiveExecutionAllowedContext(ctx, data, audit)
	if gateErr == nil {
		a.Verification = v
		r.Kept = true
		return r, nil
	}
	var refusal *shared.UnverifiedActionError
	if !errors.As(gateErr, &refusal) {
		return r, &ActionError{ActionID: a.ID, Err: gateErr}
	}
	// A store that cannot answer decides nothing.
	for _, reason := range refusal.Reasons {
		if reason.Reason == shared.RefuseConfirmationAuditUnresolved && reason.Err != nil {
			return r, &ActionError{ActionID: a.ID, Err: fmt.Errorf("the audit store could not be asked: %w", reason.Err)}
		}
	}
	r.Refusal = refusal
	r.Changes = shared.CompareConsent(shared.ConsentSubjectOf(prev, v.Confirmation.Limits), shared.ConsentSubjectOf(a, v.Confirmation.Limits))
	var note string
	switch {
	case len(r.Changes) > 0:
		parts := make([]string, len(r.Changes))
		for i, c := range r.Changes {
			parts[i] = c.String()
		}
		note = DriftedNotePrefix + strings.Join(parts, "; ")
	case refusal.Has(shared.RefuseConfirmationRevoked):
		note = RevokedNotePrefix + "the owner revoked this confirmation"
	default:
		reasons := make([]string, len(refusal.Reasons))
		for i, x := range refusal.Reasons {
			reasons[i] = x.String()
		}
		note = DriftedNotePrefix + "the confirmation no longer passes the consent gate: " + strings.Join(reasons, "; ")
	}
	a.Verification = shared.Unverified{Note: &note}
	return r, nil
}

// Revoker records the revocation of a confirmation; *audit.Store is one.
type Revoker interface {
	RecordRevocation(ctx context.Context, r audit.Revocation) error
}

// Revoke withdraws the owner's confirmation of one action: it writes a
// revocation record (an audit record of its own) through store, then returns
// a copy of g with the action unverified and a note beginning
// RevokedNotePrefix. g is not modified; when the store refuses, nothing
// changes and the error says why. A zero at is now, for the record and the
// note alike. Revoking an action that is not verified is an error matching
// ErrNotVerified.
func Revoke(ctx context.Context, g *shared.ActionGraph, actionID string, store Revoker, by, reason string, at time.Time) (*shared.ActionGraph, error) {
	if g == nil {
		return nil, fmt.Errorf("verifier: revoke: %w: nil graph", ErrInvalidGraph)
	}
	if strings.TrimSpace(by) == "" {
		return nil, &ActionError{ActionID: actionID, Err: errors.New("revoke: who revokes must be named")}
	}
	if at.IsZero() {
		at = time.Now()
	}
	out, err := cloneGraph(g)
	if err != nil {
		return nil, fmt.Errorf("verifier: revoke: %w", err)
	}
	a := findAction(out, actionID)
	if a == nil {
		return nil, &ActionError{ActionID: actionID, Err: ErrUnknownAction}
	}
	v, ok := a.Verification.(shared.Verified)
	if !ok || v.Confirmation.AuditRecord == nil {
		return nil, &ActionError{ActionID: actionID, Err: ErrNotVerified}
	}
	if err := store.RecordRevocation(ctx, audit.Revocation{ActionID: actionID, Ref: *v.Confirmation.AuditRecord, By: by, At: at, Reason: reason}); err != nil {
		return nil, &ActionError{ActionID: actionID, Err: fmt.Errorf("revoke: %w", err)}
	}
	note := RevokedNotePrefix + "by " + by + " at " + string(shared.TimestampOf(at))
	if reason != "" {
		note += ": " + reason
	}
	a.Verification = shared.Unverified{Note: &note}
	return out, nil
}

// ErrNotVerified is matched when an operation needs a verified action.
var ErrNotVerified = errors.New("verifier: the action is not verified")

func findAction(g *shared.ActionGraph, id string) *shared.Action {
	for i := range g.Actions {
		if g.Actions[i].ID == id {
			return &g.Actions[i]
		}
	}
	return nil
}

// cloneGraph deep-copies a valid graph through the contract's own writer and
// reader, which also proves it valid.
func cloneGraph(g *shared.ActionGraph) (*shared.ActionGraph, error) {
	data, err := shared.Write(g)
	if err != nil {
		return nil, err
	}
	out, issues := shared.Read(data)
	if len(issues) > 0 {
		return nil, &shared.ValidationError{What: "graph", Issues: issues}
	}
	return out, nil
}
