package topology

import (
	"testing"
	"time"
)

// A page whose Array.prototype.toJSON makes JSON.stringify write arrays
// as strings of JSON (Prototype.js 1.6) is settled and extracted as any
// other: the in-page scripts' answers do not go through the page's toJSON.
func TestPageToJSON(t *testing.T) {
	g := runGraph(t, ModeScan, "/tojson.html", func(o *settings) { o.LoadTimeout = 3 * time.Second })
	if len(g.States) != 1 {
		t.Fatalf("%d states, want 1; failures %+v", len(g.States), g.FailedObservations)
	}
	element(t, g, g.States[0].StateID, "Send")
	for _, r := range []FailReason{FailLoadTimeout, FailTimedOut} {
		if fs := failures(g, r); len(fs) > 0 {
			t.Errorf("%s: %+v", r, fs)
		}
	}
}
