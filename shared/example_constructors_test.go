package shared_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// NewGraph starts an empty graph at the contract version; actions are
// appended to it.
func ExampleNewGraph() {
	at := shared.TimestampOf(time.Date(2026, 8, 25, 8, 39, 12, 596e6, time.UTC))
	g := shared.NewGraph("ag_example", shared.Site{Domain: "example.com.au", URL: "https://example.com.au/"},
		at, shared.Generator{Name: "mapper", Version: "0.1.0"})
	fmt.Println(g.SchemaVersion, g.GraphID, g.GeneratedAt, len(g.Actions))
	// Output: 0.1 ag_example 2026-08-25T08:39:12.596Z 0
}

// NewAction never yields a verified action: verification is earned by a
// sandbox run or an owner's confirmation, not by construction.
func ExampleNewAction() {
	a := shared.NewAction("example:contact", shared.KindContact, "Contact us", "https://example.com.au/contact")
	fmt.Println(a.ID, a.Kind, a.Verification.Status(), a.SideEffects.Reversible)
	// Output: example:contact contact unverified unknown
}

// TimestampOf writes times the way every graph records them: UTC,
// milliseconds.
func ExampleTimestampOf() {
	sydney := time.FixedZone("AEST", 10*60*60)
	fmt.Println(shared.TimestampOf(time.Date(2026, 8, 25, 18, 39, 12, 0, sydney)))
	// Output: 2026-08-25T08:39:12.000Z
}

// DisclosureOf is what an owner is shown and confirms; the consent gate
// compares it with the action as it is on every live call.
func ExampleDisclosureOf() {
	se := shared.SideEffects{
		Effects: []shared.Effect{
			{Kind: shared.EffectBooksAppointment, HoldsInventory: true},
			{Kind: shared.EffectSendsConfirmationToCustomer},
		},
		Reversible:   shared.ReversibleUnknown,
		TransmitsPii: true,
		Summary:      "Books a 30-minute appointment and emails a confirmation.",
	}
	b, err := json.MarshalIndent(shared.DisclosureOf(se), "", "  ")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "effects": [
	//     "books-appointment",
	//     "sends-confirmation-to-customer"
	//   ],
	//   "holdsInventory": true,
	//   "reversible": "unknown",
	//   "createsObligation": false,
	//   "transmitsPii": true,
	//   "chargesMoney": false,
	//   "summary": "Books a 30-minute appointment and emails a confirmation."
	// }
}

// The consent key lists say which SideEffects keys an owner's confirmation
// binds; a change to any bound key expires it.
func ExampleConsentBoundSideEffectKeys() {
	fmt.Println("bound:", shared.ConsentBoundSideEffectKeys())
	fmt.Println("excluded:", shared.ConsentExcludedSideEffectKeys())
	// Output:
	// bound: [effects reversible createsObligation transmitsPii chargesMoney summary]
	// excluded: [provenance]
}
