package classify

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify/learn"
	"github.com/frontlatch/frontlatch/mapper/extract"
)

// toyPurposeModel: the submit word "zork" means a customer form with a
// lead of 5000, "zap" search with a lead of 5000, "blip" search with a
// lead of 500, "frob" other with a lead of 2000.
func toyPurposeModel() *learn.Model {
	return &learn.Model{
		Classes:   []string{ClassCustomer, string(PurposeSearch), string(PurposeOther)},
		MinMargin: 3000, MinMarginFallback: 1000,
		Weights: map[string][]learn.Weight{
			"sub:zork": {{Class: 0, Weight: 5000}},
			"sub:blip": {{Class: 1, Weight: 500}},
			"sub:frob": {{Class: 2, Weight: 2000}},
			"sub:zap":  {{Class: 1, Weight: 5000}},
		},
	}
}

// How the rules and the purpose model combine: the model overrules a
// rule with enough lead (the lower margin over a rule that found no
// purpose), never a sharp rule, and never into a customer action on a
// form that is never one.
func TestPurposeModelCombines(t *testing.T) {
	text := func(name, label string) extract.Field {
		return extract.Field{Tag: "input", Type: "text", Name: name, Label: label, LabelSource: extract.LabelFor}
	}
	email := extract.Field{Tag: "input", Type: "email", Name: "email", Label: "Email"}
	pw := extract.Field{Tag: "input", Type: "password", Name: "pw", Label: "Password"}
	form := func(submit string, fs ...extract.Field) extract.Form {
		return extract.Form{Visible: true, Fields: fs, Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: submit, Visible: true}}}
	}
	cases := []struct {
		name      string
		form      extract.Form
		want      Purpose
		wantModel bool
	}{
		{"lead over MinMargin overrules a rule", form("Zork", text("a", "Model number"), text("b", "Serial"), email), PurposeContact, true},
		{"too little lead: the rules", form("Blip", text("a", "Model number"), text("b", "Serial"), email), PurposeNewsletter, false},
		{"lead over the fallback margin overrules no-purpose", form("Frob", text("a", "Model number"), text("b", "Serial")), PurposeOther, false}, // agrees: other is other
		{"the same class: the rules, their reason", form("Zork", text("name", "Your name"), email, extract.Field{Tag: "textarea", Type: "textarea", Name: "msg", Label: "Message"}), PurposeContact, false},
		{"a date makes the model's customer form a booking", form("Zork", text("a", "Model number"), extract.Field{Tag: "input", Type: "date", Name: "d", Label: "Date"}), PurposeBooking, true},
		{"two passwords are sharp", form("Zap", email, pw, pw), PurposeRegistration, false},
		{"card fields are sharp", form("Zap", text("n", "Name"), email, text("cc", "Card number")), PurposeOrder, false},
		{"one password is sharp", form("Zap", email, pw), PurposeLogin, false},
		{"quantity fields are not", form("Zap", text("qty", "Quantity"), email), PurposeSearch, true},
		{"pay words: never a customer action", form("Zork Pay now", text("a", "Model number"), email), PurposeOrder, false},
		{"account creation: never a customer action", form("Zork Create account", text("a", "Model number"), email), PurposeRegistration, false},
		{"nothing a person types: never a customer action", form("Zork", extract.Field{Tag: "select", Type: "select-one", Name: "size", Label: "Size", Options: []extract.Option{{Text: "S"}, {Text: "M"}}}), PurposeOther, false},
	}
	m := toyPurposeModel()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fields := FieldsWith(c.form, nil, nil)
			r := ReadForm(c.form, nil, fields)
			got := r.With(m)
			if got.Purpose != c.want {
				t.Errorf("purpose %s (rule %s), want %s; evidence %v", got.Purpose, got.Rule, c.want, got.Evidence)
			}
			if (got.Rule == ModelRule) != c.wantModel {
				t.Errorf("rule %s, model decided = %v, want %v", got.Rule, got.Rule == ModelRule, c.wantModel)
			}
			if got.Rule == ModelRule {
				ev := strings.Join(got.Evidence, " | ")
				if !strings.HasPrefix(got.Evidence[0], "learned model: ") || !strings.Contains(ev, "overruled rule "+r.Rules().Rule) || got.Confidence != ConfFormModel {
					t.Errorf("a model decision must lead with the model's reading, name the overruled rule and have ConfFormModel: %.2f %v", got.Confidence, got.Evidence)
				}
			}
			if _, ok := got.Purpose.Kind(); ok != got.CustomerAction || ok != (got.Kind != nil) {
				t.Errorf("customerAction %v, kind %v for purpose %s", got.CustomerAction, got.Kind, got.Purpose)
			}
			if rules := r.With(nil); rules.Rule == ModelRule || rules.Rule != r.Rules().Rule {
				t.Errorf("With(nil) decided by %s, want the rules' %s", rules.Rule, r.Rules().Rule)
			}
		})
	}
}

// The fallback margin applies only where the rules found no purpose.
func TestPurposeModelFallbackMargin(t *testing.T) {
	m := &learn.Model{Classes: []string{string(PurposeSearch), string(PurposeOther)}, MinMargin: 3000, MinMarginFallback: 1000,
		Weights: map[string][]learn.Weight{"sub:frob": {{Class: 0, Weight: 2000}}}}
	noPurpose := extract.Form{Visible: true, Fields: []extract.Field{{Tag: "input", Type: "text", Name: "a", Label: "Model number"}, {Tag: "input", Type: "text", Name: "b", Label: "Serial"}},
		Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Frob", Visible: true}}}
	r := ReadForm(noPurpose, nil, FieldsWith(noPurpose, nil, nil))
	if r.Rules().Rule != noPurposeRule {
		t.Fatalf("the rules decided by %s, want %s", r.Rules().Rule, noPurposeRule)
	}
	if got := r.With(m); got.Purpose != PurposeSearch || got.Rule != ModelRule {
		t.Errorf("lead 2000 over no-purpose (fallback margin 1000): %s by %s, want search by the model", got.Purpose, got.Rule)
	}
	m.MinMarginFallback = 2500
	if got := r.With(m); got.Rule == ModelRule {
		t.Errorf("lead 2000 under the fallback margin 2500 still overruled: %s", got.Purpose)
	}
}

// The overrule margin of the customer class lets the model take back a
// weak claim of a customer action (contact details and a message, no
// word of which) at a small lead; a claim said in the submit control or
// heading, and the rules' other readings, keep MinMargin.
func TestPurposeModelDoubtMargin(t *testing.T) {
	m := &learn.Model{Classes: []string{string(PurposeOther), string(PurposeRegistration)}, MinMargin: 3000, MinMarginFallback: 1000,
		OverruleMargin: map[string]int64{ClassCustomer: 400},
		Weights:        map[string][]learn.Weight{"sub:frob": {{Class: 1, Weight: 500}}}}
	name := extract.Field{Tag: "input", Type: "text", Name: "name", Label: "Your name", LabelSource: extract.LabelFor}
	email := extract.Field{Tag: "input", Type: "email", Name: "email", Label: "Email"}
	msg := extract.Field{Tag: "textarea", Type: "textarea", Name: "about", Label: "Zorp"}
	form := func(heading string, fs ...extract.Field) extract.Form {
		return extract.Form{Visible: true, Heading: heading, Fields: fs, Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Frob", Visible: true}}}
	}
	cases := []struct {
		name       string
		form       extract.Form
		rule       string
		want       Purpose
		overrule   bool
		withMargin int64 // the doubt margin of the case (0: m's)
	}{
		{"a weak claim, lead 500 over the doubt margin 400", form("", name, email, msg), "customer-action", PurposeRegistration, true, 0},
		{"a weak claim, the doubt margin above the lead", form("", name, email, msg), "customer-action", PurposeContact, false, 600},
		{"a claim the heading says keeps MinMargin", form("Contact us", name, email, msg), "customer-action", PurposeContact, false, 0},
		{"a reading of another class keeps MinMargin (a name and an email: newsletter)", form("", extract.Field{Tag: "input", Type: "text", Name: "a", Label: "Model number"}, email), "customer-action", PurposeNewsletter, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mm := *m
			if c.withMargin != 0 {
				mm.OverruleMargin = map[string]int64{ClassCustomer: c.withMargin}
			}
			r := ReadForm(c.form, nil, FieldsWith(c.form, nil, nil))
			if r.Rules().Rule != c.rule {
				t.Fatalf("the rules decided by %s (%s), want %s", r.Rules().Rule, r.Rules().Purpose, c.rule)
			}
			got := r.With(&mm)
			if got.Purpose != c.want || (got.Rule == ModelRule) != c.overrule {
				t.Errorf("%s by %s, want %s, overruled %v; evidence %v", got.Purpose, got.Rule, c.want, c.overrule, got.Evidence)
			}
		})
	}
}

// A model that always claims a customer action, with any lead, never
// makes one of a form that is never one.
func TestNeverCustomerHoldsAgainstTheModel(t *testing.T) {
	always := &learn.Model{Classes: []string{ClassCustomer, string(PurposeOther)}, MinMargin: 1, MinMarginFallback: 1,
		Weights: map[string][]learn.Weight{"bias": {{Class: 0, Weight: 1 << 30}}}}
	base := features{visible: 3, email: true, name: true, message: true}
	cases := []struct {
		name string
		f    *formFacts
	}{
		{"card fields", &formFacts{ft: withFeature(base, func(ft *features) { ft.card = true })}},
		{"a payment widget", &formFacts{ft: withFeature(base, func(ft *features) { ft.payWidget = true })}},
		{"pay words", &formFacts{ft: base, pay: true}},
		{"a password", &formFacts{ft: withFeature(base, func(ft *features) { ft.passwords = 1 })}},
		{"account creation in the submit control", &formFacts{ft: base, account: true, accountStrong: true}},
		{"nothing to type", &formFacts{ft: features{choices: 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.f.sc, c.f.ev = map[Purpose]float64{}, map[Purpose][]string{}
			if c.f.neverCustomer() == "" {
				t.Fatal("neverCustomer gives no reason")
			}
			r := &FormReading{f: c.f, features: []string{"bias"}}
			for _, rule := range formRules {
				if d, ok := rule.decide(c.f); ok {
					r.rule, r.d = rule.name, d
					break
				}
			}
			if got := r.With(always); got.CustomerAction || got.Purpose == PurposeComment {
				t.Errorf("%s by %s: a customer action; evidence %v", got.Purpose, got.Rule, got.Evidence)
			}
		})
	}
}

func withFeature(ft features, set func(*features)) features {
	set(&ft)
	return ft
}

func TestPurposeClass(t *testing.T) {
	for _, p := range PurposeValues() {
		_, customer := p.Kind()
		want := string(p)
		if customer || p == PurposeComment {
			want = ClassCustomer
		}
		if got := PurposeClass(p); got != want {
			t.Errorf("PurposeClass(%s) = %s, want %s", p, got, want)
		}
	}
}

// The shipped model's classes are purpose classes, and its margins are
// set: a model generated with no classes or margins would silently
// leave every decision to the rules, or overrule them all.
func TestShippedPurposeModel(t *testing.T) {
	valid := map[string]bool{}
	for _, p := range PurposeValues() {
		valid[PurposeClass(p)] = true
	}
	if len(purposeModel.Classes) < 2 {
		t.Fatalf("the shipped purpose model has %d classes", len(purposeModel.Classes))
	}
	for _, c := range purposeModel.Classes {
		if !valid[c] {
			t.Errorf("class %q is no purpose class", c)
		}
	}
	if purposeModel.MinMargin <= 0 || purposeModel.MinMarginFallback <= 0 || purposeModel.MinMarginFallback > purposeModel.MinMargin {
		t.Errorf("margins %d / %d: want 0 < fallback <= margin", purposeModel.MinMargin, purposeModel.MinMarginFallback)
	}
}
