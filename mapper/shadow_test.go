package mapper

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// shadowBody holds web components whose forms and controls live in
// declarative open shadow roots: a form in a custom element, formless
// controls at the top of a shadow root (its host names the endpoint),
// and a form two shadow roots down.
const shadowBody = `<h1>Harbour Plumbing</h1>
<contact-form>
  <template shadowrootmode="open">
    <h2>Send us an enquiry</h2>
    <form id="enquiry" action="/enquire" method="post">
      <label for="who">Your name</label><input id="who" name="name" autocomplete="name" required>
      <label for="em">Email</label><input id="em" name="email" type="email" required>
      <label for="msg">Your message</label><textarea id="msg" name="message" required></textarea>
      <button type="submit">Send enquiry</button>
    </form>
  </template>
</contact-form>
<callback-widget data-endpoint="/api/callback">
  <template shadowrootmode="open">
    <h3>Request a callback</h3>
    <label>Your name <input name="cb-name" autocomplete="name"></label>
    <label>Your phone <input name="cb-phone" type="tel" autocomplete="tel"></label>
    <button type="button">Call me back</button>
  </template>
</callback-widget>
<outer-card>
  <template shadowrootmode="open">
    <section>
      <inner-quote>
        <template shadowrootmode="open">
          <h3>Get a free quote</h3>
          <form name="quote" action="/quote" method="post">
            <label for="qn">Your name</label><input id="qn" name="q-name" autocomplete="name" required>
            <label for="qe">Email</label><input id="qe" name="q-email" type="email" required>
            <label for="qd">Describe the job</label><textarea id="qd" name="details"></textarea>
            <button type="submit">Get my quote</button>
          </form>
        </template>
      </inner-quote>
    </section>
  </template>
</outer-card>`

// shadowScriptBody builds the same kind of component by script (open and
// closed shadow roots): only a browser sees the open one; nobody reads the
// closed one.
const shadowScriptBody = `<h1>Smile Dental</h1><booking-form id="bf"></booking-form><secret-form></secret-form>
<script>
customElements.define("booking-form", class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML = '<h2>Book an appointment</h2><form id="book" action="/book" method="post">' +
      '<label for="who">Patient name</label><input id="who" name="patient-name" autocomplete="name" required>' +
      '<label for="ph">Phone</label><input id="ph" name="phone" type="tel" autocomplete="tel" required>' +
      '<label for="d">Preferred date</label><input id="d" name="date" type="date">' +
      '<button type="submit">Book now</button></form>';
  }
});
customElements.define("secret-form", class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "closed" }).innerHTML = '<h2>Request a quote</h2><form id="secret" action="/quote" method="post">' +
      '<label>Email <input name="secret-email" type="email" required></label><button>Get a quote</button></form>';
  }
});
</script>`

// doorView is what the graph says about reaching and sending one door.
type doorView struct {
	Locator, Stability string
	Transport          shared.Transport
	Endpoint, Submit   string
	Inputs             map[string]string // name → locator (stability)
}

func doorViews(t *testing.T, g *shared.ActionGraph) map[string]doorView {
	t.Helper()
	out := map[string]doorView{}
	for _, a := range g.Actions {
		for _, d := range a.Access {
			if d.Method != shared.AccessHTMLForm || d.Locator == nil || d.Submission == nil {
				continue
			}
			v := doorView{Locator: d.Locator.Value, Stability: string(d.Locator.Stability), Transport: d.Submission.Transport, Inputs: map[string]string{}}
			if e := d.Submission.Endpoint; e != nil {
				if u, err := url.Parse(*e); err == nil {
					v.Endpoint = u.Path
				}
			}
			if s := d.Submission.SubmitControl; s != nil {
				v.Submit = s.Value + " (" + string(s.Stability) + ")"
			}
			for _, in := range a.Inputs {
				if in.Locator != nil {
					v.Inputs[in.Name] = in.Locator.Value + " (" + string(in.Locator.Stability) + ")"
				}
			}
			out[string(a.Kind)+" "+d.Locator.Value] = v
		}
	}
	return out
}

// The doors of forms and controls inside open shadow roots: a form there
// submits as any form does (its method, its action); formless controls
// are sent by script (here to the endpoint their host names). Every
// locator of an element inside a shadow root is shadow-including — the
// host's selector, then the element's within its shadow root — with
// stability unknown, as no plain document.querySelector reaches it. Static and browser extraction read
// declarative shadow DOM alike.
func TestShadowDOMDoors(t *testing.T) {
	declarative := map[string]doorView{
		"enquiry contact-form form#enquiry": {
			Locator: "contact-form form#enquiry", Stability: "unknown", Transport: shared.TransportFormPost, Endpoint: "/enquire",
			Submit: "contact-form form#enquiry button[type=submit] (unknown)",
			Inputs: map[string]string{
				"name":    "contact-form form#enquiry input[name=name] (unknown)",
				"email":   "contact-form form#enquiry input[name=email] (unknown)",
				"message": "contact-form form#enquiry textarea[name=message] (unknown)",
			},
		},
		"callback callback-widget": {
			// the group's container is the host, in the document
			Locator: "callback-widget", Stability: "stable", Transport: shared.TransportJSONEndpoint, Endpoint: "/api/callback",
			Submit: "callback-widget button:nth-of-type(1) (unknown)",
			Inputs: map[string]string{
				"cb-name":  "callback-widget input[name=cb-name] (unknown)",
				"cb-phone": "callback-widget input[name=cb-phone] (unknown)",
			},
		},
		`quote outer-card inner-quote form[name="quote"]`: {
			Locator: `outer-card inner-quote form[name="quote"]`, Stability: "unknown", Transport: shared.TransportFormPost, Endpoint: "/quote",
			Submit: `outer-card inner-quote form[name="quote"] button[type=submit] (unknown)`,
			Inputs: map[string]string{
				"q-name":  `outer-card inner-quote form[name="quote"] input[name=q-name] (unknown)`,
				"q-email": `outer-card inner-quote form[name="quote"] input[name=q-email] (unknown)`,
				"details": `outer-card inner-quote form[name="quote"] textarea[name=details] (unknown)`,
			},
		},
	}
	scripted := map[string]doorView{
		"booking #bf form#book": {
			Locator: "#bf form#book", Stability: "unknown", Transport: shared.TransportFormPost, Endpoint: "/book",
			Submit: "#bf form#book button[type=submit] (unknown)",
			Inputs: map[string]string{
				"patient-name": "#bf form#book input[name=patient-name] (unknown)",
				"phone":        "#bf form#book input[name=phone] (unknown)",
				"date":         "#bf form#book input[name=date] (unknown)",
			},
		},
	}
	cases := []struct {
		name, body string
		browser    bool
		want       map[string]doorView
	}{
		{"static/declarative", shadowBody, false, declarative},
		{"browser/declarative", shadowBody, true, declarative},
		{"static/script-built", shadowScriptBody, false, map[string]doorView{}},
		{"browser/script-built", shadowScriptBody, true, scripted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, site{pages: map[string]string{"/": page("Components", tc.body)}})
			var g *shared.ActionGraph
			if tc.browser {
				g = mapWith(t, browserOptions(t), srv.URL+"/", func(o *Options) { o.NoExplore = true })
			} else {
				g = mapStatic(t, srv.URL+"/", func(o *Options) { o.NoExplore = true })
			}
			if diff := cmp.Diff(tc.want, doorViews(t, g)); diff != "" {
				t.Errorf("doors (-want +got):\n%s\nactions: %v", diff, summaryOf(g))
			}
		})
	}
}

// A select's default is what the browser sends untouched: of a single
// choice list whose markup marks two options selected, the last (the
// parser keeps only the last); of a multiple one, the first pre-selected
// — defaultValue is one string (decision 0006), so the others are not
// recorded.
func TestSelectDefaults(t *testing.T) {
	body := `<h2>Request a callback</h2><form action="/callback" method="post">
<label>Your name <input name="full_name" required></label>
<label>Phone <input type="tel" name="phone" required></label>
<label>Branch <select name="branch"><option value="north" selected>North</option><option value="south" selected>South</option></select></label>
<label>Rooms <select name="rooms" multiple><option value="kitchen">Kitchen</option><option value="lounge" selected>Lounge</option><option value="bath" selected>Bath</option></select></label>
<button type="submit">Request a callback</button></form>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Callback", body)}}, nil)
	got := choicesOf(findAction(t, g, shared.KindCallback).Inputs)
	want := map[string]choices{
		"branch": {"select", false, []string{"north", "south"}, "south"},
		"rooms":  {"select-multiple", true, []string{"kitchen", "lounge", "bath"}, "lounge"},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, got[name]); diff != "" {
			t.Errorf("input %q (-want +got):\n%s", name, diff)
		}
	}
}
