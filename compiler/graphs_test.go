package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"

	"github.com/frontlatch/frontlatch/shared"
)

// Test graphs, built in Go so that every door kind, input type and effect
// kind is covered on purpose. TestGraphFiles writes them to testdata/graphs
// (with -update) for the CLI tests and the docs.

const testAt shared.Timestamp = "2026-09-01T10:00:00.000Z"

func ptr[T any](v T) *T { return &v }

func prov(m shared.ProvenanceMethod, c float64, ev string) shared.Provenance {
	return shared.Provenance{Method: m, Confidence: c, At: testAt, By: "test@0.1.0", Evidence: ptr(ev)}
}

func css(v string) *shared.Locator {
	return &shared.Locator{Strategy: shared.StrategyCSS, Value: v, Stability: shared.StabilityStable}
}

func formDoor(page, form, endpoint string, t shared.Transport, enctype *string) shared.Access {
	return shared.Access{
		Method: shared.AccessHTMLForm, URL: page, Locator: css(form), Occurrences: 1,
		Submission: &shared.Submission{Transport: t, Endpoint: ptr(endpoint), Enctype: enctype, SubmitControl: css(form + " [type=submit]")},
		Provenance: prov(shared.MethodParsedHTML, 0.95, form),
	}
}

func infoDoor(m shared.AccessMethod, u string, opaque bool, vendor *string) shared.Access {
	return shared.Access{Method: m, URL: u, Occurrences: 1, Opaque: opaque, Vendor: vendor, Provenance: prov(shared.MethodParsedHTML, 0.9, u)}
}

func field(form, name, label string, sem shared.SemanticType, typ string, required bool, vs ...shared.ValueSpace) shared.Input {
	if vs == nil {
		vs = []shared.ValueSpace{}
	}
	return shared.Input{
		Name: name, Label: ptr(label), Semantic: sem, Type: typ, Required: required, AgentFillable: true,
		ValueSpace: vs, Locator: css(form + " [name=\"" + name + "\"]"), Provenance: ptrProv(prov(shared.MethodParsedHTML, 0.9, name)),
	}
}

func ptrProv(p shared.Provenance) *shared.Provenance { return &p }

func hidden(in shared.Input) shared.Input {
	in.AgentFillable = false
	return in
}

func declared(to string, k shared.RuleKind, v *string, attr string) shared.Validation {
	raw := ""
	if v != nil {
		raw = *v
	}
	return shared.DeclaredValidation{AppliesTo: to, Rule: shared.Rule{Kind: k, Value: v}, Attribute: attr, Raw: raw, Provenance: prov(shared.MethodParsedHTML, 0.99, attr)}
}

func inferredRule(to string, k shared.RuleKind, v string) shared.Validation {
	return shared.InferredValidation{AppliesTo: to, Rule: shared.Rule{Kind: k, Value: ptr(v)}, Basis: "looks like it", Confidence: 0.5, Provenance: prov(shared.MethodInferred, 0.5, "guess")}
}

func effect(k shared.EffectKind, target *string, holds bool) shared.Effect {
	return shared.Effect{Kind: k, Target: target, HoldsInventory: holds, Provenance: prov(shared.MethodInferred, 0.7, string(k))}
}

func sideEffects(summary string, effects ...shared.Effect) shared.SideEffects {
	return shared.SideEffects{Effects: effects, Reversible: shared.ReversibleUnknown, TransmitsPii: true, Summary: summary,
		Provenance: prov(shared.MethodInferred, 0.7, "form wording")}
}

// verified returns the state an owner's confirmation of the action id's
// side effects se produces; each confirmation has its own audit record, as
// the portal writes them.
func verified(id string, se shared.SideEffects) shared.Verified {
	return shared.Verified{
		Confirmation: shared.OwnerConfirmation{
			ConfirmedBy: "owner@example.test", ConfirmedAt: "2026-09-02T09:00:00.000Z", Method: shared.ConfirmedOwnerPortal,
			AuditRecord: ptr("audit-" + id),
			Limits:      shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 10, Per: shared.PerDay}, Notify: ptr("owner@example.test")},
			Disclosure:  shared.DisclosureOf(se),
		},
		SandboxRuns: []shared.SandboxRun{},
	}
}

func newAction(id string, k shared.ActionKind, label, page string) shared.Action {
	a := shared.NewAction(id, k, label, page)
	a.Provenance = ptrProv(prov(shared.MethodParsedHTML, 0.9, "page text"))
	return a
}

// doorsGraph has every door kind (every access method, form-post, form-get,
// json endpoint, javascript-only, opaque), every input type the schema
// maps, honeypot and system token, declared and inferred validations, and
// all three verification states.
func doorsGraph() *shared.ActionGraph {
	const site = "https://harbour-plumbing.example/"
	g := shared.NewGraph("ag_doors_test", shared.Site{Domain: "harbour-plumbing.example", URL: site, Name: ptr("Harbour Plumbing & Gas")}, testAt, shared.Generator{Name: "test", Version: "0.1.0"})

	// 1. quote: verified; a multipart form with every input type, a tel:
	// door, a documented JSON endpoint and a WebMCP tool.
	const qf = "form#quote"
	q := newAction("plumber:quote:job", shared.KindQuote, "Request a plumbing quote", site+"quote/")
	q.Access = []shared.Access{
		formDoor(site+"quote/", qf, site+"wp-admin/admin-ajax.php?action=quote_submit", shared.TransportFormPost, ptr("multipart/form-data")),
		infoDoor(shared.AccessTelLink, "tel:+61290000000", false, nil),
		{Method: shared.AccessDocumentedEndpoint, URL: site + "api/", Occurrences: 1,
			Submission: &shared.Submission{Transport: shared.TransportJSONEndpoint, Endpoint: ptr(site + "api/quotes"), Enctype: ptr("application/json")},
			Provenance: prov(shared.MethodParsedStructuredData, 0.9, "openapi link")},
		{Method: shared.AccessWebMCPTool, URL: site + "quote/", Occurrences: 1, ToolName: ptr("request_quote"),
			Provenance: prov(shared.MethodParsedWebMCP, 0.95, "registerTool request_quote")},
	}
	q.Inputs = []shared.Input{
		field(qf, "full-name", "Full name", shared.SemanticPersonName, "text", true, shared.LengthSpace{MinLength: ptr(2), MaxLength: ptr(60)}),
		field(qf, "email", "Email", shared.SemanticEmail, "email", true),
		field(qf, "phone", "Mobile", shared.SemanticPhone, "tel", false, shared.PatternSpace{Pattern: "04[0-9]{8}"}),
		field(qf, "suburb", "Suburb", shared.SemanticLocality, "text", false),
		field(qf, "service", "Service", shared.SemanticServiceRequested, "select", true, shared.OneOfSpace{Options: []shared.Option{
			{Value: "blocked-drain", Label: ptr("Blocked drain")}, {Value: "hot-water", Label: ptr("Hot water")}, {Value: "leak", Label: ptr("leak")}}}),
		field(qf, "preferred-date", "Preferred date", shared.SemanticDate, "date", false, shared.RangeSpace{Min: ptr("2026-09-01")}),
		field(qf, "preferred-time", "Preferred time", shared.SemanticTime, "time", false),
		field(qf, "budget", "Budget (AUD)", shared.SemanticBudget, "number", false, shared.RangeSpace{Min: ptr("100"), Max: ptr("5000"), Step: ptr("50")}),
		field(qf, "website", "Your website", shared.SemanticWebsiteURL, "url", false),
		field(qf, "photos", "Photos", shared.SemanticFileAttachment, "file", false),
		field(qf, "message", "Describe the job", shared.SemanticMessage, "textarea", true, shared.LengthSpace{MaxLength: ptr(1000)}),
		field(qf, "news", "Send me offers", shared.SemanticMarketingOptIn, "checkbox", false),
		hidden(field(qf, "company-url", "Company", shared.SemanticHoneypot, "text", false)),
		hidden(field(qf, "_wpnonce", "", shared.SemanticSystemToken, "hidden", false)),
	}
	q.Inputs[1].Hint = ptr("We reply by email")
	q.Inputs[13].Label = nil
	q.Validations = []shared.Validation{
		declared("full-name", shared.RuleRequired, nil, "required"),
		declared("full-name", shared.RuleMaxLength, ptr("60"), "maxlength"),
		declared("email", shared.RuleFormat, ptr("email"), "type"),
		declared("phone", shared.RulePattern, ptr("04[0-9]{8}"), "pattern"),
		declared("service", shared.RuleOneOf, nil, "select"),
		declared("photos", shared.RuleAccept, ptr("image/*,.pdf"), "accept"),
		declared("photos", shared.RuleMaxFileSize, ptr("5 MB"), "data-max-size"),
		declared("budget", shared.RuleMin, ptr("100"), "min"),
		inferredRule("message", shared.RuleMinLength, "20"),
		inferredRule("suburb", shared.RulePattern, "[A-Z][a-z]+"),
	}
	q.SideEffects = sideEffects("Sends the office a quote request; a plumber replies with a price within two business days.",
		effect(shared.EffectRequestsQuote, nil, false), effect(shared.EffectSendsEmailToBusiness, ptr("office@harbour-plumbing.example"), false),
		effect(shared.EffectSendsConfirmationToCustomer, nil, false))
	q.Verification = verified(q.ID, q.SideEffects)

	// 2. booking: sandbox-tested; a GET availability form and an opaque
	// Calendly scheduler.
	const bf = "form.availability"
	b := newAction("plumber:booking:service", shared.KindBooking, "Book a hot-water service", site+"book/")
	b.Access = []shared.Access{
		formDoor(site+"book/", bf, site+"book/", shared.TransportFormGet, nil),
		infoDoor(shared.AccessSchedulerWidget, "https://calendly.com/harbour-plumbing/service", true, ptr("Calendly")),
	}
	b.Inputs = []shared.Input{
		field(bf, "day", "Day", shared.SemanticDate, "date", true),
		field(bf, "window", "Time of day", shared.SemanticPreferredTimeWindow, "radio", true, shared.OneOfSpace{Options: []shared.Option{{Value: "am"}, {Value: "pm"}}}),
	}
	b.SideEffects = sideEffects("Books a technician visit in the chosen window; the slot is held for you.",
		effect(shared.EffectBooksAppointment, nil, true))
	b.SideEffects.CreatesObligation = true
	b.Verification = shared.SandboxTested{SandboxRuns: []shared.SandboxRun{{RunID: "run-1", At: testAt, By: "verifier@0.1.0", Outcome: shared.SandboxPassed,
		Endpoint: ptr(site + "book/"), Fields: []shared.SubmittedField{{Name: "day", Value: "2026-09-10"}}, ResponseStatus: ptr(200)}}, Note: ptr("ran in test mode")}

	// 3. contact: verified, but only a mailto: door — information, no tool.
	c := newAction("plumber:contact:email", shared.KindContact, "Email the office", site+"contact/")
	c.Access = []shared.Access{infoDoor(shared.AccessMailtoLink, "mailto:office@harbour-plumbing.example", false, nil)}
	c.SideEffects = sideEffects("Opens an email to the office.", effect(shared.EffectSendsEmailToBusiness, ptr("office@harbour-plumbing.example"), false))
	c.Verification = verified(c.ID, c.SideEffects)

	// 4. callback: unverified; a JavaScript-only form (not drivable) and a
	// link to the page that has it.
	cb := newAction("plumber:callback:request", shared.KindCallback, "Request a callback", site+"callback/")
	jsOnly := formDoor(site+"callback/", "div.callback", site+"callback/", shared.TransportJavascriptOnly, nil)
	cb.Access = []shared.Access{jsOnly, infoDoor(shared.AccessLinkToPage, site+"callback/", false, nil)}
	cb.Inputs = []shared.Input{field("div.callback", "cb-phone", "Phone", shared.SemanticPhone, "tel", true)}
	cb.SideEffects = sideEffects("Asks the office to phone you back.", effect(shared.EffectCreatesCallbackRequest, nil, false))

	// 5. enquiry: verified; the same kind of form twice (header and footer
	// locators differ), so each tool name carries a hash of its door.
	const ef1, ef2 = "header form.enquiry", "footer form.enquiry"
	e := newAction("plumber:enquiry:question", shared.KindEnquiry, "Ask a question", site)
	e.Access = []shared.Access{
		formDoor(site, ef1, site+"wp-json/contact-form-7/v1/contact-forms/12/feedback", shared.TransportFormPost, nil),
		formDoor(site, ef2, site+"wp-json/contact-form-7/v1/contact-forms/12/feedback", shared.TransportFormPost, nil),
	}
	e.Inputs = []shared.Input{
		field(ef1, "your-email", "Email", shared.SemanticEmail, "email", true),
		field(ef1, "reply-by", "Reply by", shared.SemanticContactPreference, "radio", false, shared.OneOfSpace{Options: []shared.Option{{Value: "email", Label: ptr("Email")}, {Value: "phone", Label: ptr("Phone")}}}),
		field(ef1, "topics", "Topics", shared.SemanticSubject, "checkbox", false, shared.OneOfSpace{Options: []shared.Option{{Value: "gas"}, {Value: "water"}}}),
		field(ef1, "existing", "I am an existing customer", shared.SemanticExistingCustomer, "checkbox", false),
		field(ef1, "agree", "I agree to the privacy policy", shared.SemanticConsent, "checkbox", true),
		field(ef1, "your-question", "Question", shared.SemanticMessage, "textarea", true),
	}
	e.Validations = []shared.Validation{declared("agree", shared.RuleRequired, nil, "required")}
	e.SideEffects = sideEffects("Emails the office your question.", effect(shared.EffectSendsEmailToBusiness, nil, false))
	e.SideEffects.Reversible = shared.ReversibleFalse
	e.Verification = verified(e.ID, e.SideEffects)

	// 6. unknown: an opaque door of unknown method.
	u := newAction("plumber:unknown:widget", shared.KindUnknown, "Chat widget", site)
	u.Access = []shared.Access{infoDoor(shared.AccessUnknown, site+"#chat", true, ptr("LiveChat"))}
	u.SideEffects = sideEffects("Unknown.", effect(shared.EffectUnknown, nil, false))

	g.Actions = []shared.Action{q, b, c, cb, e, u}
	return g
}

// effectsGraph has one verified action per effect kind, each with a form,
// so every effect kind reaches the annotations.
func effectsGraph() *shared.ActionGraph {
	const site = "https://effects.example/"
	g := shared.NewGraph("ag_effects_test", shared.Site{Domain: "effects.example", URL: site}, testAt, shared.Generator{Name: "test", Version: "0.1.0"})
	for _, k := range allEffectKinds() {
		form := "form#" + string(k)
		a := newAction("effects:"+string(k), shared.KindContact, "Action that "+words(k), site)
		a.Access = []shared.Access{formDoor(site, form, site+"submit/"+string(k), shared.TransportFormPost, nil)}
		a.Inputs = []shared.Input{field(form, "email", "Email", shared.SemanticEmail, "email", true)}
		a.SideEffects = sideEffects("Does this: "+words(k)+".", effect(k, nil, k == shared.EffectBooksAppointment))
		if k == shared.EffectChargesPayment {
			a.SideEffects.ChargesMoney = true
		}
		a.Verification = verified(a.ID, a.SideEffects)
		g.Actions = append(g.Actions, a)
	}
	return g
}

// allEffectKinds is the contract's own list, read through the vocabulary.
func allEffectKinds() []shared.EffectKind {
	var out []shared.EffectKind
	for _, m := range shared.EffectKind("").Members() {
		out = append(out, shared.EffectKind(m))
	}
	return out
}

// clinicGraph reads the committed clinic01 fixture graph.
func clinicGraph(t *testing.T) *shared.ActionGraph {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixturestest.MustRepoRoot(t), "fixtures", "graphs", "clinic01.json"))
	if err != nil {
		t.Fatalf("reading the clinic01 fixture graph: %v", err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatalf("clinic01 fixture graph: %v", issues)
	}
	return g
}
