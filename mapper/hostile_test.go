package mapper

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract/extracttest"
)

// A hostile page never hangs a run: dialogs are accepted, an endless
// script costs one page's budget and ends in an error, not a hang; a
// page whose Array.prototype.toJSON rewrites JSON.stringify's arrays is
// read as any page.
func TestHostilePages(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		wantErr bool
	}{
		{"alert and confirm", `<script>alert("hello"); confirm("sure?");</script>` + contactForm, false},
		{"endless script after load", contactForm + `<script>setTimeout(function () { for (;;) {} }, 50);</script>`, true},
		{"Prototype.js's Array.prototype.toJSON", prototypeToJSON + contactForm, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, site{pages: map[string]string{"/": page("Hostile", tc.body)}})
			o := browserOptions(t)
			o.NoExplore = true
			o.PageTimeout = 6 * time.Second
			o.RunTimeout = 40 * time.Second
			g, err := Map(context.Background(), srv.URL+"/", o)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("Map returned a graph %+v for a page that never answers", summaryOf(g))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, g)
			if len(g.Actions) != 1 {
				t.Errorf("want the contact form mapped, got %+v", summaryOf(g))
			}
		})
	}
}

// A form of 20,000 labelled inputs whose text runs together ("F0F1F2…")
// is read, explored and mapped within its page's bound: its extraction is
// linear (label lookups, sibling counts and the volatile-id rule were
// quadratic or worse, and the run timed out).
func TestHugeForm(t *testing.T) {
	srv := serveSite(t, site{pages: map[string]string{"/": page("Huge form", extracttest.HugeForm(20000))}})
	o := browserOptions(t)
	// A slow machine parses and lays out 40,000 elements slowly: the page
	// gets a longer bound (each step a quarter of it) than a stuck one.
	o.PageTimeout = 60 * time.Second
	o.RunTimeout = 120 * time.Second
	start := time.Now()
	g, err := Map(context.Background(), srv.URL+"/", o)
	if err != nil {
		t.Fatalf("Map: %v (after %v)", err, time.Since(start))
	}
	checkGraph(t, g)
	if took := time.Since(start); took > o.RunTimeout {
		t.Errorf("took %v, past the run's bound %v", took, o.RunTimeout)
	}
	if g.Notes != nil && strings.Contains(*g.Notes, "timed-out") {
		t.Errorf("a step timed out: %s", *g.Notes)
	}
	if len(g.Actions) == 0 {
		t.Errorf("the enquiry form is not mapped: %+v", summaryOf(g))
	}
	t.Logf("20,000 inputs mapped in %v", time.Since(start).Round(time.Millisecond))
}

// prototypeToJSON is what Prototype.js 1.6 (still served by old shops)
// puts on Array.prototype: JSON.stringify then writes every array as a
// string of JSON.
const prototypeToJSON = `<script>
Array.prototype.toJSON = function () {
  var results = [];
  for (var i = 0; i < this.length; i++) results.push(JSON.stringify(this[i]));
  return "[" + results.join(", ") + "]";
};
</script>`
