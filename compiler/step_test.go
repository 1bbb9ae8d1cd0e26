package compiler

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestNumberStep: a number or range input takes what HTML's step allows:
// the step the site states, counted from min (else from the value the page
// sets, else from zero), and HTML's default step of 1 when it states none
// or an invalid one, so that <input type=number> without a step takes 3
// and refuses 2.5, as a browser's checkValidity does (a range rounds it).
// The schema took any number there. step="any" takes any number. A step
// from a base off its grid, which multipleOf (counted from zero) cannot
// state, is said in the description.
func TestNumberStep(t *testing.T) {
	tests := []struct {
		name     string
		typ      string
		space    shared.RangeSpace
		value    *string // the page's value attribute
		want     any     // multipleOf, nil when absent
		note     string  // in the description: a step multipleOf cannot state
		accepted []any
		refused  []any
	}{
		{"number without a step", "number", shared.RangeSpace{}, nil, 1.0, "", []any{3, 0, -2}, []any{2.5}},
		{"range without a step", "range", shared.RangeSpace{Min: ptr("0"), Max: ptr("10")}, nil, 1.0, "", []any{4}, []any{4.5}},
		{"an invalid step is the default", "number", shared.RangeSpace{Step: ptr("0")}, nil, 1.0, "", []any{2}, []any{2.5}},
		{"step any", "number", shared.RangeSpace{Step: ptr("any")}, nil, nil, "", []any{2.5, 3}, nil},
		{"a stated step", "number", shared.RangeSpace{Step: ptr("0.5")}, nil, 0.5, "", []any{2.5}, []any{2.25}},
		{"a stated step from a min it divides", "number", shared.RangeSpace{Min: ptr("100"), Step: ptr("50")}, nil, 50.0, "", []any{150}, []any{175}},
		{"the default step from a min off the grid", "number", shared.RangeSpace{Min: ptr("0.5")}, nil, nil, "Accepted: 0.5 plus a whole multiple of 1 (the page's step counts from 0.5).", []any{1.5}, nil},
		{"a stated step from an odd min", "number", shared.RangeSpace{Min: ptr("1"), Step: ptr("2")}, nil, nil, "Accepted: 1 plus a whole multiple of 2 (the page's step counts from 1).", []any{3}, nil},
		{"the default step from the page's value", "number", shared.RangeSpace{}, ptr("1.5"), nil, "Accepted: 1.5 plus a whole multiple of 1 (the page's step counts from 1.5).", []any{2.5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			a := &g.Actions[0]
			in := field("form#quote", "x", "X", shared.SemanticPartySize, tt.typ, false, tt.space)
			in.DefaultValue = tt.value
			a.Inputs = append(a.Inputs, in)
			v := compileMCP(t, g, Options{})
			schema := property(t, v, "plumber.quote.job.form", "x")
			if schema == nil {
				t.Fatal("no property x in the quote form's inputSchema")
			}
			if diff := cmp.Diff(tt.want, schema["multipleOf"]); diff != "" {
				t.Errorf("multipleOf (-want +got):\n%s", diff)
			}
			desc, _ := schema["description"].(string)
			if !strings.Contains(desc, tt.note) || tt.note == "" && strings.Contains(desc, "Accepted:") {
				t.Errorf("description %q, want it to say %q", desc, tt.note)
			}
			sch := compileSchema(t, schema)
			for _, x := range tt.accepted {
				if err := sch.Validate(x); err != nil {
					t.Errorf("%v refused, but the input takes it: %v", x, err)
				}
			}
			for _, x := range tt.refused {
				if sch.Validate(x) == nil {
					t.Errorf("%v accepted, but the input's step refuses it", x)
				}
			}
		})
	}
}

// TestRangeDefaults: a range input that states no min or max has HTML's,
// 0 and 100, and the schema says so: a browser clamps 150 to 100 and
// sends that, so an agent's 150 is not what the site gets. A number input
// has no default bounds, and a stated bound is kept.
func TestRangeDefaults(t *testing.T) {
	tests := []struct {
		name     string
		typ      string
		space    shared.RangeSpace
		min, max any
	}{
		{"range without bounds", "range", shared.RangeSpace{}, 0.0, 100.0},
		{"range with a min", "range", shared.RangeSpace{Min: ptr("10")}, 10.0, 100.0},
		{"range with a max", "range", shared.RangeSpace{Max: ptr("5")}, 0.0, 5.0},
		{"range with invalid bounds", "range", shared.RangeSpace{Min: ptr("low"), Max: ptr("")}, 0.0, 100.0},
		{"range with both", "range", shared.RangeSpace{Min: ptr("-5"), Max: ptr("5")}, -5.0, 5.0},
		{"number without bounds", "number", shared.RangeSpace{}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticPartySize, tt.typ, false, tt.space))
			schema := property(t, compileMCP(t, g, Options{}), "plumber.quote.job.form", "x")
			if schema == nil {
				t.Fatal("no property x in the quote form's inputSchema")
			}
			if diff := cmp.Diff([]any{tt.min, tt.max}, []any{schema["minimum"], schema["maximum"]}); diff != "" {
				t.Errorf("[minimum maximum] (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJSONLDStepValue: JSON-LD's stepValue is HTML's step, which counts
// from the step base (min), as Schema.org reads it: it was multipleOf,
// which JSON Schema counts from zero and the compiler leaves out when the
// base is off the grid, so min 1 step 2 (odd numbers) lost its step.
func TestJSONLDStepValue(t *testing.T) {
	tests := []struct {
		name  string
		space shared.RangeSpace
		want  any
	}{
		{"step from an odd min", shared.RangeSpace{Min: ptr("1"), Step: ptr("2")}, 2.0},
		{"default step from a min off the grid", shared.RangeSpace{Min: ptr("0.5")}, 1.0},
		{"a step from zero", shared.RangeSpace{Min: ptr("0"), Step: ptr("5")}, 5.0},
		{"step any", shared.RangeSpace{Step: ptr("any")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			g.Actions[0].Inputs = append(g.Actions[0].Inputs, field("form#quote", "x", "X", shared.SemanticPartySize, "number", false, tt.space))
			var got any = "(no x-input)"
			if spec, ok := jsonLDInput(t, g, "plumber.quote.job.form"); ok && spec != nil {
				got = spec["stepValue"]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("stepValue (-want +got):\n%s", diff)
			}
		})
	}
}
