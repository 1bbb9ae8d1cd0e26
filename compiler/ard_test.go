package compiler

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestARDPublisher: the ARD identifier names the site's domain as DNS
// knows it: an internationalised domain in its ASCII (punycode) form, never
// with its other letters dropped (bäckerei.de became bckerei.de, another
// domain), and the catalog still validates against the official schema.
func TestARDPublisher(t *testing.T) {
	tests := []struct {
		domain, want string
	}{
		{"harbour-plumbing.example", "urn:air:harbour-plumbing.example:mcp:actions"},
		{"Harbour-Plumbing.Example:8443", "urn:air:harbour-plumbing.example:mcp:actions"},
		{"bäckerei.de", "urn:air:xn--bckerei-5wa.de:mcp:actions"},
		{"BÄCKEREI.de", "urn:air:xn--bckerei-5wa.de:mcp:actions"},
		{"xn--bckerei-5wa.de", "urn:air:xn--bckerei-5wa.de:mcp:actions"},
		{"пекарня.рф", "urn:air:xn--80ajpngj0i.xn--p1ai:mcp:actions"},
	}
	v := loadSchemas(t)
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			g := doorsGraph()
			g.Site.Domain = tt.domain
			files, err := CompileFormat(g, FormatARD, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var cat struct {
				Entries []struct{ Identifier string }
			}
			if err := json.Unmarshal(files[0].Data, &cat); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, cat.Entries[0].Identifier); diff != "" {
				t.Errorf("identifier (-want +got):\n%s", diff)
			}
			if err := v.ard.Validate(instance(t, files[0].Data)); err != nil {
				t.Errorf("ai-catalog.json does not validate: %v", err)
			}
		})
	}
}

// TestProvenanceAsWritten: the JSON files that name the graph they came
// from (OpenAPI's info, the ARD entry) quote its id and site as the graph
// writes them: only comments keep them from closing (commentSafe), and a
// JSON string needs none of that ("*/" became "* /", "</" became "<\/").
func TestProvenanceAsWritten(t *testing.T) {
	g := doorsGraph()
	g.GraphID = "ag_doors*/--></x"
	files, err := CompileAll(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := byName(files)
	var api struct{ Info struct{ Description string } }
	var cat struct {
		Entries []struct{ Description string }
	}
	if err := json.Unmarshal(m[FileOpenAPI], &api); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m[FileAICatalog], &cat); err != nil {
		t.Fatal(err)
	}
	want := "Action Graph " + g.GraphID + " (schema"
	for name, desc := range map[string]string{FileOpenAPI: api.Info.Description, FileAICatalog: cat.Entries[0].Description} {
		if !strings.Contains(desc, want) {
			t.Errorf("%s: description %q does not quote %q", name, desc, want)
		}
	}
	for _, name := range []string{FileWebMCPScript, FileWebMCPDeclarative} {
		if strings.Contains(string(m[name]), g.GraphID) {
			t.Errorf("%s: a comment quotes %q unescaped", name, g.GraphID)
		}
	}
}
