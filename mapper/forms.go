package mapper

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Door confidences: a <form> element is a door by definition; a formless
// group is one by our reading of its structure.
const (
	confFormDoor     = 0.95
	confFormlessDoor = 0.7
	confToolDoor     = 0.95
)

// formDoor is one form or formless group of a page as the doors stage
// reads it: the action it opens (head), its doors (the form, and the
// WebMCP tool of a <form toolname>), the barriers guarding it, and what
// the later stages read: its fields (inputs, validations) and the
// evidence of its effects. A form that is not a customer action is a
// formDoor with only a note.
type formDoor struct {
	note     string // why the form is left out; "" for a door
	toolNote string // why the tool the form declares is left out (its name breaks the rule); the form is still a door
	head     actionHead
	doors    []keyedDoor
	barriers []barrierFinding
	effects  effectContext
	inputs   formFields
}

// formDoors reads the customer-action forms and formless groups of a page
// (one state of it), each not in seen, and lists the pages whose form
// signs a member in. A form hosted by a third party is left to
// vendorSightings, which records it as its vendor's door.
func formDoors(s signer, site *url.URL, cls classifier, p *extract.Page, challenge string, seen map[string]bool) (doors []formDoor, loginPages []string) {
	pageBar := pageBarriers(p, challenge)
	for _, f := range formsOf(p) {
		if !firstSighting(seen, p, f) || formHost(f) != nil {
			continue
		}
		reading, fields := cls.form(p, f)
		if reading.Login {
			loginPages = append(loginPages, canonicalPage(p.URL))
		}
		if !reading.CustomerAction {
			doors = append(doors, formDoor{note: leftOutForm(reading, f, relPath(site, p.URL))})
			continue
		}
		doors = append(doors, formDoorOf(s, site, p, f, reading, fields, pageBar))
	}
	return doors, loginPages
}

// holdsAction is formDoors' answer without mapping anything: whether p
// holds a form not in seen that is a customer action or a third-party
// form. It adds p's forms to seen, as formDoors does. The crawl asks it to
// decide what is worth exploring.
func holdsAction(p *extract.Page, seen map[string]bool, cls classifier) (anyAction bool) {
	for _, f := range formsOf(p) {
		if !firstSighting(seen, p, f) {
			continue
		}
		if formHost(f) != nil {
			anyAction = true
			continue
		}
		if r, _ := cls.form(p, f); r.CustomerAction {
			anyAction = true
		}
	}
	return anyAction
}

// formsOf lists a page's forms, then its formless groups.
func formsOf(p *extract.Page) []*extract.Form {
	all := make([]*extract.Form, 0, len(p.Forms)+len(p.Groups))
	for i := range p.Forms {
		all = append(all, &p.Forms[i])
	}
	for i := range p.Groups {
		all = append(all, &p.Groups[i])
	}
	return all
}

// firstSighting records one form element of a page in seen and reports
// whether it was new: a form seen in several states of a page counts once.
func firstSighting(seen map[string]bool, p *extract.Page, f *extract.Form) bool {
	inst := fmt.Sprintf("%s|%s|%d|%t", p.URL, f.Locator, f.Index, f.Formless)
	if seen[inst] {
		return false
	}
	seen[inst] = true
	return true
}

// formHost returns the form-hosting vendor a form posts to (Jotform…).
func formHost(f *extract.Form) *vendor {
	if v, ok := vendorByURL(f.Action); ok && v.role == roleFormHost {
		return v
	}
	return nil
}

// formSelector is the stable selector of a form: form#id when it has an id
// (repeated copies of one form share it), else the extractor's. A form
// inside an open shadow root gets a shadow-including selector (its host's,
// then its own) whose stability is unknown: see shadowLocator.
func formSelector(f *extract.Form) shared.Locator {
	if !f.Formless && f.ID != "" {
		if f.ShadowHost != "" {
			return shadowLocator(f.ShadowHost + " form#" + cssIdent(f.ID))
		}
		return shared.Locator{Strategy: shared.StrategyCSS, Value: "form#" + cssIdent(f.ID), Stability: shared.StabilityStable}
	}
	if f.ShadowHost != "" {
		return shadowLocator(f.Locator)
	}
	return cssLocator(f.Locator)
}

// shadowLocator is the locator of an element inside open shadow roots:
// a CSS selector whose parts are joined across the shadow boundaries by
// the descendant combinator (host, then the element within its shadow
// root), as Playwright's CSS engine — which pierces open shadow roots —
// resolves it. document.querySelector never enters a shadow root, so a
// consumer that resolves CSS that way finds nothing (never a wrong
// element: nothing of the document matches a path through a shadow
// root); the contract has no strategy that says "pierce", so the
// stability says unknown and the door's evidence names the host.
func shadowLocator(sel string) shared.Locator {
	return shared.Locator{Strategy: shared.StrategyCSS, Value: sel, Stability: shared.StabilityUnknown}
}

// shadowEvidence is what a door's evidence says of a form or group inside
// a shadow root (or of a group whose controls are), "" for the document's.
func shadowEvidence(f *extract.Form) string {
	host := f.ShadowHost
	if host == "" {
		for _, fl := range f.Fields {
			if fl.ShadowHost != "" {
				host = fl.ShadowHost
				break
			}
		}
	}
	if host == "" {
		return ""
	}
	return "; inside the open shadow root of " + host + ": the locators pierce shadow roots (Playwright's CSS does; document.querySelector does not)"
}

// cssIdent escapes an identifier (an id for a #selector, a class) as
// the browser's CSS.escape does (CSSOM, "serialize an identifier").
func cssIdent(id string) string {
	var sb strings.Builder
	n := utf8.RuneCountInString(id)
	i, first := 0, rune(0)
	for _, r := range id {
		digit := r >= '0' && r <= '9'
		switch {
		case r == 0:
			sb.WriteRune(utf8.RuneError)
		case r < 0x20 || r == 0x7f || i == 0 && digit || i == 1 && digit && first == '-':
			// A code point escape, ended by a space: "\2nd" would read
			// as U+0002 and "nd", so "2nd" is written "\32 nd".
			fmt.Fprintf(&sb, "\\%x ", r)
		case i == 0 && r == '-' && n == 1:
			sb.WriteString("\\-")
		case r >= 0x80 || r == '-' || r == '_' || digit || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			sb.WriteRune(r)
		default:
			sb.WriteByte('\\')
			sb.WriteRune(r)
		}
		if i == 0 {
			first = r
		}
		i++
	}
	return sb.String()
}

// fingerprint identifies a form across copies and pages: what it is, where
// it sends, and its controls' names and types. Hidden values (unit tags,
// nonces) differ between copies and are left out.
func fingerprint(kind shared.ActionKind, f *extract.Form, sub shared.Submission) string {
	var names []string
	for i, fl := range f.Fields {
		names = append(names, fieldName(fl, i)+":"+fl.Type)
	}
	sort.Strings(names)
	ep := ""
	if sub.Endpoint != nil {
		ep = pathOf(*sub.Endpoint)
	}
	return fmt.Sprintf("form|%s|%s|%s|%s", kind, sub.Transport, ep, strings.Join(names, ","))
}

// leftOutForm is the note about a form of page (its path) that is not a
// customer action.
func leftOutForm(r formReading, f *extract.Form, page string) string {
	switch {
	case len(f.Fields) == 0:
		return fmt.Sprintf("A form without fields on %s is left out.", page)
	case r.Purpose == "":
		return fmt.Sprintf("A form on %s whose purpose could not be read is left out.", page)
	}
	return fmt.Sprintf("%s form on %s is not a customer action and is left out.", r.Purpose, page)
}

// formDoorOf reads one customer-action form of page p into its doors, given
// the classifier's reading of it and of its fields and the barriers that
// guard every form of the page.
func formDoorOf(s signer, site *url.URL, p *extract.Page, f *extract.Form, reading formReading, fields []fieldReading, pageBar []barrierFinding) formDoor {
	pl, plMatch := pluginOf(f)
	loc := formSelector(f)
	sub := submissionOf(site, f, pl, loc.Value)
	label := formLabel(f, reading)
	idPart := formSlug(f.ID)
	if idPart == "" {
		idPart = formSlug(f.Name)
	}
	if idPart == "" {
		idPart = slugify(label)
	}
	conf, what := confFormDoor, "form"
	if f.Formless {
		conf, what = confFormlessDoor, "form-like group without a <form> element"
	}
	ev := loc.Value
	if f.Formless {
		ev = what + " " + loc.Value
	}
	if pl != nil {
		ev += "; " + pl.name + " (" + plMatch + "): " + pl.submission
	}
	if f.ScriptSubmit != "" && pl == nil {
		ev += "; sent by script: " + f.ScriptSubmit
	}
	ev += shadowEvidence(f)
	fd := formDoor{
		head: actionHead{key: fingerprint(reading.Kind, f, sub), kind: reading.Kind, label: label, page: p.URL, idPart: idPart,
			provenance: s.prov(shared.MethodParsedHTML, reading.Confidence, readingEvidence(reading, f))},
		doors: []keyedDoor{{"html-form", shared.Access{
			Method: shared.AccessHTMLForm, URL: p.URL, Locator: &loc, Submission: &sub,
			Provenance: s.prov(shared.MethodParsedHTML, conf, ev),
		}}},
		inputs: formFields{fields: f.Fields, readings: fields, formSel: loc.Value},
	}
	switch {
	case f.ToolName == "":
	case !shared.ValidToolName(f.ToolName):
		fd.toolNote = invalidToolNote("a WebMCP tool", f.ToolName, "declared by "+loc.Value+" on "+relPath(site, p.URL))
	default:
		fd.doors = append(fd.doors, declarativeToolDoor(s, p, f, loc, sub))
	}
	fd.barriers = append(append(append(fd.barriers, formCaptchas(f)...), formLogin(f)...), pageBar...)
	fd.effects = formEffects(f, pl, plMatch, sub)
	return fd
}

// formEffects is the evidence of a form's effects: its plugin, where it
// sends, what it says and which of its controls move money.
func formEffects(f *extract.Form, pl *plugin, plMatch string, sub shared.Submission) effectContext {
	ec := effectContext{plugin: pl, pluginMatch: plMatch, text: f.Heading + " " + f.Text}
	if sub.Endpoint != nil {
		ec.endpoint = *sub.Endpoint
	}
	var acs, urls []string
	for _, fl := range f.Fields {
		ec.fieldNames = append(ec.fieldNames, fl.Name)
		acs = append(acs, fl.AutocompleteTokens...)
	}
	for _, w := range f.Widgets {
		urls = append(urls, w.Src)
	}
	ec.payment = paymentEvidence(ec.fieldNames, acs, urls)
	return ec
}

// submissionOf is how a form's data travels, read from the evidence it
// carries alone (site resolves the endpoints it names).
func submissionOf(site *url.URL, f *extract.Form, pl *plugin, formSel string) shared.Submission {
	s := shared.Submission{Transport: shared.TransportUnknown}
	s.SubmitControl = submitLocator(f, formSel)
	if f.Formless {
		s.Transport = shared.TransportJavascriptOnly
		for _, k := range []string{"endpoint", "action", "url", "api", "submit-url"} {
			if v := f.Data[k]; v != "" && (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "http")) {
				s.Transport = shared.TransportJSONEndpoint
				s.Endpoint = strPtr(resolveOn(site, v))
				ct := "application/json"
				s.Enctype = &ct
				break
			}
		}
		return s
	}
	attr := strings.TrimSpace(strings.ToLower(f.ActionAttr))
	switch {
	case strings.HasPrefix(attr, "javascript:") || f.Method == "dialog" || f.ScriptSubmit != "" && pl == nil:
		// a script sends it, not the browser (a known plugin's script is
		// read by its signature instead)
		s.Transport = shared.TransportJavascriptOnly
		return s
	case len(f.Submits) == 0 && (attr == "" || attr == "#"):
		s.Transport = shared.TransportJavascriptOnly
		return s
	case f.Method == "get":
		s.Transport = shared.TransportFormGet
	default:
		s.Transport = shared.TransportFormPost
		enc := f.Enctype
		if enc == "" {
			enc = "application/x-www-form-urlencoded"
		}
		s.Enctype = &enc
	}
	ep := f.Action
	if pl != nil && pl.ajaxEndpoint != "" && (attr == "" || attr == "#") {
		ep = resolveOn(site, pl.ajaxEndpoint)
	}
	s.Endpoint = strPtr(ep)
	return s
}

// submitLocator finds the control that sends the form: form-scoped
// "button[type=submit]" when that is unambiguous, else the extractor's.
func submitLocator(f *extract.Form, formSel string) *shared.Locator {
	var pick *extract.Submit
	for i := range f.Submits {
		if f.Submits[i].Visible {
			pick = &f.Submits[i]
			break
		}
	}
	if pick == nil && len(f.Submits) > 0 {
		pick = &f.Submits[0]
	}
	if pick == nil {
		return nil
	}
	same := 0
	for _, s := range f.Submits {
		if s.Tag == pick.Tag && s.Type == pick.Type {
			same++
		}
	}
	if same == 1 && pick.Type == "submit" && !isPositional(formSel) && !f.Formless {
		l := shared.Locator{Strategy: shared.StrategyCSS, Value: formSel + " " + pick.Tag + "[type=submit]", Stability: shared.StabilityStable}
		if pick.ShadowHost != "" {
			l = shadowLocator(l.Value)
		}
		return &l
	}
	l := cssLocator(pick.Locator)
	if pick.ShadowHost != "" {
		l = shadowLocator(pick.Locator)
	}
	return &l
}

// formLabel is what a person would call the form.
func formLabel(f *extract.Form, r formReading) string {
	for _, s := range []string{f.Heading, f.ToolDescription} {
		if s = strings.TrimSpace(s); s != "" {
			return clip(s, 120)
		}
	}
	for _, s := range f.Submits {
		if t := strings.TrimSpace(s.Text); t != "" {
			return clip(t, 120)
		}
	}
	return kindLabel(r.Kind)
}

// kindLabel is the fallback label of an action of a kind.
func kindLabel(k shared.ActionKind) string {
	switch k {
	case shared.KindBooking:
		return "Book an appointment"
	case shared.KindQuote:
		return "Request a quote"
	case shared.KindCallback:
		return "Request a callback"
	case shared.KindContact:
		return "Contact the business"
	case shared.KindEnquiry:
		return "Send an enquiry"
	}
	return "Unclassified action"
}

func readingEvidence(r formReading, f *extract.Form) string {
	if r.Evidence != "" {
		return r.Evidence
	}
	return fmt.Sprintf("form text and field set indicate a %s form (%s)", r.Purpose, r.Kind)
}

// resolveOn resolves ref against site; a reference that does not parse is
// kept as written.
func resolveOn(site *url.URL, ref string) string {
	u, err := site.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}

func ptr[T any](v T) *T { return &v }
