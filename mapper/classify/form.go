package classify

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Form classifies the purpose of a form or formless group. page may be nil;
// when given, its title and URL path count as weak evidence for which kind
// of customer action a form is (a form on /book-online books).
func Form(form extract.Form, page *extract.Page) FormResult {
	return FormWith(form, page, Fields(form, page))
}

// FormWith is Form when the fields are already classified (fields[i]
// describes form.Fields[i]). The purpose is decided by formRules, in
// order: the first rule that applies names the purpose, its confidence
// and the reason, which leads the evidence; FormResult.Rule names it.
// The learned purpose model (purpose.go) may then overrule a rule that is
// not one of the sharp ones; FormResult.Rule is then ModelRule and the
// evidence gives the model's reading and the overruled rule's reason.
func FormWith(form extract.Form, page *extract.Page, fields []FieldResult) FormResult {
	return ReadForm(form, page, fields).With(purposeModel)
}

// formFacts is what the purpose rules read: the form's structure
// (features) and how strongly its words say each purpose (scores, with the
// evidence for each).
type formFacts struct {
	ft features
	sc map[Purpose]float64
	ev map[Purpose][]string
	// account: account-creation words anywhere; accountStrong: in the
	// submit control, heading or attributes.
	account, accountStrong bool
	// pay: paying said in the submit control, heading or attributes.
	pay bool
	// ctxText: the page's title and URL words, weak evidence of the kind.
	ctxText string
}

// decision is what a rule concludes: a purpose, its confidence and why.
// extra is evidence the rule itself found (scores it added), keyed by
// purpose, joined to the words' evidence of the purpose it names.
type decision struct {
	purpose Purpose
	conf    float64
	why     string
	extra   map[Purpose][]string
}

// formRule is one named step of the purpose decision. decide reports
// whether the rule applies and, if so, what it decides.
type formRule struct {
	name   string
	decide func(*formFacts) (decision, bool)
}

func readFormFacts(form extract.Form, page *extract.Page, fields []FieldResult) *formFacts {
	f := &formFacts{ft: formFeatures(form, fields), sc: map[Purpose]float64{}, ev: map[Purpose][]string{}}
	submit, strong, weak := formTexts(form)
	if page != nil {
		f.ctxText = text(page.Title + " " + urlWords(page.URL))
	}
	for _, r := range cPurpose {
		if c, ok := anyMatch(r.pos, submit); ok {
			f.sc[r.purpose] += 3
			f.ev[r.purpose] = append(f.ev[r.purpose], "submit control says "+c.why())
		} else if c, ok := anyMatch(r.pos, strong); ok {
			f.sc[r.purpose] += 2
			f.ev[r.purpose] = append(f.ev[r.purpose], "heading, attributes or action say "+c.why())
		}
		if c, ok := anyMatch(r.pos, weak); ok {
			f.sc[r.purpose]++
			f.ev[r.purpose] = append(f.ev[r.purpose], "form text says "+c.why())
		}
	}
	// Account creation, said in the submit control, heading or attributes.
	if c, ok := anyMatch(cAccount, submit+" | "+strong); ok {
		f.account, f.accountStrong = true, true
		f.ev[PurposeRegistration] = append(f.ev[PurposeRegistration], "account creation: "+c.why())
	} else if _, ok := anyMatch(cAccount, weak); ok {
		f.account = true
	}
	if f.accountStrong {
		f.sc[PurposeRegistration] += 2
	}
	if c, ok := anyMatch(cPay, submit+" | "+strong); ok {
		f.pay = true
		f.ev[PurposeOrder] = append(f.ev[PurposeOrder], "paying: "+c.why())
	}
	return f
}

// result is the FormResult of rule's decision d.
func (f *formFacts) result(rule string, d decision) FormResult {
	ev := append([]string{d.why}, f.ev[d.purpose]...)
	ev = append(ev, d.extra[d.purpose]...)
	r := FormResult{Purpose: d.purpose, Confidence: d.conf, Evidence: ev, Rule: rule}
	if k, ok := d.purpose.Kind(); ok {
		r.Kind = &k
		r.CustomerAction = true
	}
	return r
}

// wordConf is the confidence words give a purpose: strong when said in
// the submit control, heading or attributes, weak in the body text.
func (f *formFacts) wordConf(p Purpose) float64 {
	switch {
	case f.sc[p] >= 2:
		return ConfFormStrong
	case f.sc[p] >= 1:
		return ConfFormWeak
	}
	return ConfFormDefault
}

// customer is the strongest word score of the five customer actions.
func (f *formFacts) customer() float64 {
	return maxOf(f.sc, PurposeContact, PurposeBooking, PurposeQuote, PurposeCallback, PurposeEnquiry)
}

// best is the purpose among ps with the highest score above floor (the
// first on ties), "" when none beats it.
func (f *formFacts) best(floor float64, ps ...Purpose) (Purpose, float64) {
	best, bs := Purpose(""), floor
	for _, p := range ps {
		if f.sc[p] > bs {
			best, bs = p, f.sc[p]
		}
	}
	return best, bs
}

func decide(p Purpose, conf float64, why string) (decision, bool) {
	return decision{purpose: p, conf: conf, why: why}, true
}

var no = decision{}

// formRules decide a form's purpose, first match wins. Structure first
// (nothing to fill, passwords, a search box, order fields), then the
// words of the forms that are not customer actions, then the customer
// actions (a way to reach the person and something to ask), then what is
// left. Every rule is table-tested in form_rules_test.go.
var formRules = []formRule{
	{"nothing-to-fill", func(f *formFacts) (decision, bool) {
		if f.ft.visible == 0 && f.ft.passwords == 0 && f.ft.choices == 0 {
			// The button alone may say what it does: "Add to cart" over a
			// hidden product id, "Sign in with Google".
			if best, bs := f.best(0, PurposeOrder, PurposeLogin, PurposeRegistration); bs >= 3 {
				return decide(best, ConfFormWeak, "nothing to fill; the submit control says "+string(best))
			}
			return decide(PurposeOther, ConfFormOther, "no control a person fills")
		}
		return no, false
	}},
	{"new-password-twice", func(f *formFacts) (decision, bool) {
		if f.ft.passwords >= 2 && f.sc[PurposePasswordRecovery] >= 2 && f.ft.visible <= 3 {
			return decide(PurposePasswordRecovery, ConfFormStrong, "new password twice")
		}
		return no, false
	}},
	{"two-passwords", func(f *formFacts) (decision, bool) {
		if f.ft.passwords >= 2 {
			return decide(PurposeRegistration, ConfFormStructure, "two password fields")
		}
		return no, false
	}},
	{"password-with-sign-up-fields", func(f *formFacts) (decision, bool) {
		reg, login := f.sc[PurposeRegistration], f.sc[PurposeLogin]
		if f.ft.passwords == 1 && (reg > login && (reg >= 2 || f.ft.visible >= 4) || f.ft.visible >= 6 && login < 2) {
			return decide(PurposeRegistration, ConfFormStrong, "password with sign-up fields")
		}
		return no, false
	}},
	{"one-password", func(f *formFacts) (decision, bool) {
		if f.ft.passwords == 1 {
			return decide(PurposeLogin, ConfFormStructure, "one password field")
		}
		return no, false
	}},
	{"search-box", func(f *formFacts) (decision, bool) {
		if f.ft.search && !f.ft.message && f.ft.visible <= 3 {
			return decide(PurposeSearch, ConfFormStructure, "search box")
		}
		return no, false
	}},
	// A form that takes card details charges money: an order, whatever
	// else it asks (the learned model never overrules this).
	{"card-fields", func(f *formFacts) (decision, bool) {
		if f.ft.card {
			return decide(PurposeOrder, ConfFormStructure, "payment card fields")
		}
		if f.ft.payWidget {
			return decide(PurposeOrder, ConfFormStructure, "a payment provider's card widget")
		}
		return no, false
	}},
	{"order-fields", func(f *formFacts) (decision, bool) {
		if f.ft.order {
			return decide(PurposeOrder, ConfFormStructure, "quantity or payment card fields")
		}
		return no, false
	}},
	// Few fields: recovery, login, search, registration — whichever the
	// words say most.
	{"few-fields-words", func(f *formFacts) (decision, bool) {
		if f.ft.message || f.ft.visible > 2 || f.ft.phone {
			return no, false
		}
		cands := []Purpose{PurposePasswordRecovery, PurposeLogin, PurposeSearch}
		if f.accountStrong {
			cands = append(cands, PurposeRegistration)
		}
		best, bs := Purpose(""), 0.0
		for _, p := range cands {
			ok := f.sc[p] > bs
			switch p {
			case PurposePasswordRecovery, PurposeLogin:
				ok = ok && (f.ft.email || f.ft.username || f.ft.visible == 1)
			case PurposeSearch:
				ok = ok && !f.ft.email
			}
			if ok {
				best, bs = p, f.sc[p]
			}
		}
		if best != "" && bs >= 1 && bs >= f.sc[PurposeNewsletter] && bs > f.customer() {
			return decide(best, f.wordConf(best), "one or two fields with "+string(best)+" words")
		}
		return no, false
	}},
	{"order-words", func(f *formFacts) (decision, bool) {
		if f.pay {
			return decide(PurposeOrder, ConfFormStrong, "the submit control or heading says pay")
		}
		if o := f.sc[PurposeOrder]; o >= 3 && o > f.customer() || o >= 2 && !f.ft.message && !f.ft.email {
			return decide(PurposeOrder, ConfFormStrong, "order words")
		}
		return no, false
	}},
	// Billing or delivery details and nothing to say: a checkout step
	// (its card fields may come on the next page).
	{"checkout", func(f *formFacts) (decision, bool) {
		if f.ft.checkout && (!f.ft.message || f.sc[PurposeOrder] >= 2) {
			return decide(PurposeOrder, ConfFormStrong, "billing or delivery details of a checkout")
		}
		return no, false
	}},
	{"newsletter-words", func(f *formFacts) (decision, bool) {
		n := f.sc[PurposeNewsletter]
		if f.ft.email && !f.ft.message && !f.ft.phone && f.ft.visible <= 6 && !f.accountStrong && n >= 1 && n >= f.customer() && n >= f.sc[PurposeRegistration] {
			return decide(PurposeNewsletter, f.wordConf(PurposeNewsletter), "email without a message, newsletter words")
		}
		return no, false
	}},
	// Signing up with an email and at most a name, no password: a list.
	{"email-sign-up", func(f *formFacts) (decision, bool) {
		r := f.sc[PurposeRegistration]
		if f.ft.email && !f.ft.message && !f.ft.phone && f.ft.visible <= 3 && !f.account && r >= 1 && r >= f.customer() {
			return decide(PurposeNewsletter, ConfFormWeak, "sign-up with an email and no password")
		}
		return no, false
	}},
	// Choices only (selects, checkboxes): filters, variants, polls.
	{"choices-only-words", func(f *formFacts) (decision, bool) {
		if f.ft.visible != 0 || f.ft.passwords != 0 {
			return no, false
		}
		if best, bs := f.best(0, PurposeSearch, PurposeOrder, PurposeNewsletter); bs >= 2 {
			return decide(best, ConfFormWeak, "choices only, "+string(best)+" words")
		}
		return no, false
	}},
	{"choices-only", func(f *formFacts) (decision, bool) {
		if f.ft.visible == 0 && f.ft.passwords == 0 {
			return decide(PurposeOther, ConfFormOther, "choices only")
		}
		return no, false
	}},
	{"comment", func(f *formFacts) (decision, bool) {
		c := f.sc[PurposeComment]
		if f.ft.message && c >= 2 && c > maxOf(f.sc, PurposeContact, PurposeBooking, PurposeQuote, PurposeEnquiry) {
			return decide(PurposeComment, f.wordConf(PurposeComment), "a message posted as a comment")
		}
		return no, false
	}},
	// No message to send: the submit control or heading may still say
	// what the form is for (register, log in, recover, subscribe…).
	{"no-message-words", func(f *formFacts) (decision, bool) {
		if f.ft.message {
			return no, false
		}
		best, bs := f.best(0, PurposeRegistration, PurposeLogin, PurposePasswordRecovery, PurposeNewsletter, PurposeSearch, PurposeOrder)
		if bs >= 2 && bs > f.customer() {
			return decide(best, ConfFormStrong, "no message; "+string(best)+" words in the submit control or heading")
		}
		return no, false
	}},
	// Account creation said anywhere in the form and nothing to say: a
	// sign-up whose password comes later or by mail.
	{"account-words", func(f *formFacts) (decision, bool) {
		if f.account && !f.ft.message && f.customer() < 2 {
			return decide(PurposeRegistration, ConfFormWeak, "account-creation words, no message")
		}
		return no, false
	}},
	// The submit control or heading says an account is made: a sign-up,
	// whatever else it asks (a message field is its "about you").
	{"account-creation", func(f *formFacts) (decision, bool) {
		if f.accountStrong {
			return decide(PurposeRegistration, ConfFormStrong, "account creation in the submit control or heading")
		}
		return no, false
	}},
	// Contact details with nothing to say and nothing a customer action
	// asks for — no message box, no word of contact, booking, quote,
	// callback or enquiry (nor in the page's title or URL), no date, no
	// budget, not a lone phone number: what checkout, sign-up and
	// mailing-list forms ask. Not a customer action; the purpose its
	// words say, if any, else other. (A name and an email alone stay
	// with customer-action's newsletter reading.)
	{"details-only", detailsOnly},
	// Customer actions: a way to reach the person, and something to say or
	// to ask for.
	{"customer-action", customerAction},
	// Remaining forms: the purpose with the most word evidence, if any.
	{"words-only", func(f *formFacts) (decision, bool) {
		var ps []Purpose
		for _, p := range PurposeValues() {
			if _, ok := p.Kind(); !ok && p != PurposeOther {
				ps = append(ps, p)
			}
		}
		if best, bs := f.best(0, ps...); bs >= 2 {
			return decide(best, ConfFormWeak, "words only")
		}
		return no, false
	}},
	{"lone-email", func(f *formFacts) (decision, bool) {
		if f.ft.email && f.ft.visible == 1 {
			return decide(PurposeNewsletter, ConfFormDefault, "a lone email field")
		}
		return no, false
	}},
	{noPurposeRule, func(*formFacts) (decision, bool) {
		return decide(PurposeOther, ConfFormOther, "no purpose evident")
	}},
}

// noPurposeRule is the last rule, which always applies.
const noPurposeRule = "no-purpose"

// customerAction is the rule for the five customer actions: contact
// details with a message, or contact details and a name. The page's title
// and URL, a date or party size, a budget and a lone phone number weigh in
// for which kind, never for whether.
func customerAction(f *formFacts) (decision, bool) {
	ft := f.ft
	if !ft.contactDetails() {
		return no, false
	}
	best, bs, extra := f.kindScores()
	if bs == 0 && f.sc[PurposeNewsletter] >= 2 && !ft.message {
		return decide(PurposeNewsletter, ConfFormWeak, "email without a message, newsletter words")
	}
	// A name and an email, nothing to say and nothing that asks for a
	// call or a booking: a sign-up, not a request.
	if bs < 2 && !ft.message && !ft.phone && ft.email && ft.visible <= 3 && !ft.dateTime && !ft.budget {
		return decide(PurposeNewsletter, ConfFormDefault, "only a name and an email, no message")
	}
	conf := ConfFormDefault
	switch {
	case bs >= 2:
		conf = ConfFormStrong
	case bs >= 1:
		conf = ConfFormWeak
	}
	why := "contact details and a message"
	if !ft.message {
		why = "contact details"
	}
	if ft.plugin != "" {
		why += "; " + ft.plugin + " form"
	}
	return decision{purpose: best, conf: conf, why: why, extra: extra}, true
}

// contactDetails: what customer-action needs — a message with a way to
// reach the person or a name, or a way to reach them with a name or
// another field.
func (ft features) contactDetails() bool {
	reachable := ft.email || ft.phone
	return ft.message && (reachable || ft.name) || reachable && (ft.name || ft.visible >= 2) && ft.visible >= 2
}

// detailsOnly is the details-only rule: contact details, no message —
// no text area at all, whatever its field was read as — and nothing
// that says which customer action (kindScores finds nothing).
func detailsOnly(f *formFacts) (decision, bool) {
	ft := f.ft
	if !ft.contactDetails() || ft.message || ft.textarea || f.sc[PurposeNewsletter] >= 2 {
		return no, false
	}
	if !ft.phone && ft.email && ft.visible <= 3 { // customer-action's name-and-email sign-up
		return no, false
	}
	if _, bs, _ := f.kindScores(); bs > 0 {
		return no, false
	}
	if best, bs := f.best(0, PurposeOrder, PurposeRegistration, PurposeNewsletter, PurposeLogin, PurposePasswordRecovery, PurposeSearch); bs >= 1 {
		return decide(best, ConfFormWeak, "contact details, no message, no customer-action words; "+string(best)+" words")
	}
	return decide(PurposeOther, ConfFormDefault, "contact details, no message, no customer-action words")
}

// kindScores: which of the five customer actions the words, the page's
// title and URL, a date or party size, a budget and a lone phone number
// make of a form (contact on ties and when nothing is said), its score
// and the evidence the context added, keyed by purpose.
func (f *formFacts) kindScores() (Purpose, float64, map[Purpose][]string) {
	ft := f.ft
	sc := map[Purpose]float64{}
	for p, v := range f.sc {
		sc[p] = v
	}
	extra := map[Purpose][]string{}
	for _, r := range cPurpose {
		if _, ok := r.purpose.Kind(); !ok {
			continue
		}
		if c, ok := anyMatch(r.pos, f.ctxText); ok {
			sc[r.purpose] += 0.5
			extra[r.purpose] = append(extra[r.purpose], "page title or URL says "+c.why())
		}
	}
	if ft.dateTime {
		sc[PurposeBooking] += 1.5
		extra[PurposeBooking] = append(extra[PurposeBooking], "asks for a date, time or party size")
	}
	if ft.budget {
		sc[PurposeQuote]++
		extra[PurposeQuote] = append(extra[PurposeQuote], "asks for a budget")
	}
	if ft.phone && !ft.email && !ft.message && ft.visible <= 3 {
		sc[PurposeCallback] += 1.5
		extra[PurposeCallback] = append(extra[PurposeCallback], "asks for a phone number and little else")
	}
	best, bs := PurposeContact, sc[PurposeContact]
	for _, p := range []Purpose{PurposeBooking, PurposeQuote, PurposeCallback, PurposeEnquiry} {
		if sc[p] > bs {
			best, bs = p, sc[p]
		}
	}
	return best, bs, extra
}

func maxOf(sc map[Purpose]float64, ps ...Purpose) float64 {
	m := 0.0
	for _, p := range ps {
		if sc[p] > m {
			m = sc[p]
		}
	}
	return m
}

type features struct {
	visible   int // text controls a person fills: not hidden, not honeypot/system-token
	choices   int // visible selects, radio groups, checkboxes
	passwords int
	email     bool
	phone     bool
	name      bool
	message   bool
	// textarea: a visible text area, whatever its field reads as (a
	// box to say something in).
	textarea bool
	username bool
	search   bool
	order    bool
	dateTime bool
	budget   bool
	// card: a payment card field (by name, autocomplete cc-*, or label);
	// it also sets order.
	card bool
	// checkout: billing or delivery details (autocomplete sections,
	// field names or labels, or the form's heading, attributes, submit).
	checkout bool
	// payWidget: a payment provider's widget or hosted card fields (an
	// iframe from js.stripe.com, a #card-element, Braintree's hosted
	// fields…): the card details are typed into someone else's frame.
	payWidget bool
	plugin    string
}

var (
	searchName  = regexp.MustCompile(`^(q|s|query|search|keywords?|term|searchterm|search_?query|search_?term|k|kw|w|wd|text|searchtext|search_?string)$`)
	orderName   = regexp.MustCompile(`(?i)(^|[^a-z])(qty|quantity|add-?to-?cart|product_?id|variant_?id|sku)([^a-z]|$)`)
	cardNameRe  = regexp.MustCompile(`(?i)(card_?num|cc_?num|cvv|cvc|card_?number)`)
	payProvider = regexp.MustCompile(`(?i)stripe|braintree|adyen|squareup|sq-payment|mollie|klarna|worldpay|authorize\.net|razorpay|paystack|mercadopago|cybersource|recurly|chargebee|checkoutcom|card-?element|card-?fields?\b|hosted-?fields?|payment-?element|payment-?form|cc-?form|credit-?card-?form`)
	pluginClass = regexp.MustCompile(`(?i)wpcf7|gform|wpforms|elementor-form|nf-form|ninja-forms|frm_form|formidable|hs-form|hbspt|mktoForm|caldera|fluentform|forminator|jotform|typeform|formspree|netlify|contact-form`)
)

func formFeatures(form extract.Form, fields []FieldResult) features {
	var ft features
	for i, f := range form.Fields {
		r := fields[i]
		if f.Type == "password" {
			ft.passwords++
			continue
		}
		if r.Semantic == shared.SemanticHoneypot || r.Semantic == shared.SemanticSystemToken || f.Visibility.Hidden && form.Visible {
			continue
		}
		if strings.HasPrefix(f.Type, "select") || f.Type == "checkbox" || f.Type == "radio" {
			ft.choices++
			if orderName.MatchString(f.Name) {
				ft.order = true
			}
		} else {
			ft.visible++
		}
		switch r.Semantic {
		case shared.SemanticEmail:
			ft.email = true
		case shared.SemanticPhone:
			ft.phone = true
		case shared.SemanticPersonName, shared.SemanticGivenName, shared.SemanticFamilyName:
			ft.name = true
		case shared.SemanticMessage:
			if f.Tag == "textarea" || f.Type == "textarea" {
				ft.message = true
			}
		case shared.SemanticDate, shared.SemanticTime, shared.SemanticPreferredTimeWindow, shared.SemanticPartySize:
			ft.dateTime = true
		case shared.SemanticBudget:
			ft.budget = true
		}
		if f.Tag == "textarea" {
			ft.textarea = true
			ft.message = ft.message || r.Semantic == shared.SemanticMessage || r.Semantic == shared.SemanticUnknown && r.Confidence <= ConfUnknown
		}
		if f.Type == "search" || (isTextLike(f) && searchName.MatchString(strings.ToLower(f.Name))) {
			ft.search = true
		}
		if r.Semantic == shared.SemanticUnknown && strings.Contains(strings.Join(r.Evidence, " "), "user") {
			ft.username = true
		}
		if orderName.MatchString(f.Name) {
			ft.order = true
		}
		if isCardField(f) {
			ft.card, ft.order = true, true
		}
		if isCheckoutField(f) {
			ft.checkout = true
		}
	}
	submit, strong, _ := formTexts(form)
	if _, ok := anyMatch(cCheckout, submit+" | "+strong); ok {
		ft.checkout = true
	}
	if strings.Contains(strings.ToLower(attrOf(form)), "search") && ft.visible <= 2 && !ft.message {
		ft.search = true
	}
	all := attrOf(form)
	for _, w := range form.Wrappers {
		all += " " + w.Class + " " + w.ID
	}
	ft.payWidget = payProvider.MatchString(all)
	for _, w := range form.Widgets {
		if payProvider.MatchString(w.Src + " " + w.ID + " " + w.Class) {
			ft.payWidget = true
		}
	}
	if m := pluginClass.FindString(all + " " + form.Action); m != "" {
		ft.plugin = strings.ToLower(m)
	}
	return ft
}

// isCardField: a payment card field, by its name, its autocomplete
// token (cc-number, cc-exp, cc-csc, cc-name…) or the words of its label
// or placeholder.
func isCardField(f extract.Field) bool {
	if cardNameRe.MatchString(f.Name) {
		return true
	}
	for _, t := range f.AutocompleteTokens {
		if strings.HasPrefix(t, "cc-") {
			return true
		}
	}
	for _, t := range []string{f.Label, f.Placeholder} {
		if _, ok := anyMatch(cCard, text(t)); ok {
			return true
		}
	}
	return false
}

// isCheckoutField: a field of a checkout's billing or delivery details:
// an autocomplete "shipping"/"billing" section, or checkout words in its
// name or label ("billing_first_name", "Lieferadresse").
func isCheckoutField(f extract.Field) bool {
	for _, t := range f.AutocompleteTokens {
		if t == "shipping" || t == "billing" {
			return true
		}
	}
	for _, t := range []string{words(f.Name), text(f.Label)} {
		if _, ok := anyMatch(cCheckout, t); ok {
			return true
		}
	}
	return false
}

func attrOf(form extract.Form) string {
	return form.ID + " " + form.Name + " " + form.Class
}

// formTexts: the submit controls' text (the strongest statement of what
// sending does), strong text (heading, id/name/class, action URL, plugin
// wrappers) and weak text (the form's visible text).
func formTexts(form extract.Form) (submit, strong, weak string) {
	var sb strings.Builder
	for _, s := range form.Submits {
		sb.WriteString(s.Text + " " + s.Value + " | ")
	}
	var b strings.Builder
	for _, s := range form.Submits {
		b.WriteString(words(s.Name) + " | ")
	}
	b.WriteString(form.Heading + " | " + form.ToolName + " " + form.ToolDescription + " | ")
	b.WriteString(words(form.ID) + " " + words(form.Name) + " " + words(form.Class) + " | ")
	b.WriteString(urlWords(form.Action) + " | ")
	for i, w := range form.Wrappers {
		if i >= 2 {
			break
		}
		b.WriteString(words(w.ID) + " " + words(w.Class) + " | ")
	}
	return text(sb.String()), text(b.String()), text(form.Text)
}

// urlWords: the words of a URL's path and query keys ("/wp-comments-post.php"
// → "wp comments post php").
func urlWords(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	keys := make([]string, 0, len(u.Query()))
	for k := range u.Query() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return words(u.Path + " " + strings.Join(keys, " "))
}
