package mapper

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// registerScript registers a callback tool on owner ("document" or
// "navigator") the way a page would, and a read-only tool that is not a
// customer action, and an aborted one that is unregistered again.
func registerScript(owner string) string {
	return `<script>
(function () {
  var mc = ` + owner + `.modelContext;
  if (!mc) return;
  mc.registerTool({
    name: "request_callback",
    description: "Ask the workshop to call you back about a repair.",
    inputSchema: {type: "object", properties: {
      name: {type: "string", description: "Your full name", maxLength: 80},
      phone: {type: "string", description: "Phone number to call back", pattern: "^[0-9 +()-]{6,20}$"},
      topic: {type: "string", enum: ["repair", "service", "other"]}
    }, required: ["name", "phone"]},
    annotations: {readOnlyHint: false},
    execute: function (input) { return Promise.resolve({ok: true}); }
  });
  mc.registerTool({name: "get_opening_hours", description: "Opening hours", inputSchema: {type: "object", properties: {}},
    annotations: {readOnlyHint: true}, execute: function () { return Promise.resolve({}); }});
  var ac = new AbortController();
  mc.registerTool({name: "book_old", description: "Book (retired)", inputSchema: {type: "object"}, execute: function () {}}, {signal: ac.signal});
  ac.abort();
})();
</script>`
}

// Imperative WebMCP tools are captured by the init script whether the page
// registers them on document.modelContext or the legacy navigator one.
// A page carrying Prototype.js 1.6's Array.prototype.toJSON, with which
// JSON.stringify writes arrays as strings of JSON, has its tools read
// as any page's.
func TestWebMCPImperative(t *testing.T) {
	for _, tc := range []struct{ name, owner, before string }{
		{"document", "document", ""},
		{"navigator", "navigator", ""},
		{"Prototype.js's Array.prototype.toJSON", "document", prototypeToJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, site{pages: map[string]string{"/": page("Spoke & Chain", tc.before+"<h1>Workshop</h1>"+registerScript(tc.owner))}})
			g := mapTest(t, srv.URL+"/", func(o *Options) { o.NoExplore = true }) // only a browser runs the script
			want := []actionSummary{{Kind: shared.KindCallback,
				Doors:    []doorSummary{{Method: shared.AccessWebMCPTool, Transport: shared.TransportWebMCPExecute, Tool: "request_callback", Occurrences: 1}},
				Fillable: []string{"name:person-name!", "phone:phone!", "topic:subject"},
				Effects:  []shared.EffectKind{shared.EffectCreatesCallbackRequest}}}
			if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
				t.Fatalf("graph (-want +got):\n%s", diff)
			}
			a := g.Actions[0]
			if m := a.Access[0].Provenance.Method; m != shared.MethodParsedWebMCP {
				t.Errorf("door provenance %s, want parsed-webmcp", m)
			}
			if diff := cmp.Diff([]shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(80)}}, a.Inputs[0].ValueSpace); diff != "" {
				t.Errorf("name value space (-want +got):\n%s", diff)
			}
		})
	}
}

// A <form toolname> is both an HTML form and a declarative WebMCP tool.
func TestWebMCPDeclarative(t *testing.T) {
	body := `<h2>Book a service</h2><form id="service" action="/book-service" method="post" toolname="book_service" tooldescription="Book a bike service at the workshop" toolautosubmit>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required toolparamdescription="Customer's full name">
<label for="e">Email</label><input id="e" name="email" type="email" required toolparamdescription="Where we confirm the booking">
<label for="d">Date</label><input id="d" name="date" type="date" required>
<button type="submit">Book service</button></form>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Book", body)}}, nil)
	want := []actionSummary{{Kind: shared.KindBooking,
		Doors: []doorSummary{
			{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/book-service", Occurrences: 1},
			{Method: shared.AccessWebMCPTool, Transport: shared.TransportWebMCPExecute, Endpoint: "/book-service", Tool: "book_service", Occurrences: 1},
		},
		Fillable: []string{"name:person-name!", "email:email!", "date:date!"},
		Effects:  []shared.EffectKind{shared.EffectRequestsAppointment}}}
	if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
		t.Fatalf("graph (-want +got):\n%s", diff)
	}
	if h := g.Actions[0].Inputs[0].Hint; h == nil || *h != "Customer's full name" {
		t.Errorf("hint %v, want the toolparamdescription", h)
	}
}

// invalidNameNote finds the note about a tool name that breaks the rule.
var invalidNameNote = regexp.MustCompile(`an? \w+ tool with an invalid name .*? is left out\.`)

// Every tool the mapper reads keeps shared.ValidToolName — registered by a
// page, declared by a <form toolname> or listed by an MCP server card: a
// tool whose name breaks the rule is left out and the notes say so (the
// form that declares one is still mapped, without its tool door).
func TestInvalidToolNames(t *testing.T) {
	quoteForm := func(toolname string) string {
		return `<form id="quote" action="/quote/" method="post" toolname="` + toolname + `" tooldescription="Request a quote"><h2>Request a quote</h2>
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="m">Describe the job</label><textarea id="m" name="message" required></textarea>
<button type="submit">Get a quote</button></form>`
	}
	registered := func(name string) *collection {
		return visitOf(t, "<h1>Acme</h1>", webmcpTool{Where: "document", tool: tool{Name: name, Description: "Request a quote for a plumbing job"}})
	}
	declared := func(name string) *collection { return visitOf(t, quoteForm(name)) }
	listed := func(name string) *collection {
		c := visitOf(t, "<h1>Acme</h1>")
		base, _ := url.Parse("https://acme.example/.well-known/ai-catalog.json")
		card := mcpServerCard{Name: "acme", URL: "https://acme.example/mcp", Tools: []tool{{Name: name, Description: "Request a quote for a plumbing job"}}}
		c.catalogs = []catalogFinding{{card: &card, base: base, ev: "catalog"}}
		return c
	}
	type mapped struct {
		Doors []string // method and tool name of every door
		Note  string   // the tool name note, "" for none
	}
	cases := []struct {
		name string
		c    *collection
		want mapped
	}{
		{"registered", registered("request_quote"), mapped{Doors: []string{"webmcp-tool request_quote"}}},
		{"registered, invalid", registered("request quote <now>!"), mapped{Note: `a WebMCP tool with an invalid name "request quote <now>!" on / is left out.`}},
		{"declared", declared("request_quote"), mapped{Doors: []string{"html-form", "webmcp-tool request_quote"}}},
		{"declared, invalid", declared("request quote <now>!"), mapped{Doors: []string{"html-form"},
			Note: `a WebMCP tool with an invalid name "request quote <now>!" declared by form#quote on / is left out.`}},
		{"declared, too long", declared(strings.Repeat("q", shared.MaxToolNameLength+1)), mapped{Doors: []string{"html-form"},
			Note: `a WebMCP tool with an invalid name "` + strings.Repeat("q", shared.MaxToolNameLength+1) + `" declared by form#quote on / is left out.`}},
		{"listed", listed("request_quote"), mapped{Doors: []string{"documented-endpoint"}}},
		{"listed, invalid", listed("request quote <now>!"), mapped{Note: `an MCP tool with an invalid name "request quote <now>!" in server card acme (catalog) is left out.`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := build(testOptions().withDefaults(), tc.c)
			if err != nil {
				t.Fatal(err)
			}
			var got mapped
			for _, a := range g.Actions {
				for _, d := range a.Access {
					door := string(d.Method)
					if d.ToolName != nil {
						door += " " + *d.ToolName
					}
					got.Doors = append(got.Doors, door)
				}
			}
			if g.Notes != nil {
				got.Note = invalidNameNote.FindString(*g.Notes)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("doors and note (-want +got):\n%s", diff)
			}
		})
	}
}
