package mapper

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
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
