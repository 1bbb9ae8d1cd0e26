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
// describes form.Fields[i]).
func FormWith(form extract.Form, page *extract.Page, fields []FieldResult) FormResult {
	ft := formFeatures(form, fields)
	submit, strong, weak := formTexts(form)
	var ctxText string
	if page != nil {
		ctxText = text(page.Title + " " + urlWords(page.URL))
	}
	sc := map[Purpose]float64{}
	ev := map[Purpose][]string{}
	for _, r := range cPurpose {
		if c, ok := anyMatch(r.pos, submit); ok {
			sc[r.purpose] += 3
			ev[r.purpose] = append(ev[r.purpose], "submit control says "+c.why())
		} else if c, ok := anyMatch(r.pos, strong); ok {
			sc[r.purpose] += 2
			ev[r.purpose] = append(ev[r.purpose], "heading, attributes or action say "+c.why())
		}
		if c, ok := anyMatch(r.pos, weak); ok {
			sc[r.purpose]++
			ev[r.purpose] = append(ev[r.purpose], "form text says "+c.why())
		}
	}
	// Account creation, said in the submit control, heading or attributes.
	account, accountStrong := false, false
	if c, ok := anyMatch(cAccount, submit+" | "+strong); ok {
		account, accountStrong = true, true
		ev[PurposeRegistration] = append(ev[PurposeRegistration], "account creation: "+c.why())
	} else if _, ok := anyMatch(cAccount, weak); ok {
		account = true
	}
	if accountStrong {
		sc[PurposeRegistration] += 2
	}
	res := func(p Purpose, conf float64, why ...string) FormResult {
		r := FormResult{Purpose: p, Confidence: conf, Evidence: append(why, ev[p]...)}
		if k, ok := p.Kind(); ok {
			r.Kind = &k
			r.CustomerAction = true
		}
		if r.Evidence == nil {
			r.Evidence = []string{}
		}
		return r
	}
	wordConf := func(p Purpose) float64 {
		switch {
		case sc[p] >= 2:
			return ConfFormStrong
		case sc[p] >= 1:
			return ConfFormWeak
		}
		return ConfFormDefault
	}

	switch {
	case ft.visible == 0 && ft.passwords == 0 && ft.choices == 0:
		return res(PurposeOther, ConfFormOther, "no control a person fills")
	case ft.passwords >= 2:
		if sc[PurposePasswordRecovery] >= 2 && ft.visible <= 3 {
			return res(PurposePasswordRecovery, ConfFormStrong, "new password twice")
		}
		return res(PurposeRegistration, ConfFormStructure, "two password fields")
	case ft.passwords == 1:
		if sc[PurposeRegistration] > sc[PurposeLogin] && (sc[PurposeRegistration] >= 2 || ft.visible >= 4) || ft.visible >= 6 && sc[PurposeLogin] < 2 {
			return res(PurposeRegistration, ConfFormStrong, "password with sign-up fields")
		}
		return res(PurposeLogin, ConfFormStructure, "one password field")
	case ft.search && !ft.message && ft.visible <= 3:
		return res(PurposeSearch, ConfFormStructure, "search box")
	case ft.order:
		return res(PurposeOrder, ConfFormStructure, "quantity or payment card fields")
	}
	customer := maxOf(sc, PurposeContact, PurposeBooking, PurposeQuote, PurposeCallback, PurposeEnquiry)
	// Few fields: recovery, login, search, registration — whichever the
	// words say most.
	if !ft.message && ft.visible <= 2 && !ft.phone {
		best, bs := Purpose(""), 0.0
		cands := []Purpose{PurposePasswordRecovery, PurposeLogin, PurposeSearch}
		if accountStrong {
			cands = append(cands, PurposeRegistration)
		}
		for _, p := range cands {
			ok := sc[p] > bs
			switch p {
			case PurposePasswordRecovery, PurposeLogin:
				ok = ok && (ft.email || ft.username || ft.visible == 1)
			case PurposeSearch:
				ok = ok && !ft.email
			}
			if ok {
				best, bs = p, sc[p]
			}
		}
		if best != "" && bs >= 1 && bs >= sc[PurposeNewsletter] && bs > customer {
			return res(best, wordConf(best), "one or two fields with "+string(best)+" words")
		}
	}
	if sc[PurposeOrder] >= 3 && sc[PurposeOrder] > customer || sc[PurposeOrder] >= 2 && !ft.message && !ft.email {
		return res(PurposeOrder, ConfFormStrong, "order words")
	}
	if ft.email && !ft.message && !ft.phone && ft.visible <= 6 && !accountStrong && sc[PurposeNewsletter] >= 1 && sc[PurposeNewsletter] >= customer && sc[PurposeNewsletter] >= sc[PurposeRegistration] {
		return res(PurposeNewsletter, wordConf(PurposeNewsletter), "email without a message, newsletter words")
	}
	// Signing up with an email and at most a name, no password: a list.
	if ft.email && !ft.message && !ft.phone && ft.visible <= 3 && !account && sc[PurposeRegistration] >= 1 && sc[PurposeRegistration] >= customer {
		return res(PurposeNewsletter, ConfFormWeak, "sign-up with an email and no password")
	}
	if ft.visible == 0 && ft.passwords == 0 {
		// choices only (selects, checkboxes): filters, variants, polls
		best, bs := PurposeOther, 0.0
		for _, p := range []Purpose{PurposeSearch, PurposeOrder, PurposeNewsletter} {
			if sc[p] > bs {
				best, bs = p, sc[p]
			}
		}
		if bs >= 2 {
			return res(best, ConfFormWeak, "choices only, "+string(best)+" words")
		}
		return res(PurposeOther, ConfFormOther, "choices only")
	}
	if ft.message && sc[PurposeComment] >= 2 && sc[PurposeComment] > maxOf(sc, PurposeContact, PurposeBooking, PurposeQuote, PurposeEnquiry) {
		return res(PurposeComment, wordConf(PurposeComment), "a message posted as a comment")
	}
	// No message to send: the submit control or heading may still say
	// what the form is for (register, log in, recover, subscribe…).
	if !ft.message {
		best, bs := Purpose(""), 0.0
		for _, p := range []Purpose{PurposeRegistration, PurposeLogin, PurposePasswordRecovery, PurposeNewsletter, PurposeSearch, PurposeOrder} {
			if sc[p] > bs {
				best, bs = p, sc[p]
			}
		}
		if bs >= 2 && bs > customer {
			return res(best, ConfFormStrong, "no message; "+string(best)+" words in the submit control or heading")
		}
	}
	// Customer actions: a way to reach the person, and something to say or
	// to ask for.
	reachable := ft.email || ft.phone
	if ft.message && (reachable || ft.name) || reachable && (ft.name || ft.visible >= 2) && ft.visible >= 2 {
		// Page context weighs in for the kind, never for whether.
		for _, r := range cPurpose {
			if _, ok := r.purpose.Kind(); !ok {
				continue
			}
			if c, ok := anyMatch(r.pos, ctxText); ok {
				sc[r.purpose] += 0.5
				ev[r.purpose] = append(ev[r.purpose], "page title or URL says "+c.why())
			}
		}
		if ft.dateTime {
			sc[PurposeBooking] += 1.5
			ev[PurposeBooking] = append(ev[PurposeBooking], "asks for a date, time or party size")
		}
		if ft.budget {
			sc[PurposeQuote]++
			ev[PurposeQuote] = append(ev[PurposeQuote], "asks for a budget")
		}
		if ft.phone && !ft.email && !ft.message && ft.visible <= 3 {
			sc[PurposeCallback] += 1.5
			ev[PurposeCallback] = append(ev[PurposeCallback], "asks for a phone number and little else")
		}
		best, bs := PurposeContact, sc[PurposeContact]
		for _, p := range []Purpose{PurposeBooking, PurposeQuote, PurposeCallback, PurposeEnquiry} {
			if sc[p] > bs {
				best, bs = p, sc[p]
			}
		}
		if bs == 0 && sc[PurposeNewsletter] >= 2 && !ft.message {
			return res(PurposeNewsletter, ConfFormWeak, "email without a message, newsletter words")
		}
		// A name and an email, nothing to say and nothing that asks for a
		// call or a booking: a sign-up, not a request.
		if bs < 2 && !ft.message && !ft.phone && ft.email && ft.visible <= 3 && !ft.dateTime && !ft.budget {
			return res(PurposeNewsletter, ConfFormDefault, "only a name and an email, no message")
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
		return res(best, conf, why)
	}
	// Remaining forms: the purpose with the most word evidence, if any.
	best, bs := PurposeOther, 0.0
	for _, p := range Purposes() {
		if _, ok := p.Kind(); ok || p == PurposeOther {
			continue
		}
		if sc[p] > bs {
			best, bs = p, sc[p]
		}
	}
	if bs >= 2 {
		return res(best, ConfFormWeak, "words only")
	}
	if ft.email && ft.visible == 1 {
		return res(PurposeNewsletter, ConfFormDefault, "a lone email field")
	}
	return res(PurposeOther, ConfFormOther, "no purpose evident")
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
	username  bool
	search    bool
	order     bool
	dateTime  bool
	budget    bool
	plugin    string
}

var (
	searchName  = regexp.MustCompile(`^(q|s|query|search|keywords?|term|searchterm|search_?query|search_?term|k|kw|w|wd|text|searchtext|search_?string)$`)
	orderName   = regexp.MustCompile(`(?i)(^|[^a-z])(qty|quantity|add-?to-?cart|product_?id|variant_?id|sku)([^a-z]|$)`)
	cardNameRe  = regexp.MustCompile(`(?i)(card_?num|cc_?num|cvv|cvc|card_?number)`)
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
			ft.message = ft.message || r.Semantic == shared.SemanticMessage || r.Semantic == shared.SemanticUnknown && r.Confidence <= ConfUnknown
		}
		if f.Type == "search" || (isTextLike(f) && searchName.MatchString(strings.ToLower(f.Name))) {
			ft.search = true
		}
		if r.Semantic == shared.SemanticUnknown && strings.Contains(strings.Join(r.Evidence, " "), "user") {
			ft.username = true
		}
		if orderName.MatchString(f.Name) || cardNameRe.MatchString(f.Name) {
			ft.order = true
		}
	}
	if strings.Contains(strings.ToLower(attrOf(form)), "search") && ft.visible <= 2 && !ft.message {
		ft.search = true
	}
	all := attrOf(form)
	for _, w := range form.Wrappers {
		all += " " + w.Class + " " + w.ID
	}
	if m := pluginClass.FindString(all + " " + form.Action); m != "" {
		ft.plugin = strings.ToLower(m)
	}
	return ft
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
