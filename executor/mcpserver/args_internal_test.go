package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/executor"
)

// TestArgumentReasonsBounded: arguments that break the schema in more
// places than executor.MaxInputKeys (a list of hundreds of wrong items)
// get that many reasons and one saying how many more, not one each; over
// executor.MaxInputKeys keys, one reason. Before, every failed leaf was a
// reason, returned and audited: a body of a million keys made a refusal
// of a million reasons.
func TestArgumentReasonsBounded(t *testing.T) {
	schema, err := compileSchema("t", json.RawMessage(`{"type": "object", "properties": {"days": {"type": "array", "items": {"type": "string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := &toolDef{name: "t", schema: schema}
	items, _ := json.Marshal(make([]int, 3*executor.MaxInputKeys))
	keys := map[string]int{}
	for i := range executor.MaxInputKeys + 1 {
		keys["k"+strings.Repeat("x", i)] = i
	}
	manyKeys, _ := json.Marshal(keys)
	for _, tc := range []struct {
		name     string
		args     string
		want     int
		lastRule string
		last     string
	}{
		{"a list of wrong items", `{"days": ` + string(items) + `}`, executor.MaxInputKeys + 1, "", "and 512 more reasons"},
		{"too many keys", string(manyKeys), 1, "size", "the arguments have 257 keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, reasons := d.checkArguments(json.RawMessage(tc.args))
			if len(reasons) != tc.want {
				t.Fatalf("%d reasons, want %d", len(reasons), tc.want)
			}
			last := reasons[len(reasons)-1]
			if last.Rule != tc.lastRule || !strings.HasPrefix(last.Detail, tc.last) {
				t.Errorf("the last reason is %+v, want rule %q and a detail beginning %q", last, tc.lastRule, tc.last)
			}
		})
	}
}
