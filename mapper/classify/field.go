package classify

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Field classifies one field of form. page may be nil. It reads the other
// fields of form for context (a "name" beside a "surname" is a given
// name); to classify every field of a form at once use Fields.
func Field(f extract.Field, form extract.Form, page *extract.Page) FieldResult {
	res := Fields(form, page)
	for i := range form.Fields {
		if sameField(form.Fields[i], f) {
			return res[i]
		}
	}
	// Not one of form's fields (a WebMCP or JSON-LD parameter, a field
	// outside any form): classify it alone.
	r := newFormContext(form).base(-1, f)
	r.AgentFillable = fillable(r.Semantic)
	return r
}

// fillable: honeypots stay empty and system tokens are sent back verbatim;
// an agent supplies every other value.
func fillable(s shared.SemanticType) bool {
	return s != shared.SemanticHoneypot && s != shared.SemanticSystemToken
}

func sameField(a, b extract.Field) bool {
	return a.Locator == b.Locator && a.Name == b.Name && a.ID == b.ID && a.Type == b.Type && a.Label == b.Label
}

// Fields classifies every field of form, in order: by the rules, and by
// the learned model where the rules are unsure (FieldsWith, model.go).
func Fields(form extract.Form, page *extract.Page) []FieldResult {
	return FieldsWith(form, page, fieldModel)
}

// applyNameSplit: a form that asks for a "name" and a "surname" means the
// first name by "name" (and "Nom" beside "Prénom" is the family name).
func applyNameSplit(res []FieldResult) {
	has := map[shared.SemanticType]int{}
	for _, r := range res {
		has[r.Semantic]++
	}
	if has[shared.SemanticPersonName] != 1 {
		return
	}
	var to shared.SemanticType
	switch {
	case has[shared.SemanticFamilyName] > 0 && has[shared.SemanticGivenName] == 0:
		to = shared.SemanticGivenName
	case has[shared.SemanticGivenName] > 0 && has[shared.SemanticFamilyName] == 0:
		to = shared.SemanticFamilyName
	default:
		return
	}
	for i := range res {
		if res[i].Semantic == shared.SemanticPersonName {
			res[i].Semantic = to
			res[i].Confidence = round(res[i].Confidence - 0.05)
			res[i].Evidence = append(res[i].Evidence, fmt.Sprintf("form also asks for the other part of the name: %s", to))
		}
	}
}

// applyLoneEmail: a newsletter box is often one unlabelled text field
// beside "Sign up for our newsletter"; that field is an email address.
func applyLoneEmail(form extract.Form, res []FieldResult) {
	lone := -1
	for i, f := range form.Fields {
		if !isTextLike(f) || f.Visibility.Hidden && form.Visible || res[i].Semantic == shared.SemanticHoneypot || res[i].Semantic == shared.SemanticSystemToken {
			continue
		}
		if lone >= 0 {
			return
		}
		lone = i
	}
	if lone < 0 || res[lone].Semantic != shared.SemanticUnknown || res[lone].Confidence > ConfUnknown || form.Fields[lone].Tag == "textarea" {
		return
	}
	submit, strong, weak := formTexts(form)
	for _, r := range cPurpose {
		if r.purpose != PurposeNewsletter {
			continue
		}
		if c, ok := anyMatch(r.pos, submit+" | "+strong+" | "+weak); ok {
			res[lone] = FieldResult{Semantic: shared.SemanticEmail, Confidence: ConfContext,
				Evidence: []string{"the only text field of a newsletter form: " + c.why()}}
		}
	}
}

// formContext holds what field classification reads from the form.
type formContext struct {
	form extract.Form
	// hiddenTextFields counts text-like controls hidden by themselves or a
	// wrapper inside a visible form; many of them mean a multi-step or
	// conditional form rather than honeypots.
	hiddenTextFields int
	// visibleSemantics: what the form's visible text controls ask for, by
	// their autocomplete, type and words.
	visibleSemantics map[shared.SemanticType]int
	// words memoizes fromText per field index: the form context and the
	// field's own reading both need it, and it is the costly part.
	words []wordReading
	// messageBox: the form has a visible textarea (a message box), so a
	// choice list of categories is the message's subject.
	messageBox bool
}

type wordReading struct {
	r        FieldResult
	ok, done bool
}

func newFormContext(form extract.Form) *formContext {
	fc := &formContext{form: form, visibleSemantics: map[shared.SemanticType]int{}, words: make([]wordReading, len(form.Fields))}
	for i, f := range form.Fields {
		if f.Tag == "textarea" && !f.Visibility.Hidden {
			fc.messageBox = true
		}
		if !isTextLike(f) {
			continue
		}
		if f.Visibility.Hidden && (f.Visibility.HiddenBy == extract.HiddenBySelf || f.Visibility.HiddenBy == extract.HiddenByWrapper) ||
			!f.Visibility.Hidden && anyClass(f, hiddenUtilityClass) {
			fc.hiddenTextFields++
			continue
		}
		if !f.Visibility.Hidden {
			if s := fc.textSemantic(i, f); s != "" {
				fc.visibleSemantics[s]++
			}
		}
	}
	return fc
}

// textSemantic: what field i (f; i < 0 for a field not of the form) asks
// for by autocomplete, type and words alone, ignoring structure; "" when
// nothing names a meaning.
func (fc *formContext) textSemantic(i int, f extract.Field) shared.SemanticType {
	if s, _, ok := fromAutocomplete(f.AutocompleteTokens); ok {
		return s
	}
	if r, ok := fromType(f); ok {
		return r.Semantic
	}
	if r, ok := fc.fromText(i, f); ok && r.Semantic != shared.SemanticUnknown {
		return r.Semantic
	}
	return ""
}

// fromText is the package's fromText, once per field of the form.
func (fc *formContext) fromText(i int, f extract.Field) (FieldResult, bool) {
	if i < 0 || i >= len(fc.words) {
		return fromText(f)
	}
	w := &fc.words[i]
	if !w.done {
		w.r, w.ok = fromText(f)
		w.done = true
	}
	// Evidence is appended to by later steps: hand out a copy.
	r := w.r
	r.Evidence = append([]string(nil), w.r.Evidence...)
	return r, w.ok
}

var textTypes = map[string]bool{"text": true, "email": true, "tel": true, "url": true, "number": true, "search": true, "textarea": true, "": true, "contenteditable": true}

func isTextLike(f extract.Field) bool { return textTypes[f.Type] }

func controlOf(f extract.Field) controlKind {
	switch {
	case f.Type == "checkbox":
		return kindCheckbox
	case f.Type == "radio" || strings.HasPrefix(f.Type, "select"):
		return kindSelect
	}
	return kindText
}

var captchaResponse = regexp.MustCompile(`(?i)^(g-recaptcha-response|h-captcha-response|cf-turnstile-response|frc-captcha-solution|_wpcf7_recaptcha_response)`)

// base reads field i of the form (f; i < 0 for a field not of the form)
// by the rules alone.
func (fc *formContext) base(i int, f extract.Field) FieldResult {
	// 1. Widget bookkeeping: captcha responses live in hidden textareas
	// inside the widget; they are tokens, not honeypots. A box the person
	// types the captcha's answer into is no token: it is read on (the
	// not-ours words make it unknown).
	if captchaResponse.MatchString(f.Name) || inCaptchaWidget(f) && !typedAnswer(f) {
		return FieldResult{Semantic: shared.SemanticSystemToken, Confidence: ConfHiddenInput, Evidence: []string{"captcha widget response"}}
	}
	// 2. type=hidden: sent back verbatim.
	if f.Type == "hidden" {
		return FieldResult{Semantic: shared.SemanticSystemToken, Confidence: ConfHiddenInput, Evidence: []string{"input type=hidden"}}
	}
	// 3. Honeypots, by structure before meaning: owners name them "email"
	// or "website".
	if score, ev := honeypot(i, f, fc); score >= honeypotThreshold {
		c := ConfHoneypotBase + score*ConfHoneypotScale
		if c > ConfHoneypotMax {
			c = ConfHoneypotMax
		}
		return FieldResult{Semantic: shared.SemanticHoneypot, Confidence: round(c), Evidence: ev}
	}
	// 4. autocomplete tokens.
	if s, tok, ok := fromAutocomplete(f.AutocompleteTokens); ok {
		return FieldResult{Semantic: s, Confidence: ConfAutocomplete, Evidence: []string{fmt.Sprintf("autocomplete=%q", tok)}}
	}
	// 5. input type.
	if r, ok := fromType(f); ok {
		return r
	}
	// 6. words: label, placeholder, name, id, hint.
	if r, ok := fc.fromText(i, f); ok {
		return r
	}
	// 7. structure and form context.
	if r, ok := fc.choiceSubject(f); ok {
		return r
	}
	return fromContext(f)
}

// choiceSubject: a choice list whose words name a category or ask what
// the message is about ("Catégorie", "Категория вопроса", "How can we
// help?"), in a form with a message box, is the message's subject.
func (fc *formContext) choiceSubject(f extract.Field) (FieldResult, bool) {
	if !fc.messageBox || controlOf(f) != kindSelect {
		return FieldResult{}, false
	}
	for _, src := range sources(f) {
		if src.what == "hint" {
			continue
		}
		if r, c, ok := firstRule(cChoiceSubj, scanText(src.text), kindSelect); ok {
			return FieldResult{Semantic: r.semantic, Confidence: ConfChoiceSubject,
				Evidence: []string{fmt.Sprintf("choice list beside a message box; %s %q says %s", src.what, clipText(src.text, 60), c.why())}}, true
		}
	}
	return FieldResult{}, false
}

// fromAutocomplete maps the field-name token of an autocomplete attribute
// (WHATWG "autofill field names") to a semantic type.
func fromAutocomplete(tokens []string) (shared.SemanticType, string, bool) {
	for i := len(tokens) - 1; i >= 0; i-- {
		if s, ok := autocompleteNames[tokens[i]]; ok {
			return s, tokens[i], true
		}
	}
	return "", "", false
}

var autocompleteNames = map[string]shared.SemanticType{
	"name": shared.SemanticPersonName, "given-name": shared.SemanticGivenName, "family-name": shared.SemanticFamilyName,
	"honorific-prefix": shared.SemanticUnknown, "honorific-suffix": shared.SemanticUnknown, "additional-name": shared.SemanticUnknown, "nickname": shared.SemanticUnknown,
	"email": shared.SemanticEmail, "username": shared.SemanticUnknown, "new-password": shared.SemanticUnknown, "current-password": shared.SemanticUnknown, "one-time-code": shared.SemanticUnknown,
	"organization": shared.SemanticCompany, "organization-title": shared.SemanticUnknown,
	"street-address": shared.SemanticStreetAddress, "address-line1": shared.SemanticStreetAddress, "address-line2": shared.SemanticStreetAddress, "address-line3": shared.SemanticStreetAddress,
	"address-level4": shared.SemanticLocality, "address-level3": shared.SemanticLocality, "address-level2": shared.SemanticLocality, "address-level1": shared.SemanticRegion,
	"country": shared.SemanticCountry, "country-name": shared.SemanticCountry, "postal-code": shared.SemanticPostcode,
	"cc-name": shared.SemanticPersonName, "cc-given-name": shared.SemanticGivenName, "cc-family-name": shared.SemanticFamilyName,
	"cc-number": shared.SemanticUnknown, "cc-exp": shared.SemanticUnknown, "cc-exp-month": shared.SemanticUnknown, "cc-exp-year": shared.SemanticUnknown, "cc-csc": shared.SemanticUnknown, "cc-type": shared.SemanticUnknown,
	"transaction-currency": shared.SemanticUnknown, "transaction-amount": shared.SemanticUnknown, "language": shared.SemanticUnknown,
	"bday": shared.SemanticDate, "bday-day": shared.SemanticUnknown, "bday-month": shared.SemanticUnknown, "bday-year": shared.SemanticUnknown, "sex": shared.SemanticUnknown,
	"url": shared.SemanticWebsiteURL, "photo": shared.SemanticUnknown,
	"tel": shared.SemanticPhone, "tel-country-code": shared.SemanticPhone, "tel-national": shared.SemanticPhone, "tel-area-code": shared.SemanticPhone,
	"tel-local": shared.SemanticPhone, "tel-local-prefix": shared.SemanticPhone, "tel-local-suffix": shared.SemanticPhone, "tel-extension": shared.SemanticUnknown,
	"impp": shared.SemanticUnknown,
}

func fromType(f extract.Field) (FieldResult, bool) {
	r := func(s shared.SemanticType, c float64) (FieldResult, bool) {
		return FieldResult{Semantic: s, Confidence: c, Evidence: []string{"input type=" + f.Type}}, true
	}
	switch f.Type {
	case "email":
		return r(shared.SemanticEmail, ConfTypeEmail)
	case "tel":
		return r(shared.SemanticPhone, ConfTypeTel)
	case "url":
		return r(shared.SemanticWebsiteURL, ConfTypeURL)
	case "file":
		return r(shared.SemanticFileAttachment, ConfTypeFile)
	case "date", "datetime-local", "month", "week":
		return r(shared.SemanticDate, ConfTypeDate)
	case "time":
		return r(shared.SemanticTime, ConfTypeTime)
	case "password", "search", "color", "range", "image", "submit", "reset", "button":
		return r(shared.SemanticUnknown, ConfTypeNotOurs)
	}
	return FieldResult{}, false
}

// source is one piece of text describing a field and its weight.
type source struct {
	what   string
	text   string
	weight float64
}

func idWords(f extract.Field) string {
	id, name := words(f.ID), words(f.Name)
	if id == "" || name != "" && (strings.Contains(name, id) || strings.Contains(id, name)) {
		return ""
	}
	return id
}

func sources(f extract.Field) []source {
	var out []source
	lw := ConfLabel
	switch f.LabelSource {
	case extract.LabelPlaceholder, extract.LabelTitle:
		lw = ConfPlaceholder
	case extract.LabelNearby:
		lw = ConfNearby
	}
	if t := text(f.Label); t != "" {
		out = append(out, source{"label", t, lw})
	}
	if t := text(f.Placeholder); t != "" && f.LabelSource != extract.LabelPlaceholder {
		out = append(out, source{"placeholder", t, ConfPlaceholder})
	}
	// An id that repeats the name ("name" / "edit-name") is not a second
	// opinion: two developer-facing strings must not outvote the label.
	if t := words(f.Name); t != "" {
		out = append(out, source{"name", t, ConfName})
	}
	if t := idWords(f); t != "" {
		out = append(out, source{"id", t, ConfName - 0.02})
	}
	// A select's first option that stands for no choice ("-- Select a
	// country --", "Toutes régions" with value 0) names the list as a
	// placeholder names a box.
	if t := promptOption(f); t != "" && t != text(f.Label) {
		out = append(out, source{"option", t, ConfHint})
	}
	for _, h := range []string{f.ToolParamDescription, f.Hint} {
		if t := text(h); t != "" && len(t) < 200 {
			out = append(out, source{"hint", t, ConfHint})
		}
	}
	return out
}

// promptOption is the text of a select's first option when its value says
// it is no choice at all (empty, "0", "-1", dashes), or "".
func promptOption(f extract.Field) string {
	if !strings.HasPrefix(f.Type, "select") || len(f.Options) < 2 {
		return ""
	}
	o := f.Options[0]
	if v := strings.Trim(o.Value, " -_."); v != "" && v != "0" && strings.TrimSpace(o.Value) != "-1" {
		return ""
	}
	t := text(strings.Trim(o.Text, " -–—_.*:"))
	if len([]rune(t)) > 60 {
		return ""
	}
	return t
}

type vote struct {
	sum, max float64
	n        int
	evidence []string
}

func fromText(f extract.Field) (FieldResult, bool) {
	kind := controlOf(f)
	votes := map[shared.SemanticType]*vote{}
	add := func(s shared.SemanticType, src source, c compiled, strength float64) {
		v := votes[s]
		if v == nil {
			v = &vote{}
			votes[s] = v
		}
		w := src.weight
		if src.what == "name" || src.what == "id" {
			// strength discounts generic words in attribute names only
			w *= strength
		}
		v.sum += w
		v.n++
		if w > v.max {
			v.max = w
		}
		v.evidence = append(v.evidence, fmt.Sprintf("%s %q says %s", src.what, clipText(src.text, 60), c.why()))
	}
	rules := cFields
	if kind == kindCheckbox {
		rules = cCheckbox
	}
	// A yes/no choice ("Would you like our newsletter?") is an opt-in or a
	// consent like a checkbox.
	yesNo := kind == kindSelect && len(f.Options) > 0 && len(f.Options) <= 3
	for _, src := range sources(f) {
		sc := scanText(src.text)
		// Words that name something none of our types cover win ("User
		// name" is not a person's name).
		if r, c, ok := firstRule(cNotOurs, sc, kind); ok {
			add(r.semantic, src, c, r.strength)
			continue
		}
		if r, c, ok := firstRule(rules, sc, kind); ok {
			add(r.semantic, src, c, r.strength)
			continue
		}
		if kind == kindCheckbox {
			// existing-customer and the like also appear as checkboxes
			if r, c, ok := firstRule(cFields, sc, kind); ok {
				add(r.semantic, src, c, r.strength)
				continue
			}
		}
		if yesNo {
			if r, c, ok := firstRule(cCheckbox, sc, kindCheckbox); ok {
				add(r.semantic, src, c, r.strength)
				continue
			}
		}
	}
	if len(votes) == 0 {
		return FieldResult{}, false
	}
	type cand struct {
		s shared.SemanticType
		v *vote
	}
	var cs []cand
	total := 0.0
	for s, v := range votes {
		cs = append(cs, cand{s, v})
		total += v.sum
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].v.sum != cs[j].v.sum {
			return cs[i].v.sum > cs[j].v.sum
		}
		return cs[i].v.max > cs[j].v.max
	})
	best := cs[0]
	conf := best.v.max + ConfAgreeBonus*float64(best.v.n-1)
	if conf > ConfTextMax {
		conf = ConfTextMax
	}
	if total > best.v.sum {
		conf -= 0.2 * (total - best.v.sum) / total
	}
	ev := best.v.evidence
	for _, c := range cs[1:] {
		ev = append(ev, fmt.Sprintf("outvoted: %s (%s)", c.s, strings.Join(c.v.evidence, "; ")))
	}
	return FieldResult{Semantic: best.s, Confidence: round(conf), Evidence: ev}, true
}

func firstRule(rules []compiledRule, sc *scan, kind controlKind) (compiledRule, compiled, bool) {
	for _, r := range rules {
		if r.controls&kind == 0 {
			continue
		}
		if c, ok := r.match(sc); ok {
			return r, c, true
		}
	}
	return compiledRule{}, compiled{}, false
}

// fromContext: no words matched; decide from the control itself.
func fromContext(f extract.Field) FieldResult {
	switch {
	case f.Tag == "textarea" || f.Type == "textarea" || f.Type == "contenteditable":
		return FieldResult{Semantic: shared.SemanticMessage, Confidence: ConfContext, Evidence: []string{"free-text area without a label that says otherwise"}}
	case strings.HasPrefix(f.Type, "select"):
		if c := countriesListed(f); c != "" {
			return FieldResult{Semantic: shared.SemanticCountry, Confidence: ConfContext, Evidence: []string{fmt.Sprintf("select of %d options listing countries (%s)", len(f.Options), c)}}
		}
	}
	return FieldResult{Semantic: shared.SemanticUnknown, Confidence: ConfUnknown, Evidence: []string{"no autocomplete, type or words that name a meaning"}}
}

// countriesListed: the select's options name two or more of the countries
// every country list names (countryNames) — "Germany", "Deutschland (DE)",
// "日本" — returned as evidence; "" when they do not.
func countriesListed(f extract.Field) string {
	if len(f.Options) < 5 {
		return ""
	}
	var named []string
	seen := map[string]bool{}
	for _, o := range f.Options {
		t := text(o.Text)
		if i := strings.IndexAny(t, "(,[/"); i > 0 {
			t = strings.TrimSpace(t[:i]) // "germany (+49)", "france, métropole"
		}
		if countryNames[t] && !seen[t] {
			seen[t] = true
			named = append(named, t)
			if len(named) == 2 {
				return strings.Join(named, ", ")
			}
		}
	}
	return ""
}

func anyClass(f extract.Field, re *regexp.Regexp) bool { return classDepth(f, re) >= 0 }

// classDepth: how far up from the control re first matches a class
// attribute — 0 the control itself, i+1 its i-th wrapper — or -1.
func classDepth(f extract.Field, re *regexp.Regexp) int {
	if re.MatchString(f.Class) {
		return 0
	}
	for i, c := range f.WrapperClasses {
		if re.MatchString(c) {
			return i + 1
		}
	}
	return -1
}

// typedAnswer: a text box a person sees and types into — an input, not
// the hidden textarea a widget writes its response to.
func typedAnswer(f extract.Field) bool {
	return f.Tag != "textarea" && isTextLike(f) && f.Type != "textarea" && (!f.Visibility.Hidden || f.Visibility.HiddenBy == extract.HiddenByForm)
}

// inCaptchaWidget: the control sits in a captcha widget, and no hiding or
// honeypot wrapper lies between them — a trap placed inside a widget's
// box is still a trap.
func inCaptchaWidget(f extract.Field) bool {
	c := classDepth(f, captchaClass)
	if c < 0 {
		return false
	}
	for _, re := range []*regexp.Regexp{hiddenUtilityClass, honeypotClass} {
		if d := classDepth(f, re); d >= 0 && d < c {
			return false
		}
	}
	return true
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func round(x float64) float64 {
	if x < 0 {
		x = 0
	}
	if x > 1 {
		x = 1
	}
	return float64(int(x*100+0.5)) / 100
}
