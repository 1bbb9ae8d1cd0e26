package classify_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/classify/learn"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// How the rules and a model combine: the model decides where the rules
// found nothing or only words, with lexical support and enough lead; it
// never overrules type, autocomplete, honeypot structure, or a type the
// model has no class for.
func TestRulesAndModelCombine(t *testing.T) {
	// A toy model: the word "zork" means phone, with a lead of 5000;
	// "blip" means phone with a lead of 100; "bias" (structural, on every field) leans to
	// company.
	m := &learn.Model{
		Classes:   []string{"company", "phone", "unknown", "email", "message", "marketing-opt-in"},
		MinMargin: 4000, MinMarginFallback: 1000,
		Weights: map[string][]learn.Weight{
			"w:zork":  {{Class: 1, Weight: 5000}},
			"w:blip":  {{Class: 1, Weight: 100}},
			"bias":    {{Class: 0, Weight: 1000}},
			"w:newsy": {{Class: 5, Weight: 5000}},
		},
	}
	cases := []struct {
		name string
		f    extract.Field
		want shared.SemanticType
	}{
		{"nothing matched, lexical lead: the model", extract.Field{Type: "text", Name: "zork"}, shared.SemanticPhone},
		{"nothing matched, too little lead: the rules", extract.Field{Type: "text", Name: "blip"}, shared.SemanticUnknown},
		{"words matched, lead over MinMargin: the model", extract.Field{Type: "text", Name: "zork", Label: "Your message here"}, shared.SemanticPhone},
		{"input type is sharper", extract.Field{Type: "email", Name: "zork"}, shared.SemanticEmail},
		{"autocomplete is sharper", extract.Field{Type: "text", Name: "zork", AutocompleteTokens: []string{"email"}}, shared.SemanticEmail},
		{"a type the model has no class for stays", extract.Field{Type: "text", Name: "zork", Label: "Party size"}, shared.SemanticPartySize},
		{"opt-in on a checkbox: the model", extract.Field{Type: "checkbox", Name: "newsy"}, shared.SemanticMarketingOptIn},
		{"opt-in on a radio group: never the model", extract.Field{Type: "radio", Name: "newsy", Options: []extract.Option{{Value: "a"}, {Value: "b"}}}, shared.SemanticUnknown},
		{"a phone is typed, never picked from a select", extract.Field{Type: "select-one", Name: "zork", Options: []extract.Option{{Text: "Garden design"}, {Text: "Lawn care"}}}, shared.SemanticUnknown},
		{"structural support alone is no evidence", extract.Field{Type: "text", Name: "input_4"}, shared.SemanticUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := extract.Form{Visible: true, Fields: []extract.Field{c.f}}
			got := classify.FieldsWith(form, nil, m)[0]
			if got.Semantic != c.want {
				t.Errorf("semantic = %s, want %s (evidence %v)", got.Semantic, c.want, got.Evidence)
			}
			rules := classify.FieldsWith(form, nil, nil)[0]
			if got.Semantic != rules.Semantic && got.Confidence != classify.ConfModel {
				t.Errorf("a model decision has confidence %v, want ConfModel", got.Confidence)
			}
		})
	}
}
