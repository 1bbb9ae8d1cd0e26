package compiler

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// An input that takes several values (decision 0006) is an array of its
// options, each at most once, at least one when required; a lone checkbox
// stays a boolean and a single select a string.
func TestMultiValuedSchema(t *testing.T) {
	opts := shared.OneOfSpace{Options: []shared.Option{{Value: "kitchen"}, {Value: "lounge"}}}
	for _, tc := range []struct {
		name     string
		in       shared.Input
		rules    []shared.Rule
		want     string
		required bool
	}{
		{"select multiple", field("form", "rooms", "Rooms", shared.SemanticUnknown, "select-multiple", false, opts), nil,
			`{"type":"array","title":"Rooms","description":"Semantic type: unknown. A list: any of the options, each at most once.","items":{"type":"string","enum":["kitchen","lounge"]},"uniqueItems":true}`, false},
		{"required checkbox group", field("form", "rooms[]", "Rooms", shared.SemanticUnknown, "checkbox", true, opts), nil,
			`{"type":"array","title":"Rooms","description":"Semantic type: unknown. A list: any of the options, each at most once.","items":{"type":"string","enum":["kitchen","lounge"]},"uniqueItems":true,"minItems":1}`, true},
		{"lone checkbox", field("form", "news", "News", shared.SemanticMarketingOptIn, "checkbox", false), nil,
			`{"type":"boolean","title":"News","description":"Semantic type: marketing-opt-in. true ticks the box."}`, false},
		{"select", field("form", "room", "Room", shared.SemanticUnknown, "select", false, opts), nil,
			`{"type":"string","title":"Room","description":"Semantic type: unknown.","enum":["kitchen","lounge"]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, required := inputSchema(&tc.in, tc.rules, agentInputs)
			b, err := json.Marshal(ps)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(b)); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
			if required != tc.required {
				t.Errorf("required = %v, want %v", required, tc.required)
			}
		})
	}
}
