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

// Confirmation is what an owner says when they confirm one action: who
// they are, when, how, and the limits they set.
type Confirmation struct {
	By     string
	At     time.Time
	Method shared.ConfirmationMethod // default owner-portal
	Limits shared.ConfirmationLimits
	// Digest, when set, is the consent digest of what the owner was shown
	// (the portal embeds it in its form). Confirm refuses with
	// ErrShownDiffers when the action as it is now has another digest: the
	// owner never says yes to something they were not shown.
	Digest string
}

// ErrShownDiffers is matched when what an owner was shown is not what the
// action is now.
var ErrShownDiffers = errors.New("verifier: what the owner was shown is not what the action does now")

// Confirmer records confirmations; *audit.Store is one.
type Confirmer interface {
	RecordConfirmation(ctx context.Context, c audit.Confirmation) (audit.Confirmation, error)
}

// Confirm is the owner saying yes to one action of g as it is now. It writes
// the append-only audit record — the consent digest of the action's subject
// (shared.ConsentSubjectOf with the owner's limits) and the subject itself —
// and returns a copy of g in which the action is verified: its confirmation
// mirrors, byte for byte, the disclosure the owner acknowledged
// (shared.DisclosureOf), points at the record, and carries the limits. The
// result passes shared.AssertLiveExecutionAllowed with the store as its
// lookup. g is not modified; on any error nothing is written to g, and the
// store is written only when everything else checked out.
func Confirm(ctx context.Context, g *shared.ActionGraph, actionID string, c Confirmation, store Confirmer) (*shared.ActionGraph, audit.Confirmation, error) {
	if g == nil {
		return nil, audit.Confirmation{}, fmt.Errorf("verifier: confirm: %w: nil graph", ErrInvalidGraph)
	}
	if strings.TrimSpace(c.By) == "" {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: errors.New("confirm: the owner confirming must be named")}
	}
	if c.Method == "" {
		c.Method = shared.ConfirmedOwnerPortal
	}
	if !c.Method.Valid() || c.Method == shared.ConfirmedUnknown {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: fmt.Errorf("confirm: method %q is not a known confirmation method", string(c.Method))}
	}
	if c.At.IsZero() {
		c.At = time.Now()
	}
	out, err := cloneGraph(g)
	if err != nil {
		return nil, audit.Confirmation{}, fmt.Errorf("verifier: confirm: %w", err)
	}
	a := findAction(out, actionID)
	if a == nil {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: ErrUnknownAction}
	}
	subject := shared.ConsentSubjectOf(a, c.Limits)
	digest, err := shared.ConsentDigest(subject)
	if err != nil {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: err}
	}
	if c.Digest != "" && c.Digest != digest {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: ErrShownDiffers}
	}
	canon, err := shared.CanonicalConsent(subject)
	if err != nil {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: err}
	}
	at := shared.TimestampOf(c.At)
	disclosure := shared.DisclosureOf(a.SideEffects)
	runs := append([]shared.SandboxRun{}, SandboxRunsOf(a.Verification)...)
	verified := shared.Verified{
		Confirmation: shared.OwnerConfirmation{
			ConfirmedBy: c.By, ConfirmedAt: at, Method: c.Method,
			Limits: c.Limits, Disclosure: disclosure,
		},
		SandboxRuns: runs,
	}
	// Validate the action as it will be written before anything is recorded.
	ref := "pending"
	verified.Confirmation.AuditRecord = &ref
	a.Verification = verified
	if _, err := shared.WriteAction(a); err != nil {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: err}
	}
	rec, err := store.RecordConfirmation(ctx, audit.Confirmation{
		GraphID: out.GraphID, ActionID: a.ID, ConfirmedBy: c.By, ConfirmedAt: at, Method: c.Method,
		Digest: digest, Subject: canon,
	})
	if err != nil {
		return nil, audit.Confirmation{}, &ActionError{ActionID: actionID, Err: fmt.Errorf("confirm: %w", err)}
	}
	ref = rec.Ref
	verified.Confirmation.AuditRecord = &ref
	a.Verification = verified
	return out, rec, nil
}

// SandboxRunsOf returns the sandbox runs a verification state records
// (sandbox-tested and verified keep them; unverified has none).
func SandboxRunsOf(v shared.VerificationState) []shared.SandboxRun {
	switch s := v.(type) {
	case shared.SandboxTested:
		return s.SandboxRuns
	case shared.Verified:
		return s.SandboxRuns
	}
	return nil
}
