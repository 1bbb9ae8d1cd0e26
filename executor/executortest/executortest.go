// Package executortest holds test helpers for tests that fire actions: an
// owner confirmation recorded the way the verifier records one, so a test
// can build a graph the consent gate passes without the verifier's portal.
// The executor library never imports testing; this package does.
package executortest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// Owner is who the confirmations of Confirm are recorded as given by.
const Owner = "owner@example.test"

// Limits returns confirmation limits of max executions per period, notifying
// notify.
func Limits(max int, per shared.CapPeriod, notify string) shared.ConfirmationLimits {
	return shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: max, Per: per}, Notify: &notify}
}

// Confirm records in store the owner's confirmation of the action actionID
// of graph as it is now, with limits, exactly as the verifier does (the
// consent subject, its digest and canonical bytes in the audit record), and
// returns the graph with that action verified. Any failure fails the test.
func Confirm(tb testing.TB, store *audit.Store, graph []byte, actionID string, limits shared.ConfirmationLimits) []byte {
	tb.Helper()
	out, err := ConfirmWith(tb.Context(), store, graph, actionID, limits)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// ConfirmWith is Confirm for code without a testing.TB (examples): it
// returns the error instead of failing a test.
func ConfirmWith(ctx context.Context, store *audit.Store, graph []byte, actionID string, limits shared.ConfirmationLimits) ([]byte, error) {
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		return nil, fmt.Errorf("executortest: the graph does not read: %v", issues)
	}
	idx := -1
	for i := range g.Actions {
		if g.Actions[i].ID == actionID {
			idx = i
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("executortest: the graph has no action %q", actionID)
	}
	a := &g.Actions[idx]
	subject := shared.ConsentSubjectOf(a, limits)
	digest, err := shared.ConsentDigest(subject)
	if err != nil {
		return nil, err
	}
	canonical, err := shared.CanonicalConsent(subject)
	if err != nil {
		return nil, err
	}
	at := shared.TimestampOf(time.Now().Add(-time.Minute))
	rec, err := store.RecordConfirmation(ctx, audit.Confirmation{
		GraphID: g.GraphID, ActionID: a.ID, ConfirmedBy: Owner, ConfirmedAt: at,
		Method: shared.ConfirmedOwnerPortal, Digest: digest, Subject: canonical,
	})
	if err != nil {
		return nil, fmt.Errorf("executortest: record the confirmation: %w", err)
	}
	ref := rec.Ref
	a.Verification = shared.Verified{Confirmation: shared.OwnerConfirmation{
		ConfirmedBy: Owner, ConfirmedAt: at, Method: shared.ConfirmedOwnerPortal,
		AuditRecord: &ref, Limits: limits, Disclosure: shared.DisclosureOf(a.SideEffects),
	}, SandboxRuns: []shared.SandboxRun{}}
	out, err := shared.Write(g)
	if err != nil {
		return nil, fmt.Errorf("executortest: write the confirmed graph: %w", err)
	}
	return out, nil
}

// ConfirmAction is Confirm followed by executor.ActionBytes: the raw bytes
// of the confirmed action.
func ConfirmAction(tb testing.TB, store *audit.Store, graph []byte, actionID string, limits shared.ConfirmationLimits) []byte {
	tb.Helper()
	out := Confirm(tb, store, graph, actionID, limits)
	b, err := executor.ActionBytes(out, actionID)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
