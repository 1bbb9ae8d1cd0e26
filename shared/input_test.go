package shared_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

func TestInputMultiValued(t *testing.T) {
	two := []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "wiring"}, {Value: "solar"}}}}
	one := []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "yes"}}}}
	ptr := []shared.ValueSpace{&shared.OneOfSpace{Options: []shared.Option{{Value: "a"}, {Value: "b"}}}}
	for _, tc := range []struct {
		name    string
		in      shared.Input
		multi   bool
		options []string
	}{
		{"checkbox group", shared.Input{Type: "checkbox", ValueSpace: two}, true, []string{"wiring", "solar"}},
		{"checkbox group, pointer space", shared.Input{Type: "checkbox", ValueSpace: ptr}, true, []string{"a", "b"}},
		{"lone checkbox", shared.Input{Type: "checkbox", ValueSpace: []shared.ValueSpace{}}, false, nil},
		{"checkbox with one option", shared.Input{Type: "checkbox", ValueSpace: one}, false, []string{"yes"}},
		{"select multiple", shared.Input{Type: "select-multiple", ValueSpace: two}, true, []string{"wiring", "solar"}},
		{"checkbox group, type in capitals", shared.Input{Type: "CheckBox", ValueSpace: two}, true, []string{"wiring", "solar"}},
		{"select multiple, type in capitals", shared.Input{Type: "Select-Multiple", ValueSpace: two}, true, []string{"wiring", "solar"}},
		{"select", shared.Input{Type: "select", ValueSpace: two}, false, []string{"wiring", "solar"}},
		{"radio group", shared.Input{Type: "radio", ValueSpace: two}, false, []string{"wiring", "solar"}},
		{"text", shared.Input{Type: "text", ValueSpace: []shared.ValueSpace{shared.LengthSpace{}}}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.MultiValued(); got != tc.multi {
				t.Errorf("MultiValued() = %v, want %v", got, tc.multi)
			}
			var got []string
			for _, o := range tc.in.Options() {
				got = append(got, o.Value)
			}
			if diff := cmp.Diff(tc.options, got); diff != "" {
				t.Errorf("Options() (-want +got):\n%s", diff)
			}
		})
	}
}
