package audit_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// The portal records what the owner confirmed; the consent gate looks it
// up later, through the same store.
func Example() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	// What the owner is shown and says yes to.
	a := shared.NewAction("plumber01:callback:form", shared.KindCallback, "Call us", "https://plumber.example/")
	a.SideEffects.Effects = []shared.Effect{{Kind: shared.EffectCreatesCallbackRequest}}
	a.SideEffects.Summary = "Asks the office to phone you back."
	notify := "owner@plumber.example"
	subject := shared.ConsentSubjectOf(&a, shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: &notify})
	canonical, _ := shared.CanonicalConsent(subject)
	digest, _ := shared.ConsentDigest(subject)

	rec, err := store.RecordConfirmation(ctx, audit.Confirmation{
		GraphID: "ag_plumber01", ActionID: a.ID,
		ConfirmedBy: "Sam Reid (owner)", ConfirmedAt: "2026-09-02T09:30:00.000Z",
		Method: shared.ConfirmedOwnerPortal, Digest: digest, Subject: canonical,
	})
	if err != nil {
		panic(err)
	}

	// The gate asks with the confirmation's own claims.
	ans, err := store.LookupAudit(ctx, shared.AuditQuery{
		Ref: rec.Ref, ActionID: a.ID, ConfirmedBy: "Sam Reid (owner)", ConfirmedAt: "2026-09-02T09:30:00.000Z", Digest: digest,
	})
	fmt.Println(ans.Found, ans.Revoked, ans.Digest == digest, err)

	// A reference copied onto another action resolves to nothing.
	ans, _ = store.LookupAudit(ctx, shared.AuditQuery{
		Ref: rec.Ref, ActionID: "plumber01:booking:form", ConfirmedBy: "Sam Reid (owner)", ConfirmedAt: "2026-09-02T09:30:00.000Z",
	})
	fmt.Println(ans.Found)
	// Output:
	// true false true <nil>
	// false
}

// The executor begins an attempt before the network call and completes it
// after; the volume cap is enforced as it begins.
func ExampleStore_BeginAttempt() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := audit.Open(ctx, "sqlite:"+filepath.Join(dir, "audit.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	b := audit.Begin{ActionID: "plumber01:callback:form", AuditRef: "aud_1", IdempotencyKey: "call-1",
		Cap: shared.VolumeCap{Max: 1, Per: shared.PerDay}, Request: []byte(`{"phone":"0400 000 000"}`), Instance: "exec-a"}
	att, err := store.BeginAttempt(ctx, b)
	fmt.Println(err)
	fmt.Println(store.CompleteAttempt(ctx, att.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200}))

	_, err = store.BeginAttempt(ctx, b) // the same key again: the first attempt, nothing new
	fmt.Println(errors.Is(err, audit.ErrDuplicate))
	b.IdempotencyKey = "call-2"
	_, err = store.BeginAttempt(ctx, b) // a second call today, cap 1
	fmt.Println(errors.Is(err, audit.ErrCapReached))
	// Output:
	// <nil>
	// <nil>
	// true
	// true
}

// An executor starting up marks what a killed predecessor left begun but
// never completed — outcome unknown, still counted by the cap — and leaves
// alone the attempt in flight of an executor still running beside it on
// the same store, whose heartbeat lease lasts.
func ExampleStore_RecoverAbandoned() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	b := audit.Begin{ActionID: "plumber01:callback:form", Cap: shared.VolumeCap{Max: 2, Per: shared.PerDay}, Instance: "exec-killed"}
	killed, err := store.BeginAttempt(ctx, b) // … and the process died here
	if err != nil {
		panic(err)
	}
	// A live executor says it is alive for the next 30 s, then begins.
	if err := store.Heartbeat(ctx, "exec-live", time.Time{}, 30*time.Second); err != nil {
		panic(err)
	}
	b.Instance = "exec-live"
	live, err := store.BeginAttempt(ctx, b)
	if err != nil {
		panic(err)
	}

	n, err := store.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "exec-new"})
	fmt.Println(n, err)
	for _, id := range []string{killed.ID, live.ID} {
		a, _ := store.Attempt(ctx, id)
		fmt.Println(a.Instance, "unknown:", a.Unknown)
	}
	b.Instance = "exec-new"
	_, err = store.BeginAttempt(ctx, b)
	fmt.Println(errors.Is(err, audit.ErrCapReached))
	// Output:
	// 1 <nil>
	// exec-killed unknown: true
	// exec-live unknown: false
	// true
}

// Revoking is a record of its own; the lookup then says Revoked and the
// gate refuses.
func ExampleStore_RecordRevocation() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	rec, err := store.RecordConfirmation(ctx, audit.Confirmation{
		ActionID: "plumber01:callback:form", ConfirmedBy: "Sam Reid (owner)", ConfirmedAt: "2026-09-02T09:30:00.000Z",
		Method: shared.ConfirmedOwnerPortal, Digest: "sha256:" + strings.Repeat("0", 64),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(store.RecordRevocation(ctx, audit.Revocation{ActionID: rec.ActionID, Ref: rec.Ref, By: "Sam Reid (owner)", At: time.Now(), Reason: "the form now charges a fee"}))
	ans, _ := store.LookupAudit(ctx, shared.AuditQuery{Ref: rec.Ref, ActionID: rec.ActionID, ConfirmedBy: rec.ConfirmedBy, ConfirmedAt: rec.ConfirmedAt})
	fmt.Println(ans.Found, ans.Revoked)
	history, _ := store.History(ctx, rec.ActionID)
	for _, e := range history {
		fmt.Println(e.Kind, e.By)
	}
	// Output:
	// <nil>
	// true true
	// confirmation Sam Reid (owner)
	// revocation Sam Reid (owner)
}

// A cap that is already used up can be seen before doing anything costly
// (the executor skips the page fetch), and the refusal audited as the
// cap's; BeginAttempt still decides. The store here is opened with the
// default durability spelled out: begin records, confirmations and
// revocations fsynced, the rest not (see Durability).
func ExampleStore_CapReached() {
	dir, _ := os.MkdirTemp("", "audit-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := audit.Open(ctx, "sqlite:"+filepath.Join(dir, "audit.db")+"?synchronous="+string(audit.DurabilityCritical))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	cap1 := shared.VolumeCap{Max: 1, Per: shared.PerDay}
	full, err := store.CapReached(ctx, "plumber01:callback:form", cap1, time.Time{})
	fmt.Println(full, err)
	if _, err := store.BeginAttempt(ctx, audit.Begin{ActionID: "plumber01:callback:form", AuditRef: "aud_1", Cap: cap1, Instance: "exec-a"}); err != nil {
		panic(err)
	}
	full, err = store.CapReached(ctx, "plumber01:callback:form", cap1, time.Time{})
	fmt.Println(full, err)
	fmt.Println(store.RecordCapRefusal(ctx, "plumber01:callback:form", "", "cap.reached: 1 of 1 per day", time.Time{}))
	// Output:
	// false <nil>
	// true <nil>
	// <nil>
}
