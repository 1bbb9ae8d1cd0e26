package mapper

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// visitOf is a collection of one page read from static markup, with the
// WebMCP tools a browser would have recorded on it: build's input, made
// without a browser.
func visitOf(t *testing.T, body string, tools ...webmcpTool) *collection {
	t.Helper()
	site, err := url.Parse("https://acme.example/")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract.FromHTML(site.String(), []byte(page("Acme", body)))
	if err != nil {
		t.Fatal(err)
	}
	return &collection{site: site, steps: []crawlStep{{page: &pageVisit{url: doc.URL, doc: doc, tools: tools}}}}
}

// A WebMCP inputSchema that cannot be read is named in the graph's notes,
// and the tool is still mapped.
func TestSchemaProblemsAreNoted(t *testing.T) {
	cases := []struct {
		name, schema, note string
		inputs             int
	}{
		{"not an object", `"name and phone"`, "The inputSchema of WebMCP tool request_callback on / is not a JSON Schema object (a JSON string)", 0},
		{"properties not an object", `{"type":"object","properties":["name"]}`, "The inputSchema properties of WebMCP tool request_callback on / are not an object (a JSON array)", 0},
		{"a property not a schema", `{"type":"object","properties":{"name":{"type":"string"},"phone":"tel"}}`, "The inputSchema property phone of WebMCP tool request_callback on / is not a JSON Schema (a JSON string)", 2},
		{"a readable schema", `{"type":"object","properties":{"name":{"type":"string"}}}`, "", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := webmcpTool{Where: "document", tool: tool{Name: "request_callback", Description: "Request a callback", InputSchema: json.RawMessage(tc.schema)}}
			g, err := build(testOptions().withDefaults(), visitOf(t, "<h1>Acme</h1>", tl))
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Actions) != 1 || len(g.Actions[0].Inputs) != tc.inputs {
				t.Fatalf("actions %+v, want the tool mapped with %d inputs", summaryOf(g), tc.inputs)
			}
			notes := ""
			if g.Notes != nil {
				notes = *g.Notes
			}
			if tc.note == "" && strings.Contains(notes, "inputSchema") || !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
		})
	}
}

// A form whose submission a script stops and makes itself is
// javascript-only, and its door says what showed it.
func TestScriptSentForm(t *testing.T) {
	form := `<form id="msg" action="/contact/" method="post" onsubmit="sendMessage(this); return false;" aria-label="Contact us">
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="email" type="email" required>
<label for="m">Message</label><textarea id="m" name="message" required></textarea>
<button type="submit">Send message</button></form>`
	g, err := build(testOptions().withDefaults(), visitOf(t, form))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != 1 {
		t.Fatalf("actions %+v, want the contact form", summaryOf(g))
	}
	d := g.Actions[0].Access[0]
	if d.Submission == nil || d.Submission.Transport != shared.TransportJavascriptOnly || d.Submission.Endpoint != nil {
		t.Errorf("submission %+v, want javascript-only without an endpoint", d.Submission)
	}
	if ev := *d.Provenance.Evidence; !strings.Contains(ev, "sent by script: the onsubmit attribute stops the browser's submission") {
		t.Errorf("door evidence %q does not say the script sends it", ev)
	}
}

// A link-out seen again is counted on its own door: the link after it in
// the list keeps what it is (here a link to the page itself, which the
// page's own doors stand for and which is dropped).
func TestRepeatedLinkOut(t *testing.T) {
	body := `<a href="https://tables.example/acme">Book a table</a>
<a href="https://acme.example/">Book now</a>
<a href="https://tables.example/acme">Book a table</a>`
	g, err := build(testOptions().withDefaults(), visitOf(t, body))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range g.Actions {
		got = append(got, a.ID)
	}
	want := []string{"test:booking:tables-example-acme"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("action ids (-want +got):\n%s", diff)
	}
}

// Action ids are unique however the natural ids of a page's actions
// collide: a suffix is never one given already nor another action's
// natural id, and every action keeps its natural id when it is the first
// to have it, in discovery order.
func TestActionIDCollisions(t *testing.T) {
	extras := []string{
		``,
		`<label for="p%[1]s">Phone</label><input id="p%[1]s" type="tel" name="phone">`,
		`<label for="s%[1]s">Suburb</label><input id="s%[1]s" name="suburb">`,
		`<label for="c%[1]s">Company</label><input id="c%[1]s" name="company">`,
	}
	form := func(i int, id string) string {
		return fmt.Sprintf(`<form id="%[1]s" method="post" action="/send-%[2]d"><h2>Contact us</h2>
<label for="n%[2]d">Your name</label><input id="n%[2]d" name="name" required>
<label for="e%[2]d">Email</label><input id="e%[2]d" type="email" name="email" required>
`+extras[i]+`
<label for="m%[2]d">Message</label><textarea id="m%[2]d" name="message"></textarea>
<button type="submit">Send message</button></form>`, id, i)
	}
	cases := []struct {
		name      string
		formIDs   []string
		actionIDs []string
	}{
		{"no collision", []string{"contact", "enquiry"}, []string{"test:contact:contact", "test:contact:enquiry"}},
		{"one collision", []string{"contact", "contact-form"}, []string{"test:contact:contact", "test:contact:contact-2"}},
		{"a suffix is a later form's natural id", []string{"contact", "contact-form", "contact-2"}, []string{"test:contact:contact", "test:contact:contact-3", "test:contact:contact-2"}},
		{"a suffix is an earlier form's natural id", []string{"contact-2", "contact", "contact-form"}, []string{"test:contact:contact-2", "test:contact:contact", "test:contact:contact-3"}},
		{"three of one name", []string{"contact", "contact-form", "contact"}, []string{"test:contact:contact", "test:contact:contact-2", "test:contact:contact-3"}},
		{"several suffixes taken", []string{"contact", "contact-form", "contact-2", "contact-3"}, []string{"test:contact:contact", "test:contact:contact-4", "test:contact:contact-2", "test:contact:contact-3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body strings.Builder
			for i, id := range tc.formIDs {
				body.WriteString(form(i, id))
			}
			g, err := MapHTML("https://acme.example/contact/", []byte(page("Acme", body.String())), testOptions())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range g.Actions {
				got = append(got, a.ID)
			}
			if diff := cmp.Diff(tc.actionIDs, got); diff != "" {
				t.Errorf("action ids (-want +got):\n%s", diff)
			}
		})
	}
}
