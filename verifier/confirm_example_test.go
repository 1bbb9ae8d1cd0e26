package verifier_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// The owner says yes to one action: Confirm writes the audit record and
// returns a graph in which the action is verified; the gate, with the store
// as its lookup, lets it fire. Revoke withdraws it the same way.
func ExampleConfirm() {
	ctx := context.Background()
	store, done, err := exampleStore(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	g := exampleGraph("2026-11-30T09:00:00Z", exampleAction())
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	confirmed, rec, err := verifier.Confirm(ctx, g, "plumber01:callback:form",
		verifier.Confirmation{By: "Sam Reid (owner)", At: at, Limits: exampleLimits()}, store)
	if err != nil {
		fmt.Println(err)
		return
	}
	a := confirmed.Actions[0]
	v := a.Verification.(shared.Verified)
	fmt.Println(a.Verification.Status(), *v.Confirmation.AuditRecord == rec.Ref, g.Actions[0].Verification.Status())

	raw, _ := shared.WriteAction(&a)
	fmt.Println(shared.AssertLiveExecutionAllowed(raw, store))

	// What the owner confirmed, edited in the file afterwards, no longer
	// matches the audit record: the gate refuses.
	edited := *v.Confirmation.Limits.VolumeCap
	edited.Max = 500
	v.Confirmation.Limits.VolumeCap = &edited
	a.Verification = v
	raw, _ = shared.WriteAction(&a)
	fmt.Println(shared.AssertLiveExecutionAllowed(raw, store) != nil)
	// Output:
	// verified true unverified
	// <nil>
	// true
}

func ExampleRevoke() {
	ctx := context.Background()
	store, done, err := exampleStore(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	confirmed, _, err := verifier.Confirm(ctx, exampleGraph("2026-11-30T09:00:00Z", exampleAction()), "plumber01:callback:form",
		verifier.Confirmation{By: "Sam Reid (owner)", At: at, Limits: exampleLimits()}, store)
	if err != nil {
		fmt.Println(err)
		return
	}
	stale, _ := shared.WriteAction(&confirmed.Actions[0])

	revoked, err := verifier.Revoke(ctx, confirmed, "plumber01:callback:form", store, "Sam Reid (owner)", "we stopped callbacks", at.Add(time.Hour))
	fmt.Println(revoked.Actions[0].Verification.Status(), err)
	// A copy of the file made before the revocation still says verified;
	// the audit record says otherwise, and the gate believes the record.
	fmt.Println(shared.AssertLiveExecutionAllowed(stale, store) != nil)
	// Output:
	// unverified <nil>
	// true
}

// exampleStore opens an audit store in a folder of its own; done closes it
// and removes the folder.
func exampleStore(ctx context.Context) (store *audit.Store, done func(), err error) {
	dir, err := os.MkdirTemp("", "verifier-example")
	if err != nil {
		return nil, nil, err
	}
	store, err = audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return store, func() { store.Close(); os.RemoveAll(dir) }, nil
}
