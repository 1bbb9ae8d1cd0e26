package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/topology"
)

// Only failures that mean something went wrong are worth a note: a control
// the exploration would not click, or its budget reached, is it working.
func TestFailedObservations(t *testing.T) {
	cases := []struct {
		name    string
		reasons map[string]int
		want    []string
	}{
		{"routine only", map[string]int{"ambiguous": 12, "hidden": 4, "budget-exhausted": 1}, nil},
		{"a timeout among routine ones", map[string]int{"ambiguous": 2, "timed-out": 1}, []string{"1 observations failed (timed-out)"}},
		{"sorted by reason", map[string]int{"page-closed": 1, "dialog": 2}, []string{"2 observations failed (dialog)", "1 observations failed (page-closed)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := &topology.Graph{Summary: topology.Summary{FailedObservationsByReason: tc.reasons}}
			var got []string
			for _, err := range failedObservations(g) {
				got = append(got, err.Error())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
}
