package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// Side effects come from evidence: payment fields, opt-in checkboxes,
// wording, endpoints on other hosts; the flags follow the effects.
func TestSideEffectsFromEvidence(t *testing.T) {
	type flags struct {
		Money, Obligation, Pii bool
		Reversible             shared.Reversible
	}
	cases := []struct {
		name    string
		body    string
		effects []shared.EffectKind
		flags   flags
	}{
		{"stripe payment in a cf7 form", `<div class="wpcf7" data-wpcf7-id="9"><form class="wpcf7-form" action="/book/" method="post" aria-label="Book a consultation">
<input type="hidden" name="_wpcf7" value="9"><input type="hidden" name="_wpcf7_stripe_payment_intent" value="">
<label for="n">Name</label><input id="n" name="your-name" autocomplete="name" required><label for="e">Email</label><input id="e" name="your-email" type="email" required>
<label for="d">Date</label><input id="d" name="date" type="date" required><button type="submit">Book and pay deposit</button></form></div>`,
			[]shared.EffectKind{shared.EffectChargesPayment, shared.EffectRequestsAppointment, shared.EffectSendsEmailToBusiness}, flags{true, true, true, shared.ReversibleUnknown}},
		{"newsletter opt-in and confirmation wording", `<h2>Contact us</h2><form action="/contact" method="post"><p>We will send you a confirmation email.</p>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required><label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="m">Message</label><textarea id="m" name="message" required></textarea>
<label><input type="checkbox" name="newsletter" value="yes"> Sign me up for the newsletter and special offers</label><button type="submit">Send</button></form>`,
			[]shared.EffectKind{shared.EffectSendsConfirmationToCustomer, shared.EffectSendsEmailToBusiness, shared.EffectSubscribesToMarketing}, flags{false, false, true, shared.ReversibleUnknown}},
		{"callback wording", `<h2>Request a call back</h2><form action="/callback" method="post"><p>Leave your number and we'll call you back within the hour.</p>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required><label for="p">Phone</label><input id="p" name="phone" type="tel" required><button type="submit">Call me back</button></form>`,
			[]shared.EffectKind{shared.EffectCreatesCallbackRequest}, flags{false, false, true, shared.ReversibleUnknown}},
		{"cancellation wording", `<h2>Book a table</h2><form action="/reserve" method="post"><p>Free cancellation up to two hours before your booking.</p>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required><label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="d">Date</label><input id="d" name="date" type="date" required><button type="submit">Book now</button></form>`,
			[]shared.EffectKind{shared.EffectRequestsAppointment}, flags{false, false, true, shared.ReversibleTrue}},
		{"posts to another host", `<h2>Contact us</h2><form action="https://forms.example-crm.net/submit/123" method="post">
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required><label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="m">Message</label><textarea id="m" name="message" required></textarea><button type="submit">Send</button></form>`,
			[]shared.EffectKind{shared.EffectSharesDataWithThirdParty}, flags{false, false, true, shared.ReversibleUnknown}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Acme", tc.body)}}, nil)
			if len(g.Actions) != 1 {
				t.Fatalf("want one action, got %+v", summaryOf(g))
			}
			a := g.Actions[0]
			if diff := cmp.Diff(tc.effects, summaryOf(g)[0].Effects); diff != "" {
				t.Errorf("effects (-want +got):\n%s", diff)
			}
			got := flags{a.SideEffects.ChargesMoney, a.SideEffects.CreatesObligation, a.SideEffects.TransmitsPii, a.SideEffects.Reversible}
			if got != tc.flags {
				t.Errorf("flags %+v, want %+v", got, tc.flags)
			}
			for _, e := range a.SideEffects.Effects {
				if e.Provenance.Evidence == nil || *e.Provenance.Evidence == "" || e.Provenance.Confidence >= 1 {
					t.Errorf("effect %s has provenance %+v: want evidence and confidence < 1", e.Kind, e.Provenance)
				}
			}
			if a.SideEffects.Summary == "" {
				t.Error("empty summary")
			}
		})
	}
}

// Reversibility is read only from what the action's text says, and a
// stated irreversibility outweighs a stated cancellation.
func TestReversibility(t *testing.T) {
	cases := []struct {
		text string
		want shared.Reversible
	}{
		{"Send us a message and we will reply within a day.", shared.ReversibleUnknown},
		{"You can cancel or reschedule online at any time.", shared.ReversibleTrue},
		{"Kostenlos stornieren bis 24 Stunden vorher.", shared.ReversibleTrue},
		{"Free cancellation up to 24 hours before. The deposit is non-refundable.", shared.ReversibleFalse},
		{"Bookings cannot be cancelled once confirmed.", shared.ReversibleFalse},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			got, phrase := reversibility(tc.text)
			if got != tc.want {
				t.Errorf("reversibility = %s (%q), want %s", got, phrase, tc.want)
			}
			if (phrase == "") != (got == shared.ReversibleUnknown) {
				t.Errorf("phrase %q for %s: a verdict needs the words that gave it", phrase, got)
			}
		})
	}
}
