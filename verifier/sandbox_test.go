package verifier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/net/websocket"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// sharedBrowser launches one offline Chromium for a test and closes it at
// the end: every run of the test opens its own tab on it.
func sharedBrowser(t *testing.T) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close browser: %v", err)
		}
	})
	return b
}

// fixedOptions gives runs a fixed clock and numbered run ids.
func fixedOptions(b *topology.Browser) SandboxOptions {
	var mu sync.Mutex
	n := 0
	return SandboxOptions{
		Browser: b,
		Now:     func() time.Time { return testDay },
		RunID: func() string {
			mu.Lock()
			defer mu.Unlock()
			n++
			return fmt.Sprintf("sbx-test-%d", n)
		},
	}
}

// fixtureGraph is the committed graph of a fixture site (fixtures.MappedGraph)
// for its served origin.
func fixtureGraph(t testing.TB, site, origin string) *shared.ActionGraph {
	t.Helper()
	data, err := fixtures.MappedGraph(site, origin)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if g == nil {
		t.Fatalf("%s: %v", site, issues)
	}
	return g
}

// What each html-form action of the fifteen fixture sites must give. Every
// other action has no html-form door and must be refused with
// ErrNoFormDoor.
var fixtureExpect = map[string]struct {
	outcome  shared.SandboxOutcome
	mismatch bool
	note     []string // fragments the note must contain
}{
	"ardplumber01:contact:contact":        {shared.SandboxPassed, false, []string{"intercepted: the browser's form submission sent POST"}},
	"clinic01:booking:appointment":        {shared.SandboxFailed, false, []string{"blocked by a barrier the graph lists: captcha", "intercepted"}},
	"electrician01:callback:callback":     {shared.SandboxPassed, false, []string{"intercepted"}},
	"jsbooking01:booking:sparkle-booking": {shared.SandboxFailed, true, []string{"intercepted: the page's script (fetch/XHR) sent POST", "observed-runtime: json-endpoint POST"}},
	"jsbooking01:contact:quick-message":   {shared.SandboxPassed, false, []string{"observed-runtime: json-endpoint POST", "/api/messages"}},
	"jsonld01:booking:table-request":      {shared.SandboxPassed, false, []string{"intercepted: the browser's form submission sent GET"}},
	"lawfirm01:enquiry:enquiry":           {shared.SandboxPassed, false, []string{"(multipart/form-data)"}},
	"plumber01:quote:gform-3":             {shared.SandboxPassed, false, []string{"intercepted"}},
	"webmcp01:booking:service-booking":    {shared.SandboxPassed, false, []string{"intercepted"}},
	"wpforms01:contact:wpforms-form-412":  {shared.SandboxPassed, false, []string{"intercepted"}},
}

// Every html-form action of the fifteen fixture sites gets a run in real
// Chromium, every required input it maps is sent with a value that meets
// its rules, honeypots go empty — and the sites' submission handlers
// receive nothing.
func TestSandboxFixtureSites(t *testing.T) {
	srv := fixturestest.Serve(t) // before the browser, so the browser closes first
	b := sharedBrowser(t)
	opts := fixedOptions(b)
	ran := map[string]bool{}
	for _, site := range srv.Names() {
		g := fixtureGraph(t, site, fixturestest.URL(t, srv, site))
		for _, a := range g.Actions {
			t.Run(a.ID, func(t *testing.T) {
				want, hasForm := fixtureExpect[a.ID]
				res, err := Sandbox(t.Context(), g, a.ID, opts)
				if !hasForm {
					if !errors.Is(err, ErrNoFormDoor) || res != nil {
						t.Fatalf("Sandbox = %v, %v; want ErrNoFormDoor and no result", res, err)
					}
					return
				}
				ran[a.ID] = true
				var mm *MismatchError
				if gotMM := errors.As(err, &mm); gotMM != want.mismatch || (err != nil && !gotMM) {
					t.Fatalf("Sandbox error = %v, want a mismatch: %v", err, want.mismatch)
				}
				run := checkRun(t, res, want.outcome, want.note)
				if run.At != "2026-12-01T21:00:00.000Z" || !strings.HasPrefix(run.RunID, "sbx-test-") || run.By != sandboxBy {
					t.Errorf("run id/at/by = %s %s %s, want the injected clock and ids", run.RunID, run.At, run.By)
				}
				if run.Endpoint == nil || !strings.HasPrefix(*run.Endpoint, fixturestest.URL(t, srv, site)) {
					t.Errorf("endpoint %v, want the site's own origin", run.Endpoint)
				}
				sent := map[string]string{}
				for _, f := range run.Fields {
					sent[f.Name] = f.Value
				}
				action := res.Action
				for _, in := range action.Inputs {
					v, ok := sent[in.Name]
					switch {
					case in.Semantic == shared.SemanticHoneypot:
						if v != "" {
							t.Errorf("honeypot %s sent %q, want it empty", in.Name, v)
						}
					case in.Semantic == shared.SemanticSystemToken && in.DefaultValue != nil && action.Access[0].Occurrences == 1:
						// Sent as the page serves it (the graph read the
						// same page; with one copy of the form, the same value).
						if ok && v != *in.DefaultValue {
							t.Errorf("system token %s sent %q, want the page's %q", in.Name, v, *in.DefaultValue)
						}
					case in.Required && in.AgentFillable && in.Type != "file":
						if !ok || v == "" {
							t.Errorf("required input %s not sent (fields %v)", in.Name, run.Fields)
							continue
						}
						if err := check(v, rulesOf(in, action.Validations)); err != nil {
							t.Errorf("input %s sent %q, which %v", in.Name, v, err)
						}
					}
				}
				if st, ok := action.Verification.(shared.SandboxTested); !ok || len(st.SandboxRuns) != 1 || st.SandboxRuns[0].RunID != run.RunID {
					t.Errorf("verification = %#v, want sandbox-tested with this run", action.Verification)
				}
				if d := cmp.Diff(action, resultAction(t, res.Graph, a.ID)); d != "" {
					t.Errorf("result graph's action differs from the result's action (-want +got):\n%s", d)
				}
				if findAction(g, a.ID).Verification.Status() != shared.StatusUnverified {
					t.Error("the caller's graph was modified")
				}
			})
		}
	}
	if len(ran) != len(fixtureExpect) {
		t.Errorf("ran %d html-form actions, want %d: %v", len(ran), len(fixtureExpect), ran)
	}
	for _, site := range srv.Names() {
		subs, err := srv.Submissions(site)
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) != 0 {
			t.Errorf("%s: %d submissions reached the site's handlers, want none: %+v", site, len(subs), subs)
		}
	}
}

// checkSent checks where a run's intercepted request went ("" for none) and
// the fields it carried.
func checkSent(t *testing.T, run shared.SandboxRun, endpoint string, fields []shared.SubmittedField) {
	t.Helper()
	got := ""
	if run.Endpoint != nil {
		got = *run.Endpoint
	}
	if got != endpoint {
		t.Errorf("endpoint %q, want %q", got, endpoint)
	}
	if d := cmp.Diff(fields, run.Fields); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
}

// checkRun fails the test unless res holds a run with the outcome and a
// note containing every fragment; it returns the run.
func checkRun(t *testing.T, res *SandboxResult, outcome shared.SandboxOutcome, note []string) shared.SandboxRun {
	t.Helper()
	if res == nil {
		t.Fatal("no result")
	}
	run := res.Run
	if run.Outcome != outcome {
		t.Errorf("outcome %s, want %s (note: %s)", run.Outcome, outcome, *run.Note)
	}
	for _, frag := range note {
		if !strings.Contains(*run.Note, frag) {
			t.Errorf("note %q lacks %q", *run.Note, frag)
		}
	}
	return run
}

func resultAction(t *testing.T, g *shared.ActionGraph, id string) shared.Action {
	t.Helper()
	a := findAction(g, id)
	if a == nil {
		t.Fatalf("result graph lacks %s", id)
	}
	return *a
}

// pageServer serves testdata/sandbox pages on 127.0.0.1 and records every
// request that is not a page read: none may arrive.
type pageServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string
}

func servePages(t *testing.T, replace map[string]string) *pageServer {
	t.Helper()
	ps := &pageServer{}
	ps.Server = httptest.NewServer(pagesHandler(ps, replace))
	t.Cleanup(ps.Close)
	return ps
}

// pagesHandler serves testdata/sandbox with the replacements made, and
// records in ps every request that is not a read of a page or a script.
func pagesHandler(ps *pageServer, replace map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down.html" {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r) // the browser's own read, not a submission
			return
		}
		if r.Method == http.MethodGet && (strings.HasSuffix(r.URL.Path, ".html") || strings.HasSuffix(r.URL.Path, ".js")) {
			data, err := os.ReadFile(filepath.Join("testdata", "sandbox", filepath.Base(r.URL.Path)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			s := string(data)
			for k, v := range replace {
				s = strings.ReplaceAll(s, k, v)
			}
			w.Header().Set("Content-Type", mime.TypeByExtension(filepath.Ext(r.URL.Path)))
			fmt.Fprint(w, s)
			return
		}
		ps.mu.Lock()
		ps.hits = append(ps.hits, r.Method+" "+r.URL.String())
		ps.mu.Unlock()
		fmt.Fprint(w, "received")
	}
}

// wantNothing fails t when any request other than a page read reached ps.
func (ps *pageServer) wantNothing(t *testing.T) {
	t.Helper()
	if hits := ps.received(); len(hits) != 0 {
		t.Errorf("requests reached the server, want none: %v", hits)
	}
}

func (ps *pageServer) received() []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]string(nil), ps.hits...)
}

// formGraph is a graph of one html-form action on page, with the inputs
// given as name/type pairs (all required and agent-fillable), its submit
// control recorded unless submit is "".
func formGraph(t *testing.T, page, form, submit string, transport shared.Transport, endpoint string, inputs ...string) *shared.ActionGraph {
	t.Helper()
	prov := shared.Provenance{Method: shared.MethodParsedHTML, Confidence: 0.9, At: "2026-12-01T20:00:00.000Z", By: "test"}
	a := shared.NewAction("test:contact:form", shared.KindContact, "Contact", page)
	a.Access = []shared.Access{{
		Method: shared.AccessHTMLForm, URL: page, Occurrences: 1,
		Locator:    &shared.Locator{Strategy: shared.StrategyCSS, Value: form, Stability: shared.StabilityStable},
		Submission: &shared.Submission{Transport: transport, Endpoint: &endpoint},
		Provenance: prov,
	}}
	if submit != "" {
		a.Access[0].Submission.SubmitControl = &shared.Locator{Strategy: shared.StrategyCSS, Value: submit, Stability: shared.StabilityStable}
	}
	for i := 0; i+1 < len(inputs); i += 2 {
		sem := shared.SemanticUnknown
		switch inputs[i+1] {
		case "email":
			sem = shared.SemanticEmail
		case "tel":
			sem = shared.SemanticPhone
		}
		a.Inputs = append(a.Inputs, shared.Input{Name: inputs[i], Type: inputs[i+1], Semantic: sem, Required: true, AgentFillable: true,
			ValueSpace: []shared.ValueSpace{}, Locator: &shared.Locator{Strategy: shared.StrategyCSS, Value: form + " [name=" + inputs[i] + "]", Stability: shared.StabilityStable},
			Provenance: &prov})
	}
	a.SideEffects = shared.SideEffects{Effects: []shared.Effect{{Kind: shared.EffectSendsEmailToBusiness, Provenance: prov}},
		Reversible: shared.ReversibleUnknown, Summary: "Sends a message to the business.", Provenance: prov}
	a.Provenance = &prov
	g := shared.NewGraph("test", shared.Site{Domain: "127.0.0.1", URL: page}, "2026-12-01T20:00:00.000Z", shared.Generator{Name: "test", Version: "0"})
	g.Actions = append(g.Actions, a)
	if _, err := shared.Write(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// unscoped gives every input of g a locator by name alone, matching
// anywhere on the page.
func unscoped(g *shared.ActionGraph) *shared.ActionGraph {
	for i := range g.Actions[0].Inputs {
		in := &g.Actions[0].Inputs[i]
		in.Locator = &shared.Locator{Strategy: shared.StrategyCSS, Value: "input[name=" + in.Name + "]", Stability: shared.StabilityFragile}
	}
	return g
}

// The verifier's own pages: a form sent by script to another path, forms
// refused by client-side validation, a form that posts to another origin, a
// submit that hangs the page and one that does nothing. No request reaches
// either server.
func TestSandboxPages(t *testing.T) {
	other := servePages(t, nil)
	ps := servePages(t, map[string]string{"{{OTHER}}": other.URL})
	b := sharedBrowser(t)
	u := ps.URL
	cases := []struct {
		name     string
		graph    *shared.ActionGraph
		opts     func(*SandboxOptions)
		outcome  shared.SandboxOutcome
		mismatch []string // fragments of the differences; nil: no mismatch
		refused  bool
		note     []string
		endpoint string // "" : none recorded
		fields   []shared.SubmittedField
	}{
		{
			name:    "sent by script as JSON to another path",
			graph:   formGraph(t, u+"/script.html", "form#lead", "form#lead button", shared.TransportFormPost, u+"/leads/submit", "name", "text", "email", "email"),
			outcome: shared.SandboxFailed, mismatch: []string{"transport: the graph says form-post, the browser sent json-endpoint", "endpoint: the graph says " + u + "/leads/submit"},
			note:     []string{"intercepted: the page's script (fetch/XHR) sent POST " + u + "/api/v2/leads", "observed-runtime: json-endpoint POST " + u + "/api/v2/leads"},
			endpoint: u + "/api/v2/leads",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "email", Value: "sandbox.test@example.com"}},
		},
		{
			name:    "the same page mapped as it behaves",
			graph:   formGraph(t, u+"/script.html", "form#lead", "form#lead button", shared.TransportJSONEndpoint, u+"/api/v2/leads", "name", "text", "email", "email"),
			outcome: shared.SandboxPassed, note: []string{"observed-runtime: json-endpoint"}, endpoint: u + "/api/v2/leads",
			fields: []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "email", Value: "sandbox.test@example.com"}},
		},
		{
			name:    "refused by a rule the page enforces with setCustomValidity",
			graph:   formGraph(t, u+"/invalid.html", "form#custom", "form#custom button", shared.TransportFormPost, u+"/bookings/change", "reference", "text", "email", "email"),
			outcome: shared.SandboxFailed,
			note:    []string{"refused by client-side validation, nothing was sent: reference: Enter your booking reference, e.g. BK-123456."},
			fields:  []shared.SubmittedField{{Name: "reference", Value: "Sandbox test"}, {Name: "email", Value: "sandbox.test@example.com"}},
		},
		{
			name:    "refused for a required field the graph does not list",
			graph:   formGraph(t, u+"/invalid.html", "form#undeclared", "form#undeclared button", shared.TransportFormPost, u+"/callback", "phone", "tel"),
			outcome: shared.SandboxFailed,
			note:    []string{"refused by client-side validation, nothing was sent: postcode: "},
			fields:  []shared.SubmittedField{{Name: "phone", Value: "0412345678"}, {Name: "postcode", Value: ""}},
		},
		{
			name:    "posts to another origin than the graph's endpoint",
			graph:   formGraph(t, u+"/crossorigin.html", "form#elsewhere", "form#elsewhere button", shared.TransportFormPost, u+"/contact/send", "name", "text", "phone", "tel"),
			outcome: shared.SandboxFailed, refused: true, mismatch: []string{"origin: the request would reach " + other.URL},
			note:     []string{"refused: the browser's form submission would have sent POST " + other.URL + "/collect to another origin"},
			endpoint: other.URL + "/collect",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "phone", Value: "0412345678"}},
		},
		{
			name:    "posts to another origin the graph states",
			graph:   formGraph(t, u+"/crossorigin.html", "form#elsewhere", "form#elsewhere button", shared.TransportFormPost, other.URL+"/collect", "name", "text", "phone", "tel"),
			outcome: shared.SandboxPassed, note: []string{"intercepted: the browser's form submission sent POST " + other.URL + "/collect"},
			endpoint: other.URL + "/collect",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "phone", Value: "0412345678"}},
		},
		{
			name:     "a submit control under a banner is clicked by script",
			graph:    formGraph(t, u+"/covered.html", "form#covered", "form#covered button", shared.TransportFormPost, u+"/send", "name", "text"),
			outcome:  shared.SandboxPassed,
			note:     []string{"intercepted: the browser's form submission sent POST " + u + "/send", "the submit control is hidden or covered", "clicked it by script"},
			endpoint: u + "/send",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}},
		},
		{
			name:    "an analytics beacon sent before the form is not the form",
			graph:   formGraph(t, u+"/beacon.html", "form#tracked", "form#tracked button", shared.TransportFormPost, u+"/enquiry", "name", "text"),
			outcome: shared.SandboxPassed,
			note: []string{"intercepted: the browser's form submission sent POST " + u + "/enquiry",
				// In either order: each is handled as it comes.
				"2 other request(s) sent with it were stopped too: ", "POST https://analytics.example/collect", "POST " + u + "/track?e=submit"},
			endpoint: u + "/enquiry",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}},
		},
		{
			name: "inputs found in the form first, and by form= outside it",
			// Unscoped locators: the header's newsletter box matches first.
			graph:    unscoped(formGraph(t, u+"/formattr.html", "form#call", "form#call button", shared.TransportFormPost, u+"/call", "email", "email", "phone", "tel")),
			outcome:  shared.SandboxPassed,
			note:     []string{"intercepted"},
			endpoint: u + "/call",
			fields:   []shared.SubmittedField{{Name: "email", Value: "sandbox.test@example.com"}, {Name: "phone", Value: "0412345678"}},
		},
		{
			name:    "a submit control that sends nothing",
			graph:   formGraph(t, u+"/stuck.html", "#dead", "#dead-send", shared.TransportJSONEndpoint, u+"/api/dead", "dead_name", "text"),
			opts:    func(o *SandboxOptions) { o.WaitRequest = time.Second },
			outcome: shared.SandboxFailed, note: []string{"no request: the form was submitted (clicked the submit control) and the browser sent nothing within 1s"},
			fields: []shared.SubmittedField{{Name: "dead_name", Value: "Sandbox test"}},
		},
		{
			name:    "the run's own timeout",
			graph:   formGraph(t, u+"/stuck.html", "#dead", "#dead-send", shared.TransportJSONEndpoint, u+"/api/dead", "dead_name", "text"),
			opts:    func(o *SandboxOptions) { o.WaitRequest, o.Timeout = time.Minute, 8*time.Second },
			outcome: shared.SandboxUnknown, note: []string{"timed out: the run took longer than its Timeout of 8s"},
			fields: []shared.SubmittedField{},
		},
		{
			name:    "a submit that hangs the page",
			graph:   formGraph(t, u+"/stuck.html", "form#stuck", "form#stuck button", shared.TransportFormPost, u+"/never", "name", "text"),
			opts:    func(o *SandboxOptions) { o.WaitRequest, o.StepTimeout = time.Second, 2*time.Second },
			outcome: shared.SandboxUnknown, note: []string{"timed out: "},
			fields: []shared.SubmittedField{},
		},
		{
			name:    "a form that is not on the page",
			graph:   formGraph(t, u+"/script.html", "form#gone", "form#gone button", shared.TransportFormPost, u+"/gone", "name", "text"),
			outcome: shared.SandboxFailed, mismatch: []string{"the form the graph maps is not on " + u + "/script.html"},
			note:   []string{"the form was not found on the page"},
			fields: []shared.SubmittedField{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := fixedOptions(b)
			if tc.opts != nil {
				tc.opts(&opts)
			}
			res, err := Sandbox(t.Context(), tc.graph, "test:contact:form", opts)
			var mm *MismatchError
			switch {
			case tc.mismatch == nil && err != nil:
				t.Fatalf("Sandbox: %v", err)
			case tc.mismatch != nil && !errors.As(err, &mm):
				t.Fatalf("Sandbox error = %v, want a *MismatchError", err)
			}
			run := checkRun(t, res, tc.outcome, tc.note)
			if mm != nil {
				if !errors.Is(err, ErrMismatch) || mm.Refused != tc.refused || mm != res.Mismatch {
					t.Errorf("mismatch %+v: Is ErrMismatch %v, refused %v (want %v), same as the result's %v",
						mm, errors.Is(err, ErrMismatch), mm.Refused, tc.refused, mm == res.Mismatch)
				}
				all := strings.Join(mm.Differences, "\n")
				for _, frag := range tc.mismatch {
					if !strings.Contains(all, frag) {
						t.Errorf("differences %q lack %q", all, frag)
					}
				}
			}
			checkSent(t, run, tc.endpoint, tc.fields)
			if res.Action.Verification.Status() != shared.StatusSandboxTested {
				t.Errorf("status %s, want sandbox-tested", res.Action.Verification.Status())
			}
		})
	}
	if hits := append(ps.received(), other.received()...); len(hits) != 0 {
		t.Errorf("requests reached the servers, want none: %v", hits)
	}
}

// Bad input is a typed error, returns no result and changes nothing.
func TestSandboxBadInput(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr
	}()
	good := func() *shared.ActionGraph {
		return formGraph(t, ps.URL+"/script.html", "form#lead", "form#lead button", shared.TransportJSONEndpoint, ps.URL+"/api/v2/leads", "name", "text")
	}
	invalid := good()
	invalid.Actions[0].SideEffects.Effects = []shared.Effect{} // effects.empty
	noDoor := good()
	noDoor.Actions[0].Access[0].Method = shared.AccessMailtoLink
	opaque := good()
	opaque.Actions[0].Access[0].Opaque = true
	cases := []struct {
		name   string
		graph  *shared.ActionGraph
		id     string
		target error
		as     any
	}{
		{"nil graph", nil, "test:contact:form", shared.ErrInvalidGraph, nil},
		{"graph that does not validate", invalid, "test:contact:form", shared.ErrInvalidGraph, new(*shared.ValidationError)},
		{"unknown action", good(), "test:nope", ErrUnknownAction, new(*ActionError)},
		{"no html-form door", noDoor, "test:contact:form", ErrNoFormDoor, new(*NoFormDoorError)},
		{"only an opaque form", opaque, "test:contact:form", ErrNoFormDoor, new(*NoFormDoorError)},
		{"site down", formGraph(t, closed+"/contact.html", "form", "button", shared.TransportFormPost, closed+"/send", "name", "text"), "test:contact:form", ErrSiteDown, new(*SiteDownError)},
		{"server error", formGraph(t, ps.URL+"/down.html", "form", "button", shared.TransportFormPost, ps.URL+"/send", "name", "text"), "test:contact:form", ErrSiteDown, new(*SiteDownError)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before []byte
			if tc.graph != nil {
				before, _ = shared.Write(tc.graph)
				if tc.graph == invalid {
					before = []byte(fmt.Sprintf("%#v", tc.graph.Actions[0]))
				}
			}
			res, err := Sandbox(t.Context(), tc.graph, tc.id, fixedOptions(b))
			if res != nil || !errors.Is(err, tc.target) {
				t.Fatalf("Sandbox = %v, %v; want no result and %v", res, err, tc.target)
			}
			if tc.as != nil && !errors.As(err, tc.as) {
				t.Errorf("error %v is not a %T", err, tc.as)
			}
			if !strings.HasPrefix(err.Error(), "verifier: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if tc.graph != nil {
				after, _ := shared.Write(tc.graph)
				if tc.graph == invalid {
					after = []byte(fmt.Sprintf("%#v", tc.graph.Actions[0]))
				}
				if string(before) != string(after) {
					t.Error("the graph was modified")
				}
			}
		})
	}
	ps.wantNothing(t)
	t.Run("context already done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		res, err := Sandbox(ctx, good(), "test:contact:form", fixedOptions(b))
		if res != nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("Sandbox = %v, %v; want context.Canceled", res, err)
		}
	})
}

// A run appends to earlier runs, and a verified action stays verified (its
// confirmation untouched) with the run appended.
func TestSandboxKeepsState(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	g := formGraph(t, ps.URL+"/script.html", "form#lead", "form#lead button", shared.TransportJSONEndpoint, ps.URL+"/api/v2/leads", "name", "text")
	opts := fixedOptions(b)
	first, err := Sandbox(t.Context(), g, "test:contact:form", opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Sandbox(t.Context(), first.Graph, "test:contact:form", opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := second.Action.Verification.(shared.SandboxTested)
	if !ok || len(st.SandboxRuns) != 2 || st.SandboxRuns[0].RunID != "sbx-test-1" || st.SandboxRuns[1].RunID != "sbx-test-2" {
		t.Fatalf("verification after two runs = %#v, want both runs in order", second.Action.Verification)
	}

	// A verified action, as decoding a confirmed document yields it.
	conf := shared.Verified{
		Confirmation: shared.OwnerConfirmation{ConfirmedBy: "owner@example.com", ConfirmedAt: "2026-12-01T20:30:00.000Z", Method: shared.ConfirmedOwnerPortal,
			AuditRecord: ptr("audit-1"), Limits: shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: ptr("owner@example.com")},
			Disclosure: shared.DisclosureOf(first.Action.SideEffects)},
		SandboxRuns: st.SandboxRuns,
	}
	data, err := shared.Write(first.Graph)
	if err != nil {
		t.Fatal(err)
	}
	vg, _ := shared.Read(data)
	vg.Actions[0].Verification = conf
	res, err := Sandbox(t.Context(), vg, "test:contact:form", opts)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := res.Action.Verification.(shared.Verified)
	if !ok {
		t.Fatalf("a verified action became %s", res.Action.Verification.Status())
	}
	if d := cmp.Diff(conf.Confirmation, v.Confirmation); d != "" {
		t.Errorf("confirmation changed (-want +got):\n%s", d)
	}
	if len(v.SandboxRuns) != 3 || v.SandboxRuns[2].RunID != res.Run.RunID {
		t.Errorf("runs of the verified action = %d, want the run appended as the third", len(v.SandboxRuns))
	}
}

// A service worker that takes the page's POSTs and sends them on by itself
// would escape the tab's interception; the sandbox bypasses it, so the
// server still receives nothing.
func TestSandboxServiceWorker(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	// Install the worker first, as an earlier visit would have: the
	// sandbox's visit is then controlled by it from the start.
	p, err := b.OpenPage(t.Context(), ps.URL+"/sw.html", topology.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := p.Timeout(20 * time.Second).Eval(`() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller
		? true : new Promise(r => navigator.serviceWorker.addEventListener("controllerchange", () => r(true))))`)
	if err != nil || !ctl.Value.Bool() {
		t.Fatalf("the service worker did not take control: %v", err)
	}
	if err := p.Timeout(5 * time.Second).Close(); err != nil {
		t.Fatal(err)
	}

	g := formGraph(t, ps.URL+"/sw.html", "form#sw", "form#sw button", shared.TransportJSONEndpoint, ps.URL+"/sw/api", "name", "text")
	res, err := Sandbox(t.Context(), g, "test:contact:form", fixedOptions(b))
	if err != nil {
		t.Fatal(err)
	}
	run := checkRun(t, res, shared.SandboxPassed, []string{"intercepted: the page's script (fetch/XHR) sent POST " + ps.URL + "/sw/api"})
	if d := cmp.Diff([]shared.SubmittedField{{Name: "name", Value: "Sandbox test"}}, run.Fields); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	ps.wantNothing(t)
}

// A page that sends its form more than once — again once it is answered,
// by fetch and by beacon, and as its tab closes (pagehide: a beacon and a
// keepalive fetch) — sends nothing to the site: the sandbox never lets go of the page's
// requests while the page can still make one (it used to disable the Fetch
// domain as it closed the tab, which let a request still paused, or one the
// closing page made, go out).
func TestSandboxNothingLeaksAsTheTabCloses(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	g := formGraph(t, ps.URL+"/unload.html", "form#lead", "form#lead button", shared.TransportFormPost, ps.URL+"/api/leads", "name", "text")
	for i := range 5 {
		res, err := Sandbox(t.Context(), g, "test:contact:form", fixedOptions(b))
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.Run.Outcome != shared.SandboxPassed {
			t.Errorf("run %d: outcome %s, want passed (%v)", i, res.Run.Outcome, res.Run.Note)
		}
	}
	time.Sleep(500 * time.Millisecond) // a request let go as a tab closed arrives in this time
	ps.wantNothing(t)
}

// A page that reports each field to its own origin as the sandbox fills it
// in — a tracking pixel (a same-origin GET of an image) and a script it
// adds, on focus, input and change, as form analytics do — sends the
// business nothing: from the moment filling begins every request is
// stopped, a read of a static file too, and the note counts those stopped
// before the submit. Only the page and its image, read as it loaded, reach
// the server. On the code before, which let the page's own static reads
// through until the submit (and decided when a goroutine got to run), the
// server received the test values on every run — each added script's
// GET /field.js?e=input&name=Sandbox%20test, …, and some of the pixels', as
// the timing went (71 requests in 15 runs) — while the note said nothing
// had reached the business.
func TestSandboxNothingLeaksWhileFilling(t *testing.T) {
	var mu sync.Mutex
	var hits []string
	ps := &pageServer{}
	pages := pagesHandler(ps, nil)
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.Method+" "+r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		pages(w, r)
	}))
	t.Cleanup(ps.Close)
	b := sharedBrowser(t)
	g := formGraph(t, ps.URL+"/pixel.html", "form#tracked", "form#tracked button", shared.TransportFormPost, ps.URL+"/send", "name", "text", "email", "email")
	for i := range 5 {
		res, err := Sandbox(t.Context(), g, "test:contact:form", fixedOptions(b))
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		run := checkRun(t, res, shared.SandboxPassed, []string{
			"intercepted: the browser's form submission sent POST " + ps.URL + "/send",
			"nothing reached the business",
			"read(s) of files the page made once the sandbox began filling the form were stopped, none let through: GET " + ps.URL + "/",
		})
		checkSent(t, run, ps.URL+"/send", []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "email", Value: "sandbox.test@example.com"}})
	}
	time.Sleep(500 * time.Millisecond) // a request let go late arrives in this time
	mu.Lock()
	defer mu.Unlock()
	logo := false
	for _, h := range hits {
		switch h {
		case "GET /pixel.html", "GET /favicon.ico":
		case "GET /logo.gif":
			logo = true // read as the page loaded, before the form was filled
		default:
			t.Errorf("the server received %q, want only the page and its image read as it loaded", h)
		}
	}
	if !logo {
		t.Errorf("the page's image was never read as it loaded (received %q): reads before the form is filled go through", hits)
	}
}

// A form sent over a WebSocket (which the Fetch domain cannot stop) sends
// nothing: the sandbox drops every socket message and says so.
func TestSandboxWebSocket(t *testing.T) {
	var mu sync.Mutex
	var frames []string
	ws := websocket.Handler(func(c *websocket.Conn) {
		var msg string
		for websocket.Message.Receive(c, &msg) == nil {
			mu.Lock()
			frames = append(frames, msg)
			mu.Unlock()
		}
	})
	ps := &pageServer{}
	pages := pagesHandler(ps, nil)
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ws" {
			ws.ServeHTTP(w, r)
			return
		}
		pages(w, r)
	}))
	t.Cleanup(ps.Close)
	b := sharedBrowser(t)
	g := formGraph(t, ps.URL+"/ws.html", "form#live", "form#live button", shared.TransportJavascriptOnly, ps.URL+"/ws", "name", "text")
	opts := fixedOptions(b)
	opts.WaitRequest = time.Second
	res, err := Sandbox(t.Context(), g, "test:contact:form", opts)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, res, shared.SandboxFailed, []string{"no request", "the page tried to send 1 message(s) over a WebSocket; the sandbox dropped them"})
	mu.Lock()
	defer mu.Unlock()
	if len(frames) != 0 {
		t.Errorf("the server received %q over the socket, want nothing", frames)
	}
	ps.wantNothing(t)
}

// A page that puts the form in the address of a WebSocket to another
// origin, from its own realm and an iframe's, sends it nowhere: the Fetch
// domain does not see a socket (the sandbox that relied on it, and on
// dropping socket messages, let both handshakes, the test values in their
// URLs, reach the other origin); the tab's proxy refuses them, and the run
// says so.
func TestSandboxWebSocketElsewhere(t *testing.T) {
	other := servePages(t, nil) // a socket's handshake is a request like any other there
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	to := "ws" + strings.TrimPrefix(other.URL, "http")
	g := formGraph(t, ps.URL+"/ws-elsewhere.html?to="+url.QueryEscape(to), "form#live", "form#live button", shared.TransportJavascriptOnly, ps.URL+"/live/submit", "name", "text")
	opts := fixedOptions(b)
	opts.WaitRequest = time.Second
	res, err := Sandbox(t.Context(), g, "test:contact:form", opts)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, res, shared.SandboxFailed, []string{"no request", "the page tried to connect to 1 other address(es); the sandbox refused them: CONNECT " + strings.TrimPrefix(other.URL, "http://")})
	other.wantNothing(t)
	ps.wantNothing(t)
}

// A form whose submission would open a new tab — its target, its
// button's formtarget, a script that sets the target and calls submit() —
// is submitted in the sandbox's own tab, where the request is stopped:
// request interception is a tab's own, and the form submitted into a new
// tab reached the business (POST /tab/submit, on the code before).
func TestSandboxNewTab(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	for _, form := range []string{"tab", "button-tab", "script-tab"} {
		t.Run(form, func(t *testing.T) {
			g := formGraph(t, ps.URL+"/new-tab.html", "form#"+form, "form#"+form+" button", shared.TransportFormPost, ps.URL+"/tab/submit", "name", "text")
			res, err := Sandbox(t.Context(), g, "test:contact:form", fixedOptions(b))
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, res, shared.SandboxPassed, nil)
			time.Sleep(300 * time.Millisecond) // a request let go by another tab arrives in this time
			ps.wantNothing(t)
		})
	}
}

// The sandbox submits a form as the executor's browser door does, so that
// a run shows what a call would do: the recorded submit control, else the
// form's default button, else requestSubmit (no control, or one that stays
// disabled). Each of these failed the run on the code before ("the submit
// control the graph records was not found", or no request), while the
// executor fired the form.
func TestSandboxSubmitsAsTheExecutorDoes(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	for _, tc := range []struct{ form, submit, how string }{
		{"no-control", "", "submitted the form with requestSubmit, as it has no submit control"},
		{"default-only", "form#default-only .gone", "pressed the form's default button: the submit control the graph records was not found"},
		{"disabled", "form#disabled button", "submitted the form with requestSubmit, as its submit control is disabled"},
	} {
		t.Run(tc.form, func(t *testing.T) {
			g := formGraph(t, ps.URL+"/submit-rule.html", "form#"+tc.form, tc.submit, shared.TransportFormPost, ps.URL+"/rule/submit", "name", "text")
			res, err := Sandbox(t.Context(), g, "test:contact:form", fixedOptions(b))
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, res, shared.SandboxPassed, []string{tc.how})
			ps.wantNothing(t)
		})
	}
}

// shadowGraph is formGraph with the locators the mapper writes for a form
// or group inside an open shadow root (mapper/forms.go, shadowLocator):
// door is the host's selector then the form's within its root (or the
// host alone for a formless group whose container it is), each field
// door + " input[name=…]", stability unknown.
func shadowGraph(t *testing.T, page, door, submit string, transport shared.Transport, endpoint string, inputs ...string) *shared.ActionGraph {
	t.Helper()
	g := formGraph(t, page, door, submit, transport, endpoint, inputs...)
	a := &g.Actions[0]
	a.Access[0].Locator.Stability = shared.StabilityUnknown
	a.Access[0].Submission.SubmitControl.Stability = shared.StabilityUnknown
	for i := range a.Inputs {
		a.Inputs[i].Locator = &shared.Locator{Strategy: shared.StrategyCSS, Value: door + " input[name=" + a.Inputs[i].Name + "]", Stability: shared.StabilityUnknown}
	}
	return g
}

// noDoorLocator drops the door's locator from g's one action.
func noDoorLocator(g *shared.ActionGraph) *shared.ActionGraph {
	g.Actions[0].Access[0].Locator = nil
	return g
}

// Forms inside open shadow roots, with the shadow-including locators the
// mapper writes for them, are found, filled and submitted by the sandbox
// (on the code before pagejs's pierce helper their door was "not found"):
// a root built by script, a declarative one, and a formless group whose
// container is the host. The document's form of the same id and field
// names is not taken for them; a form inside a closed root stays out of
// reach. Nothing reaches the server.
func TestSandboxShadowDOM(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	u := ps.URL + "/shadow.html"
	cases := []struct {
		name     string
		graph    *shared.ActionGraph
		outcome  shared.SandboxOutcome
		note     []string
		endpoint string
		fields   []shared.SubmittedField
	}{
		{
			name: "an open root built by script",
			graph: shadowGraph(t, u, "contact-form form#enquiry", "contact-form form#enquiry button[type=submit]", shared.TransportFormPost,
				ps.URL+"/contact/send", "name", "text", "email", "email"),
			outcome: shared.SandboxPassed, note: []string{"intercepted: the browser's form submission sent POST " + ps.URL + "/contact/send"},
			endpoint: ps.URL + "/contact/send",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "email", Value: "sandbox.test@example.com"}, {Name: "message", Value: ""}},
		},
		{
			name: "a declarative open root, its host by id",
			graph: shadowGraph(t, u, "#quote form#enquiry", "#quote form#enquiry button[type=submit]", shared.TransportFormPost,
				ps.URL+"/quote/send", "name", "text", "phone", "tel"),
			outcome: shared.SandboxPassed, note: []string{"intercepted: the browser's form submission sent POST " + ps.URL + "/quote/send"},
			endpoint: ps.URL + "/quote/send",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "phone", Value: "0412345678"}},
		},
		{
			name: "a formless group whose container is the host",
			graph: shadowGraph(t, u, "callback-widget", "callback-widget div:nth-of-type(1) > button:nth-of-type(1)", shared.TransportJSONEndpoint,
				ps.URL+"/api/callback", "phone", "tel"),
			outcome: shared.SandboxPassed, note: []string{"intercepted: the page's script (fetch/XHR) sent POST " + ps.URL + "/api/callback"},
			endpoint: ps.URL + "/api/callback",
			fields:   []shared.SubmittedField{{Name: "phone", Value: "0412345678"}},
		},
		{
			// On the code before, the door without a locator was the
			// document's first form, which has no phone field.
			name:    "no door locator: the form of any open tree holding the most of the inputs",
			graph:   noDoorLocator(shadowGraph(t, u, "#quote form#enquiry", "#quote form#enquiry button[type=submit]", shared.TransportFormPost, ps.URL+"/quote/send", "name", "text", "phone", "tel")),
			outcome: shared.SandboxPassed, note: []string{"the graph gives the form no locator; of the page's 3 forms, the one holding the most of the inputs was used",
				"intercepted: the browser's form submission sent POST " + ps.URL + "/quote/send"},
			endpoint: ps.URL + "/quote/send",
			fields:   []shared.SubmittedField{{Name: "name", Value: "Sandbox test"}, {Name: "phone", Value: "0412345678"}},
		},
		{
			name: "a form inside a closed root is not found",
			graph: shadowGraph(t, u, "sealed-form form#sealed", "sealed-form form#sealed button[type=submit]", shared.TransportFormPost,
				ps.URL+"/sealed/send", "name", "text"),
			outcome: shared.SandboxFailed, note: []string{"the form was not found on the page"},
			fields: []shared.SubmittedField{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Sandbox(t.Context(), tc.graph, "test:contact:form", fixedOptions(b))
			if tc.outcome == shared.SandboxPassed && err != nil {
				t.Fatalf("Sandbox: %v", err)
			}
			run := checkRun(t, res, tc.outcome, tc.note)
			// The submit control is clicked by the mouse: the point at its
			// centre is the control itself, inside its shadow root.
			if strings.Contains(*run.Note, "hidden or covered") {
				t.Errorf("note %q: the submit control was taken for hidden or covered", *run.Note)
			}
			checkSent(t, run, tc.endpoint, tc.fields)
		})
	}
	ps.wantNothing(t)
}

// TestSandboxFillLocatesInShadowRoots runs the in-page fill on a form
// inside an open shadow root with a locator of each strategy that names a
// control: css through the host, label (the root's own label, bound as
// the browser binds it), testid and role. The inputs' names are none of
// the page's, so a control is found by its locator or not at all (the
// fill's fall-back by name finds nothing). The submit control, located by
// role, is clickable at its centre.
func TestSandboxFillLocatesInShadowRoots(t *testing.T) {
	ps := servePages(t, nil)
	b := sharedBrowser(t)
	page, err := b.OpenPage(t.Context(), ps.URL+"/shadow.html", topology.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loc := func(s shared.LocatorStrategy, v string) *shared.Locator {
		return &shared.Locator{Strategy: s, Value: v, Stability: shared.StabilityUnknown}
	}
	css := func(v string) *shared.Locator { return loc(shared.StrategyCSS, v) }
	spec := fillSpec{
		Door: css("contact-form form#enquiry"),
		Inputs: []fillInput{
			{Name: "by-css", Kind: fillText, Value: "ana@example.com", Locator: css(`contact-form form#enquiry input[name="email"]`)},
			{Name: "by-label", Kind: fillText, Value: "Call after five", Locator: loc(shared.StrategyLabel, "Your message")},
			{Name: "by-testid", Kind: fillText, Value: "Ana", Locator: loc(shared.StrategyTestID, "contact-name")},
			{Name: "by-role", Kind: fillText, Value: "Ana Ruiz", Locator: loc(shared.StrategyRole, `textbox "Your name"`)},
			{Name: "in-the-document-only", Kind: fillText, Value: "x", Locator: loc(shared.StrategyLabel, "Newsletter email")},
		},
		Submit: loc(shared.StrategyRole, `button "Send"`),
	}
	res, err := page.Timeout(10 * time.Second).Evaluate(rod.Eval(sandboxJS, "fill", spec).ByUser())
	if err != nil {
		t.Fatal(err)
	}
	var got fillReport
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	want := fillReport{DoorFound: true, DoorCount: 1, SubmitFound: true, SubmitVisible: true, Inputs: []inputResult{
		{Name: "by-css", Found: true, Count: 1, Value: "ana@example.com"},
		{Name: "by-label", Found: true, Count: 1, Value: "Call after five"},
		{Name: "by-testid", Found: true, Count: 1, Value: "Ana"},
		{Name: "by-role", Found: true, Count: 1, Value: "Ana Ruiz"},
		// The document's label names the document's control, outside the
		// door: found by the fill's last resort only when its form is the
		// door's, which it is not.
		{Name: "in-the-document-only", Found: false, Count: 0},
	}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(fillReport{}, "SubmitX", "SubmitY")); d != "" {
		t.Errorf("fill report (-want +got):\n%s", d)
	}
}
