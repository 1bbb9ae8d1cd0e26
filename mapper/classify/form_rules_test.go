package classify

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// facts builds the input of a rule: features and word scores.
func facts(ft features, sc map[Purpose]float64) *formFacts {
	if sc == nil {
		sc = map[Purpose]float64{}
	}
	return &formFacts{ft: ft, sc: sc, ev: map[Purpose][]string{}}
}

// Each rule of the purpose table, on features that make it apply and on
// features just outside it. want "" means the rule does not apply.
func TestFormRules(t *testing.T) {
	cases := []struct {
		rule string
		name string
		f    *formFacts
		want Purpose
		conf float64
	}{
		{"nothing-to-fill", "hidden fields only", facts(features{}, nil), PurposeOther, ConfFormOther},
		{"nothing-to-fill", "a choice to make", facts(features{choices: 1}, nil), "", 0},
		{"nothing-to-fill", "an add-to-cart button over hidden fields", facts(features{}, map[Purpose]float64{PurposeOrder: 3}), PurposeOrder, ConfFormWeak},
		{"nothing-to-fill", "a sign-in-with button", facts(features{}, map[Purpose]float64{PurposeLogin: 3, PurposeOrder: 1}), PurposeLogin, ConfFormWeak},
		{"nothing-to-fill", "order words only in the text", facts(features{}, map[Purpose]float64{PurposeOrder: 1}), PurposeOther, ConfFormOther},

		{"new-password-twice", "reset words, two passwords", facts(features{passwords: 2, visible: 1}, map[Purpose]float64{PurposePasswordRecovery: 2}), PurposePasswordRecovery, ConfFormStrong},
		{"new-password-twice", "two passwords and many fields", facts(features{passwords: 2, visible: 5}, map[Purpose]float64{PurposePasswordRecovery: 2}), "", 0},

		{"two-passwords", "password and confirmation", facts(features{passwords: 2, visible: 2}, nil), PurposeRegistration, ConfFormStructure},
		{"two-passwords", "one password", facts(features{passwords: 1}, nil), "", 0},

		{"password-with-sign-up-fields", "sign-up words", facts(features{passwords: 1, visible: 2}, map[Purpose]float64{PurposeRegistration: 2}), PurposeRegistration, ConfFormStrong},
		{"password-with-sign-up-fields", "many fields, no login words", facts(features{passwords: 1, visible: 6}, nil), PurposeRegistration, ConfFormStrong},
		{"password-with-sign-up-fields", "login words win", facts(features{passwords: 1, visible: 6}, map[Purpose]float64{PurposeLogin: 3}), "", 0},

		{"one-password", "email and password", facts(features{passwords: 1, visible: 1, email: true}, nil), PurposeLogin, ConfFormStructure},
		{"one-password", "no password", facts(features{visible: 1}, nil), "", 0},

		{"search-box", "one search field", facts(features{visible: 1, search: true}, nil), PurposeSearch, ConfFormStructure},
		{"search-box", "search with a message", facts(features{visible: 1, search: true, message: true}, nil), "", 0},

		{"order-fields", "quantity field", facts(features{visible: 1, order: true}, nil), PurposeOrder, ConfFormStructure},
		{"order-fields", "no order field", facts(features{visible: 1}, nil), "", 0},

		{"few-fields-words", "email with login words", facts(features{visible: 1, email: true}, map[Purpose]float64{PurposeLogin: 2}), PurposeLogin, ConfFormStrong},
		{"few-fields-words", "login words weaker than a customer action", facts(features{visible: 1, email: true}, map[Purpose]float64{PurposeLogin: 1, PurposeContact: 2}), "", 0},
		{"few-fields-words", "a phone number", facts(features{visible: 1, phone: true}, map[Purpose]float64{PurposeLogin: 2}), "", 0},

		{"order-words", "strong order words", facts(features{visible: 3, email: true}, map[Purpose]float64{PurposeOrder: 3}), PurposeOrder, ConfFormStrong},
		{"order-words", "the submit control says pay", &formFacts{ft: features{visible: 3, email: true, name: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, pay: true}, PurposeOrder, ConfFormStrong},
		{"checkout", "billing details, no message", facts(features{visible: 5, email: true, phone: true, name: true, checkout: true}, nil), PurposeOrder, ConfFormStrong},
		{"checkout", "delivery address with a message", facts(features{visible: 5, email: true, name: true, message: true, checkout: true}, nil), "", 0},
		{"checkout", "order notes on a checkout with order words", facts(features{visible: 5, email: true, name: true, message: true, checkout: true}, map[Purpose]float64{PurposeOrder: 3}), PurposeOrder, ConfFormStrong},
		{"account-words", "create an account, no message", &formFacts{ft: features{visible: 3, email: true, name: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, account: true}, PurposeRegistration, ConfFormWeak},
		{"account-words", "with a message", &formFacts{ft: features{visible: 3, email: true, name: true, message: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, account: true}, "", 0},
		{"card-fields", "card fields", facts(features{visible: 3, email: true, card: true, order: true}, nil), PurposeOrder, ConfFormStructure},
		{"card-fields", "no card field", facts(features{visible: 3, email: true, order: true}, nil), "", 0},
		{"card-fields", "a payment provider's card widget", facts(features{visible: 2, email: true, name: true, payWidget: true}, nil), PurposeOrder, ConfFormStructure},
		{"account-creation", "create an account, with a message", &formFacts{ft: features{visible: 3, email: true, name: true, message: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, account: true, accountStrong: true}, PurposeRegistration, ConfFormStrong},
		{"account-creation", "account words only in the body text", &formFacts{ft: features{visible: 3, email: true, name: true, message: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, account: true}, "", 0},
		{"order-words", "order words with a message and email", facts(features{visible: 3, email: true, message: true}, map[Purpose]float64{PurposeOrder: 2}), "", 0},

		{"newsletter-words", "subscribe with an email", facts(features{visible: 2, email: true}, map[Purpose]float64{PurposeNewsletter: 1}), PurposeNewsletter, ConfFormWeak},
		{"newsletter-words", "with a message", facts(features{visible: 2, email: true, message: true}, map[Purpose]float64{PurposeNewsletter: 1}), "", 0},

		{"email-sign-up", "sign up, email and name", facts(features{visible: 2, email: true, name: true}, map[Purpose]float64{PurposeRegistration: 1}), PurposeNewsletter, ConfFormWeak},
		{"email-sign-up", "a phone number too", facts(features{visible: 2, email: true, phone: true}, map[Purpose]float64{PurposeRegistration: 1}), "", 0}, // an account being made: TestFormRulesOrder

		{"choices-only-words", "filter selects", facts(features{choices: 3}, map[Purpose]float64{PurposeSearch: 2}), PurposeSearch, ConfFormWeak},
		{"choices-only-words", "choices without words", facts(features{choices: 3}, nil), "", 0},

		{"choices-only", "a poll", facts(features{choices: 2}, nil), PurposeOther, ConfFormOther},
		{"choices-only", "a text field too", facts(features{choices: 2, visible: 1}, nil), "", 0},

		{"comment", "leave a reply", facts(features{visible: 3, message: true, email: true}, map[Purpose]float64{PurposeComment: 3}), PurposeComment, ConfFormStrong},
		{"comment", "contact words as strong", facts(features{visible: 3, message: true, email: true}, map[Purpose]float64{PurposeComment: 2, PurposeContact: 2}), "", 0},

		{"no-message-words", "register button", facts(features{visible: 4, email: true, phone: true}, map[Purpose]float64{PurposeRegistration: 3}), PurposeRegistration, ConfFormStrong},
		{"no-message-words", "a message to send", facts(features{visible: 4, message: true}, map[Purpose]float64{PurposeRegistration: 3}), "", 0},

		{"details-only", "name, email and phone, nothing to say", facts(features{visible: 3, email: true, phone: true, name: true}, nil), PurposeOther, ConfFormDefault},
		{"details-only", "an address form with order words", facts(features{visible: 8, email: true, phone: true, name: true}, map[Purpose]float64{PurposeOrder: 1}), PurposeOrder, ConfFormWeak},
		{"details-only", "a message box", facts(features{visible: 3, email: true, phone: true, name: true, message: true}, nil), "", 0},
		{"details-only", "a text area read as something else", facts(features{visible: 4, email: true, phone: true, name: true, textarea: true}, nil), "", 0},
		{"details-only", "contact words", facts(features{visible: 3, email: true, phone: true, name: true}, map[Purpose]float64{PurposeContact: 1}), "", 0},
		{"details-only", "a date: a booking", facts(features{visible: 4, email: true, phone: true, name: true, dateTime: true}, nil), "", 0},
		{"details-only", "a budget: a quote", facts(features{visible: 4, email: true, phone: true, name: true, budget: true}, nil), "", 0},
		{"details-only", "a name and a phone: a callback", facts(features{visible: 2, phone: true, name: true}, nil), "", 0},
		{"details-only", "only a name and an email (customer-action's sign-up)", facts(features{visible: 2, email: true, name: true}, nil), "", 0},
		{"details-only", "booking said in the page's title", &formFacts{ft: features{visible: 3, email: true, phone: true, name: true}, sc: map[Purpose]float64{}, ev: map[Purpose][]string{}, ctxText: "book a table"}, "", 0},

		{"customer-action", "email and message", facts(features{visible: 3, email: true, name: true, message: true}, nil), PurposeContact, ConfFormDefault},
		{"customer-action", "booking words and a date", facts(features{visible: 4, email: true, name: true, dateTime: true}, map[Purpose]float64{PurposeBooking: 2}), PurposeBooking, ConfFormStrong},
		{"customer-action", "a phone and a name: callback", facts(features{visible: 2, phone: true, name: true}, nil), PurposeCallback, ConfFormWeak},
		{"customer-action", "only a name and an email", facts(features{visible: 2, email: true, name: true}, nil), PurposeNewsletter, ConfFormDefault},
		{"customer-action", "no way to reach the person", facts(features{visible: 2, name: true}, nil), "", 0},

		{"words-only", "strong login words", facts(features{visible: 4}, map[Purpose]float64{PurposeLogin: 2}), PurposeLogin, ConfFormWeak},
		{"words-only", "customer words do not count", facts(features{visible: 4}, map[Purpose]float64{PurposeContact: 3}), "", 0},

		{"lone-email", "one email field", facts(features{visible: 1, email: true}, nil), PurposeNewsletter, ConfFormDefault},
		{"lone-email", "email and another field", facts(features{visible: 2, email: true}, nil), "", 0},

		{noPurposeRule, "anything", facts(features{visible: 4}, nil), PurposeOther, ConfFormOther},
	}
	tested := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			r := ruleNamed(t, tc.rule)
			d, ok := r.decide(tc.f)
			if tc.want == "" {
				if ok {
					t.Fatalf("rule applies (%s, %q), want it not to", d.purpose, d.why)
				}
				return
			}
			if !ok {
				t.Fatalf("rule does not apply, want %s", tc.want)
			}
			if d.purpose != tc.want || d.conf != tc.conf || d.why == "" {
				t.Errorf("got %s %.2f %q, want %s %.2f with a reason", d.purpose, d.conf, d.why, tc.want, tc.conf)
			}
		})
		if tc.want != "" {
			tested[tc.rule] = true
		}
	}
	for _, r := range formRules {
		if !tested[r.name] {
			t.Errorf("rule %s has no case where it applies", r.name)
		}
	}
}

func ruleNamed(t *testing.T, name string) formRule {
	t.Helper()
	for _, r := range formRules {
		if r.name == name {
			return r
		}
	}
	t.Fatalf("no rule %q in formRules", name)
	return formRule{}
}

// The table's order is part of the decision: rule names are unique and the
// last rule always applies, so FormWith always decides.
func TestFormRulesOrder(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range formRules {
		if seen[r.name] {
			t.Errorf("rule %s appears twice", r.name)
		}
		seen[r.name] = true
	}
	last := formRules[len(formRules)-1]
	if _, ok := last.decide(facts(features{}, nil)); last.name != noPurposeRule || !ok {
		t.Errorf("last rule %s does not always apply", last.name)
	}
	// An account being made keeps a sign-up out of the newsletter rule.
	f := facts(features{visible: 2, email: true}, map[Purpose]float64{PurposeRegistration: 1})
	f.account = true
	if _, ok := ruleNamed(t, "email-sign-up").decide(f); ok {
		t.Error("email-sign-up applies to a form that creates an account")
	}
}

// FormWith names the rule that decided and leads its evidence with the
// rule's reason, which the mapper writes into the action's provenance.
func TestFormWithNamesTheRule(t *testing.T) {
	cases := []struct {
		name string
		form extract.Form
		rule string
	}{
		{"contact form", extract.Form{Visible: true, Heading: "Contact us", Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Send message", Visible: true}},
			Fields: []extract.Field{
				{Tag: "input", Type: "text", Name: "name", Label: "Your name", LabelSource: extract.LabelFor},
				{Tag: "input", Type: "email", Name: "email", Label: "Email", LabelSource: extract.LabelFor},
				{Tag: "textarea", Type: "textarea", Name: "message", Label: "Message", LabelSource: extract.LabelFor},
			}}, "customer-action"},
		{"login form", extract.Form{Visible: true, Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Log in", Visible: true}},
			Fields: []extract.Field{
				{Tag: "input", Type: "email", Name: "email", Label: "Email", LabelSource: extract.LabelFor},
				{Tag: "input", Type: "password", Name: "password", Label: "Password", LabelSource: extract.LabelFor},
			}}, "one-password"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Form(tc.form, nil)
			if r.Rule != tc.rule {
				t.Fatalf("rule %q (%s), want %q", r.Rule, r.Purpose, tc.rule)
			}
			d, _ := ruleNamed(t, tc.rule).decide(readFormFacts(tc.form, nil, Fields(tc.form, nil)))
			if len(r.Evidence) == 0 || !strings.HasPrefix(r.Evidence[0], d.why) {
				t.Errorf("evidence %q does not lead with the rule's reason %q", r.Evidence, d.why)
			}
		})
	}
}
