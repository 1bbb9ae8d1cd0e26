package classify_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
)

// Checkout, payment, login and sign-up forms ask for contact details too,
// and far outnumber contact and booking forms on real sites: none of them
// is a customer action (a form that takes card details charges money).
func TestCheckoutPaymentAndAccountFormsAreNotCustomerActions(t *testing.T) {
	tf := func(name, label string) extract.Field { return extract.Field{Type: "text", Name: name, Label: label} }
	auto := func(name, label, ac string) extract.Field {
		f := tf(name, label)
		f.AutocompleteTokens = []string{ac}
		return f
	}
	email := extract.Field{Type: "email", Name: "email", Label: "Email"}
	phone := extract.Field{Type: "tel", Name: "phone", Label: "Phone"}
	notes := extract.Field{Tag: "textarea", Type: "textarea", Name: "order_comments", Label: "Order notes (optional)"}
	cases := []struct {
		name string
		form extract.Form
	}{
		{"card fields named by their labels only", extract.Form{Fields: []extract.Field{tf("f1", "Name on card"), tf("f2", "Card number"), tf("f3", "Expiry date"), tf("f4", "CVC"), email}, Submits: []extract.Submit{sub("Submit")}}},
		{"card fields by autocomplete", extract.Form{Fields: []extract.Field{auto("a", "Name", "cc-name"), auto("b", "Number", "cc-number"), auto("c", "MM/YY", "cc-exp"), email}, Submits: []extract.Submit{sub("Continue")}}},
		{"German card form", extract.Form{Fields: []extract.Field{tf("inhaber", "Karteninhaber"), tf("nr", "Kartennummer"), tf("pz", "Prüfnummer"), email}, Submits: []extract.Submit{sub("Weiter")}}},
		{"shipping step headed contact information", extract.Form{Heading: "Contact information", Action: "https://shop.example/checkouts/abc", Fields: []extract.Field{
			email, auto("fn", "First name", "given-name"), auto("ln", "Last name", "family-name"), {Type: "text", Name: "addr", Label: "Address", AutocompleteTokens: []string{"shipping", "address-line1"}},
			{Type: "text", Name: "city", Label: "City", AutocompleteTokens: []string{"shipping", "address-level2"}}, phone}, Submits: []extract.Submit{sub("Continue to shipping")}}},
		{"billing details with order notes", extract.Form{Heading: "Billing details", Fields: []extract.Field{
			tf("billing_first_name", "First name"), tf("billing_last_name", "Last name"), tf("billing_address_1", "Street address"), tf("billing_city", "Town / City"), phone, email, notes}, Submits: []extract.Submit{sub("Place order")}}},
		{"French delivery address", extract.Form{Heading: "Adresse de livraison", Fields: []extract.Field{tf("prenom", "Prénom"), tf("nom", "Nom"), tf("adresse", "Adresse"), tf("cp", "Code postal"), tf("ville", "Ville"), phone}, Submits: []extract.Submit{sub("Valider")}}},
		{"pay button", extract.Form{Fields: []extract.Field{tf("name", "Full name"), email, phone}, Submits: []extract.Submit{sub("Jetzt bezahlen")}}},
		{"sign-up without a password (it comes by mail)", extract.Form{Fields: []extract.Field{tf("fn", "First name"), tf("ln", "Last name"), email, phone}, Text: "Create your free account in one minute", Submits: []extract.Submit{sub("Continue")}}},
		{"sign-up heading", extract.Form{Heading: "Sign up", Fields: []extract.Field{tf("name", "Name"), email, phone}, Submits: []extract.Submit{sub("Get started")}}},
		{"email-first login step", extract.Form{Heading: "Sign in", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Next")}}},
		{"Spanish login with phone", extract.Form{Heading: "Iniciar sesión", Fields: []extract.Field{tf("tel", "Teléfono móvil"), email}, Submits: []extract.Submit{sub("Entrar")}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.form.Visible = true
			got := classify.Form(c.form, nil)
			if got.CustomerAction || got.Purpose == classify.PurposeComment {
				t.Errorf("purpose %s (rule %s), a customer action; evidence %v", got.Purpose, got.Rule, got.Evidence)
			}
		})
	}
}
