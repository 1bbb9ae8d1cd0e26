package mapper

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// The stages of build, each tested alone on pages read from static markup
// (extract.FromHTML) or on values made by hand: no browser, no network.

var (
	stageSite   = &url.URL{Scheme: "https", Host: "acme.example", Path: "/"}
	stageSigner = signer{at: shared.TimestampOf(fixedNow), by: "mapper@test"}
)

// staticPage reads body, served at path of stageSite, as static markup.
func staticPage(t *testing.T, path, body string) *extract.Page {
	t.Helper()
	p, err := extract.FromHTML(resolveOn(stageSite, path), []byte(page("Acme", body)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// doorsSummary is what a test compares of a pageDoors: each door by its
// key (or the note that left it out).
type doorsSummary struct {
	SiteName   string
	Forms      []string
	Revealed   []string
	Login      []string
	Links      []string
	Vendors    []string
	Structured []string
	LDNotes    []string
	Tools      []string
}

func summarizeDoors(pd pageDoors) doorsSummary {
	s := doorsSummary{SiteName: pd.siteName, Login: pd.loginPages, LDNotes: pd.ldNotes}
	form := func(fd formDoor) string {
		if fd.note != "" {
			return "note: " + fd.note
		}
		var ks []string
		for _, d := range fd.doors {
			ks = append(ks, d.key)
		}
		return string(fd.head.kind) + " " + fd.head.idPart + " [" + strings.Join(ks, " ") + "]"
	}
	for _, fd := range pd.forms {
		s.Forms = append(s.Forms, form(fd))
	}
	for _, fd := range pd.revealed {
		s.Revealed = append(s.Revealed, form(fd))
	}
	for _, l := range pd.links {
		s.Links = append(s.Links, string(l.method)+" "+l.key)
	}
	for _, v := range pd.vendors {
		s.Vendors = append(s.Vendors, v.v.name+" "+v.locator)
	}
	for _, l := range pd.structured {
		s.Structured = append(s.Structured, l.head.key)
	}
	for _, t := range pd.tools {
		if t.note != "" {
			s.Tools = append(s.Tools, "note: "+t.note)
			continue
		}
		s.Tools = append(s.Tools, t.head.key+" "+string(t.head.kind))
	}
	return s
}

const (
	stageContactForm = `<form id="contact" action="/contact/" method="post"><h2>Contact us</h2>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="m">Message</label><textarea id="m" name="message" required></textarea>
<button type="submit">Send message</button></form>`
	stageLoginForm = `<form id="login" action="/login/" method="post"><h2>Member login</h2>
<label for="u">Username</label><input id="u" name="username" autocomplete="username">
<label for="p">Password</label><input id="p" name="password" type="password" autocomplete="current-password">
<button type="submit">Log in</button></form>`
)

// The doors stage reads each kind of door of one page as plain values,
// and gives a note for what it leaves out.
func TestFindDoors(t *testing.T) {
	cases := []struct {
		name     string
		body     string
		tools    []webmcpTool
		revealed []string
		want     doorsSummary
	}{
		{"a contact form and the site's name", `<head><meta property="og:site_name" content="Acme Plumbing"></head>` + stageContactForm, nil, nil,
			doorsSummary{SiteName: "Acme Plumbing", Forms: []string{"contact contact [html-form]"}}},
		{"a login form is noted and marks its page", stageLoginForm, nil, nil,
			doorsSummary{Forms: []string{"note: login form on / is not a customer action and is left out."}, Login: []string{"acme.example?"}}},
		{"a form without fields is noted", `<form action="/book/"><button>Book now</button></form>`, nil, nil,
			doorsSummary{Forms: []string{"note: A form without fields on / is left out."}}},
		{"a form seen again in a revealed state counts once", stageContactForm, nil, []string{stageContactForm}, doorsSummary{Forms: []string{"contact contact [html-form]"}}},
		{"a form only a revealed state shows", "<p>Hello</p>", nil, []string{stageContactForm}, doorsSummary{Revealed: []string{"contact contact [html-form]"}}},
		{"a widget and a link only a revealed state shows", `<p>Call <a href="tel:0299990000">02 9999 0000</a></p>`, nil,
			[]string{`<p>Call <a href="tel:0299990000">02 9999 0000</a></p><div role="dialog"><iframe src="https://calendly.com/acme/30min"></iframe><a href="mailto:hi@acme.example">Email us</a></div>`},
			doorsSummary{Links: []string{"tel-link tel:0299990000", "mailto-link mailto:hi@acme.example"}, Vendors: []string{"Calendly iframe[src^=\"https://calendly.com/acme\"]"}}},
		{"tel, mailto and a booking link-out", `<p>Call <a href="tel:+61 2 9999 0000">02 9999 0000</a> or <a href="mailto:Hi@Acme.example">email us</a>.</p>
<a href="https://tables.example/acme#top">Book a table</a><a href="/gallery/">Gallery</a>`, nil, nil,
			doorsSummary{Links: []string{"tel-link tel:+61299990000", "mailto-link mailto:hi@acme.example", "link-to-page booking|https://tables.example/acme"}}},
		{"an embedded scheduler", `<iframe src="https://calendly.com/acme/30min"></iframe>`, nil, nil,
			doorsSummary{Vendors: []string{"Calendly iframe[src^=\"https://calendly.com/acme\"]"}}},
		{"a form declared as a WebMCP tool", `<form id="cb" toolname="request_callback" tooldescription="Ask us to call you back" action="/callback/" method="post"><h2>Request a callback</h2>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required><label for="p">Phone</label><input id="p" name="phone" type="tel" autocomplete="tel" required>
<button type="submit">Call me back</button></form>`, nil, nil,
			doorsSummary{Forms: []string{"callback cb [html-form webmcp|request_callback]"}}},
		{"structured data, one block broken", `<script type="application/ld+json">{"@type":"Restaurant","potentialAction":{"@type":"ReserveAction","name":"Reserve","target":"/reserve/"}}</script>
<script type="application/ld+json">{not json</script>`, nil, nil,
			doorsSummary{Structured: []string{"ld|ReserveAction|https://acme.example/reserve/"}, LDNotes: []string{"JSON-LD block 1 on / is not valid JSON and is left out."}}},
		{"WebMCP tools: a door, a look-up and a bad name", "<p>Hello</p>", []webmcpTool{
			{Where: "document", tool: tool{Name: "book_appointment", Description: "Book an appointment"}},
			{Where: "navigator", tool: tool{Name: "get_hours", Description: "Opening hours"}},
			{Where: "document", tool: tool{Name: "bad name!", Description: "Book"}},
		}, nil, doorsSummary{Tools: []string{
			"webmcp|book_appointment booking",
			"note: WebMCP tool get_hours on / looks things up and is not a customer action.",
			`note: a WebMCP tool with an invalid name "bad name!" on / is left out.`,
		}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &pageVisit{url: stageSite.String(), doc: staticPage(t, "/", tc.body), tools: tc.tools}
			for _, r := range tc.revealed {
				v.revealed = append(v.revealed, staticPage(t, "/", r))
			}
			got := summarizeDoors(findDoors(stageSigner, stageSite, newClassifier(), v, map[string]bool{}))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("doors (-want +got):\n%s", diff)
			}
		})
	}
}

// A malformed inputSchema is a problem the doors stage names (for the
// notes); the parameters it could read are kept.
func TestReadSchema(t *testing.T) {
	cases := []struct {
		name, schema string
		params       []string
		problems     []string
	}{
		{"none", ``, nil, nil},
		{"not JSON", `{"type":`, nil, []string{"The inputSchema of tool t is not a JSON Schema object (unexpected end of JSON input): its inputs are not read."}},
		{"an array", `[1]`, nil, []string{"The inputSchema of tool t is not a JSON Schema object (a JSON array): its inputs are not read."}},
		{"properties a string", `{"properties":"name"}`, nil, []string{"The inputSchema properties of tool t are not an object (a JSON string): its inputs are not read."}},
		{"required not a list", `{"properties":{"a":{}},"required":"a"}`, nil, []string{"The inputSchema of tool t is not a JSON Schema object (required is a JSON string): its inputs are not read."}},
		{"one bad property", `{"properties":{"name":{"type":"string"},"phone":7}}`, []string{"name", "phone"}, []string{"The inputSchema property phone of tool t is not a JSON Schema (a JSON number): the input is read by its name only."}},
		{"in written order", `{"properties":{"zeta":{},"alpha":{}},"required":["alpha"]}`, []string{"zeta", "alpha*"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tp, problems := readSchema(newClassifier(), json.RawMessage(tc.schema), shared.MethodParsedWebMCP, "inputSchema", "tool t")
			var params []string
			for _, p := range tp.params {
				n := p.name
				if p.required {
					n += "*"
				}
				params = append(params, n)
			}
			if diff := cmp.Diff(tc.params, params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// draftSummary is what a test compares of an action draft: its key and
// each door as method×occurrences, and its barriers.
type draftSummary struct {
	Key      string
	Doors    []string
	Barriers []string
}

func summarizeDrafts(ds []*draft) []draftSummary {
	var out []draftSummary
	for _, d := range ds {
		s := draftSummary{Key: d.key}
		for _, a := range d.action.Access {
			s.Doors = append(s.Doors, string(a.Method)+"×"+itoa(&a.Occurrences))
		}
		for _, b := range d.barrier {
			s.Barriers = append(s.Barriers, string(b.kind))
		}
		out = append(out, s)
	}
	return out
}

// formDoorAt is a hand-made form door of a contact form on page.
func formDoorAt(key string, kind shared.ActionKind, page, endpoint string) formDoor {
	sub := shared.Submission{Transport: shared.TransportFormPost, Endpoint: strPtr(endpoint)}
	return formDoor{
		head:  actionHead{key: key, kind: kind, label: "Contact us", page: page, provenance: stageSigner.prov(shared.MethodParsedHTML, 0.9, "words")},
		doors: []keyedDoor{{"html-form", shared.Access{Method: shared.AccessHTMLForm, URL: page, Submission: &sub, Provenance: stageSigner.prov(shared.MethodParsedHTML, 0.95, "form#c")}}},
	}
}

// The actions stage groups doors across pages: one door seen twice is one
// door with two occurrences, links join the action they are for, and
// link-outs to pages that were mapped are dropped.
func TestActionSet(t *testing.T) {
	home, contact, book := "https://acme.example/", "https://acme.example/contact/", "https://acme.example/book/"
	tel := linkSighting{method: shared.AccessTelLink, key: "tel:+61299990000", href: "tel:+61299990000", text: "Call us", kind: shared.KindContact}
	cases := []struct {
		name      string
		pages     []pageDoors
		redirects map[string]string
		want      []draftSummary
		notes     []string
	}{
		{"a form on two pages is one door", []pageDoors{
			{url: home, forms: []formDoor{formDoorAt("f1", shared.KindContact, home, contact)}},
			{url: contact, forms: []formDoor{formDoorAt("f1", shared.KindContact, contact, contact)}},
		}, nil, []draftSummary{{Key: "f1", Doors: []string{"html-form×2"}}}, nil},
		{"a phone number joins the contact form", []pageDoors{
			{url: home, links: []linkSighting{withPage(tel, home)}},
			{url: contact, forms: []formDoor{formDoorAt("f1", shared.KindContact, contact, contact)}, links: []linkSighting{withPage(tel, contact)}},
		}, nil, []draftSummary{{Key: "f1", Doors: []string{"html-form×1", "tel-link×2"}}}, nil},
		{"a phone number alone is a contact action", []pageDoors{{url: home, links: []linkSighting{withPage(tel, home)}}},
			nil, []draftSummary{{Key: "contact|links", Doors: []string{"tel-link×1"}}}, nil},
		{"a link-out to a mapped page is dropped, one to a page not mapped kept", []pageDoors{
			{url: home, links: []linkSighting{
				{method: shared.AccessLinkToPage, key: "booking|" + contact, href: contact, text: "Book", kind: shared.KindBooking, page: home, sameSite: true},
				{method: shared.AccessLinkToPage, key: "booking|" + book, href: book, text: "Book", kind: shared.KindBooking, page: home, sameSite: true},
			}},
			{url: contact},
		}, nil, []draftSummary{{Key: "linkout|booking|" + book, Doors: []string{"link-to-page×1"}}}, nil},
		{"a link-out that lands on a login form", []pageDoors{
			{url: home, links: []linkSighting{{method: shared.AccessLinkToPage, key: "booking|" + book, href: book, text: "Book", kind: shared.KindBooking, page: home, sameSite: true}}},
			{url: "https://acme.example/login/", loginPages: []string{"acme.example/login?"}},
		}, map[string]string{"acme.example/book?": "https://acme.example/login/"},
			[]draftSummary{{Key: "linkout|booking|" + book, Doors: []string{"link-to-page×1"}, Barriers: []string{"login"}}}, nil},
		{"structured data joins the form sending to its endpoint", []pageDoors{
			{url: contact, forms: []formDoor{formDoorAt("f1", shared.KindContact, contact, contact)},
				structured: []ldDoor{{typ: "ContactAction", target: contact, head: actionHead{key: "ld|x", kind: shared.KindContact, page: contact},
					door: shared.Access{Method: shared.AccessDocumentedEndpoint, URL: contact, Provenance: stageSigner.prov(shared.MethodParsedStructuredData, 0.9, "jsonld[0]")}}}},
		}, nil, []draftSummary{{Key: "f1", Doors: []string{"html-form×1", "documented-endpoint×1"}}}, nil},
		{"notes of left-out doors, in page order, each once", []pageDoors{
			{url: home, forms: []formDoor{{note: "login form on / is not a customer action and is left out."}}, ldNotes: []string{"JSON-LD block 0 on / is not valid JSON and is left out."},
				tools: []toolDoor{{note: "WebMCP tool get_hours on / looks things up and is not a customer action."}}},
			{url: contact, forms: []formDoor{{note: "login form on / is not a customer action and is left out."}}},
		}, nil, nil, []string{"login form on / is not a customer action and is left out.", "JSON-LD block 0 on / is not valid JSON and is left out.", "WebMCP tool get_hours on / looks things up and is not a customer action."}},
		{"a tool's schema problems are noted when it makes its action", []pageDoors{
			{url: home, tools: []toolDoor{{head: actionHead{key: "webmcp|t", kind: shared.KindBooking, page: home}, door: keyedDoor{"webmcp|t", shared.Access{Method: shared.AccessWebMCPTool, URL: home}}, doorPage: home, problems: []string{"bad schema on /"}}}},
			{url: contact, tools: []toolDoor{{head: actionHead{key: "webmcp|t", kind: shared.KindBooking, page: contact}, door: keyedDoor{"webmcp|t", shared.Access{Method: shared.AccessWebMCPTool, URL: contact}}, doorPage: contact, problems: []string{"bad schema on /contact/"}}}},
		}, nil, []draftSummary{{Key: "webmcp|t", Doors: []string{"webmcp-tool×2"}}}, []string{"bad schema on /"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var notes noteList
			as := newActionSet(stageSigner, stageSite, tc.redirects)
			for _, pd := range tc.pages {
				as.addPage(pd, &notes)
			}
			if diff := cmp.Diff(tc.want, summarizeDrafts(as.finish())); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.notes, []string(notes)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

func withPage(l linkSighting, page string) linkSighting { l.page = page; return l }

// The inputs and validations stages read what an action needs from the
// source that made it: a form's fields, a tool's schema, structured data.
func TestInputsAndValidations(t *testing.T) {
	s := stageSigner
	email := extract.Field{Tag: "input", Type: "text", Name: "email", Label: "Email", Required: true, MaxLength: "80"}
	token := extract.Field{Tag: "input", Type: "hidden", Name: "_token", Value: "abc"}
	maxLen := 40
	cases := []struct {
		name   string
		src    inputSource
		inputs []shared.Input
		vals   []shared.Validation
	}{
		{"form fields: a token is sent as found, an email box gets its rules",
			formFields{fields: []extract.Field{email, token}, formSel: "form#c", readings: []fieldReading{
				{Semantic: shared.SemanticEmail, Confidence: 0.9, Evidence: "label Email", AgentFillable: true},
				{Semantic: shared.SemanticSystemToken, Confidence: 0.95, Evidence: "hidden"},
			}},
			[]shared.Input{
				{Name: "email", Label: strPtr("Email"), Semantic: shared.SemanticEmail, Type: "text", Required: true, AgentFillable: true,
					ValueSpace: []shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(80)}}, DefaultValue: nil,
					Locator:    &shared.Locator{Strategy: shared.StrategyCSS, Value: "form#c input[name=email]", Stability: shared.StabilityStable},
					Provenance: ptr(s.prov(shared.MethodParsedHTML, 0.9, "label Email"))},
				{Name: "_token", Semantic: shared.SemanticSystemToken, Type: "hidden", ValueSpace: []shared.ValueSpace{}, DefaultValue: strPtr("abc"),
					Locator:    &shared.Locator{Strategy: shared.StrategyCSS, Value: "form#c input[name=_token]", Stability: shared.StabilityStable},
					Provenance: ptr(s.prov(shared.MethodParsedHTML, 0.95, "hidden"))},
			},
			[]shared.Validation{
				shared.DeclaredValidation{AppliesTo: "email", Rule: shared.Rule{Kind: shared.RuleRequired}, Attribute: "required", Provenance: s.prov(shared.MethodParsedHTML, confDeclaredRule, "form#c input[name=email][required]")},
				shared.DeclaredValidation{AppliesTo: "email", Rule: shared.Rule{Kind: shared.RuleMaxLength, Value: strPtr("80")}, Attribute: "maxlength", Raw: "80", Provenance: s.prov(shared.MethodParsedHTML, confDeclaredRule, "form#c input[name=email][maxlength=\"80\"]")},
				shared.InferredValidation{AppliesTo: "email", Rule: shared.Rule{Kind: shared.RuleFormat, Value: strPtr("email")}, Basis: inferredRules[1].basis, Confidence: 0.7, Provenance: s.prov(shared.MethodInferred, 0.7, inferredRules[1].basis)},
			}},
		{"a tool schema: a parameter is the caller's to give, never a token",
			toolParams{method: shared.MethodParsedWebMCP, path: "inputSchema", params: []toolParam{
				{name: "name", prop: jsonSchemaProp{Type: "string", Title: "Your name", MaxLength: &maxLen}, required: true, reading: fieldReading{Semantic: shared.SemanticPersonName, Confidence: 0.8, Evidence: "name"}},
				{name: "nonce", prop: jsonSchemaProp{Type: "string"}, reading: fieldReading{Semantic: shared.SemanticSystemToken, Confidence: 1.2, Evidence: "nonce"}},
			}},
			[]shared.Input{
				{Name: "name", Label: strPtr("Your name"), Semantic: shared.SemanticPersonName, Type: "text", Required: true, AgentFillable: true,
					ValueSpace: []shared.ValueSpace{shared.LengthSpace{MaxLength: &maxLen}}, Provenance: ptr(s.prov(shared.MethodParsedWebMCP, 0.8, "inputSchema.properties.name; name"))},
				{Name: "nonce", Semantic: shared.SemanticUnknown, Type: "text", AgentFillable: true,
					ValueSpace: []shared.ValueSpace{}, Provenance: ptr(s.prov(shared.MethodParsedWebMCP, 0.99, "inputSchema.properties.nonce; nonce"))},
			},
			[]shared.Validation{
				shared.DeclaredValidation{AppliesTo: "name", Rule: shared.Rule{Kind: shared.RuleRequired}, Attribute: "required", Provenance: s.prov(shared.MethodParsedWebMCP, confDeclaredRule, "inputSchema.properties.name")},
				shared.DeclaredValidation{AppliesTo: "name", Rule: shared.Rule{Kind: shared.RuleMaxLength, Value: strPtr("40")}, Attribute: "maxLength", Raw: "40", Provenance: s.prov(shared.MethodParsedWebMCP, confDeclaredRule, "inputSchema.properties.name")},
			}},
		{"structured data: a read-only spec is not the agent's",
			ldSpecs{{in: ldInput{prop: "partySize", name: "party", required: true, readonly: true, min: "1", raw: "required readonly min=1"}, reading: fieldReading{Semantic: shared.SemanticPartySize, Confidence: 0.7}, path: "jsonld[0].potentialAction.partySize-input"}},
			[]shared.Input{{Name: "party", Label: strPtr("partySize"), Semantic: shared.SemanticPartySize, Type: "text", Required: true,
				ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: strPtr("1")}},
				Provenance: ptr(s.prov(shared.MethodParsedStructuredData, 0.7, "jsonld[0].potentialAction.partySize-input = required readonly min=1"))}},
			[]shared.Validation{
				shared.DeclaredValidation{AppliesTo: "party", Rule: shared.Rule{Kind: shared.RuleRequired}, Attribute: "valueRequired", Provenance: s.prov(shared.MethodParsedStructuredData, confDeclaredRule, "jsonld[0].potentialAction.partySize-input")},
				shared.DeclaredValidation{AppliesTo: "party", Rule: shared.Rule{Kind: shared.RuleMin, Value: strPtr("1")}, Attribute: "minValue", Raw: "1", Provenance: s.prov(shared.MethodParsedStructuredData, confDeclaredRule, "jsonld[0].potentialAction.partySize-input")},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.inputs, tc.src.inputs(s)); diff != "" {
				t.Errorf("inputs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.vals, tc.src.validations(s), cmp.Comparer(func(a, b shared.Validation) bool { return cmp.Equal(a, b) })); diff != "" {
				t.Errorf("validations (-want +got):\n%s", diff)
			}
		})
	}
}

// The barriers stage records each finding with its provenance.
func TestBarriersStage(t *testing.T) {
	cases := []struct {
		name string
		in   []barrierFinding
		want []shared.Barrier
	}{
		{"none", nil, nil},
		{"a captcha and a login", []barrierFinding{
			{shared.BarrierCaptcha, "hCaptcha", "hCaptcha widget", 0.95, "div.h-captcha"},
			{shared.BarrierLogin, "login", "needs an account", 1.5, "form text"},
		}, []shared.Barrier{
			{Kind: shared.BarrierCaptcha, Detail: strPtr("hCaptcha widget"), Provenance: stageSigner.prov(shared.MethodParsedHTML, 0.95, "div.h-captcha")},
			{Kind: shared.BarrierLogin, Detail: strPtr("needs an account"), Provenance: shared.Provenance{Method: shared.MethodParsedHTML, Confidence: 0.99, At: stageSigner.at, By: stageSigner.by, Evidence: strPtr("form text")}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, stageSigner.barriers(tc.in)); diff != "" {
				t.Errorf("barriers (-want +got):\n%s", diff)
			}
		})
	}
}

// The folding stage says in a repeated door's evidence where its copies
// were; a door seen once keeps its evidence.
func TestFoldOccurrences(t *testing.T) {
	rel := func(raw string) string { return relPath(stageSite, raw) }
	cases := []struct {
		name   string
		method shared.AccessMethod
		pages  []string
		want   string
	}{
		{"once", shared.AccessHTMLForm, []string{"https://acme.example/"}, "form#c"},
		{"twice on one page", shared.AccessHTMLForm, []string{"https://acme.example/", "https://acme.example/"}, "form#c; identical form repeated on the same page (/), folded to occurrences: 2"},
		{"on three pages", shared.AccessTelLink, []string{"https://acme.example/b/", "https://acme.example/a/", "https://acme.example/b/"}, "form#c; same link repeated on /a/, /b/, folded to occurrences: 3"},
		{"a widget", shared.AccessSchedulerWidget, []string{"https://acme.example/", "https://acme.example/x/"}, "form#c; same widget repeated on /, /x/, folded to occurrences: 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			access := []shared.Access{{Method: tc.method, Occurrences: len(tc.pages), Provenance: stageSigner.prov(shared.MethodParsedHTML, 0.9, "form#c")}}
			foldOccurrences(access, map[string]*doorCopies{"k": {index: 0, pages: tc.pages, evidence: "form#c"}}, rel)
			if diff := cmp.Diff(tc.want, *access[0].Provenance.Evidence); diff != "" {
				t.Errorf("evidence (-want +got):\n%s", diff)
			}
		})
	}
}

// Naming: <slug>:<kind>:<part>, the kind when there is no part, a counter
// for repeats; notes are kept once each, in order.
func TestNamingAndNotes(t *testing.T) {
	n := newActionNamer("acme", nil)
	got := []string{n.id(shared.KindContact, ""), n.id(shared.KindBooking, "calendly"), n.id(shared.KindBooking, "calendly"), n.id(shared.KindContact, "")}
	want := []string{"acme:contact:contact", "acme:booking:calendly", "acme:booking:calendly-2", "acme:contact:contact-2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	var notes noteList
	for _, s := range []string{"b", "", "a", "b"} {
		notes.add(s)
	}
	if diff := cmp.Diff(noteList{"b", "a"}, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// The effects stage reads an action's consequences from its effectContext
// alone.
func TestEffectsStage(t *testing.T) {
	calendly, _ := vendorByURL("https://calendly.com/acme")
	cases := []struct {
		name    string
		in      effectContext
		want    []shared.EffectKind
		summary string
	}{
		{"nothing known", effectContext{}, []shared.EffectKind{shared.EffectUnknown}, "Does something the page does not state."},
		{"a phone call", effectContext{kind: shared.KindContact, phoneOnly: true}, []shared.EffectKind{shared.EffectUnknown}, "Does something the page does not state."},
		{"a mailto door", effectContext{kind: shared.KindContact, mailto: "hi@acme.example"}, []shared.EffectKind{shared.EffectSendsEmailToBusiness},
			"Emails the business the customer's details; nothing indicates that a slot is held or a charge is made."},
		{"a scheduler", effectContext{kind: shared.KindBooking, vendor: calendly}, []shared.EffectKind{shared.EffectBooksAppointment, shared.EffectSharesDataWithThirdParty},
			"Books a slot in the business's calendar and passes the customer's details to Calendly."},
		{"a quote form posting to another host", effectContext{kind: shared.KindQuote, siteHost: "acme.example", endpoint: "https://crm.example.net/in"},
			[]shared.EffectKind{shared.EffectSharesDataWithThirdParty, shared.EffectRequestsQuote},
			"Passes the customer's details to crm.example.net and asks the business for a quote; nothing indicates that a slot is held or a charge is made."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			se := stageSigner.sideEffects(tc.in)
			var got []shared.EffectKind
			for _, e := range se.Effects {
				got = append(got, e.Kind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("effects (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.summary, se.Summary); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
		})
	}
}

// Errors carry the mapper's prefix once and keep their cause, so
// errors.Is and errors.As reach it.
func TestErrorsKeepTheirCause(t *testing.T) {
	for _, raw := range []string{"ftp://example.com/", "http://[::1", "", "/relative/"} {
		t.Run("MapHTML "+raw, func(t *testing.T) {
			_, err := MapHTML(raw, []byte("<p>hi</p>"), testOptions())
			if !errors.Is(err, ErrInvalidURL) {
				t.Fatalf("MapHTML(%q) = %v, want ErrInvalidURL", raw, err)
			}
			if n := strings.Count(err.Error(), "mapper:"); n != 1 {
				t.Errorf("error %q carries the prefix %d times, want once", err, n)
			}
		})
	}
	t.Run("extract.FromHTML keeps the URL's parse error", func(t *testing.T) {
		_, err := extract.FromHTML("http://[::1", []byte("<p>hi</p>"))
		var ue *url.Error
		if !errors.Is(err, extract.ErrParse) || !errors.As(err, &ue) {
			t.Errorf("FromHTML error %v: want extract.ErrParse wrapping the *url.Error", err)
		}
	})
}

// revealFails is a static loader whose exploration reveals one state and
// then fails.
type revealFails struct {
	staticLoader
	state *extract.Page
}

func (l revealFails) reveal(context.Context, string) ([]*extract.Page, error) {
	return []*extract.Page{l.state}, errors.Join(errors.New("exploration stopped: boom"), errors.New("2 observations failed (dialog)"))
}

// An exploration that fails keeps what it revealed, and the graph's notes
// say what went wrong.
func TestRevealFailureIsNoted(t *testing.T) {
	srv := serveSite(t, site{pages: map[string]string{"/": page("Acme", "<h1>Acme</h1>")}})
	state, err := extract.FromHTML(srv.URL+"/", []byte(page("Acme", stageContactForm)))
	if err != nil {
		t.Fatal(err)
	}
	g := mapStatic(t, srv.URL+"/", func(o *Options) { o.loader = revealFails{state: state} })
	if len(g.Actions) != 1 || g.Actions[0].Kind != shared.KindContact {
		t.Errorf("actions %+v, want the revealed contact form", summaryOf(g))
	}
	want := "Exploring /: exploration stopped: boom; 2 observations failed (dialog); the forms it revealed before are mapped."
	if g.Notes == nil || !strings.Contains(*g.Notes, want) {
		t.Errorf("notes %v, want %q", g.Notes, want)
	}
}
