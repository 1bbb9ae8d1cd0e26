package compiler

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestInputTypeCaseInsensitive: HTML's input types are ASCII
// case-insensitive, as the executor reads them, so an input of type
// Number, RANGE or CheckBox gets the schema and the element its lower-case
// type gets (the schema said string, without minimum, maximum or a
// checkbox's const true).
func TestInputTypeCaseInsensitive(t *testing.T) {
	tests := []struct {
		typ      string
		required bool
		vs       []shared.ValueSpace
	}{
		{"Number", false, []shared.ValueSpace{shared.RangeSpace{Min: ptr("1"), Max: ptr("9"), Step: ptr("2")}}},
		{"RANGE", false, []shared.ValueSpace{shared.RangeSpace{Min: ptr("0"), Max: ptr("10")}}},
		{"CheckBox", true, nil},
		{"EMAIL", true, nil},
		{"Time", false, nil},
		{"File", false, nil},
		{"TextArea", true, []shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(10)}}},
		{"SELECT", true, []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "a"}, {Value: "b"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			mixed := field("form", "x", "X", shared.SemanticUnknown, tt.typ, tt.required, tt.vs...)
			lower := mixed
			lower.Type = strings.ToLower(tt.typ)
			for _, mode := range []schemaMode{agentInputs, wireInputs} {
				want, wantReq := inputSchema(&lower, nil, mode)
				got, gotReq := inputSchema(&mixed, nil, mode)
				if diff := cmp.Diff(want, got); diff != "" || wantReq != gotReq {
					t.Errorf("mode %d: schema of type %q (-%s +%s), required %v, want %v:\n%s", mode, tt.typ, lower.Type, tt.typ, gotReq, wantReq, diff)
				}
			}
			if want, got := elementOf(&lower), elementOf(&mixed); got != want {
				t.Errorf("element of type %q = %q, want %q", tt.typ, got, want)
			}
		})
	}
}
