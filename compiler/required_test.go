package compiler

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestRequiredRefusesEmpty: a required field refuses an empty value, as
// HTML's required does (valueMissing), a <select>'s empty placeholder
// included, and as the executor does; JSON Schema's required asks only for
// the key, so the inputSchema took "" for a required name, email or
// select. An optional field still takes "" (HTML's pattern and minlength
// do not look at an empty value), and a required select whose options
// have no empty value needs nothing more than its enum.
func TestRequiredRefusesEmpty(t *testing.T) {
	choose := shared.OneOfSpace{Options: []shared.Option{{Value: "", Label: ptr("Choose…")}, {Value: "leak"}}}
	plain := shared.OneOfSpace{Options: []shared.Option{{Value: "leak"}, {Value: "hot-water"}}}
	tests := []struct {
		name      string
		in        shared.Input
		rules     []shared.Validation
		value     any
		wantValid bool
	}{
		{"required text, empty", field("form#quote", "x", "X", shared.SemanticPersonName, "text", true), nil, "", false},
		{"required text, given", field("form#quote", "x", "X", shared.SemanticPersonName, "text", true), nil, "Ann", true},
		{"declared required email, empty", field("form#quote", "x", "X", shared.SemanticEmail, "email", false),
			[]shared.Validation{declared("x", shared.RuleRequired, nil, "required")}, "", false},
		{"required select, placeholder", field("form#quote", "x", "X", shared.SemanticServiceRequested, "select", true, choose), nil, "", false},
		{"required select, option", field("form#quote", "x", "X", shared.SemanticServiceRequested, "select", true, choose), nil, "leak", true},
		{"required select without placeholder, option", field("form#quote", "x", "X", shared.SemanticServiceRequested, "select", true, plain), nil, "hot-water", true},
		{"required textarea with a length, empty", field("form#quote", "x", "X", shared.SemanticMessage, "textarea", true, shared.LengthSpace{MaxLength: ptr(10)}), nil, "", false},
		{"optional text, empty", field("form#quote", "x", "X", shared.SemanticLocality, "text", false), nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			a := &g.Actions[0]
			a.Inputs = append(a.Inputs, tt.in)
			a.Validations = append(a.Validations, tt.rules...)
			v := compileMCP(t, g, Options{})
			var schema map[string]any
			for _, tl := range v.Tools {
				if tl.Name == "plumber.quote.job.form" {
					schema = tl.InputSchema["properties"].(map[string]any)["x"].(map[string]any)
				}
			}
			if schema == nil {
				t.Fatal("no property x in the quote form's inputSchema")
			}
			sch := compileSchema(t, schema)
			err := sch.Validate(tt.value)
			if got := err == nil; got != tt.wantValid {
				t.Errorf("%q valid = %v, want %v (HTML's required)\nschema: %v\nerr: %v", tt.value, got, tt.wantValid, fmt.Sprint(schema), err)
			}
		})
	}
}

// TestLengthCountsUTF16: a field that states a length says that the site
// counts it in UTF-16 code units (HTML's minlength and maxlength, and the
// executor, count so), which JSON Schema's maxLength, counting characters,
// cannot state: ten emoji pass maxLength 10 and are twenty to the site.
func TestLengthCountsUTF16(t *testing.T) {
	tests := []struct {
		name string
		vs   []shared.ValueSpace
		want bool
	}{
		{"max length", []shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(10)}}, true},
		{"min length", []shared.ValueSpace{shared.LengthSpace{MinLength: ptr(2)}}, true},
		{"no length", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := field("form", "x", "X", shared.SemanticMessage, "text", true, tt.vs...)
			ps, _ := inputSchema(&in, nil, agentInputs)
			if got := strings.Contains(ps.Description, "UTF-16 code units"); got != tt.want {
				t.Errorf("the description states how the site counts a length: %v, want %v\n%s", got, tt.want, ps.Description)
			}
		})
	}
}

// TestOptionalTakesEmpty: an optional field takes "", as HTML's pattern
// and minlength do not look at an empty value (nor does the executor),
// while its other values keep the site's pattern and length; the schema
// refused "" for an optional phone with a pattern or a message with a
// minlength. A required field still refuses it, and JSON-LD, which reads
// as HTML does, keeps the site's minlength.
func TestOptionalTakesEmpty(t *testing.T) {
	digits := shared.PatternSpace{Pattern: `[0-9]{4}`}
	three := shared.LengthSpace{MinLength: ptr(3)}
	tests := []struct {
		name      string
		required  bool
		vs        []shared.ValueSpace
		valid     map[string]bool
		jsonldMin *int
	}{
		{"optional pattern", false, []shared.ValueSpace{digits}, map[string]bool{"": true, "1234": true, "12": false, "abcd": false}, nil},
		{"optional minlength", false, []shared.ValueSpace{three}, map[string]bool{"": true, "abc": true, "ab": false}, ptr(3)},
		{"optional both", false, []shared.ValueSpace{digits, three}, map[string]bool{"": true, "1234": true, "12": false}, ptr(3)},
		{"required pattern", true, []shared.ValueSpace{digits}, map[string]bool{"": false, "1234": true, "12": false}, ptr(1)},
		{"required minlength", true, []shared.ValueSpace{three}, map[string]bool{"": false, "abc": true, "ab": false}, ptr(3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticMessage, "text", tt.required, tt.vs...))
			v := compileMCP(t, g, Options{})
			schema := property(t, v, "plumber.quote.job.form", "x")
			if schema == nil {
				t.Fatal("no property x in the quote form's inputSchema")
			}
			sch := compileSchema(t, schema)
			got := map[string]bool{}
			for value := range tt.valid {
				got[value] = sch.Validate(value) == nil
			}
			if diff := cmp.Diff(tt.valid, got); diff != "" {
				t.Errorf("values the schema takes (-HTML +schema):\n%s\nschema: %v", diff, schema)
			}
			files, err := CompileFormat(g, FormatJSONLD, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				PotentialAction []struct {
					Identifier string
					X          struct{ ValueMinLength *int } `json:"x-input"`
				}
			}
			if err := json.Unmarshal(files[0].Data, &doc); err != nil {
				t.Fatal(err)
			}
			var gotMin *int
			for _, a := range doc.PotentialAction {
				if a.Identifier == "plumber.quote.job.form" {
					gotMin = a.X.ValueMinLength
				}
			}
			if diff := cmp.Diff(tt.jsonldMin, gotMin); diff != "" {
				t.Errorf("jsonld.json's valueMinLength (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOptionalFormatTakesEmpty: an optional email, URL or date field takes
// "", as HTML's type check does not look at an empty value (nor does the
// executor), even for a validator that asserts formats; a required one
// does not, and a value in the wrong format is refused either way.
func TestOptionalFormatTakesEmpty(t *testing.T) {
	tests := []struct {
		typ      string
		required bool
		valid    map[string]bool
	}{
		{"email", false, map[string]bool{"": true, "lou@example.org": true, "lou": false}},
		{"email", true, map[string]bool{"": false, "lou@example.org": true, "lou": false}},
		{"url", false, map[string]bool{"": true, "https://example.org/": true, "https://bäckerei.de/brötchen": true, "not a url": false}},
		{"date", false, map[string]bool{"": true, "2026-12-24": true, "24/12/2026": false}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s required=%v", tt.typ, tt.required), func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticUnknown, tt.typ, tt.required))
			schema := property(t, compileMCP(t, g, Options{}), "plumber.quote.job.form", "x")
			if schema == nil {
				t.Fatal("no property x in the quote form's inputSchema")
			}
			sch := compileSchema(t, schema)
			got := map[string]bool{}
			for value := range tt.valid {
				got[value] = sch.Validate(value) == nil
			}
			if diff := cmp.Diff(tt.valid, got); diff != "" {
				t.Errorf("values the schema takes (-HTML +schema):\n%s\nschema: %v", diff, schema)
			}
		})
	}
}
