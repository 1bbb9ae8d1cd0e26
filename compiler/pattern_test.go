package compiler

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestPatternAnchoredAsHTML: a site's pattern becomes the JSON Schema
// pattern ^(?:pattern)$, exactly as HTML anchors it, whatever anchors it
// holds itself: ^a|b$ is a top-level alternation that HTML matches against
// the whole value ("a" or "b"), while as a JSON Schema pattern (matched
// anywhere) it would take any value starting with a or ending with b.
func TestPatternAnchoredAsHTML(t *testing.T) {
	tests := []struct {
		pattern string
		want    string
		values  map[string]bool // value → whether HTML accepts it
	}{
		{`^a|b$`, `^(?:^a|b$)$`, map[string]bool{"a": true, "b": true, "ax": false, "xb": false, "ab": false}},
		{`a|b`, `^(?:a|b)$`, map[string]bool{"a": true, "b": true, "ab": false, "xa": false}},
		{`^abc$`, `^(?:^abc$)$`, map[string]bool{"abc": true, "abcd": false, "xabc": false}},
		{`04[0-9]{8}`, `^(?:04[0-9]{8})$`, map[string]bool{"0412345678": true, "x0412345678": false}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			in := field("form", "code", "Code", shared.SemanticUnknown, "text", false, shared.PatternSpace{Pattern: tt.pattern})
			ps, _ := inputSchema(&in, nil, agentInputs)
			if diff := cmp.Diff(tt.want, ps.Pattern); diff != "" {
				t.Fatalf("pattern (-want +got):\n%s", diff)
			}
			ps, _ = inputSchema(&in, []shared.Rule{{Kind: shared.RulePattern, Value: &tt.pattern}}, wireInputs)
			if diff := cmp.Diff(tt.want, ps.Pattern); diff != "" {
				t.Fatalf("pattern of a declared rule (-want +got):\n%s", diff)
			}
			// JSON Schema matches a pattern anywhere in the value.
			re := regexp.MustCompile(ps.Pattern)
			got := map[string]bool{}
			for v := range tt.values {
				got[v] = re.MatchString(v)
			}
			if diff := cmp.Diff(tt.values, got); diff != "" {
				t.Errorf("values the schema accepts (-HTML +schema):\n%s", diff)
			}
		})
	}
}
