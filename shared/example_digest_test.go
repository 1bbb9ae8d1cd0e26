package shared_test

import (
	"fmt"

	"github.com/frontlatch/frontlatch/shared"
)

// The verifier writes the digest of what the owner confirms into the audit
// record; the gate, the executor or anyone else recomputes it from the
// action as it is now and compares.
func ExampleConsentDigest() {
	a := shared.NewAction("plumber01:callback:phone", shared.KindCallback, "Call us", "https://plumber.example/")
	a.SideEffects.Effects = []shared.Effect{{Kind: shared.EffectCreatesCallbackRequest}}
	a.SideEffects.Summary = "Asks the office to phone you back."
	notify := "owner@plumber.example"
	limits := shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: &notify}

	confirmed := shared.ConsentSubjectOf(&a, limits)
	digest, err := shared.ConsentDigest(confirmed)
	if err != nil {
		panic(err)
	}
	fmt.Println(digest[:len(shared.ConsentDigestPrefix)])

	// Later the site's form posts elsewhere: the digest changes, and
	// CompareConsent says what.
	a.Access = append(a.Access, shared.Access{Method: shared.AccessTelLink, URL: "tel:+61200000000"})
	for _, c := range shared.CompareConsent(confirmed, shared.ConsentSubjectOf(&a, limits)) {
		fmt.Println(c.Path)
	}
	// Output:
	// sha256:
	// $.doors[0]
}
