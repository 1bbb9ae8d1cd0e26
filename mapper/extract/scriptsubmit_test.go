package extract_test

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// A form is sent by script when code stops the browser's submission and
// does not submit the form itself afterwards.
func TestScriptSubmitOf(t *testing.T) {
	cases := []struct {
		name      string
		onsubmit  string
		listeners []string
		clicks    []string
		want      string
	}{
		{"nothing", "", nil, nil, ""},
		{"fetch listener", "", []string{`function (e) { e.preventDefault(); fetch("/api", {method: "POST"}); }`}, nil, "a submit listener stops the browser's submission and sends the form with fetch()"},
		{"XHR listener", "", []string{`e => { e.preventDefault(); const x = new XMLHttpRequest(); x.open("POST", "/a"); x.send(); }`}, nil, "a submit listener stops the browser's submission and sends the form with XMLHttpRequest"},
		{"jQuery", "", []string{`function(e){ e.preventDefault(); $.ajax({url: "/a", data: $(this).serialize()}); }`}, nil, "a submit listener stops the browser's submission and sends the form with jQuery ajax"},
		{"validation that submits after", "", []string{`function (e) { e.preventDefault(); if (ok()) this.submit(); }`}, nil, ""},
		{"requestSubmit after", "", []string{`function (e) { e.preventDefault(); form.requestSubmit(); }`}, nil, ""},
		{"a listener that only tracks", "", []string{`function () { analytics.track("submit"); }`}, nil, ""},
		{"onsubmit return false", "send(this); return false;", nil, nil, "the onsubmit attribute stops the browser's submission (the code that sends the form is not in it)"},
		{"onsubmit that validates", "return validate(this)", nil, nil, ""},
		{"a submit button's click listener", "", nil, []string{`function (e) { e.preventDefault(); fetch("/api/callbacks", {method: "POST", body: new FormData(this.form)}); }`},
			"a submit button's click listener stops the browser's submission and sends the form with fetch()"},
		{"a click listener that only tracks", "", nil, []string{`() => gtag("event", "submit")`}, ""},
		{"a click listener that validates, then submits", "", nil, []string{`function (e) { e.preventDefault(); if (ok()) this.form.submit(); }`}, ""},
		{"the submit listener before the click listener", "", []string{`e => { e.preventDefault(); $.post("/a"); }`}, []string{`e => { e.preventDefault(); fetch("/b"); }`},
			"a submit listener stops the browser's submission and sends the form with jQuery ajax"},
		{"attribute first, listener second", "return false", []string{`e => { e.preventDefault(); fetch("/a"); }`}, nil, "the onsubmit attribute stops the browser's submission (the code that sends the form is not in it)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := extract.ScriptSubmitOf(extract.Handlers{OnSubmit: tc.onsubmit, Submit: tc.listeners, Click: tc.clicks}); got != tc.want {
				t.Errorf("ScriptSubmitOf = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("a page listener naming the form, after the form's own", func(t *testing.T) {
		h := extract.Handlers{Delegated: []string{`e => { if (e.target.id !== "quote") return; e.preventDefault(); fetch("/q"); }`}}
		if got, want := extract.ScriptSubmitOf(h), "a listener of the page that names the form or its button stops the browser's submission and sends the form with fetch()"; got != want {
			t.Errorf("ScriptSubmitOf = %q, want %q", got, want)
		}
		h.Submit = []string{`e => { e.preventDefault(); $.post("/a"); }`}
		if got, want := extract.ScriptSubmitOf(h), "a submit listener stops the browser's submission and sends the form with jQuery ajax"; got != want {
			t.Errorf("with the form's own listener: ScriptSubmitOf = %q, want %q", got, want)
		}
	})
}

// Static markup shows only the onsubmit attribute; a browser also shows
// the submit listeners the page's scripts added and the click listeners of
// the forms' submit buttons (DOMDebugger).
func TestScriptSubmit(t *testing.T) {
	want := map[string]map[string]bool{ // extractor → form id → sent by script
		"static":  {"by-fetch": false, "validated": false, "by-attribute": true, "plain": false, "by-click": false, "tracked-click": false},
		"browser": {"by-fetch": true, "validated": false, "by-attribute": true, "plain": false, "by-click": true, "tracked-click": false},
	}
	for _, mode := range []string{"static", "browser"} {
		t.Run(mode, func(t *testing.T) {
			var p *extract.Page
			if mode == "static" {
				p = statically(t, "script-submit.html")
			} else {
				p = inBrowser(t, "script-submit.html")
			}
			got := map[string]bool{}
			for _, f := range p.Forms {
				got[f.ID] = f.ScriptSubmit != ""
				if f.ID == "by-fetch" && mode == "browser" && f.ScriptSubmit != "a submit listener stops the browser's submission and sends the form with fetch()" {
					t.Errorf("by-fetch: %q does not name the fetch listener", f.ScriptSubmit)
				}
			}
			for id, w := range want[mode] {
				if got[id] != w {
					t.Errorf("form %s sent by script = %v, want %v", id, got[id], w)
				}
			}
		})
	}
}

// debianJQuery is Debian's jQuery (package libjs-jquery, which make
// chromium installs with Chromium), served to pages at /jquery.min.js.
const debianJQuery = "/usr/share/javascript/jquery/jquery.min.js"

// TestScriptSubmitJQuery: jQuery keeps a page's handlers in its own
// registry, behind a dispatcher whose source says nothing, so a form sent
// by $.ajax from a handler bound with .on() or delegated from the document
// read as a plain post. The handlers are read where jQuery keeps them, a
// delegated one only for the forms its selector matches (as jQuery
// dispatches it).
func TestScriptSubmitJQuery(t *testing.T) {
	if _, err := os.Stat(debianJQuery); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v (CI=true: make chromium installs libjs-jquery, so this is a failure)", err)
		}
		t.Skipf("skipping: Debian's jQuery is not installed: %v", err)
	}
	p := inBrowser(t, "jquery-submit.html")
	want := map[string]string{
		"jq-bound":     "a submit listener stops the browser's submission and sends the form with jQuery ajax",
		"jq-delegated": "a submit listener stops the browser's submission and sends the form with jQuery ajax",
		"jq-unmatched": "",
		"jq-click":     "a submit button's click listener stops the browser's submission and sends the form with fetch()",
		"jq-validated": "",
		"jq-self":      "",
	}
	wantScriptSubmits(t, p, want)
}

// TestScriptSubmitDelegated: a page often sends its forms from one submit
// listener of the document (or the body, or the window), which picks the
// form by a class, its id or its name; the listener is a form's when a
// string in its code names the form, and only then. A listener that names
// every form ("form") but stops none sends none; one for every "button"
// is no form's, a click listener naming a submit button by its id is.
func TestScriptSubmitDelegated(t *testing.T) {
	p := inBrowser(t, "delegated-submit.html")
	want := map[string]string{
		"quote":      "a listener of the page that names the form or its button stops the browser's submission and sends the form with fetch()",
		"by-id":      "a listener of the page that names the form or its button stops the browser's submission and sends the form with XMLHttpRequest",
		"named":      "a listener of the page that names the form or its button stops the browser's submission and sends the form with sendBeacon()",
		"plain":      "",
		"click-sent": "a listener of the page that names the form or its button stops the browser's submission and sends the form with fetch()",
	}
	wantScriptSubmits(t, p, want)
}

// wantScriptSubmits compares the ScriptSubmit of p's forms, by id, with want.
func wantScriptSubmits(t *testing.T, p *extract.Page, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, f := range p.Forms {
		got[f.ID] = f.ScriptSubmit
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forms' ScriptSubmit (-want +got):\n%s", diff)
	}
}
