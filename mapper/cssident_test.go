package mapper

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/google/go-cmp/cmp"
)

// cssIdentCases are ids a site may give a form, with what CSS.escape
// writes for each.
var cssIdentCases = []struct{ id, want string }{
	{"contact", "contact"},
	{"wpforms-form-412", "wpforms-form-412"},
	{"2nd", `\32 nd`},              // a leading digit: a code point escape, not "\2nd"
	{"-1a", `-\31 a`},              // a digit after a leading hyphen
	{"-", `\-`},                    // a lone hyphen
	{"--x", "--x"},                 // a custom-property-like ident stays
	{"a b", `a\ b`},                // punctuation and space: a backslash
	{"x.y:z", `x\.y\:z`},           //
	{"é-form", "é-form"},           // non-ASCII as it is
	{"a\x01b", `a\1 b`},            // a control character: a code point escape
	{"a\x00b", "a\uFFFDb"},         // NUL: the replacement character
	{"10", `\31 0`},                // only the first digit is escaped
	{"_0", "_0"},                   //
	{"form#1", `form\#1`},          //
	{"🙂", "🙂"},                     //
	{"quote\"form", `quote\"form`}, //
}

func TestCSSIdent(t *testing.T) {
	for _, c := range cssIdentCases {
		t.Run(c.id, func(t *testing.T) {
			if got := cssIdent(c.id); got != c.want {
				t.Errorf("cssIdent(%q) = %q, want %q", c.id, got, c.want)
			}
		})
	}
}

// TestCSSIdentIsCSSEscape: in Chromium, cssIdent writes what CSS.escape
// does, and "form#" + cssIdent(id) finds the form with that id (a form
// with id "2nd" was unreachable through "form#\2nd").
func TestCSSIdentIsCSSEscape(t *testing.T) {
	ids := []string{}
	for _, c := range cssIdentCases {
		ids = append(ids, c.id)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><body></body>"))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := testBrowser(t).OpenPage(ctx, srv.URL+"/", topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	type reading struct {
		Escape string
		Found  bool
	}
	idsJSON, _ := json.Marshal(ids)
	sels := map[string]string{}
	for _, id := range ids {
		sels[id] = "form#" + cssIdent(id)
	}
	selsJSON, _ := json.Marshal(sels)
	res, err := p.Context(ctx).Timeout(10*time.Second).Eval(`(idsJSON, selsJSON) => {
		const ids = JSON.parse(idsJSON), sels = JSON.parse(selsJSON), out = {};
		for (const id of ids) {
			const f = document.createElement("form");
			f.id = id;
			document.body.appendChild(f);
			let found = false;
			try { found = document.querySelector(sels[id]) === f; } catch (e) {}
			out[id] = { Escape: CSS.escape(id), Found: found };
			f.remove();
		}
		return JSON.stringify(out);
	}`, string(idsJSON), string(selsJSON))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]reading
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]reading{}
	for _, id := range ids {
		want[id] = reading{Escape: cssIdent(id), Found: id != "a\x00b"} // NUL cannot be matched: the id holds U+0000, the selector U+FFFD
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cssIdent beside CSS.escape in Chromium (-want +got):\n%s", diff)
	}
}
