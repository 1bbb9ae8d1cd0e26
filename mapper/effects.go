package mapper

import (
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// effectContext is the evidence about one action that side effects are
// read from.
type effectContext struct {
	kind        shared.ActionKind
	plugin      *plugin
	pluginMatch string
	endpoint    string // where the data goes, "" when unknown
	siteHost    string
	text        string // what the form or tool says about itself
	inputs      []shared.Input
	fieldNames  []string // every control name, hidden ones included
	vendor      *vendor  // a third party that takes the data (opaque door)
	mailto      string   // the address of a mailto-only action
	phoneOnly   bool     // an action reached only by phone
	payment     string   // evidence that money moves, "" when none
}

// wording is one phrase that states a consequence in the action's own text.
type wording struct {
	kind    shared.EffectKind
	phrases []string
	conf    float64
}

// wordings is the one list of consequence phrases (several languages).
var wordings = []wording{
	{shared.EffectCreatesCallbackRequest, []string{"call you back", "phone you back", "ring you back", "call you to confirm", "phone you to confirm", "contact you by phone", "will call you", "we'll call", "we will call", "give you a call", "callback", "call-back", "rufen sie zurück", "rufen wir sie", "vous rappel", "vous recontacter par téléphone", "le llamaremos", "la llamaremos", "ti richiamiamo", "la richiameremo", "bellen u terug"}, 0.65},
	{shared.EffectSendsConfirmationToCustomer, []string{"confirmation email", "confirmation e-mail", "email you a confirmation", "e-mail you a confirmation", "receive a confirmation", "send you a confirmation", "confirmation by email", "bestätigungs", "e-mail de confirmation", "email de confirmation", "correo de confirmación", "email di conferma", "bevestigingsmail"}, 0.6},
	{shared.EffectSubscribesToMarketing, []string{"subscribe to our newsletter", "sign up to our newsletter", "join our mailing list"}, 0.5},
}

// reversalWording is what an action's own text says about undoing it.
// Irreversibility wins when both appear ("free cancellation up to 24 hours
// before; the deposit is non-refundable"): the owner must not be told an
// action can be taken back when part of it cannot.
var reversalWording = []struct {
	rev     shared.Reversible
	phrases []string
}{
	{shared.ReversibleFalse, []string{"non-refundable", "non refundable", "nonrefundable", "no refunds", "cannot be cancelled", "cannot be canceled", "can't be cancelled", "can't be canceled", "no cancellations", "all sales are final", "all bookings are final", "nicht stornierbar", "keine erstattung", "non remboursable", "no reembolsable", "non rimborsabile", "niet restitueerbaar"}},
	{shared.ReversibleTrue, []string{"cancel at any time", "cancel anytime", "cancel any time", "free cancellation", "cancel or reschedule", "cancel or change", "reschedule or cancel", "change or cancel", "you can cancel", "cancel free of charge", "unsubscribe at any time", "kostenlos stornieren", "jederzeit stornieren", "annulation gratuite", "annuler à tout moment", "cancelación gratuita", "cancellazione gratuita", "gratis annuleren"}},
}

// reversibility reads whether an action can be undone from its own text;
// unknown when the text says nothing either way.
func reversibility(text string) (shared.Reversible, string) {
	t := strings.ToLower(text)
	for _, w := range reversalWording {
		for _, p := range w.phrases {
			if strings.Contains(t, p) {
				return w.rev, p
			}
		}
	}
	return shared.ReversibleUnknown, ""
}

// paymentFieldMarks name controls through which money moves.
var paymentFieldMarks = []string{"_wpcf7_stripe_payment_intent", "stripe", "cc-number", "card-number", "cardnumber", "card_number", "payment_intent", "paypal"}

// paymentScriptMarks are script or frame URLs of payment processors.
var paymentScriptMarks = []string{"js.stripe.com", "paypal.com/sdk", "paypalobjects.com", "js.squareup.com", "web.squarecdn.com", "checkout.razorpay.com"}

// kindEffect is what an action of a kind does when nothing more specific is
// known: the customer asks, the business answers.
var kindEffect = map[shared.ActionKind]pluginEffect{
	shared.KindBooking:  {shared.EffectRequestsAppointment, "", 0.55, "a booking form sends a request that the business still has to accept"},
	shared.KindQuote:    {shared.EffectRequestsQuote, "", 0.6, "the action asks the business for a quote"},
	shared.KindCallback: {shared.EffectCreatesCallbackRequest, "", 0.6, "the action asks the business to phone the customer back"},
	shared.KindContact:  {shared.EffectSendsEmailToBusiness, "", 0.5, "a contact message reaches the business, most often by email"},
	shared.KindEnquiry:  {shared.EffectSendsEmailToBusiness, "", 0.5, "an enquiry reaches the business, most often by email"},
}

// piiSemantics are the semantics whose values identify a person.
var piiSemantics = map[shared.SemanticType]bool{
	shared.SemanticPersonName: true, shared.SemanticGivenName: true, shared.SemanticFamilyName: true,
	shared.SemanticEmail: true, shared.SemanticPhone: true, shared.SemanticStreetAddress: true,
	shared.SemanticPostcode: true, shared.SemanticFileAttachment: true, shared.SemanticMessage: true,
}

// sideEffects is the effects stage: it reads the consequences of an
// action from the evidence its doors left (effectContext) and nothing
// else. The list is never empty: with nothing to go on it says unknown.
func (s signer) sideEffects(c effectContext) shared.SideEffects {
	var effs []shared.Effect
	has := map[shared.EffectKind]bool{}
	add := func(k shared.EffectKind, target string, hold bool, conf float64, method shared.ProvenanceMethod, ev string) {
		if has[k] {
			return
		}
		has[k] = true
		effs = append(effs, shared.Effect{Kind: k, Target: strPtr(target), HoldsInventory: hold, Provenance: s.prov(method, conf, ev)})
	}
	switch {
	case c.vendor != nil && c.vendor.role == roleScheduler:
		add(shared.EffectBooksAppointment, "", true, 0.6, shared.MethodInferred, c.vendor.name+" is a self-service scheduler: choosing a slot books it in the business's calendar")
		add(shared.EffectSharesDataWithThirdParty, c.vendor.name, false, 0.9, shared.MethodInferred, "the booking is taken by "+c.vendor.name+", not by the site")
	case c.vendor != nil:
		add(shared.EffectSharesDataWithThirdParty, c.vendor.name, false, 0.9, shared.MethodInferred, "the form is hosted by "+c.vendor.name+", not by the site")
		add(shared.EffectSendsEmailToBusiness, "", false, 0.5, shared.MethodInferred, c.vendor.name+" notifies the form owner by email by default")
	case c.mailto != "":
		add(shared.EffectSendsEmailToBusiness, c.mailto, false, 0.9, shared.MethodParsedHTML, "mailto:"+c.mailto)
	}
	if c.plugin != nil {
		for _, e := range c.plugin.effects {
			add(e.kind, e.target, false, e.conf, shared.MethodInferred, c.plugin.name+" signature ("+c.pluginMatch+"); "+e.why)
		}
	}
	if c.endpoint != "" {
		switch h := hostOf(c.endpoint); {
		case strings.HasPrefix(strings.ToLower(c.endpoint), "mailto:"):
			add(shared.EffectSendsEmailToBusiness, strings.TrimPrefix(c.endpoint, "mailto:"), false, 0.85, shared.MethodParsedHTML, "the form's action is "+c.endpoint)
		case h != "" && c.siteHost != "" && h != c.siteHost && !strings.HasSuffix(h, "."+strings.TrimPrefix(c.siteHost, "www.")):
			add(shared.EffectSharesDataWithThirdParty, h, false, 0.8, shared.MethodParsedHTML, "the data is sent to "+h+", another site")
		}
	}
	if c.payment != "" {
		add(shared.EffectChargesPayment, "", false, 0.85, shared.MethodParsedHTML, c.payment)
	}
	text := strings.ToLower(c.text)
	for _, w := range wordings {
		for _, p := range w.phrases {
			if strings.Contains(text, p) {
				add(w.kind, "", false, w.conf, shared.MethodInferred, "the text says “"+p+"”")
				break
			}
		}
	}
	for _, in := range c.inputs {
		switch {
		case in.Semantic == shared.SemanticMarketingOptIn && in.AgentFillable:
			add(shared.EffectSubscribesToMarketing, "", false, 0.7, shared.MethodInferred, "opt-in field "+in.Name+": subscribes the customer only when ticked")
		case in.Type == "password" && in.AgentFillable:
			add(shared.EffectCreatesAccount, "", false, 0.6, shared.MethodInferred, "password field "+in.Name+": submitting creates an account")
		}
	}
	if ke, ok := kindEffect[c.kind]; ok && !has[ke.kind] && !c.phoneOnly && c.vendor == nil {
		// A callback already says how a booking request is answered, and a
		// message that already reaches the business needs no default.
		reaches := has[shared.EffectSendsEmailToBusiness] || has[shared.EffectSharesDataWithThirdParty] || has[shared.EffectCreatesCallbackRequest]
		if !(c.kind == shared.KindBooking && has[shared.EffectCreatesCallbackRequest]) && !(ke.kind == shared.EffectSendsEmailToBusiness && reaches) {
			add(ke.kind, "", false, ke.conf, shared.MethodInferred, ke.why)
		}
	}
	if len(effs) == 0 {
		why := "nothing on the page says what happens after submitting"
		if c.phoneOnly {
			why = "a phone call: what happens is agreed on the call"
		}
		add(shared.EffectUnknown, "", false, 0.2, shared.MethodDefaulted, why)
	}
	rev, revPhrase := reversibility(c.text)
	se := shared.SideEffects{Effects: effs, Reversible: rev}
	se.ChargesMoney = has[shared.EffectChargesPayment]
	se.CreatesObligation = has[shared.EffectBooksAppointment] || has[shared.EffectPlacesOrder] || has[shared.EffectChargesPayment]
	se.TransmitsPii = c.vendor != nil || c.mailto != "" || c.phoneOnly
	for _, in := range c.inputs {
		if piiSemantics[in.Semantic] && in.AgentFillable {
			se.TransmitsPii = true
		}
	}
	se.Summary = summarize(effs, se)
	ev := "NOT owner-confirmed — this is the mapper's reading of the action and must be confirmed before any live execution"
	if revPhrase != "" {
		ev += "; reversible " + string(rev) + ": the text says “" + revPhrase + "”"
	}
	se.Provenance = s.prov(shared.MethodInferred, effectsConfidence(effs), ev)
	return se
}

// effectsConfidence is the confidence of the whole reading: that of its
// weakest effect, capped at 0.8 because the server side is never seen.
func effectsConfidence(effs []shared.Effect) float64 {
	c := 0.8
	for _, e := range effs {
		if e.Provenance.Confidence < c {
			c = e.Provenance.Confidence
		}
	}
	return c
}

// effectPhrases says each effect kind as the verb phrase of a summary.
var effectPhrases = map[shared.EffectKind]string{
	shared.EffectSendsEmailToBusiness:        "emails the business the customer's details",
	shared.EffectCreatesCallbackRequest:      "asks the business to phone the customer back",
	shared.EffectRequestsAppointment:         "asks the business for an appointment it still has to confirm",
	shared.EffectBooksAppointment:            "books a slot in the business's calendar",
	shared.EffectRequestsQuote:               "asks the business for a quote",
	shared.EffectPlacesOrder:                 "places an order",
	shared.EffectSendsConfirmationToCustomer: "sends the customer a confirmation",
	shared.EffectSubscribesToMarketing:       "can subscribe the customer to marketing",
	shared.EffectCreatesAccount:              "creates an account for the customer",
	shared.EffectChargesPayment:              "charges the customer",
	shared.EffectSharesDataWithThirdParty:    "passes the customer's details to a third party",
	shared.EffectUnknown:                     "does something the page does not state",
}

// summarize is the one sentence an owner reads on the confirmation screen.
func summarize(effs []shared.Effect, se shared.SideEffects) string {
	var parts []string
	for _, e := range effs {
		p := effectPhrases[e.Kind]
		if e.Kind == shared.EffectSharesDataWithThirdParty && e.Target != nil {
			p = "passes the customer's details to " + *e.Target
		}
		parts = append(parts, p)
	}
	s := joinAnd(parts)
	s = strings.ToUpper(s[:1]) + s[1:]
	if !se.ChargesMoney && !se.CreatesObligation && len(effs) > 0 && effs[0].Kind != shared.EffectUnknown {
		s += "; nothing indicates that a slot is held or a charge is made"
	}
	return s + "."
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// paymentEvidence names the control or script through which money moves.
func paymentEvidence(fieldNames []string, autocomplete []string, urls []string) string {
	for _, n := range fieldNames {
		ln := strings.ToLower(n)
		for _, m := range paymentFieldMarks {
			if strings.Contains(ln, m) {
				return "payment field " + n
			}
		}
	}
	for _, a := range autocomplete {
		if strings.HasPrefix(a, "cc-") {
			return "card field (autocomplete=" + a + ")"
		}
	}
	for _, u := range urls {
		lu := strings.ToLower(u)
		for _, m := range paymentScriptMarks {
			if strings.Contains(lu, m) {
				return "payment script " + u
			}
		}
	}
	return ""
}
