package extract_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/google/go-cmp/cmp"
)

// One browser and one loopback server for the whole package: Chromium is
// the expensive part, and the machine is shared.
var (
	browserOnce sync.Once
	browser     *topology.Browser
	browserErr  error
	server      *httptest.Server
)

func TestMain(m *testing.M) {
	server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/jquery.min.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			http.ServeFile(w, r, debianJQuery)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeFile(w, r, filepath.Join("testdata", filepath.Base(r.URL.Path)))
	}))
	code := m.Run()
	if browser != nil {
		browser.Close()
	}
	server.Close()
	os.Exit(code)
}

// sharedBrowser is the one Chromium of the package's tests, launched by
// the first test that needs it (skipped without Chromium, failed under CI).
func sharedBrowser(t *testing.T) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	browserOnce.Do(func() {
		browser, browserErr = topology.NewBrowser(context.Background(), topology.BrowserOptions{Offline: true})
	})
	if browserErr != nil {
		t.Fatalf("launch chromium: %v", browserErr)
	}
	return browser
}

// inBrowser loads testdata/name in Chromium and extracts it.
func inBrowser(t *testing.T, name string) *extract.Page {
	t.Helper()
	browser := sharedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	page, err := browser.OpenPage(ctx, server.URL+"/"+name, topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
	p, err := extract.FromPage(ctx, page)
	if err != nil {
		t.Fatalf("extract %s: %v", name, err)
	}
	return p
}

// statically parses testdata/name.
func statically(t *testing.T, name string) *extract.Page {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract.FromHTML("http://127.0.0.1/"+name, raw)
	if err != nil {
		t.Fatalf("FromHTML %s: %v", name, err)
	}
	return p
}

type extractor struct {
	name string
	load func(*testing.T, string) *extract.Page
}

var extractors = []extractor{{"static", statically}, {"browser", inBrowser}}

func field(t *testing.T, f extract.Form, name string) extract.Field {
	t.Helper()
	for _, fl := range f.Fields {
		if fl.Name == name {
			return fl
		}
	}
	t.Fatalf("form %q has no field %q", f.Locator, name)
	return extract.Field{}
}

func formByID(t *testing.T, p *extract.Page, id string) extract.Form {
	t.Helper()
	for _, f := range p.Forms {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no form #%s", id)
	return extract.Form{}
}

// labelView is what label computation decides for one control.
type labelView struct {
	Label  string
	Source extract.LabelSource
	Hint   string
}

func TestLabels(t *testing.T) {
	want := map[string]labelView{
		"n1":      {"Full name", extract.LabelFor, ""},
		"n2":      {"Email address", extract.LabelWrapping, ""},
		"n3":      {"Phone (mobile)", extract.LabelAriaLabelledBy, "We only call about your booking"},
		"n4":      {"Company", extract.LabelAriaLabel, ""},
		"n5":      {"Postcode", extract.LabelTitle, ""},
		"n6":      {"City", extract.LabelPlaceholder, ""},
		"n7":      {"Street:", extract.LabelNearby, ""},
		"slot":    {"Preferred time", extract.LabelAriaLabelledBy, ""},
		"service": {"Service", extract.LabelFor, ""},
		"de1":     {"Nachname", extract.LabelWrapping, ""},
		"ja1":     {"メールアドレス", extract.LabelWrapping, ""},
		"es1":     {"Mensaje", extract.LabelWrapping, ""},
		"party":   {"Number of guests", extract.LabelAriaLabel, ""},
		"news":    {"Send me special offers", extract.LabelNearby, ""},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "labels.html")
			if len(p.Forms) != 1 {
				t.Fatalf("forms = %d, want 1", len(p.Forms))
			}
			f := p.Forms[0]
			for name, w := range want {
				t.Run(name, func(t *testing.T) {
					fl := field(t, f, name)
					got := labelView{fl.Label, fl.LabelSource, fl.Hint}
					if diff := cmp.Diff(w, got); diff != "" {
						t.Errorf("label of %s (-want +got):\n%s", name, diff)
					}
				})
			}
		})
	}
}

func TestFieldAttributes(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := ex.load(t, "labels.html").Forms[0]
			if f.Method != "post" || f.Enctype != "multipart/form-data" || !strings.HasSuffix(f.Action, "/book") || f.Locator != "form#labels" {
				t.Errorf("form method/enctype/action/locator = %q %q %q %q", f.Method, f.Enctype, f.Action, f.Locator)
			}
			if len(f.Submits) != 1 || f.Submits[0].Text != "Book now" {
				t.Errorf("submits = %+v, want one \"Book now\"", f.Submits)
			}
			slot := field(t, f, "slot")
			wantOpts := []extract.Option{{Value: "am", Text: "Morning"}, {Value: "pm", Text: "Afternoon", Selected: true}}
			if diff := cmp.Diff(wantOpts, slot.Options); diff != "" || slot.Type != "radio" || !slot.Checked {
				t.Errorf("radio group: type %q checked %v options (-want +got):\n%s", slot.Type, slot.Checked, diff)
			}
			svc := field(t, f, "service")
			if !svc.Required || svc.Value != "clean" || len(svc.Options) != 3 || svc.Type != "select-one" {
				t.Errorf("select: required %v value %q options %d type %q", svc.Required, svc.Value, len(svc.Options), svc.Type)
			}
			if diff := cmp.Diff([]string{"section-a", "shipping", "postal-code"}, field(t, f, "ship").AutocompleteTokens); diff != "" {
				t.Errorf("autocomplete tokens (-want +got):\n%s", diff)
			}
			cv := field(t, f, "cv")
			if cv.Accept != ".pdf,.doc" || !cv.Multiple || cv.Type != "file" {
				t.Errorf("file: accept %q multiple %v type %q", cv.Accept, cv.Multiple, cv.Type)
			}
			party := field(t, f, "party")
			if party.Min != "1" || party.Max != "12" || party.Step != "1" {
				t.Errorf("number: min %q max %q step %q", party.Min, party.Max, party.Step)
			}
			code := field(t, f, "code")
			if code.Pattern != "[A-Z]{3}" || code.MinLength != "3" || code.MaxLength != "3" {
				t.Errorf("text: pattern %q minlength %q maxlength %q", code.Pattern, code.MinLength, code.MaxLength)
			}
			if got := field(t, f, "n1").Locator; got != `form#labels [name="n1"]` {
				t.Errorf("field locator = %q", got)
			}
		})
	}
}

// hidden describes a control's computed visibility.
type hidden struct {
	Hidden   bool
	HiddenBy string
}

func TestVisibility(t *testing.T) {
	cases := []struct {
		form, field string
		static      hidden // inline styles and the page's own simple rules
		browser     hidden // computed styles
	}{
		{"inline", "website", hidden{true, extract.HiddenByWrapper}, hidden{true, extract.HiddenByWrapper}},
		{"inline", "email", hidden{}, hidden{}},
		{"sheet", "your-name", hidden{true, extract.HiddenByWrapper}, hidden{true, extract.HiddenByWrapper}},
		{"margin", "tx_field[uid99]", hidden{true, extract.HiddenBySelf}, hidden{true, extract.HiddenBySelf}},
		{"nl", "nl_check", hidden{true, extract.HiddenBySelf}, hidden{true, extract.HiddenBySelf}},
		{"nl", "nl_name", hidden{}, hidden{}}, // hidden on narrow screens only
		{"offscreen", "email_confirm", hidden{true, extract.HiddenByWrapper}, hidden{true, extract.HiddenByWrapper}},
		{"formspree", "_gotcha", hidden{true, extract.HiddenBySelf}, hidden{true, extract.HiddenBySelf}},
		{"legit", "nonce", hidden{true, extract.HiddenBySelf}, hidden{true, extract.HiddenBySelf}},
		{"tabindex", "company2", hidden{}, hidden{}},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "honeypots.html")
			for _, c := range cases {
				t.Run(c.form+"/"+c.field, func(t *testing.T) {
					fl := field(t, formByID(t, p, c.form), c.field)
					want := c.static
					if ex.name == "browser" {
						want = c.browser
					}
					got := hidden{fl.Visibility.Hidden, fl.Visibility.HiddenBy}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("visibility (-want +got):\n%s\nreasons: %v", diff, fl.Visibility.Reasons)
					}
				})
			}
		})
	}
}

func TestFormlessGroups(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "formless.html")
			if len(p.Forms) != 1 {
				t.Errorf("forms = %d, want 1 (the search form)", len(p.Forms))
			}
			type group struct {
				Fields  []string
				Submits []string
			}
			var got []group
			for _, g := range p.Groups {
				if g.Index != -1 || !g.Formless {
					t.Errorf("group index %d formless %v, want -1 true", g.Index, g.Formless)
				}
				var gr group
				for _, f := range g.Fields {
					gr.Fields = append(gr.Fields, f.Name)
				}
				for _, s := range g.Submits {
					gr.Submits = append(gr.Submits, s.Text)
				}
				got = append(got, gr)
			}
			want := []group{{[]string{"name", "phone"}, []string{"Call me back"}}, {[]string{"nl-email"}, []string{"Subscribe"}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("formless groups (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPageFacts(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "contact.html")
			if p.Title != "Contact us" || p.Lang != "en" {
				t.Errorf("title %q lang %q", p.Title, p.Lang)
			}
			var tel, mail bool
			for _, l := range p.Links {
				tel = tel || l.Href == "tel:+61290000000"
				mail = mail || l.Href == "mailto:hi@example.com"
			}
			if !tel || !mail {
				t.Errorf("tel link %v, mailto link %v, want both", tel, mail)
			}
			if len(p.JSONLD) != 1 || !strings.Contains(p.JSONLD[0], `"Dentist"`) {
				t.Errorf("jsonld = %q", p.JSONLD)
			}
			var calendly bool
			for _, s := range p.Scripts {
				calendly = calendly || s.Src == "https://assets.calendly.com/assets/external/widget.js"
			}
			if !calendly {
				t.Errorf("calendly script not found in %+v", p.Scripts)
			}
			if len(p.Frames) != 1 || !strings.Contains(p.Frames[0].Src, "acuityscheduling.com") {
				t.Errorf("frames = %+v", p.Frames)
			}
			var ard bool
			for _, l := range p.LinkRels {
				ard = ard || l.Rel == "ard" && strings.HasSuffix(l.Href, "/.well-known/ard.json")
			}
			if !ard {
				t.Errorf("link rel=ard not found in %+v", p.LinkRels)
			}
			var cal, recaptcha bool
			for _, e := range p.Embeds {
				cal = cal || e.Data["url"] == "https://calendly.com/smile"
				recaptcha = recaptcha || e.Data["sitekey"] == "abc"
			}
			if !cal || !recaptcha {
				t.Errorf("embeds: calendly %v recaptcha %v in %+v", cal, recaptcha, p.Embeds)
			}
			cf7 := p.Forms[1]
			if len(cf7.Wrappers) == 0 || cf7.Wrappers[0].Data["wpcf7-id"] != "42" {
				t.Errorf("cf7 wrapper = %+v", cf7.Wrappers)
			}
			if len(cf7.Widgets) != 1 || cf7.Widgets[0].Class != "g-recaptcha" {
				t.Errorf("cf7 widgets = %+v", cf7.Widgets)
			}
			if cf7.Heading != "Book an appointment" {
				t.Errorf("cf7 heading = %q", cf7.Heading)
			}
		})
	}
}

func TestFromHTMLDropsWhatBrowsersDrop(t *testing.T) {
	markup := `<form id=a><input name=x><form id=b><input name=y></form></form><noscript><form id=c></form></noscript><form id=d></form>`
	p, err := extract.FromHTML("http://127.0.0.1/", []byte(markup))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range p.Forms {
		ids = append(ids, f.ID)
	}
	if diff := cmp.Diff([]string{"a", "d"}, ids); diff != "" {
		t.Errorf("forms (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	if _, err := extract.FromPage(context.Background(), nil); err != extract.ErrNilPage {
		t.Errorf("FromPage(nil) = %v, want ErrNilPage", err)
	}
	_, err := extract.FromHTML("://bad", []byte("<p>"))
	var e *extract.Error
	if !asError(err, &e) || e.Op != "parse" {
		t.Errorf("FromHTML(bad url) = %v, want *extract.Error op parse", err)
	}
}

// TestLabelsOfRepeatedForm: the same form twice on a page with the same
// ids (a header modal and the footer). The browser binds every label[for]
// to the first copy; each copy's fields must still be named by its own label,
// once.
func TestLabelsOfRepeatedForm(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "repeated-form.html")
			if len(p.Forms) != 2 {
				t.Fatalf("forms = %d, want 2", len(p.Forms))
			}
			for _, f := range p.Forms {
				got := map[string]string{}
				for _, fl := range f.Fields {
					got[fl.Name] = fl.Label
				}
				want := map[string]string{"patient-name": "Your name", "phone": "Phone"}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("labels of form #%s (-want +got):\n%s", f.ID, diff)
				}
			}
		})
	}
}

// TestLinkContext: the words around a tel: or mailto: link are the
// sentence of its nearest block, plus the heading above it when the block
// holds nothing but links; other links carry neither.
func TestLinkContext(t *testing.T) {
	type around struct{ Context, Heading string }
	cases := []struct {
		name, text string
		want       around
		static     *around // when FromHTML reads it differently
	}{
		// Without layout, FromHTML puts a space after every text node so
		// words in separate tags do not run together; a period right
		// after the link is then one word apart.
		{"in a p, its own sentence", "(02) 9247 1234", around{"Book online above or call (02) 9247 1234.", ""},
			&around{"Book online above or call (02) 9247 1234 .", ""}},
		{"alone in an li under a heading", "(03) 9000 1111", around{"(03) 9000 1111", "Bookings"}, nil},
		{"links-only block, first link", "Phone", around{"Phone | hi@example.com", "Reach us"}, nil},
		{"links-only block, mailto", "hi@example.com", around{"Phone | hi@example.com", "Reach us"}, nil},
		{"directly in a div", "1800 000 000", around{"Emergencies after hours: 1800 000 000", ""}, nil},
		{"inline wrappers climb to the p; dots of the address do not cut", "quotes@example.com", around{"Quotes by email: quotes@example.com", ""}, nil},
		{"alone in a td", "(03) 9000 3333", around{"(03) 9000 3333", "Reach us"}, nil},
		{"not a tel: or mailto: link", "About us", around{}, nil},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "link-context.html")
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					var got *around
					for _, l := range p.Links {
						if l.Text == tc.text {
							got = &around{l.Context, l.Heading}
						}
					}
					if got == nil {
						t.Fatalf("no link %q in %+v", tc.text, p.Links)
					}
					want := tc.want
					if ex.name == "static" && tc.static != nil {
						want = *tc.static
					}
					if diff := cmp.Diff(want, *got); diff != "" {
						t.Errorf("words around %q (-want +got):\n%s", tc.text, diff)
					}
				})
			}
		})
	}
}

// TestRequiredAttr: Required merges required and aria-required="true";
// RequiredAttr says which one made the field required, required winning.
func TestRequiredAttr(t *testing.T) {
	type req struct {
		Required bool
		Attr     string
	}
	want := map[string]req{
		"plain":     {false, ""},
		"html":      {true, extract.RequiredAttribute},
		"aria":      {true, extract.AriaRequired},
		"both":      {true, extract.RequiredAttribute},
		"ariafalse": {false, ""},
		"sel":       {true, extract.AriaRequired},
		"msg":       {true, extract.RequiredAttribute},
		"slot":      {true, extract.RequiredAttribute}, // a later radio button is required
		"size":      {true, extract.AriaRequired},      // the first radio button says aria-required
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "required.html"), "req")
			got := map[string]req{}
			for _, fl := range f.Fields {
				got[fl.Name] = req{fl.Required, fl.RequiredAttr}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("required (-want +got):\n%s", diff)
			}
		})
	}
}

// A form opened in a table keeps no children in the tree, yet the parser
// gives it the rows' controls up to </form> (form.elements); so does a form
// its wrapper's end tag closed early. Static extraction sees what the
// browser sees, and leaves controls after </form> to formless groups.
func TestParserOwnedControls(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "parserowned.html")
			got := map[string][]string{}
			for _, f := range p.Forms {
				for _, fl := range f.Fields {
					got[f.ID] = append(got[f.ID], fl.Name)
				}
				for _, s := range f.Submits {
					got[f.ID+" submits"] = append(got[f.ID+" submits"], s.Value)
				}
			}
			for _, g := range p.Groups {
				for _, fl := range g.Fields {
					got["groups"] = append(got["groups"], fl.Name)
				}
			}
			want := map[string][]string{"contact": {"name", "email", "msg"}, "contact submits": {"Send"}, "early": {"q", "later"}, "groups": {"alone"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fields by form (-want +got):\n%s", diff)
			}
			if l := field(t, formByID(t, p, "contact"), "name").Label; l != "Name" {
				t.Errorf("label of name = %q, want Name", l)
			}
		})
	}
}

// Labelled controls outside any form are returned even when no button-like
// element sits near them (a script sends them from its own control);
// unlabelled strays are not.
func TestFormlessGroupsWithoutButton(t *testing.T) {
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "formless-nobutton.html")
			var got [][]string
			for _, g := range p.Groups {
				var names []string
				for _, f := range g.Fields {
					names = append(names, f.Name)
				}
				got = append(got, names)
			}
			if diff := cmp.Diff([][]string{{"cbname", "cbphone"}}, got); diff != "" {
				t.Errorf("formless groups (-want +got):\n%s", diff)
			}
		})
	}
}

// formlessView is what a page's formless groups hold: per group its
// container, field names with their labels, and how many send controls.
type formlessView struct {
	Locator string
	Fields  []string
	Submits int
}

func formlessOf(p *extract.Page) []formlessView {
	var out []formlessView
	for _, g := range p.Groups {
		v := formlessView{Locator: g.Locator, Submits: len(g.Submits)}
		for _, f := range g.Fields {
			v.Fields = append(v.Fields, f.Name+": "+f.Label)
		}
		out = append(out, v)
	}
	return out
}

// Script-built widgets outside any form, in several languages: each is a
// group of its own — a stray box beside them does not fuse them into one
// group at their common ancestor — and controls a widget draws over (a
// custom checkbox, radio or switch, a file input behind its label, a
// select a script replaces) are returned with their labels; a control
// whose form= names no form is formless. Unlabelled strays and controls
// hidden with their labels are not returned.
func TestFormlessWidgets(t *testing.T) {
	want := []formlessView{
		{"#kontakt", []string{"email: E-Mail-Adresse", "anliegen: Ihr Anliegen", "nachricht: Ihre Nachricht",
			"datenschutz: Ich habe die Datenschutzerklärung gelesen und stimme ihr zu."}, 1},
		{"#devis", []string{"nom: Nom et prénom", "plan: Joindre un plan (PDF)", "creneau: Créneau préféré"}, 1},
		{"#boletin", []string{"correo: Correo electrónico"}, 0},
		{"#newsletter-it", []string{"iscrizione: Ricevi la nostra newsletter settimanale"}, 0},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			if diff := cmp.Diff(want, formlessOf(ex.load(t, "formless-widgets.html"))); diff != "" {
				t.Errorf("formless groups (-want +got):\n%s", diff)
			}
		})
	}
}

// The same in the browser for widgets a script builds after load, hidden
// by the stylesheet (which static extraction cannot read: the markup has
// only the empty root).
func TestFormlessWidgetsBuiltByScript(t *testing.T) {
	want := []formlessView{
		{"#terugbellen", []string{"naam: Uw naam", "telefoon: Telefoonnummer", "akkoord: Ik ga akkoord met de privacyverklaring"}, 1},
		{"#yoyaku", []string{"onamae: お名前", "zumen: 図面を添付"}, 1},
	}
	if diff := cmp.Diff(want, formlessOf(inBrowser(t, "formless-built.html"))); diff != "" {
		t.Errorf("formless groups (-want +got):\n%s", diff)
	}
	if got := formlessOf(statically(t, "formless-built.html")); len(got) != 0 {
		t.Errorf("static groups of a page whose markup has no control: %v", got)
	}
}

// A hidden input named like a checkbox is the value an unticked box sends
// (Rails, Yii, CakePHP): it is folded into the checkbox's field, not read
// as a field of its own, and the checkbox's locator still finds the box.
func TestUncheckedValue(t *testing.T) {
	type view struct {
		Type, UncheckedValue, Locator string
	}
	want := map[string]view{
		"user[email]":      {"email", "", `form#signup [name="user[email]"]`},
		"user[newsletter]": {"checkbox", "0", "form#signup input#nl"},
		"terms":            {"checkbox", "", "form#signup input#terms"},
		"topics[]":         {"checkbox", "", ""},
		"token":            {"hidden", "", `form#signup [name="token"]`},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "uncheckedvalue.html"), "signup")
			got := map[string]view{}
			for _, fl := range f.Fields {
				if _, dup := got[fl.Name]; dup {
					t.Errorf("field %q read twice", fl.Name)
				}
				v := view{fl.Type, fl.UncheckedValue, fl.Locator}
				if fl.Name == "topics[]" {
					v.Locator = "" // a positional path
					if len(fl.Options) != 2 {
						t.Errorf("topics[]: %d options, want 2", len(fl.Options))
					}
				}
				got[fl.Name] = v
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

// A checkbox alone in its container (a label around the box, a table
// cell) is read with the text after that container; a container shared
// with another control gives its text to neither.
func TestTextAfterACheckboxContainer(t *testing.T) {
	want := map[string]string{
		"member": "I hereby agree to become a member of the society.",
		"news":   "Send me the newsletter",
		"a":      "",
		"b":      "B's text",
		"c":      "",
		"d":      "",
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "followingtext.html"), "f")
			got := map[string]string{}
			for _, fl := range f.Fields {
				got[fl.Name] = fl.Label
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}
