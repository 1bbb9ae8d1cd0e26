package executor

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestReasonStorable: whatever bytes a reason's texts hold, what the audit
// store is given holds no NUL, is valid UTF-8 and is bounded.
func TestReasonStorable(t *testing.T) {
	tests := []struct {
		name string
		in   Reason
		want Reason
	}{
		{"plain", Reason{Code: "input.unknown", Field: "colour", Rule: "unknown", Detail: "no input"},
			Reason{Code: "input.unknown", Field: "colour", Rule: "unknown", Detail: "no input"}},
		{"NUL", Reason{Code: "c", Field: "a\x00b", Detail: "page said \x00"},
			Reason{Code: "c", Field: `a\x00b`, Detail: `page said \x00`}},
		{"invalid UTF-8", Reason{Code: "c", Field: "\xff", Detail: "x\xc3(y"},
			Reason{Code: "c", Field: `\xff`, Detail: `x\xc3(y`}},
		{"valid UTF-8 kept", Reason{Code: "c", Detail: "café ☕"}, Reason{Code: "c", Detail: "café ☕"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.in.storable()); diff != "" {
				t.Errorf("storable (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("bounded", func(t *testing.T) {
		r := Reason{Code: "c", Field: strings.Repeat("\x00", 1<<20), Detail: strings.Repeat("é", 1<<20)}.storable()
		s := r.String()
		if len(s) > 64<<10 || strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			t.Errorf("the reason is %d bytes, NUL %v, UTF-8 %v: want at most 64 KiB of UTF-8 without NUL", len(s), strings.ContainsRune(s, 0), utf8.ValidString(s))
		}
	})
}
