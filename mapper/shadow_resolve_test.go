package mapper

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
)

// resolved is what a locator names on the live page: the elements
// topology/pagejs's queryAllPiercing (what the verifier's sandbox and the
// executor resolve css locators with) finds, and how many the page's own
// document.querySelectorAll finds.
type resolved struct {
	Elements []string // tag (and name, but a form's) of each element found
	Document int
}

// TestShadowLocatorsResolve maps pages of web components with the
// browser and resolves every locator of every form door on the live page
// as Frontlatch's consumers do: each names exactly the element the mapper
// read — the form (or the host of a formless group), the control of the
// input's name, the submit button — and a shadow-including one names
// nothing for document.querySelectorAll. The document's own form of the
// component form's id and field name (a newsletter box, no customer
// action) is not taken for it.
func TestShadowLocatorsResolve(t *testing.T) {
	newsletter := `<form id="enquiry" action="/newsletter" method="post"><label>Newsletter email <input name="email" type="email"></label><button>Subscribe</button></form>`
	js := pagejs.MustInline(`(sels) => {
  //pagejs:include pierce
  const out = {};
  for (const s of sels) {
    let els = [], doc = -1;
    try { els = queryAllPiercing(s); doc = document.querySelectorAll(s).length; } catch (e) { els = []; }
    out[s] = { Elements: els.map((e) => e.tagName.toLowerCase() + (e.tagName !== "FORM" && e.getAttribute("name") ? "[" + e.getAttribute("name") + "]" : "")), Document: doc };
  }
  return JSON.stringify(out);
}`)
	for _, tc := range []struct{ name, body string }{
		{"declarative", newsletter + shadowBody},
		{"script-built", newsletter + shadowScriptBody},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, site{pages: map[string]string{"/": page("Components", tc.body)}})
			g := mapWith(t, browserOptions(t), srv.URL+"/", func(o *Options) { o.NoExplore = true })
			want := map[string]resolved{}
			var sels []string
			add := func(sel, element string, shadow bool) {
				doc := 1
				if shadow {
					doc = 0
				}
				want[sel] = resolved{Elements: []string{element}, Document: doc}
				sels = append(sels, sel)
			}
			doors := 0
			for _, a := range g.Actions {
				for _, d := range a.Access {
					if d.Method != shared.AccessHTMLForm || d.Locator == nil {
						continue
					}
					doors++
					shadow := d.Locator.Stability == shared.StabilityUnknown
					door := "form"
					if d.Locator.Value == "callback-widget" { // a formless group: its container is the host, in the document
						door, shadow = "callback-widget", false
					}
					add(d.Locator.Value, door, shadow)
					if s := d.Submission.SubmitControl; s != nil {
						add(s.Value, "button", s.Stability == shared.StabilityUnknown)
					}
					for _, in := range a.Inputs {
						if in.Locator != nil {
							tag := "input"
							if in.Type == "textarea" {
								tag = "textarea"
							}
							add(in.Locator.Value, tag+"["+in.Name+"]", in.Locator.Stability == shared.StabilityUnknown)
						}
					}
				}
			}
			if doors == 0 {
				t.Fatalf("no form door mapped: %v", summaryOf(g))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p, err := testBrowser(t).OpenPage(ctx, srv.URL+"/", topology.PageOptions{Offline: true})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			res, err := p.Context(ctx).Timeout(10*time.Second).Eval(js, sels)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]resolved
			if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("locators resolved on the page (-want +got):\n%s", diff)
			}
		})
	}
}
