package compiler

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// TestRelativeEndpoint: a form's endpoint the page wrote relative
// ("contact.php", "/contact", "?send=1") is resolved against the page the
// door is on, as a browser resolves the form's action: the OpenAPI path is
// the path the request goes to (a Paths Object key starts with "/", so
// "contact.php" failed the official schema), the operation's server is the
// endpoint's origin (not the endpoint itself, which put the path twice),
// and the JSON-LD EntryPoint names the whole URL. The path key is the
// path as the request writes it, percent-encoding kept.
func TestRelativeEndpoint(t *testing.T) {
	const page = "https://harbour-plumbing.example/quote/"
	type op struct{ Path, Server, Query, Target string }
	tests := []struct {
		endpoint string
		want     op
	}{
		{"contact.php", op{"/quote/contact.php", "https://harbour-plumbing.example", "", page + "contact.php"}},
		{"/contact", op{"/contact", "https://harbour-plumbing.example", "", "https://harbour-plumbing.example/contact"}},
		{"?send=1", op{"/quote/", "https://harbour-plumbing.example", "send", page + "?send=1"}},
		{"https://forms.example/f/1", op{"/f/1", "https://forms.example", "", "https://forms.example/f/1"}},
		// The path as it is sent: a %7B…%7D is no path template (which
		// would name a parameter no operation declares), a %2F no
		// segment break, a space or é percent-encoded.
		{"/api/%7Bid%7D/send", op{"/api/%7Bid%7D/send", "https://harbour-plumbing.example", "", "https://harbour-plumbing.example/api/%7Bid%7D/send"}},
		{"/api/{id}", op{"/api/%7Bid%7D", "https://harbour-plumbing.example", "", "https://harbour-plumbing.example/api/%7Bid%7D"}},
		{"/a%2Fb", op{"/a%2Fb", "https://harbour-plumbing.example", "", "https://harbour-plumbing.example/a%2Fb"}},
		{"/caf%C3%A9/a%20b", op{"/caf%C3%A9/a%20b", "https://harbour-plumbing.example", "", "https://harbour-plumbing.example/caf%C3%A9/a%20b"}},
	}
	v := loadSchemas(t)
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Access[0].Submission.Endpoint = ptr(tt.endpoint)
			m := compileValidOpenAPI(t, v, g)
			var doc struct {
				Paths map[string]map[string]struct {
					OperationID string                      `json:"operationId"`
					Servers     []struct{ URL string }      `json:"servers"`
					Parameters  []struct{ Name, In string } `json:"parameters"`
				} `json:"paths"`
			}
			if err := json.Unmarshal(m[FileOpenAPI], &doc); err != nil {
				t.Fatal(err)
			}
			var got op
			for path, item := range doc.Paths {
				if o, ok := item["post"]; ok && o.OperationID == "plumber.quote.job.form" {
					got.Path = path
					got.Server = o.Servers[0].URL
					for _, p := range o.Parameters {
						got.Query += p.Name
					}
				}
			}
			var ld struct {
				PotentialAction []struct {
					Identifier string
					Target     struct{ URLTemplate string }
				}
			}
			if err := json.Unmarshal(m[FileJSONLD], &ld); err != nil {
				t.Fatal(err)
			}
			for _, a := range ld.PotentialAction {
				if a.Identifier == "plumber.quote.job.form" {
					got.Target = a.Target.URLTemplate
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the quote form's operation (-want +got):\n%s", diff)
			}
		})
	}
}

// A GET form sends its fields as the query, replacing the query its action
// names (as a browser does, and the executor): the operation's query
// parameters are the fields, not the action's own query, and the JSON-LD
// EntryPoint's urlTemplate has none. A POST keeps the action's query,
// fixed.
func TestGetFormQuery(t *testing.T) {
	tests := []struct {
		transport shared.Transport
		method    string
		wantLang  bool
		target    string
	}{
		{shared.TransportFormGet, "get", false, "https://harbour-plumbing.example/quote/send"},
		{shared.TransportFormPost, "post", true, "https://harbour-plumbing.example/quote/send?lang=en"},
	}
	v := loadSchemas(t)
	for _, tt := range tests {
		t.Run(string(tt.transport), func(t *testing.T) {
			g := doorsGraph()
			sub := g.Actions[0].Access[0].Submission
			sub.Endpoint = ptr("https://harbour-plumbing.example/quote/send?lang=en")
			sub.Transport = tt.transport
			m := compileValidOpenAPI(t, v, g)
			var doc struct {
				Paths map[string]map[string]struct {
					OperationID string                      `json:"operationId"`
					Parameters  []struct{ Name, In string } `json:"parameters"`
				} `json:"paths"`
			}
			if err := json.Unmarshal(m[FileOpenAPI], &doc); err != nil {
				t.Fatal(err)
			}
			o, ok := doc.Paths["/quote/send"][tt.method]
			if !ok || o.OperationID != "plumber.quote.job.form" {
				t.Fatalf("no %s operation of the quote form at /quote/send: %s", tt.method, m[FileOpenAPI])
			}
			lang := false
			for _, p := range o.Parameters {
				lang = lang || p.Name == "lang"
			}
			var ld struct {
				PotentialAction []struct {
					Identifier string
					Target     struct{ URLTemplate string }
				}
			}
			if err := json.Unmarshal(m[FileJSONLD], &ld); err != nil {
				t.Fatal(err)
			}
			target := "(no entry)"
			for _, a := range ld.PotentialAction {
				if a.Identifier == "plumber.quote.job.form" {
					target = a.Target.URLTemplate
				}
			}
			if target != tt.target {
				t.Errorf("JSON-LD urlTemplate = %q, want %q", target, tt.target)
			}
			if lang != tt.wantLang {
				t.Errorf("the action's own query parameter lang listed: %v, want %v (parameters %v)", lang, tt.wantLang, o.Parameters)
			}
		})
	}
}

// compileValidOpenAPI compiles every format of g, unverified actions
// included, checks openapi.json against both official 3.1 schemas, and
// returns the files by name.
func compileValidOpenAPI(t *testing.T, v *validators, g *shared.ActionGraph) map[string][]byte {
	t.Helper()
	files, err := CompileAll(g, Options{IncludeUnverified: true})
	if err != nil {
		t.Fatal(err)
	}
	m := byName(files)
	for _, base := range openAPIBases {
		if err := v.openapi[base].Validate(instance(t, m[FileOpenAPI])); err != nil {
			t.Errorf("openapi.json does not validate against %s: %v", base, err)
		}
	}
	return m
}

// TestMailtoFormIsNoTool: a form whose action is a mailto: address hands
// its fields to the visitor's email program, and no request reaches the
// business: it is no tool (MCP, WebMCP), no OpenAPI operation (whose
// server was "mailto:…"), no JSON-LD EntryPoint, and llms.txt says it
// informs only. A documented endpoint or a WebMCP tool's submission to one
// is no HTTP request either.
func TestMailtoFormIsNoTool(t *testing.T) {
	for _, ep := range []string{"mailto:office@harbour-plumbing.example", "MAILTO:office@harbour-plumbing.example?subject=Quote"} {
		t.Run(ep, func(t *testing.T) {
			g := doorsGraph()
			q := &g.Actions[0]
			q.Access[0].Submission.Endpoint = ptr(ep)
			q.Access[2].Submission.Endpoint = ptr(ep)
			q.Access[3].Submission = &shared.Submission{Transport: shared.TransportFormPost, Endpoint: ptr(ep)}
			m := compileValidOpenAPI(t, loadSchemas(t), g)
			var mcp mcpResultView
			if err := json.Unmarshal(m[FileMCPTools], &mcp); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range mcp.Tools {
				if strings.HasPrefix(tl.Name, "plumber.quote.job.") {
					got = append(got, tl.Name)
				}
			}
			if diff := cmp.Diff([]string{"plumber.quote.job.webmcp"}, got); diff != "" {
				t.Errorf("the quote action's tools (-want +got):\n%s", diff)
			}
			for name, op := range map[string]string{FileOpenAPI: `"operationId": "plumber.quote.job.`, FileWebMCPScript: `"name": "plumber.quote.job.form"`} {
				if strings.Contains(string(m[name]), op) {
					t.Errorf("%s still has %s…", name, op)
				}
			}
			var ld struct {
				PotentialAction []struct {
					Identifier string
					Target     struct{ HTTPMethod string }
				}
			}
			if err := json.Unmarshal(m[FileJSONLD], &ld); err != nil {
				t.Fatal(err)
			}
			for _, a := range ld.PotentialAction {
				if strings.Contains(a.Identifier, "quote") && a.Target.HTTPMethod != "" {
					t.Errorf("JSON-LD entry %s is an EntryPoint with %s", a.Identifier, a.Target.HTTPMethod)
				}
			}
			if !strings.Contains(string(m[FileLLMsTxt]), "html form at https://harbour-plumbing.example/quote/ (no submission an agent can drive) — information only, not a tool") {
				t.Errorf("llms.txt does not say the mailto: form informs only:\n%s", m[FileLLMsTxt])
			}
		})
	}
}
