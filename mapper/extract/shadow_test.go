package extract_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// formView is what extraction says about one form or group of a page read
// through shadow roots.
type formView struct {
	Locator, ShadowHost, Heading string
	Formless                     bool
	Fields                       []string // name: label (source) @ locator
	Submits                      []string // text @ locator
}

func formViews(p *extract.Page) []formView {
	var out []formView
	for _, f := range append(append([]extract.Form{}, p.Forms...), p.Groups...) {
		v := formView{Locator: f.Locator, ShadowHost: f.ShadowHost, Heading: f.Heading, Formless: f.Formless}
		for _, fl := range f.Fields {
			v.Fields = append(v.Fields, fl.Name+": "+fl.Label+" ("+string(fl.LabelSource)+") @ "+fl.Locator)
		}
		for _, s := range f.Submits {
			v.Submits = append(v.Submits, s.Text+" @ "+s.Locator)
		}
		out = append(out, v)
	}
	return out
}

// TestDeclarativeShadowDOM: open declarative shadow roots are read as the
// browser attaches them, by both extractors alike — a custom element's
// form, formless controls at the top of a shadow root (grouped under
// their host), a form two roots down; label[for] and aria-labelledby
// resolve within their own tree (the document's label for="who" names the
// document's control only, and the shadow root's its own); the heading
// before a shadow form is read in its root. An ordinary template and a
// closed root give nothing.
func TestDeclarativeShadowDOM(t *testing.T) {
	want := []formView{
		{Locator: "form#light", Heading: "Harbour Plumbing",
			Fields:  []string{`q: Search the site (label-for) @ form#light [name="q"]`},
			Submits: []string{"Search @ #light > button:nth-of-type(1)"}},
		{Locator: "contact-form form#enquiry", ShadowHost: "contact-form", Heading: "Write to us",
			Fields: []string{
				`name: Your name (label-for) @ contact-form form#enquiry [name="name"]`,
				`email: Email (label-for) @ contact-form form#enquiry [name="email"]`,
				`message: Message (aria-labelledby) @ contact-form form#enquiry [name="message"]`,
			},
			Submits: []string{"Send enquiry @ contact-form #enquiry > button:nth-of-type(1)"}},
		{Locator: `outer-card inner-form form[name="quote"]`, ShadowHost: "outer-card inner-form", Heading: "Get a quote",
			Fields:  []string{`details: Job details (label-for) @ outer-card inner-form form[name="quote"] [name="details"]`},
			Submits: []string{"Get a quote @ outer-card inner-form form:nth-of-type(1) > button:nth-of-type(1)"}},
		{Locator: "callback-widget", Formless: true,
			Fields:  []string{`phone: Your phone (label-wrapping) @ callback-widget [name="phone"]`},
			Submits: []string{"Call me back @ callback-widget button:nth-of-type(1)"}},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "shadow-declarative.html")
			if diff := cmp.Diff(want, formViews(p)); diff != "" {
				t.Errorf("forms and groups (-want +got):\n%s", diff)
			}
			if len(p.Links) != 1 || p.Links[0].Href != "tel:+61390000000" {
				t.Errorf("links = %+v", p.Links)
			}
		})
	}
}

// TestScriptShadowDOM: shadow roots a script attaches exist only in a
// browser. The open one is read (its form where its host stands, its
// labels in its own tree); a control in a nested component inside that
// form is not the form's (the browser does not send it): it is a formless
// group of its own. A form-associated custom element is the form's
// control itself (the input of its shadow root is not read on its own).
// A closed root is beyond a page script; the retired
// shadowroot attribute is no longer attached by Chromium (an inert
// template).
func TestScriptShadowDOM(t *testing.T) {
	want := []formView{
		{Locator: "form#light", Heading: "Smile Dental",
			Fields:  []string{`q: Search (label-for) @ form#light [name="q"]`, `email:  () @ form#light [name="email"]`},
			Submits: []string{"Search @ #light > button:nth-of-type(1)"}},
		{Locator: "#bf form#book", ShadowHost: "#bf", Heading: "Book an appointment",
			Fields: []string{
				`patient-name: Patient name (label-for) @ #bf form#book [name="patient-name"]`,
				`phone: Phone (label-for) @ #bf form#book [name="phone"]`,
			},
			Submits: []string{"Book now @ #bf #book > button:nth-of-type(1)"}},
		{Locator: "#bf nested-slot", ShadowHost: "#bf", Formless: true,
			Fields: []string{`when: Preferred time (label-for) @ #bf nested-slot [name="when"]`}},
		{Locator: "phone-widget div:nth-of-type(1)", ShadowHost: "phone-widget", Formless: true,
			Fields:  []string{`cb-phone: Your number (label-for) @ phone-widget div:nth-of-type(1) [name="cb-phone"]`},
			Submits: []string{"Call me back @ phone-widget div:nth-of-type(1) > button:nth-of-type(1)"}},
	}
	p := inBrowser(t, "shadow-script.html")
	got := formViews(p)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("forms and groups (-want +got):\n%s", diff)
	}
}

// TestShadowRootBound: a page of more open shadow roots than the extractor
// reads (MAX_SHADOW_ROOTS, 500) is read up to the bound, in composed
// order, and says it was cut.
func TestShadowRootBound(t *testing.T) {
	p := inBrowser(t, "shadow-many.html")
	if !slices.Contains(p.Truncated, "shadowRoots") {
		t.Errorf("truncated = %v, want shadowRoots listed", p.Truncated)
	}
	var names []string
	for _, g := range p.Groups {
		for _, f := range g.Fields {
			names = append(names, f.Name)
		}
	}
	if len(names) != 500 || names[0] != "code0" || names[499] != "code499" {
		t.Errorf("%d fields read (first %q, last %q), want the first 500 roots' code0 … code499", len(names), first(names), last(names))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// TestInertTemplates: without a browser, the content of an ordinary
// template, of a closed declarative root and of the retired shadowroot
// attribute is not read, and a declarative root attaches only to an
// element that may host one (not to a <ul> or a reserved name), once (a
// closed root first leaves the open one after it inert), and only with
// its mode written exactly (Chromium attaches no " open" root: on the
// code before, the mapper read the last three).
func TestInertTemplates(t *testing.T) {
	markup := `<template><form id="inert"><input name="a"></form></template>
<x-box><template shadowrootmode="closed"><form id="closed"><input name="b"></form></template></x-box>
<y-box><template shadowroot="open"><form id="old"><input name="c"></form></template></y-box>
<ul><template shadowrootmode="open"><form id="nohost"><input name="d"></form></template></ul>
<z-box><template shadowrootmode="open"><form id="first"><input name="e"></form></template><template shadowrootmode="open"><form id="second"><input name="f"></form></template></z-box>
<w-box><template shadowrootmode=" open"><form id="spaced"><input name="g"></form></template></w-box>
<v-box><template shadowrootmode="closed"></template><template shadowrootmode="open"><form id="after-closed"><input name="h"></form></template></v-box>
<font-face><template shadowrootmode="open"><form id="reserved"><input name="i"></form></template></font-face>`
	p, err := extract.FromHTML("http://127.0.0.1/", []byte(markup))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range p.Forms {
		ids = append(ids, f.ID+"@"+f.ShadowHost)
	}
	if diff := cmp.Diff([]string{"first@z-box"}, ids); diff != "" {
		t.Errorf("forms (-want +got):\n%s", diff)
	}
}

// TestMultiValuedDefaults: every pre-selected option and checked box is
// recorded (Option.Selected); Value is the select's value as the browser
// reads it — the first selected option of a multiple select, "" when none
// is; the last marked selected of a single one.
func TestMultiValuedDefaults(t *testing.T) {
	type sel struct {
		Value    string
		Selected []string
	}
	want := map[string]sel{
		"services": {"wiring", []string{"wiring", "solar"}},
		"days":     {"mon", []string{"mon", "wed"}},
		"branch":   {"south", []string{"north", "south"}},
		"area":     {"", nil},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := ex.load(t, "multivalued.html").Forms[0]
			got := map[string]sel{}
			for name := range want {
				fl := field(t, f, name)
				s := sel{Value: fl.Value}
				for _, o := range fl.Options {
					if o.Selected {
						s.Selected = append(s.Selected, o.Value)
					}
				}
				got[name] = s
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("defaults (-want +got):\n%s", diff)
			}
		})
	}
}
