package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr(n int64) *int64 { return &n }

func TestParse(t *testing.T) {
	tests := []struct {
		name, tag string
		want      Rules
		wantErr   bool
	}{
		{"empty", "", Rules{}, false},
		{"nonempty", "nonempty", Rules{NonEmpty: true}, false},
		{"nonempty code", "nonempty=effects.empty", Rules{NonEmpty: true, EmptyCode: "effects.empty"}, false},
		{"range", "min=100,max=599", Rules{Min: ptr(100), Max: ptr(599)}, false},
		{"missing", "missing=verification.missing", Rules{MissingCode: "verification.missing"}, false},
		{"bad int", "min=x", Rules{}, true},
		{"min without arg", "min", Rules{}, true},
		{"missing without code", "missing", Rules{}, true},
		{"unknown item", "required", Rules{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.tag)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Parse(%q) error = %v, wantErr %v", tt.tag, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.tag, diff)
			}
		})
	}
}
