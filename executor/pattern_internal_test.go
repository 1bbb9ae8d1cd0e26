package executor

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// TestPatternAsHTMLReadsIt: a declared pattern is checked as a browser
// reads it (shared.HTMLPattern), as the compiler's schemas state it: one no
// browser checks refuses nothing, one Go's regexp cannot run is left to the
// site, and the rest refuse what does not match the whole value.
func TestPatternAsHTMLReadsIt(t *testing.T) {
	tests := []struct {
		pattern, value string
		refused        bool
		checked        bool
	}{
		{`0[2-9]\d{8}`, "0292471234", false, true},
		{`0[2-9]\d{8}`, "12345", true, true},
		{`0[2-9]\d{8}`, "x0292471234", true, true},
		{`a)|(b`, "a", false, true}, // ^(?:a)|(b)$, as HTML compiles it
		{`[\&\-]+`, "&-&", false, true},
		{`[a-z-]+`, "ABC", false, true},                                   // invalid with the v flag: no browser checks it
		{`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+`, "not an email", false, true}, // the same
		{`[\p{L}--[a-z]]+`, "abc", false, false},                          // the v flag's class subtraction
		{`(?=.*\d).{8,}`, "short", false, false},                          // a lookahead Go cannot run
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.value, func(t *testing.T) {
			in := &shared.Input{Name: "f", Type: "text"}
			rule := shared.Rule{Kind: shared.RulePattern, Value: &tt.pattern}
			msg, checked := check(in, rule, tt.value)
			if (msg != "") != tt.refused || checked != tt.checked {
				t.Errorf("check(%q) = %q, checked %v; want refused %v, checked %v", tt.value, msg, checked, tt.refused, tt.checked)
			}
		})
	}
}
