package verifier_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
)

// After a re-scan, Reconcile keeps a confirmation only while what the owner
// confirmed is unchanged; the consent gate, with the audit store as its
// lookup, decides.
func ExampleReconcile() {
	// An owner confirmed a callback form; the store holds the digest of it.
	a := exampleAction()
	limits := exampleLimits()
	digest, _ := shared.ConsentDigest(shared.ConsentSubjectOf(&a, limits))
	store := shared.AuditLookupFunc(func(_ context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
		return shared.AuditAnswer{Found: q.Ref == "aud_1", Digest: digest}, nil
	})

	rescan := exampleGraph("2026-12-01T09:00:00Z", a)
	old := exampleGraph("2026-11-30T09:00:00Z")
	ref := "aud_1"
	confirmedAction := a
	confirmedAction.Verification = shared.Verified{Confirmation: shared.OwnerConfirmation{
		ConfirmedBy: "Sam", ConfirmedAt: "2026-11-30T10:00:00Z", Method: shared.ConfirmedOwnerPortal,
		AuditRecord: &ref, Limits: limits, Disclosure: shared.DisclosureOf(a.SideEffects)}}
	old.Actions = append(old.Actions, confirmedAction)

	// The site now posts the form somewhere else.
	moved := "https://collector.example.net/callback"
	rescan.Actions[0].Access = []shared.Access{rescan.Actions[0].Access[0]}
	sub := *rescan.Actions[0].Access[0].Submission
	sub.Endpoint = &moved
	rescan.Actions[0].Access[0].Submission = &sub

	kept, report, err := verifier.Reconcile(context.Background(), old, rescan, store)
	if err != nil {
		panic(err)
	}
	v := kept.Actions[0].Verification.(shared.Unverified)
	fmt.Println(kept.Actions[0].Verification.Status(), report[0].Kept)
	fmt.Println(strings.HasPrefix(*v.Note, verifier.DriftedNotePrefix), report[0].Changes[0].Path)
	// Output:
	// unverified false
	// true $.doors[0].endpoint
}

// exampleAction is a callback form as the mapper records it, unconfirmed.
func exampleAction() shared.Action {
	a := shared.NewAction("plumber01:callback:form", shared.KindCallback, "Call me back", "https://plumber.example/")
	endpoint := "https://plumber.example/callback"
	mapped := shared.Provenance{Method: shared.MethodParsedHTML, Confidence: 0.9, At: "2026-11-30T09:00:00Z", By: "mapper@0.1.0"}
	inferred := shared.Provenance{Method: shared.MethodInferred, Confidence: 0.7, At: "2026-11-30T09:00:00Z", By: "mapper@0.1.0"}
	a.Access = []shared.Access{{Method: shared.AccessHTMLForm, URL: a.URL, Occurrences: 1,
		Submission: &shared.Submission{Transport: shared.TransportFormPost, Endpoint: &endpoint}, Provenance: mapped}}
	a.SideEffects.Effects = []shared.Effect{{Kind: shared.EffectCreatesCallbackRequest, Provenance: inferred}}
	a.SideEffects.Summary = "Asks the office to phone you back."
	a.SideEffects.Provenance = inferred
	return a
}

// exampleLimits are the owner's limits: five a day, the office told.
func exampleLimits() shared.ConfirmationLimits {
	notify := "owner@plumber.example"
	return shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: &notify}
}

func exampleGraph(at shared.Timestamp, actions ...shared.Action) *shared.ActionGraph {
	site := shared.Site{Domain: "plumber.example", URL: "https://plumber.example/"}
	g := shared.NewGraph("plumber01", site, at, shared.Generator{Name: "mapper", Version: "0.1.0"})
	g.Actions = append(g.Actions, actions...)
	return g
}
