package shared_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/frontlatch/frontlatch/shared"
)

// bookingForm builds a mapped booking form, as the mapper would: a form with
// a real submit control, a name and a phone field, stated effects and
// provenance everywhere, and a CAPTCHA on the page.
func bookingForm(id string) shared.Action {
	prov := shared.Provenance{Method: shared.MethodParsedHTML, Confidence: 0.9, At: "2026-08-25T08:39:12.596Z", By: "mapper@0.1.0"}
	css := func(v string) *shared.Locator {
		return &shared.Locator{Strategy: shared.StrategyCSS, Value: v, Stability: shared.StabilityStable}
	}
	a := shared.NewAction(id, shared.KindBooking, "Book an appointment", "https://harbourside-dental.com.au/")
	a.Access = []shared.Access{{
		Method: shared.AccessHTMLForm, URL: a.URL, Locator: css("form#appointment-form"), Occurrences: 1,
		Submission: &shared.Submission{Transport: shared.TransportFormPost, SubmitControl: css("form#appointment-form button[type=submit]")},
		Provenance: prov,
	}}
	a.Inputs = []shared.Input{
		{Name: "patient-name", Semantic: shared.SemanticPersonName, Type: "text", Required: true, AgentFillable: true, ValueSpace: []shared.ValueSpace{}, Provenance: &prov},
		{Name: "phone", Semantic: shared.SemanticPhone, Type: "tel", Required: true, AgentFillable: true, ValueSpace: []shared.ValueSpace{}, Provenance: &prov},
	}
	a.SideEffects.Effects = []shared.Effect{{Kind: shared.EffectSendsEmailToBusiness, Provenance: prov}}
	a.SideEffects.Summary = "Emails the clinic a request for an appointment."
	a.SideEffects.Provenance = prov
	a.Barriers = []shared.Barrier{{Kind: shared.BarrierCaptcha, Provenance: prov}}
	a.Provenance = &prov
	return a
}

// A required field nobody could name keeps an action incomplete; the
// CAPTCHA is reported apart and does not.
func ExampleCompleteness() {
	a := bookingForm("clinic01:booking:appointment")
	a.Inputs = append(a.Inputs, shared.Input{
		Name: "existing-patient", Semantic: shared.SemanticUnknown, Type: "radio",
		Required: true, AgentFillable: true, ValueSpace: []shared.ValueSpace{}, Provenance: a.Provenance,
	})
	out, _ := json.MarshalIndent(shared.Completeness(a), "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "complete": false,
	//   "missing": [
	//     "inputs.required_semantic_unknown:existing-patient"
	//   ],
	//   "blockers": [
	//     "barrier.captcha"
	//   ],
	//   "score": 1
	// }
}

// Mappability is the share of a site's actions that are complete; a site
// with no actions scores 0.
func ExampleGraphCompleteness() {
	site := shared.Site{Domain: "harbourside-dental.com.au", URL: "https://harbourside-dental.com.au/"}
	g := shared.NewGraph("ag_clinic01", site, "2026-08-25T08:39:12.596Z", shared.Generator{Name: "mapper", Version: "0.1.0"})
	fmt.Println("no actions:", shared.GraphCompleteness(g).Mappability)

	phone := bookingForm("clinic01:callback:phone")
	phone.Access = []shared.Access{{Method: shared.AccessTelLink, URL: "tel:+61290000000", Occurrences: 1, Provenance: *phone.Provenance}}
	g.Actions = append(g.Actions, bookingForm("clinic01:booking:appointment"), phone)

	r := shared.GraphCompleteness(g)
	fmt.Printf("%d of %d complete, mappability %.2f\n", r.Complete, r.Actions, r.Mappability)
	enc := json.NewEncoder(os.Stdout)
	enc.Encode(r.MissingTally)
	enc.Encode(r.BlockerTally)
	// Output:
	// no actions: 0
	// 1 of 2 complete, mappability 0.50
	// {"access.no_drivable_door":1}
	// {"barrier.captcha":2}
}

// MissingCodeOf splits a reason into its code and the detail it carries.
func ExampleMissingCodeOf() {
	code, detail := shared.MissingCodeOf("provenance.missing:inputs[2]")
	fmt.Println(code, detail, code == shared.MissingProvenanceMissing)
	// Output:
	// provenance.missing inputs[2] true
}
