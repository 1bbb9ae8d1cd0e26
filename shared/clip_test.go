package shared

import "testing"

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"ascii", "abcdef", 3, "abc…"},
		{"inside a rune", "aé b", 2, "a…"}, // é is two bytes: the cut moves back
		{"on a rune boundary", "aé b", 3, "aé…"},
		{"four-byte rune", "😀x", 2, "…"},
		{"zero", "abc", 0, "…"},
		{"negative", "abc", -1, "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Clip(tc.in, tc.n); got != tc.want {
				t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}
