package pagejs_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
)

// pressPage has a button in the open, one under a fixed banner, a hidden
// one, one inside an open shadow root, and one far down the page. Each
// records whether its clicks were trusted.
const pressPage = `<!doctype html><html><body>
<button id="open">Send</button>
<div style="position:relative;margin:80px 0"><button id="covered">Send</button>
  <div style="position:absolute;inset:-20px;background:#fff">Cookies?</div></div>
<button id="hidden" style="display:none">Send</button>
<send-box><template shadowrootmode="open"><button id="shadow">Send</button></template></send-box>
<div style="height:3000px"></div><button id="below">Send</button>
<script>
window.clicks = {};
const note = (e) => { const id = e.composedPath()[0].id; if (id) window.clicks[id] = e.isTrusted; };
document.addEventListener("click", note, true);
</script></body></html>`

// pressPoint says where a mouse click presses an element, and ClickAt's
// click there is trusted, as a person's is: the open button, the one in
// the shadow root and the one scrolled into view are pressed there; the
// covered and the hidden one have no such point.
func TestPressPoint(t *testing.T) {
	ctx, page := openTestPage(t, pressPage)
	point := pagejs.MustInline(`(id) => {
  //pagejs:include pierce
  //pagejs:include norm
  //pagejs:include labels
  //pagejs:include accname
  //pagejs:include locate
  //pagejs:include control
  //pagejs:include press
  const el = document.getElementById(id) || document.querySelector("send-box").shadowRoot.getElementById(id);
  return JSON.stringify(pressPoint(el));
}`)
	for _, tt := range []struct {
		id    string
		press bool
	}{{"open", true}, {"covered", false}, {"hidden", false}, {"shadow", true}, {"below", true}} {
		t.Run(tt.id, func(t *testing.T) {
			res, err := page.Context(ctx).Timeout(10*time.Second).Eval(point, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			var p *struct{ X, Y float64 }
			if err := json.Unmarshal([]byte(res.Value.Str()), &p); err != nil {
				t.Fatal(err)
			}
			if (p != nil) != tt.press {
				t.Fatalf("pressPoint(%s) = %+v, want a point: %v", tt.id, p, tt.press)
			}
			if p == nil {
				return
			}
			if err := topology.ClickAt(ctx, page, p.X, p.Y, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			got, err := page.Context(ctx).Timeout(10 * time.Second).Eval(`() => JSON.stringify(window.clicks)`)
			if err != nil {
				t.Fatal(err)
			}
			var clicks map[string]bool
			if err := json.Unmarshal([]byte(got.Value.Str()), &clicks); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(true, clicks[tt.id]); diff != "" || len(clicks) == 0 {
				t.Errorf("the click at %+v: clicks %v, want a trusted one on %s", *p, clicks, tt.id)
			}
		})
	}
}

// submitPage has forms and a group with the submit controls submitOf
// chooses among; every element it may answer carries data-k.
const submitPage = `<!doctype html><html><body>
<form id="recorded"><input name="a"><button type="submit" data-k="rec">Send</button><button data-k="rec-default">Other</button></form>
<button id="outside" data-k="outside">Send</button>
<form id="owning"><input name="b"></form><button type="submit" form="owning" id="owned" data-k="owned">Send</button>
<form id="bare"><input name="c"><button type="button">Not a submit</button></form>
<form id="stuck"><input name="d"><button type="submit" disabled id="dis" data-k="dis">Send</button></form>
<div id="group"><input name="e"><button type="button" id="gbtn" data-k="gbtn">Send</button></div>
</body></html>`

// submitOf is what submits a door, the one rule the sandbox and the
// executor follow: the recorded control the door holds or owns, else a
// form's default button, else requestSubmit for a form; a group must have
// its control.
func TestSubmitOf(t *testing.T) {
	ctx, page := openTestPage(t, submitPage)
	js := pagejs.MustInline(`(scopeSel, locJSON) => {
  //pagejs:include pierce
  //pagejs:include norm
  //pagejs:include labels
  //pagejs:include accname
  //pagejs:include locate
  //pagejs:include control
  //pagejs:include press
  const key = (e) => (e && e.getAttribute("data-k")) || "";
  const s = submitOf(document.querySelector(scopeSel), JSON.parse(locJSON));
  return JSON.stringify({ el: key(s.el), by: s.by, control: key(s.control) });
}`)
	type answer struct{ El, By, Control string }
	for _, tc := range []struct {
		name, scope, loc string
		want             answer
	}{
		{"the recorded control", "#recorded", "#recorded [type=submit]", answer{"rec", "", "rec"}},
		{"no locator: the default button", "#recorded", "", answer{"rec", "default", "rec"}},
		{"a control the form does not hold is not its: the default button", "#recorded", "#outside", answer{"rec", "default", "rec"}},
		{"a control the form owns by form=", "#owning", "#owned", answer{"owned", "", "owned"}},
		{"no submit control: requestSubmit", "#bare", "", answer{"", "none", ""}},
		{"a disabled control: requestSubmit, the control its submitter", "#stuck", "#dis", answer{"", "disabled", "dis"}},
		{"a group's control", "#group", "#gbtn", answer{"gbtn", "", "gbtn"}},
		{"a group without its control", "#group", "#outside", answer{"", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := "null"
			if tc.loc != "" {
				loc = `{"strategy":"css","value":` + mustJSON(t, tc.loc) + `}`
			}
			res, err := page.Context(ctx).Timeout(10*time.Second).Eval(js, tc.scope, loc)
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ El, By, Control string }
			if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, answer(got)); diff != "" {
				t.Errorf("submitOf (-want +got):\n%s", diff)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
