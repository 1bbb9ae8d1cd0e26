package shared

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validGraph builds a small valid graph in memory, the way a producer would.
func validGraph() *ActionGraph {
	prov := Provenance{Method: MethodParsedHTML, Confidence: 0.9, At: "2026-08-25T08:39:12.596Z", By: "mapper@0.1.0"}
	a := NewAction("site:contact", KindContact, "Send us a message", "https://example.com.au/contact")
	a.Access = append(a.Access, Access{Method: AccessMailtoLink, URL: "mailto:hello@example.com.au", Occurrences: 1, Provenance: prov})
	a.SideEffects.Effects = []Effect{{Kind: EffectSendsEmailToBusiness, Provenance: prov}}
	a.SideEffects.Summary = "Emails the business."
	a.SideEffects.Provenance = prov
	g := NewGraph("ag_example", Site{Domain: "example.com.au", URL: "https://example.com.au/"}, "2026-08-25T08:39:12.596Z", Generator{Name: "mapper", Version: "0.1.0"})
	g.Actions = append(g.Actions, a)
	return g
}

func issueKeys(issues []Issue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, is.Path+" "+string(is.Code))
	}
	return out
}

func TestWriteRefusesInvalid(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(g *ActionGraph)
		want   []string
	}{
		{"no effects", func(g *ActionGraph) { g.Actions[0].SideEffects.Effects = nil }, []string{"$.actions[0].sideEffects.effects effects.empty"}},
		{"nil verification", func(g *ActionGraph) { g.Actions[0].Verification = nil }, []string{"$.actions[0].verification verification.missing"}},
		{"nil pointer variant", func(g *ActionGraph) { g.Actions[0].Verification = (*Unverified)(nil) }, []string{"$.actions[0].verification verification.missing"}},
		{"NaN confidence", func(g *ActionGraph) { g.Actions[0].Access[0].Provenance.Confidence = math.NaN() }, []string{"$.actions[0].access[0].provenance.confidence confidence.out-of-range"}},
		{"infinite confidence", func(g *ActionGraph) { g.Actions[0].SideEffects.Provenance.Confidence = math.Inf(1) }, []string{"$.actions[0].sideEffects.provenance.confidence confidence.out-of-range"}},
		{"certain but not owner", func(g *ActionGraph) { g.Actions[0].SideEffects.Provenance.Confidence = 1 }, []string{"$.actions[0].sideEffects.provenance.confidence confidence.certain-not-owner"}},
		{"kind outside vocabulary", func(g *ActionGraph) { g.Actions[0].Kind = "Booking" }, []string{"$.actions[0].kind value.not-in-vocabulary"}},
		{"reversible outside vocabulary", func(g *ActionGraph) { g.Actions[0].SideEffects.Reversible = "" }, []string{"$.actions[0].sideEffects.reversible value.not-in-vocabulary"}},
		{"version", func(g *ActionGraph) { g.SchemaVersion = "0.2" }, []string{"$.schemaVersion version.unsupported"}},
		{"invalid UTF-8", func(g *ActionGraph) { g.Actions[0].Label = "bad \xff" }, []string{"$.actions[0].label json.invalid-utf8"}},
		{"empty id and bad time", func(g *ActionGraph) { g.Actions[0].ID = ""; g.GeneratedAt = "yesterday" }, []string{"$.generatedAt timestamp.invalid", "$.actions[0].id value.empty"}},
		{"duplicate ids", func(g *ActionGraph) { g.Actions = append(g.Actions, g.Actions[0]) }, []string{"$.actions[1].id id.duplicate"}},
		{"nil value space", func(g *ActionGraph) {
			g.Actions[0].Inputs = []Input{{Name: "m", Type: "text", Semantic: SemanticMessage, ValueSpace: []ValueSpace{nil}}}
		}, []string{"$.actions[0].inputs[0].valueSpace[0] type.mismatch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := validGraph()
			tt.mutate(g)
			out, err := Write(g)
			if err == nil {
				t.Fatalf("Write accepted an invalid graph:\n%s", out)
			}
			if !errors.Is(err, ErrInvalidGraph) {
				t.Errorf("errors.Is(err, ErrInvalidGraph) = false for %v", err)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T is not a *ValidationError", err)
			}
			if diff := cmp.Diff(tt.want, issueKeys(ve.Issues)); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			if !strings.Contains(err.Error(), tt.want[0][strings.IndexByte(tt.want[0], ' ')+1:]) {
				t.Errorf("error message %q does not name the issue code", err)
			}
		})
	}
}

func TestWriteNil(t *testing.T) {
	if _, err := Write(nil); !errors.Is(err, ErrInvalidGraph) {
		t.Errorf("Write(nil) error = %v, want ErrInvalidGraph", err)
	}
	if _, err := WriteAction(nil); !errors.Is(err, ErrInvalidGraph) {
		t.Errorf("WriteAction(nil) error = %v, want ErrInvalidGraph", err)
	}
}

func TestWriteCanonical(t *testing.T) {
	g := validGraph()
	g.Actions[0].Label = `<b>A & B</b> "quoted" line` + "\n\u2028\x01"
	out, err := Write(g)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`"label": "<b>A & B</b> \"quoted\" line\n\u2028\u0001"`, // no HTML escaping
		`"notes": null`,    // nil pointer written
		`"inputs": []`,     // empty list written
		`"toolName": null`, // every key
		"{\n  \"schemaVersion\": \"0.1\",\n  \"graphId\"", // order and indent
		"\"verification\": {\n        \"status\": \"unverified\",\n        \"note\": null\n      }",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if !strings.HasSuffix(s, "}\n") {
		t.Errorf("output does not end with a newline")
	}
	// A pointer to a variant writes exactly as the variant.
	g.Actions[0].Verification = &Unverified{}
	out2, err := Write(g)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, string(out2)); diff != "" {
		t.Errorf("pointer variant (-want +got):\n%s", diff)
	}
	g.Actions[0].Verification = Unverified{}
	checkRoundTrip(t, g)
}

func TestWriteActionRoundTrip(t *testing.T) {
	g, issues := Read(mustRead(t, "../fixtures/graphs/clinic01.json"))
	if issues != nil {
		t.Fatal(issues)
	}
	out, err := WriteAction(&g.Actions[0])
	if err != nil {
		t.Fatal(err)
	}
	a, issues := ReadAction(out)
	if issues != nil {
		t.Fatalf("ReadAction issues:\n%s", formatIssues(issues))
	}
	if diff := cmp.Diff(&g.Actions[0], a); diff != "" {
		t.Errorf("ReadAction(WriteAction(a)) (-want +got):\n%s", diff)
	}
	// Paths of ReadAction are rooted at the action.
	bad := strings.Replace(string(out), `"kind": "booking"`, `"kind": "book"`, 1)
	if _, issues := ReadAction([]byte(bad)); len(issues) != 1 || issues[0].Path != "$.kind" {
		t.Errorf("ReadAction issues = %v, want one at $.kind", issues)
	}
	a.SideEffects.Effects = nil
	if _, err := WriteAction(a); !errors.Is(err, ErrInvalidGraph) {
		t.Errorf("WriteAction of an action with no effects: err = %v", err)
	}
}

var tenth = 0.1 // a variable, so 0.1+0.2 is float64 arithmetic, not an exact constant

func TestAppendJSONFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {1, "1"}, {0.95, "0.95"}, {tenth + 0.2, "0.30000000000000004"},
		{1e-7, "1e-7"}, {1e21, "1e+21"}, {-0.5, "-0.5"}, {123456789, "123456789"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := string(appendJSONFloat(nil, tt.in)); got != tt.want {
				t.Errorf("appendJSONFloat(%v) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
