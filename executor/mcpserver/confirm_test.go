package mcpserver_test

import (
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// confirm records in store an owner's confirmation of action id of graph
// with lim, as the verifier's portal would, and returns the graph with the
// action verified by it, and the audit reference.
//
// It stands in for executortest.Confirm until that lands on this branch.
func confirm(t *testing.T, store *audit.Store, graph []byte, id string, lim shared.ConfirmationLimits) ([]byte, string) {
	t.Helper()
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		t.Fatalf("graph: %v", issues)
	}
	var a *shared.Action
	for i := range g.Actions {
		if g.Actions[i].ID == id {
			a = &g.Actions[i]
		}
	}
	if a == nil {
		t.Fatalf("no action %s", id)
	}
	subject := shared.ConsentSubjectOf(a, lim)
	digest, err := shared.ConsentDigest(subject)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := shared.CanonicalConsent(subject)
	if err != nil {
		t.Fatal(err)
	}
	at := shared.TimestampOf(time.Now().Add(-time.Minute).UTC())
	rec, err := store.RecordConfirmation(t.Context(), audit.Confirmation{
		GraphID: g.GraphID, ActionID: id, ConfirmedBy: "Pat Owner (owner)", ConfirmedAt: at,
		Method: shared.ConfirmedOwnerPortal, Digest: digest, Subject: canon,
	})
	if err != nil {
		t.Fatal(err)
	}
	ref := rec.Ref
	a.Verification = shared.Verified{
		Confirmation: shared.OwnerConfirmation{
			ConfirmedBy: "Pat Owner (owner)", ConfirmedAt: at, Method: shared.ConfirmedOwnerPortal,
			AuditRecord: &ref, Limits: lim, Disclosure: shared.DisclosureOf(a.SideEffects),
		},
		SandboxRuns: []shared.SandboxRun{},
	}
	out, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return out, ref
}
