package shared_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// confirmedCallback is one action whose owner confirmed exactly what it does.
const confirmedCallback = `{
  "id": "plumber01:callback:form",
  "kind": "callback",
  "label": "Request a call back",
  "url": "https://northside-plumbing.com.au/contact",
  "access": [],
  "inputs": [],
  "validations": [],
  "sideEffects": {
    "effects": [
      { "kind": "creates-callback-request", "target": null, "holdsInventory": false,
        "provenance": { "method": "inferred", "confidence": 0.7, "at": "2026-08-25T08:00:00.000Z", "by": "mapper@0.1.0", "evidence": null } }
    ],
    "reversible": true,
    "createsObligation": false,
    "transmitsPii": true,
    "chargesMoney": false,
    "summary": "Asks the office to phone the customer back. Nothing is booked or charged.",
    "provenance": { "method": "inferred", "confidence": 0.7, "at": "2026-08-25T08:00:00.000Z", "by": "mapper@0.1.0", "evidence": null }
  },
  "barriers": [],
  "provenance": null,
  "verification": {
    "status": "verified",
    "confirmation": {
      "confirmedBy": "Sam Reid (owner)",
      "confirmedAt": "2026-09-02T09:30:00.000Z",
      "method": "signed-link",
      "auditRecord": "audit-42",
      "limits": { "volumeCap": { "max": 20, "per": "day" }, "notify": "office@northside-plumbing.com.au" },
      "disclosure": {
        "effects": ["creates-callback-request"],
        "holdsInventory": false,
        "reversible": true,
        "createsObligation": false,
        "transmitsPii": true,
        "chargesMoney": false,
        "summary": "Asks the office to phone the customer back. Nothing is booked or charged."
      }
    },
    "sandboxRuns": [],
    "note": null
  }
}`

// auditRecords stands in for the verifier's audit store: the record written
// when Sam confirmed, with the digest of what he was shown.
var auditRecords = func() shared.AuditLookup {
	a, _ := shared.ReadAction([]byte(confirmedCallback))
	c := a.Verification.(shared.Verified).Confirmation
	digest, _ := shared.ConsentDigest(shared.ConsentSubjectOf(a, c.Limits))
	return shared.AuditLookupFunc(func(_ context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
		if q.Ref != "audit-42" || q.ActionID != a.ID || q.ConfirmedBy != c.ConfirmedBy || q.ConfirmedAt != c.ConfirmedAt {
			return shared.AuditAnswer{}, nil
		}
		return shared.AuditAnswer{Found: true, Digest: digest}, nil
	})
}()

// The executor calls the gate on the raw bytes of the action, every time,
// before anything fires.
func ExampleAssertLiveExecutionAllowed() {
	err := shared.AssertLiveExecutionAllowed([]byte(confirmedCallback), auditRecords)
	fmt.Println("confirmed:", err)

	// The site now charges a call-out fee and the summary says so. The owner
	// never saw that sentence, so the action stops until they re-confirm.
	drifted := strings.Replace(confirmedCallback,
		`"summary": "Asks the office to phone the customer back. Nothing is booked or charged.",
    "provenance"`,
		`"summary": "Asks the office to phone the customer back. A $60 call-out fee applies.",
    "provenance"`, 1)
	drifted = strings.Replace(drifted, `"chargesMoney": false,
    "summary"`, `"chargesMoney": true,
    "summary"`, 1)
	err = shared.AssertLiveExecutionAllowed([]byte(drifted), auditRecords)
	fmt.Println("refused:", errors.Is(err, shared.ErrUnverifiedAction))
	var refusal *shared.UnverifiedActionError
	if errors.As(err, &refusal) {
		for _, r := range refusal.Reasons {
			fmt.Println(strings.TrimSpace(string(r.Reason) + " " + r.Key))
		}
	}
	// Output:
	// confirmed: <nil>
	// refused: true
	// confirmation.digest-mismatch
	// disclosure.drift chargesMoney
	// disclosure.drift summary
}

// A context bounds the audit lookup; an audit store that cannot answer is a
// refusal, never a grant, and its error stays reachable.
func ExampleAssertLiveExecutionAllowedContext() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the request was abandoned
	store := shared.AuditLookupFunc(func(ctx context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
		if err := ctx.Err(); err != nil {
			return shared.AuditAnswer{}, err
		}
		return auditRecords.LookupAudit(ctx, q)
	})
	err := shared.AssertLiveExecutionAllowedContext(ctx, []byte(confirmedCallback), store)
	fmt.Println(errors.Is(err, shared.ErrUnverifiedAction), errors.Is(err, context.Canceled))
	// Output:
	// true true
}

// AuditLookupFunc turns a function into an AuditLookup. Keep what was
// written at confirmation — who, when, and the digest of what the owner was
// shown — and answer with your own copy: then an edit of the graph file,
// however consistent, cannot forge consent.
func ExampleAuditLookupFunc() {
	type record struct {
		actionID, by string
		at           shared.Timestamp
		digest       string
	}
	// Written by the verifier when the owner confirmed.
	a, _ := shared.ReadAction([]byte(confirmedCallback))
	c := a.Verification.(shared.Verified).Confirmation
	digest, _ := shared.ConsentDigest(shared.ConsentSubjectOf(a, c.Limits))
	records := map[string]record{"audit-42": {a.ID, c.ConfirmedBy, c.ConfirmedAt, digest}}

	store := shared.AuditLookupFunc(func(_ context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
		rec, ok := records[q.Ref]
		if !ok || rec.actionID != q.ActionID || rec.by != q.ConfirmedBy || rec.at != q.ConfirmedAt {
			return shared.AuditAnswer{}, nil
		}
		return shared.AuditAnswer{Found: true, Digest: rec.digest}, nil
	})
	fmt.Println(shared.AssertLiveExecutionAllowed([]byte(confirmedCallback), store))

	// Someone raises the cap in the file: the digest no longer matches.
	raised := strings.Replace(confirmedCallback, `"max": 20`, `"max": 20000`, 1)
	err := shared.AssertLiveExecutionAllowed([]byte(raised), store)
	var refusal *shared.UnverifiedActionError
	fmt.Println(errors.As(err, &refusal) && refusal.Has(shared.RefuseConfirmationDigestMismatch))
	// Output:
	// <nil>
	// true
}

// Every failed check is reported, not just the first.
func ExampleUnverifiedActionError() {
	unconfirmed := strings.Replace(confirmedCallback, `"notify": "office@northside-plumbing.com.au"`, `"notify": null`, 1)
	err := shared.AssertLiveExecutionAllowed([]byte(unconfirmed), nil) // no audit store either
	var refusal *shared.UnverifiedActionError
	if errors.As(err, &refusal) {
		fmt.Println(refusal.ActionID)
		for _, r := range refusal.Reasons {
			fmt.Println(r.Reason)
		}
	}
	// Output:
	// plumber01:callback:form
	// confirmation.audit-unresolved
	// confirmation.no-notify-target
}

// RefusedActions is the gate over a whole graph file, for what is built
// from it (the compiler's formats, the readiness report): here the file
// says an action is verified that the store has no record of.
func ExampleRefusedActions() {
	data, _ := shared.ReadDocumentFile("../fixtures/graphs/clinic01.json")
	g, _ := shared.Read(data)
	a, _ := shared.ReadAction([]byte(confirmedCallback))
	a.ID = g.Actions[0].ID // pasted into clinic01's graph
	g.Actions[0] = *a
	empty := shared.AuditLookupFunc(func(context.Context, shared.AuditQuery) (shared.AuditAnswer, error) {
		return shared.AuditAnswer{}, nil
	})
	refused, err := shared.RefusedActions(context.Background(), g, empty)
	fmt.Println(len(refused), err)
	fmt.Println(strings.HasPrefix(refused[g.Actions[0].ID], "confirmation.audit-unresolved"))
	// Output:
	// 1 <nil>
	// true
}
