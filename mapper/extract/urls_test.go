package extract_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Links are resolved as the browser resolves them (the WHATWG URL
// standard): FromHTML's hrefs are Chromium's, for backslashes, upper-case
// hosts, default ports, international hosts, white space inside, and
// http(s) URLs written without slashes. "ORIGIN" is the page's own.
func TestURLsResolveAsTheBrowser(t *testing.T) {
	want := map[string]string{
		"Backslashes":                   "ORIGIN/contact/",
		"Backslash before a query":      `ORIGIN/quote/form?x=a\b`,
		"Upper-case host, default port": "https://book.example/now",
		"Default http port":             "http://example.com/",
		"Other port":                    "https://example.com:8443/x",
		"International host":            "https://xn--caf-dma.example/menu",
		"Newline inside":                "ORIGIN/callback",
		"Space in the query":            "ORIGIN/search?q=a%20b",
		"Scheme, no slashes":            "ORIGIN/book",
		"Other scheme, no slashes":      "https://example.com/rel",
		"Phone":                         "tel:+1 555 0100",
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "hrefs.html")
			u, err := url.Parse(p.URL)
			if err != nil {
				t.Fatal(err)
			}
			origin := u.Scheme + "://" + u.Host
			got := map[string]string{}
			for _, l := range p.Links {
				got[l.Text] = strings.Replace(l.Href, origin, "ORIGIN", 1)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hrefs (-want +got):\n%s", diff)
			}
		})
	}
}
