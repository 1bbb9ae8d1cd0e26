package mapper

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// TestCrawlCost: each state the crawl reads costs one in-page read (the
// extraction, the forms' listeners and the WebMCP tools together, counted
// on the browser's CDP connection), the entry page's state is captured for
// its exploration in that same read, and an inner page is asked for once,
// by the browser — no plain-HTTP pre-flight — whose answer still says when
// a page is not one to map (here a 404, noted like a failed pre-flight).
func TestCrawlCost(t *testing.T) {
	var mu sync.Mutex
	asked := map[string][]string{} // path → who asked: "browser" or "plain"
	pages := map[string]string{
		"/": page("Harbour Dental", `<header><nav><a href="/contact/">Contact us</a> <a href="/book/">Book online</a></nav>
<button type="button" aria-haspopup="dialog" onclick="document.getElementById('m').hidden=false">Book now</button></header>
<div id="m" role="dialog" aria-label="Callback" hidden><form action="/callback" method="post"><label>Name <input name="name" required></label><label>Phone <input type="tel" name="phone" required></label><button>Call me back</button></form></div>`),
		"/contact/": page("Contact", `<form action="/send" method="post"><label>Name <input name="name" required></label><label>Email <input type="email" name="email" required></label><label>Message <textarea name="message"></textarea></label><button>Send</button></form>`),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := "plain"
		if r.Header.Get("Sec-Fetch-Mode") != "" {
			who = "browser"
		}
		mu.Lock()
		asked[r.URL.Path] = append(asked[r.URL.Path], who)
		mu.Unlock()
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	b, calls := topologytest.CountingBrowser(t)
	o := browserOptions(t)
	o.Browser = topology.Attach(b)
	var opened []string
	o.OnPage = func(u string) { opened = append(opened, strings.TrimPrefix(u, srv.URL)) }
	g := mapWith(t, o, srv.URL+"/", nil)

	mu.Lock()
	defer mu.Unlock()
	for _, tc := range []struct{ path, want string }{
		{"/", "plain browser"}, // the entry page's pre-flight, then its load
		{"/contact/", "browser"},
		{"/book/", "browser"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if got := strings.Join(asked[tc.path], " "); got != tc.want {
				t.Errorf("%s asked by %q, want %q", tc.path, got, tc.want)
			}
		})
	}
	notes := ""
	if g.Notes != nil {
		notes = *g.Notes
	}
	if !strings.Contains(notes, "/book/ was not mapped") || !strings.Contains(notes, "404") {
		t.Errorf("notes %q do not say /book/ answered 404", notes)
	}
	if len(g.Actions) < 2 {
		t.Errorf("%d actions, want the callback (revealed) and the contact form", len(g.Actions))
	}
	// States read: the two pages and the dialog the entry page's button
	// opens. Each is one read, which carries the WebMCP tools' reader.
	if n, want := calls.Evaluates("__frontlatchWebMCP()"), 3; n != want {
		t.Errorf("the mapper read states %d times, want %d (one per state)", n, want)
	}
	// The engine's own extraction: the entry state (in the mapper's read)
	// and the revealed one (in the click's capture) — not again.
	if n := calls.Evaluates(`"maxNodes"`); n != 2 {
		t.Errorf("engine extractions = %d, want 2 (entry, revealed)", n)

	}
	if len(opened) != 3 {
		t.Errorf("pages opened %v, want /, /contact/ and /book/ (the 404 too: the browser asked)", opened)
	}
}
