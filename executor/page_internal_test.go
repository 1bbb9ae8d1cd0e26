package executor

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// TestReadFormAsTheBrowserBuildsIt: the live page's tokens are read from
// the form the browser renders — not from an inert <template> copy of it
// (a placeholder token), nor from a second declarative root on one host —
// and a form inside a declarative shadow root is read.
func TestReadFormAsTheBrowserBuildsIt(t *testing.T) {
	const form = `<form action="/send" method="post"><input name="email"><input type="hidden" name="_nonce" value="%s"></form>`
	with := func(v string) string { return strings.Replace(form, "%s", v, 1) }
	cases := []struct {
		name, page string
		want       string // the _nonce read
	}{
		{"plain", with("real"), "real"},
		{"an inert template copy first", `<template id="modal">` + with("{{nonce}}") + `</template>` + with("real"), "real"},
		{"a template holding the only form", `<template>` + with("{{nonce}}") + `</template>`, ""},
		{"a declarative open root", `<contact-form><template shadowrootmode="open">` + with("real") + `</template></contact-form>`, "real"},
		{"a declarative closed root", `<contact-form><template shadowrootmode="closed">` + with("real") + `</template></contact-form>`, "real"},
		{"a second declarative template on one host", `<contact-form><template shadowrootmode="open"><p>hi</p></template><template shadowrootmode="open">` + with("{{nonce}}") + `</template></contact-form>` + with("real"), "real"},
		// On the code before, the first two inert templates were read as
		// shadow roots (their placeholder tokens sent).
		{"a host attachShadow refuses", `<ul><li><template shadowrootmode="open">` + with("{{nonce}}") + `</template></li></ul>` + with("real"), "real"},
		{"a mode with white space", `<contact-form><template shadowrootmode=" open">` + with("{{nonce}}") + `</template></contact-form>` + with("real"), "real"},
		{"closed, then open, on one host", `<contact-form><template shadowrootmode="closed"><p>hi</p></template><template shadowrootmode="open">` + with("{{nonce}}") + `</template></contact-form>` + with("real"), "real"},
		{"a template inside a shadow root", `<contact-form><template shadowrootmode="open"><template>` + with("{{nonce}}") + `</template>` + with("real") + `</template></contact-form>`, "real"},
	}
	base, _ := url.Parse("https://site.example/contact/")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<!doctype html><body>" + c.page))
			if err != nil {
				t.Fatal(err)
			}
			got := readForm(doc, base, "https://site.example/send", []string{"email", "_nonce"})
			if diff := cmp.Diff(c.want, got.values["_nonce"]); diff != "" {
				t.Errorf("_nonce (-want +got):\n%s", diff)
			}
		})
	}
}
