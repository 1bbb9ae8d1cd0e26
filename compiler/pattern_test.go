package compiler

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestPatternAnchoredAsHTML: a site's pattern becomes the JSON Schema
// pattern ^(?:pattern)$, exactly as HTML anchors it, whatever anchors it
// holds itself: ^a|b$ is a top-level alternation that HTML matches against
// the whole value ("a" or "b"), while as a JSON Schema pattern (matched
// anywhere) it would take any value starting with a or ending with b.
func TestPatternAnchoredAsHTML(t *testing.T) {
	tests := []struct {
		pattern string
		want    string
		values  map[string]bool // value → whether HTML accepts it
	}{
		{`^a|b$`, `^(?:^a|b$)$`, map[string]bool{"a": true, "b": true, "ax": false, "xb": false, "ab": false}},
		{`a|b`, `^(?:a|b)$`, map[string]bool{"a": true, "b": true, "ab": false, "xa": false}},
		{`^abc$`, `^(?:^abc$)$`, map[string]bool{"abc": true, "abcd": false, "xabc": false}},
		{`04[0-9]{8}`, `^(?:04[0-9]{8})$`, map[string]bool{"0412345678": true, "x0412345678": false}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			in := field("form", "code", "Code", shared.SemanticUnknown, "text", true, shared.PatternSpace{Pattern: tt.pattern})
			ps, _ := inputSchema(&in, nil, agentInputs)
			if diff := cmp.Diff(tt.want, ps.Pattern); diff != "" {
				t.Fatalf("pattern (-want +got):\n%s", diff)
			}
			ps, _ = inputSchema(&in, []shared.Rule{{Kind: shared.RulePattern, Value: &tt.pattern}}, wireInputs)
			if diff := cmp.Diff(tt.want, ps.Pattern); diff != "" {
				t.Fatalf("pattern of a declared rule (-want +got):\n%s", diff)
			}
			// JSON Schema matches a pattern anywhere in the value.
			re := regexp.MustCompile(ps.Pattern)
			got := map[string]bool{}
			for v := range tt.values {
				got[v] = re.MatchString(v)
			}
			if diff := cmp.Diff(tt.values, got); diff != "" {
				t.Errorf("values the schema accepts (-HTML +schema):\n%s", diff)
			}
		})
	}
}

// TestSitePatternsAsHTMLReadsThem: a site's pattern is read as HTML reads
// it, an ECMAScript regular expression with the v flag. One that is none
// (a [a-z-] or a [0-9/], which a browser ignores) is no pattern keyword,
// so the field takes what the page takes, and its description says so;
// one that needs the v flag (a class subtraction, a nested class) is no
// pattern keyword either, which a validator reading ECMA-262 with the u
// flag would refuse or read otherwise, and its description states it; the
// escapes only the v flag allows in a class are written plain. MCP,
// OpenAPI and the WebMCP script agree, each schema compiles, and a
// lookahead (ECMA-262, not Go) stays.
func TestSitePatternsAsHTMLReadsThem(t *testing.T) {
	tests := []struct {
		pattern string
		want    any    // the pattern keyword, nil when there is none
		note    string // in the description, "" when none
	}{
		{`0[2-9]\d{8}`, `^(?:0[2-9]\d{8})$`, ""},
		{`[a-z-]+`, nil, "The page's pattern /[a-z-]+/v is no valid regular expression as HTML reads it (with the v flag), so a browser does not check it."},
		{`[0-9/]+`, nil, "no valid regular expression"},
		{`[\w-]+`, nil, "no valid regular expression"},
		{`a{2,1}`, nil, "no valid regular expression"},
		{`(\d)\2`, nil, "no valid regular expression"},
		{`[\p{L}--[a-z]]+`, nil, "The whole value must also match the page's pattern /[\\p{L}--[a-z]]+/v, which a JSON Schema pattern cannot state (it needs JavaScript's v flag)."},
		{`[[a-z][0-9]]+`, nil, "needs JavaScript's v flag"},
		{`[\&\-\!]+`, `^(?:[&\-!]+)$`, ""},
		{`[0-9\/]+`, `^(?:[0-9\/]+)$`, ""},
		{`(?=.*\d).{8,}`, `^(?:(?=.*\d).{8,})$`, ""},
		// HTML checks the pattern anchored, which makes this one valid.
		{`a)|(b`, `^(?:a)|(b)$`, ""},
	}
	v := loadSchemas(t)
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticUnknown, "text", true, shared.PatternSpace{Pattern: tt.pattern}))
			m := compileValidOpenAPI(t, v, g)
			var mcp mcpResultView
			if err := json.Unmarshal(m[FileMCPTools], &mcp); err != nil {
				t.Fatal(err)
			}
			var api struct {
				Paths map[string]map[string]struct {
					OperationID string `json:"operationId"`
					RequestBody struct {
						Content map[string]struct {
							Schema struct{ Properties map[string]map[string]any }
						}
					} `json:"requestBody"`
				}
			}
			if err := json.Unmarshal(m[FileOpenAPI], &api); err != nil {
				t.Fatal(err)
			}
			schemas := map[string]map[string]any{"mcp": property(t, mcp, "plumber.quote.job.form", "x")}
			for _, item := range api.Paths {
				if op, ok := item["post"]; ok && op.OperationID == "plumber.quote.job.form" {
					schemas["openapi"] = op.RequestBody.Content["multipart/form-data"].Schema.Properties["x"]
				}
			}
			for _, tl := range webmcpTable(t, m[FileWebMCPScript]) {
				if tl["name"] == "plumber.quote.job.form" {
					schemas["webmcp"] = tl["inputSchema"].(map[string]any)["properties"].(map[string]any)["x"].(map[string]any)
				}
			}
			for _, out := range []string{"mcp", "openapi", "webmcp"} {
				ps := schemas[out]
				if ps == nil {
					t.Fatalf("%s: no property x", out)
				}
				if diff := cmp.Diff(tt.want, ps["pattern"]); diff != "" {
					t.Errorf("%s: pattern (-want +got):\n%s", out, diff)
				}
				desc, _ := ps["description"].(string)
				if tt.note != "" && !strings.Contains(desc, tt.note) {
					t.Errorf("%s: description %q does not say %q", out, desc, tt.note)
				}
				if tt.note == "" && strings.Contains(desc, "pattern") {
					t.Errorf("%s: description %q speaks of the pattern", out, desc)
				}
			}
			if tt.want != nil && !strings.Contains(tt.pattern, "(?=") {
				sch := compileSchema(t, schemas["mcp"])
				if err := sch.Validate("\x00"); err == nil {
					t.Errorf("the pattern %s takes any value", tt.want)
				}
			}
		})
	}
}

// TestJSONLDValuePattern: JSON-LD's valuePattern is the site's pattern as
// the site wrote it, which Schema.org reads as HTML reads a pattern
// attribute (anchored, with the v flag): not the JSON Schema pattern,
// whose u-flag form of [\&\&] is [&&], an operator to the v flag, and
// which leaves out a pattern that needs the v flag. A pattern a browser
// ignores is none.
func TestJSONLDValuePattern(t *testing.T) {
	tests := []struct {
		pattern string
		want    string
	}{
		{`0[2-9]\d{8}`, `0[2-9]\d{8}`},
		{`[\&\&]+`, `[\&\&]+`},
		{`[\p{L}--[a-z]]+`, `[\p{L}--[a-z]]+`},
		{`[a-z-]+`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticUnknown, "text", true, shared.PatternSpace{Pattern: tt.pattern}))
			spec, ok := jsonLDInput(t, g, "plumber.quote.job.form")
			var got any = "(no entry)"
			if ok {
				got, _ = spec["valuePattern"].(string)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("valuePattern (-want +got):\n%s", diff)
			}
		})
	}
}

// jsonLDInput is the x-input of the JSON-LD entry identified id in g's
// compiled JSON-LD, and whether there is such an entry.
func jsonLDInput(t *testing.T, g *shared.ActionGraph, id string) (map[string]any, bool) {
	t.Helper()
	files, err := CompileFormat(g, FormatJSONLD, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		PotentialAction []map[string]any `json:"potentialAction"`
	}
	if err := json.Unmarshal(files[0].Data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, a := range doc.PotentialAction {
		if a["identifier"] == id {
			spec, _ := a["x-input"].(map[string]any)
			return spec, true
		}
	}
	return nil, false
}
