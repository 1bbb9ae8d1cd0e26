package pagejs_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology/pagejs"
)

// piercePage has forms of one shape (form#f, an email input) in the
// document and inside shadow roots: open ones attached by script and
// declaratively, nested ones, and closed ones. Every element a selector
// may answer carries data-k, the name the test knows it by.
const piercePage = `<!doctype html><html><body>
<contact-form id="cf1"><input name="email" data-k="cf1-light"></contact-form>
<form id="f"><input name="email" data-k="doc-email" placeholder="your email"></form>
<contact-form id="2nd"><template shadowrootmode="open"><form id="f" data-k="cf2-form"><input name="email" data-k="cf2-email" placeholder="your email"></form></template></contact-form>
<outer-box><template shadowrootmode="open"><p>outer</p><inner-box><template shadowrootmode="open"><form id="deep" data-k="deep-form"><input name="q" data-k="deep-q"></form></template></inner-box></template></outer-box>
<sealed-form id="sealed"><template shadowrootmode="closed"><form id="f"><input name="email" data-k="closed-decl"></form></template></sealed-form>
<sealed-form id="sealed2"></sealed-form>
<script>
document.getElementById("cf1").attachShadow({ mode: "open" }).innerHTML =
  '<form id="f" data-k="cf1-form"><input name="email" data-k="cf1-email"><textarea name="msg" data-k="cf1-msg"></textarea></form>';
document.getElementById("sealed2").attachShadow({ mode: "closed" }).innerHTML =
  '<form id="f"><input name="email" data-k="closed-script"></form>';
</script>
</body></html>`

// TestQueryAllPiercing resolves selectors with pagejs's pierce helper in
// Chromium: plain selectors as querySelectorAll does, shadow-including
// ones through each open host they name (never through a closed one), in
// composed tree order.
func TestQueryAllPiercing(t *testing.T) {
	ctx, page := openTestPage(t, piercePage)
	tests := []struct {
		name string
		sel  string
		want []string // data-k of the elements, in order
		err  string   // the error's name, when the selector throws
	}{
		{name: "plain selector: the document's, as querySelectorAll", sel: `input[name=email]`, want: []string{"cf1-light", "doc-email"}},
		{name: "plain descendant selector: the document's form only", sel: `form#f input[name="email"]`, want: []string{"doc-email"}},
		{name: "host by id, then the form inside its root", sel: `#cf1 form#f input[name="email"]`, want: []string{"cf1-email"}},
		{name: "host by tag: both hosts' forms, not the document's", sel: `contact-form form#f input[name=email]`, want: []string{"cf1-email", "cf2-email"}},
		{name: "a host's shadow tree comes before its light children", sel: `#cf1 input`, want: []string{"cf1-email", "cf1-light"}},
		{name: "host id escaped as CSS.escape writes it", sel: `#\32 nd form#f input`, want: []string{"cf2-email"}},
		{name: "white space inside quotes", sel: `contact-form form#f input[placeholder="your email"]`, want: []string{"cf2-email"}},
		{name: "child combinator inside the root", sel: `#cf1 form#f > input`, want: []string{"cf1-email"}},
		{name: "a selector list inside :is()", sel: `#cf1 :is(form#f input, textarea)`, want: []string{"cf1-email", "cf1-msg"}},
		{name: "a list across trees, in composed order", sel: `#\32 nd input, form#f input, #cf1 form#f input`, want: []string{"cf1-email", "doc-email", "cf2-email"}},
		{name: "nested roots: one host per level", sel: `outer-box inner-box form#deep input[name=q]`, want: []string{"deep-q"}},
		{name: "nested roots: a host left out names nothing", sel: `outer-box form#deep input[name=q]`, want: []string{}},
		{name: "the host itself", sel: `body contact-form`, want: []string{}}, // hosts carry no data-k
		{name: "a selector matching nothing", sel: `contact-form form#gone input`, want: []string{}},
		{name: "closed shadow roots are not entered", sel: `sealed-form form#f input`, want: []string{}},
		{name: "an invalid selector throws as querySelectorAll does", sel: `contact-form form[`, err: "SyntaxError"},
	}
	js := pagejs.MustInline(`(sels) => {
  //pagejs:include pierce
  const key = (e) => e.getAttribute("data-k");
  return JSON.stringify(sels.map((s) => {
    try {
      const all = queryAllPiercing(s).map(key).filter(Boolean);
      const one = queryPiercing(s);
      return { all, one: one ? key(one) || "" : null };
    } catch (e) {
      return { err: e.name };
    }
  }));
}`)
	sels := make([]string, len(tests))
	for i, tt := range tests {
		sels[i] = tt.sel
	}
	res, err := page.Context(ctx).Timeout(10*time.Second).Eval(js, sels)
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		All []string `json:"all"`
		One *string  `json:"one"`
		Err string   `json:"err"`
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := got[i]
			if g.Err != tt.err {
				t.Fatalf("queryAllPiercing(%q) error %q, want %q", tt.sel, g.Err, tt.err)
			}
			if tt.err != "" {
				return
			}
			if diff := cmp.Diff(tt.want, g.All); diff != "" {
				t.Errorf("queryAllPiercing(%q) (-want +got):\n%s", tt.sel, diff)
			}
			switch {
			case len(tt.want) == 0 && g.One != nil && tt.name != "the host itself":
				t.Errorf("queryPiercing(%q) = %q, want null", tt.sel, *g.One)
			case len(tt.want) > 0 && (g.One == nil || *g.One != tt.want[0]):
				t.Errorf("queryPiercing(%q) = %v, want %q", tt.sel, g.One, tt.want[0])
			}
		})
	}
}

// TestOpenTrees: the open shadow roots of the page, of an element, and
// what queryAllIn finds in them (every form of the page, in composed
// order, the closed roots' left out); containsPiercing counts a shadow
// tree as within its host.
func TestOpenTrees(t *testing.T) {
	ctx, page := openTestPage(t, piercePage)
	js := pagejs.MustInline(`() => {
  //pagejs:include pierce
  const key = (e) => e.getAttribute("data-k") || e.id || e.tagName.toLowerCase();
  const name = (t) => t === document ? "document" : t.nodeType === 11 ? "root of " + t.host.tagName.toLowerCase() + (t.host.id ? "#" + t.host.id : "") : key(t);
  const email = queryPiercing("#cf1 form#f input");
  return JSON.stringify({
    trees: openTrees().map(name),
    capped: [openTrees(document, 2).map(name), openTrees(document, 0).map(name)],
    before: [composedBefore(document.getElementById("cf1"), email), composedBefore(email, document.getElementById("cf1")),
      composedBefore(email, email), composedBefore(email, document.querySelector("outer-box"))],
    outerTrees: openTrees(document.querySelector("outer-box")).map(name),
    forms: queryAllIn(openTrees(), "form").map(key),
    inputs: queryAllIn(openTrees(document.querySelector("outer-box")), "input").map(key),
    contains: [
      containsPiercing(document.getElementById("cf1"), email),
      containsPiercing(document.body, email),
      containsPiercing(email, email),
      containsPiercing(document.getElementById("f"), email),
      containsPiercing(email, document.getElementById("cf1")),
    ],
  });
}`)
	res, err := page.Context(ctx).Timeout(10 * time.Second).Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Trees, OuterTrees, Forms, Inputs []string
		Capped                           [][]string
		Contains, Before                 []bool
	}
	var got answer
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	want := answer{
		Trees:      []string{"document", "root of contact-form#cf1", "root of contact-form#2nd", "root of outer-box", "root of inner-box"},
		Capped:     [][]string{{"document", "root of contact-form#cf1", "root of contact-form#2nd"}, {"document"}},
		Before:     []bool{true, false, false, true},
		OuterTrees: []string{"outer-box", "root of outer-box", "root of inner-box"},
		Forms:      []string{"cf1-form", "f", "cf2-form", "deep-form"},
		Inputs:     []string{"deep-q"},
		Contains:   []bool{true, true, true, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestQueryAllPiercingCost: on a page without shadow roots a selector
// without a top-level descendant combinator costs one querySelectorAll
// and no walk of the page; a mapper locator of three parts, three
// queries.
func TestQueryAllPiercingCost(t *testing.T) {
	ctx, page := openTestPage(t, `<!doctype html><html><body><div><form id="f"><input name="email"><input name="phone"></form></div>
<script>
window.calls = { qsa: 0, walk: 0 };
for (const P of [Document.prototype, Element.prototype, DocumentFragment.prototype]) {
  const qsa = P.querySelectorAll;
  P.querySelectorAll = function (s) { if (s === "*") window.calls.walk++; else window.calls.qsa++; return qsa.call(this, s); };
  if (P.getElementsByTagName) {
    const g = P.getElementsByTagName;
    P.getElementsByTagName = function (s) { window.calls.walk++; return g.call(this, s); };
  }
}
</script></body></html>`)
	js := pagejs.MustInline(`(sel) => {
  //pagejs:include pierce
  window.calls.qsa = 0; window.calls.walk = 0;
  const n = queryAllPiercing(sel).length;
  return JSON.stringify({ found: n, qsa: window.calls.qsa, walk: window.calls.walk });
}`)
	type cost struct{ Found, Qsa, Walk int }
	for _, tt := range []struct {
		sel  string
		want cost
	}{
		{`input[name=email]`, cost{Found: 1, Qsa: 1}},
		{`form#f > input`, cost{Found: 2, Qsa: 1}},
		{`div form#f input[name="email"]`, cost{Found: 1, Qsa: 3}},
	} {
		t.Run(tt.sel, func(t *testing.T) {
			res, err := page.Context(ctx).Timeout(10*time.Second).Eval(js, tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			var got cost
			if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
