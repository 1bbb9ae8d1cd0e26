package mapper

import (
	"context"
	"testing"
	"time"
)

// A hostile page never hangs a run: dialogs are accepted, an endless
// script costs one page's budget and ends in an error, not a hang.
func TestHostilePages(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		wantErr bool
	}{
		{"alert and confirm", `<script>alert("hello"); confirm("sure?");</script>` + contactForm, false},
		{"endless script after load", contactForm + `<script>setTimeout(function () { for (;;) {} }, 50);</script>`, true},
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
