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
