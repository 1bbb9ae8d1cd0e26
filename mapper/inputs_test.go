package mapper

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// choices is what an input says about the values it takes.
type choices struct {
	Type    string
	Multi   bool
	Options []string
	Default string
}

func choicesOf(inputs []shared.Input) map[string]choices {
	out := map[string]choices{}
	for i := range inputs {
		x := &inputs[i]
		var opts []string
		for _, o := range x.Options() {
			opts = append(opts, o.Value)
		}
		out[x.Name] = choices{x.Type, x.MultiValued(), opts, deref(x.DefaultValue)}
	}
	return out
}

// A group of same-name checkboxes is one input whose options are the boxes'
// values; a lone checkbox has none (decision 0006).
func TestCheckboxGroupOptions(t *testing.T) {
	body := `<h2>Request a callback</h2><form action="/callback" method="post">
<label>Your name <input name="full_name" required></label>
<label>Phone <input type="tel" name="phone" required></label>
<fieldset><legend>Services</legend>
<label><input type="checkbox" name="services[]" value="wiring"> Wiring</label>
<label><input type="checkbox" name="services[]" value="lighting" checked> Lighting</label>
<label><input type="checkbox" name="services[]" value="solar"> Solar</label></fieldset>
<fieldset><legend>Same value twice</legend>
<label><input type="checkbox" name="twice" value="yes"> Yes</label>
<label><input type="checkbox" name="twice" value="yes"> Also yes</label></fieldset>
<label>Rooms <select name="rooms" multiple><option value="">Choose</option><option value="kitchen" selected>Kitchen</option><option value="lounge">Lounge</option></select></label>
<label><input type="checkbox" name="privacy" value="agreed" required> I agree to the privacy policy</label>
<button type="submit">Request a callback</button></form>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Callback", body)}}, nil)
	a := findAction(t, g, shared.KindCallback)
	got := choicesOf(a.Inputs)
	want := map[string]choices{
		"services[]": {"checkbox", true, []string{"wiring", "lighting", "solar"}, "lighting"},
		"twice":      {"checkbox", false, nil, ""},
		"rooms":      {"select-multiple", true, []string{"kitchen", "lounge"}, "kitchen"},
		"privacy":    {"checkbox", false, nil, ""},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, got[name]); diff != "" {
			t.Errorf("input %q (-want +got):\n%s", name, diff)
		}
	}
}

// A WebMCP parameter that is an array of enumerated strings is a
// multi-select of those values; its default is the first listed.
func TestToolArrayParameter(t *testing.T) {
	schema := `{"type":"object","properties":{
"name":{"type":"string","title":"Your name"},
"services":{"type":"array","title":"Services","items":{"type":"string","enum":["wiring","solar"]},"default":["solar"]},
"tags":{"type":"array","title":"Tags","items":{"type":"string"}},
"window":{"type":"string","title":"Call window","enum":["am","pm"]}},"required":["name"]}`
	tl := webmcpTool{Where: "document", tool: tool{Name: "request_callback", Description: "Request a callback", InputSchema: json.RawMessage(schema)}}
	g, err := build(testOptions().withDefaults(), visitOf(t, "<h1>Acme</h1>", tl))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Actions) != 1 {
		t.Fatalf("actions %+v", summaryOf(g))
	}
	got := choicesOf(g.Actions[0].Inputs)
	want := map[string]choices{
		"name":     {"text", false, nil, ""},
		"services": {"select-multiple", true, []string{"wiring", "solar"}, "solar"},
		"tags":     {"text", false, nil, ""},
		"window":   {"select", false, []string{"am", "pm"}, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// A single select's default is what a browser sends untouched: the last
// option marked selected, else the first option that is not disabled; an
// empty placeholder is no default. In the static reading and in Chromium.
func TestSelectDefault(t *testing.T) {
	body := `<h2>Request a callback</h2><form action="/callback" method="post">
<label>Your name <input name="full_name" required></label>
<label>Phone <input type="tel" name="phone" required></label>
<label>Window <select name="window"><option value="morning">Morning</option><option value="evening">Evening</option></select></label>
<label>Trade <select name="trade"><option disabled>Choose a trade</option><option value="electrician">Electrician</option></select></label>
<label>Group <select name="group"><optgroup label="Old" disabled><option value="x">X</option></optgroup><option value="y">Y</option></select></label>
<label>Suburb <select name="suburb"><option value="">Choose</option><option value="avondale">Avondale</option></select></label>
<label>Size <select name="size"><option value="s">S</option><option value="m" selected>M</option></select></label>
<button type="submit">Request a callback</button></form>`
	want := map[string]string{"window": "morning", "trade": "electrician", "group": "y", "suburb": "", "size": "m"}
	check := func(t *testing.T, g *shared.ActionGraph) {
		t.Helper()
		got := choicesOf(findAction(t, g, shared.KindCallback).Inputs)
		for name, w := range want {
			if got[name].Default != w {
				t.Errorf("select %q: default %q, want %q", name, got[name].Default, w)
			}
		}
	}
	t.Run("static", func(t *testing.T) {
		g, err := MapHTML("https://acme.example/", []byte(page("Callback", body)), testOptions())
		if err != nil {
			t.Fatal(err)
		}
		check(t, g)
	})
	t.Run("chromium", func(t *testing.T) {
		srv := serveSite(t, site{pages: map[string]string{"/": page("Callback", body)}})
		check(t, mapTest(t, srv.URL+"/", func(o *Options) { o.NoExplore = true }))
	})
}
