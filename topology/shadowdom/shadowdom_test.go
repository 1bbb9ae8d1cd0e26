package shadowdom_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/shadowdom"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// hostCases are hosts (data-h) with templates of every kind the rule
// decides; TestRootsAgreeWithChromium parses them with Chromium's parser
// and with Roots.
var hostCases = []struct{ name, html string }{
	{"open", `<div data-h><template shadowrootmode="open"><p>x</p></template></div>`},
	{"closed, a custom element", `<my-box data-h><template shadowrootmode="closed"><p>x</p></template></my-box>`},
	{"upper case", `<section data-h><template shadowrootmode="OPEN"></template></section>`},
	{"white space around the mode", `<div data-h><template shadowrootmode=" open"></template></div>`},
	{"an unknown mode", `<div data-h><template shadowrootmode="opened"></template></div>`},
	{"closed with U+017F, which folds to s outside ASCII", `<div data-h><template shadowrootmode="cloſed"></template></div>`},
	{"no mode", `<div data-h><template><p>x</p></template></div>`},
	{"the first drafts' attribute", `<div data-h><template shadowroot="open"></template></div>`},
	{"a host attachShadow refuses", `<ul><li data-h><template shadowrootmode="open"></template></li></ul>`},
	{"a button", `<button data-h><template shadowrootmode="open"></template></button>`},
	{"a reserved custom name", `<font-face data-h><template shadowrootmode="open"></template></font-face>`},
	{"a short custom name", `<a-b data-h><template shadowrootmode="open"></template></a-b>`},
	{"the second of a host", `<span data-h><template shadowrootmode="open"><i>1</i></template><template shadowrootmode="open"><i>2</i></template></span>`},
	{"closed, then open", `<p data-h><template shadowrootmode="closed"></template><template shadowrootmode="open"></template></p>`},
	{"an inert one first", `<article data-h><template></template><template shadowrootmode="open"></template></article>`},
	{"body", `<main data-h><template shadowrootmode="open"></template></main>`},
}

type answer struct {
	Mode      string `json:"mode"`      // "open", "closed" or "" (no root)
	Templates int    `json:"templates"` // the template children left in the light tree
}

// TestRootsAgreeWithChromium: for every host, Roots decides what Chromium's
// parser does — which template becomes the shadow root, with which mode,
// and which stay inert templates.
func TestRootsAgreeWithChromium(t *testing.T) {
	topologytest.NeedChromium(t)
	var body strings.Builder
	for _, c := range hostCases {
		body.WriteString(c.html + "\n")
	}
	page := "<!doctype html><html><body>" + body.String() + "</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	t.Cleanup(func() { br.Close() })
	p, err := br.OpenPage(ctx, srv.URL, topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	// A closed root is out of a script's reach, but its template is gone
	// from the light tree: the mode is told by what is left.
	res, err := p.Context(ctx).Timeout(10 * time.Second).Eval(`() => JSON.stringify(Array.from(document.querySelectorAll("[data-h]")).map((h) => {
		const left = Array.from(h.children).filter((c) => c.tagName === "TEMPLATE").length;
		return { mode: h.shadowRoot ? h.shadowRoot.mode : "", templates: left };
	}))`)
	if err != nil {
		t.Fatal(err)
	}
	var browser []answer
	if err := json.Unmarshal([]byte(res.Value.Str()), &browser); err != nil {
		t.Fatal(err)
	}

	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var roots shadowdom.Roots
	var ours []answer
	index := map[*html.Node]int{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && hasAttr(c, "data-h") {
				index[c] = len(ours)
				ours = append(ours, answer{})
			}
			if i, ok := index[c.Parent]; ok && c.Type == html.ElementNode && c.Data == "template" {
				if mode, attached := roots.Attach(c); attached {
					ours[i].Mode = string(mode)
				} else {
					ours[i].Templates++
				}
			}
			walk(c)
		}
	}
	walk(doc)
	if len(browser) != len(hostCases) || len(ours) != len(hostCases) {
		t.Fatalf("%d hosts in Chromium, %d parsed, want %d", len(browser), len(ours), len(hostCases))
	}
	for i, c := range hostCases {
		t.Run(c.name, func(t *testing.T) {
			want := browser[i]
			if want.Mode == "" && want.Templates < templates(c.html) {
				want.Mode = "closed" // attached, out of reach
			}
			if diff := cmp.Diff(want, ours[i]); diff != "" {
				t.Errorf("%s: Chromium (-) and Roots (+) differ:\n%s", c.html, diff)
			}
		})
	}
}

func templates(s string) int { return strings.Count(s, "<template") }

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
