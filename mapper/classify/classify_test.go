package classify_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

func visibleForm(fields ...extract.Field) extract.Form {
	return extract.Form{Visible: true, Fields: fields}
}

func TestFieldSemantics(t *testing.T) {
	cases := []struct {
		name string
		f    extract.Field
		want shared.SemanticType
	}{
		{"autocomplete beats words", extract.Field{Type: "text", Name: "company", Label: "Company", AutocompleteTokens: []string{"section-a", "billing", "email"}}, shared.SemanticEmail},
		{"autocomplete address-level2", extract.Field{Type: "text", Name: "x1", AutocompleteTokens: []string{"address-level2"}}, shared.SemanticLocality},
		{"type email", extract.Field{Type: "email", Name: "contact"}, shared.SemanticEmail},
		{"type tel", extract.Field{Type: "tel", Name: "x"}, shared.SemanticPhone},
		{"type file", extract.Field{Type: "file", Name: "x"}, shared.SemanticFileAttachment},
		{"type hidden is a token", extract.Field{Type: "hidden", Name: "email", Visibility: extract.Visibility{Hidden: true, HiddenBy: extract.HiddenBySelf}}, shared.SemanticSystemToken},
		{"en label full name", extract.Field{Type: "text", Name: "f1", Label: "Your name", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"en first name", extract.Field{Type: "text", Name: "firstName"}, shared.SemanticGivenName},
		{"en username is not a name", extract.Field{Type: "text", Name: "username", Label: "User name"}, shared.SemanticUnknown},
		{"en search box", extract.Field{Type: "text", Name: "q", Label: "Search"}, shared.SemanticUnknown},
		{"en email address not street", extract.Field{Type: "text", Name: "f", Label: "Email address"}, shared.SemanticEmail},
		{"en fax is not a phone", extract.Field{Type: "text", Name: "fax", Label: "Fax"}, shared.SemanticUnknown},
		{"en subject", extract.Field{Type: "text", Name: "subj", Label: "Subject"}, shared.SemanticSubject},
		{"en website", extract.Field{Type: "text", Name: "site", Label: "Website"}, shared.SemanticWebsiteURL},
		{"en postcode", extract.Field{Type: "text", Name: "zip"}, shared.SemanticPostcode},
		{"en party size", extract.Field{Type: "number", Name: "n", Label: "Number of guests"}, shared.SemanticPartySize},
		{"en best time", extract.Field{Type: "select-one", Name: "t", Label: "Best time to call"}, shared.SemanticPreferredTimeWindow},
		{"en referral", extract.Field{Type: "select-one", Name: "r", Label: "How did you hear about us?"}, shared.SemanticReferralSource},
		{"en area of law", extract.Field{Type: "select-one", Name: "practice_area", Label: "Area of law", Options: []extract.Option{{Value: "Family"}, {Value: "Employment"}}}, shared.SemanticServiceRequested},
		{"en type of bike (choice)", extract.Field{Type: "select-one", Name: "bike_type", Label: "Type of bike", Options: []extract.Option{{Value: "road"}, {Value: "mountain"}, {Value: "ebike"}, {Value: "commuter"}}}, shared.SemanticServiceRequested},
		{"en type of bike (free text)", extract.Field{Type: "text", Name: "bike", Label: "Type of bike"}, shared.SemanticUnknown},
		{"fr type de prestation", extract.Field{Type: "select-one", Name: "t", Label: "Type de véhicule", Options: []extract.Option{{Value: "a"}, {Value: "b"}, {Value: "c"}, {Value: "d"}}}, shared.SemanticServiceRequested},
		{"de Nachname", extract.Field{Type: "text", Name: "f2", Label: "Nachname"}, shared.SemanticFamilyName},
		{"de Telefonnummer", extract.Field{Type: "text", Name: "f3", Label: "Ihre Telefonnummer"}, shared.SemanticPhone},
		{"de Geburtsdatum", extract.Field{Type: "text", Name: "f4", Label: "Geburtsdatum"}, shared.SemanticDate},
		{"es Apellidos", extract.Field{Type: "text", Name: "f5", Label: "Apellidos"}, shared.SemanticFamilyName},
		{"es Mensaje textarea", extract.Field{Tag: "textarea", Type: "textarea", Name: "f6", Label: "Mensaje"}, shared.SemanticMessage},
		{"fr Prénom", extract.Field{Type: "text", Name: "f7", Label: "Prénom"}, shared.SemanticGivenName},
		{"fr Code postal", extract.Field{Type: "text", Name: "f8", Label: "Code postal"}, shared.SemanticPostcode},
		{"it Cognome", extract.Field{Type: "text", Name: "f9", Label: "Cognome"}, shared.SemanticFamilyName},
		{"it enter is not ente", extract.Field{Type: "text", Name: "f10", Label: "Please enter your full name"}, shared.SemanticPersonName},
		{"pt Telefone", extract.Field{Type: "text", Name: "f11", Label: "Telefone"}, shared.SemanticPhone},
		{"nl Woonplaats", extract.Field{Type: "text", Name: "f12", Label: "Woonplaats"}, shared.SemanticLocality},
		{"ru postal code is not mail", extract.Field{Type: "text", Name: "f13", Label: "Почтовый индекс"}, shared.SemanticPostcode},
		{"ru Электронная почта", extract.Field{Type: "text", Name: "f14", Label: "Электронная почта"}, shared.SemanticEmail},
		{"pl Miasto", extract.Field{Type: "text", Name: "f15", Label: "Miasto"}, shared.SemanticLocality},
		{"tr Şirket", extract.Field{Type: "text", Name: "f16", Label: "Şirket adı"}, shared.SemanticCompany},
		{"ja 電話番号", extract.Field{Type: "text", Name: "f17", Label: "電話番号"}, shared.SemanticPhone},
		{"zh 邮箱", extract.Field{Type: "text", Name: "f18", Label: "邮箱"}, shared.SemanticEmail},
		{"ko 주소", extract.Field{Type: "text", Name: "f19", Label: "주소"}, shared.SemanticStreetAddress},
		{"checkbox consent", extract.Field{Type: "checkbox", Name: "c1", Label: "I agree to the terms and privacy policy"}, shared.SemanticConsent},
		{"checkbox marketing", extract.Field{Type: "checkbox", Name: "c2", Label: "Send me special offers by email"}, shared.SemanticMarketingOptIn},
		{"checkbox de Datenschutz", extract.Field{Type: "checkbox", Name: "c3", Label: "Ich habe die Datenschutzerklärung gelesen"}, shared.SemanticConsent},
		{"checkbox remember me", extract.Field{Type: "checkbox", Name: "c4", Label: "Remember me"}, shared.SemanticUnknown},
		{"textarea without words", extract.Field{Tag: "textarea", Type: "textarea", Name: "t1"}, shared.SemanticMessage},
		{"name attribute split", extract.Field{Type: "text", Name: "your-email"}, shared.SemanticEmail},
		{"nothing", extract.Field{Type: "text", Name: "input_4"}, shared.SemanticUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := classify.Field(c.f, visibleForm(c.f), nil)
			if got.Semantic != c.want {
				t.Errorf("semantic = %s, want %s (evidence %v)", got.Semantic, c.want, got.Evidence)
			}
			if got.Confidence <= 0 || got.Confidence >= 1 {
				t.Errorf("confidence %v outside (0,1)", got.Confidence)
			}
			if len(got.Evidence) == 0 {
				t.Error("no evidence")
			}
			wantFill := c.want != shared.SemanticHoneypot && c.want != shared.SemanticSystemToken
			if got.AgentFillable != wantFill {
				t.Errorf("agentFillable = %v, want %v", got.AgentFillable, wantFill)
			}
		})
	}
}

func TestFieldOutsideAForm(t *testing.T) {
	// WebMCP and JSON-LD parameters have no form around them.
	r := classify.Field(extract.Field{Name: "customer_email", Label: "The customer's email address", Type: "text"}, extract.Form{}, nil)
	if r.Semantic != shared.SemanticEmail || !r.AgentFillable {
		t.Errorf("got %s fillable=%v, want email fillable", r.Semantic, r.AgentFillable)
	}
	r = classify.Field(extract.Field{Name: "token", Type: "hidden"}, extract.Form{}, nil)
	if r.Semantic != shared.SemanticSystemToken || r.AgentFillable {
		t.Errorf("got %s fillable=%v, want system-token not fillable", r.Semantic, r.AgentFillable)
	}
}

func TestConfidenceOrder(t *testing.T) {
	ac := classify.Field(extract.Field{Type: "text", AutocompleteTokens: []string{"email"}}, extract.Form{}, nil)
	typ := classify.Field(extract.Field{Type: "email"}, extract.Form{}, nil)
	label := classify.Field(extract.Field{Type: "text", Label: "Email", LabelSource: extract.LabelFor}, extract.Form{}, nil)
	name := classify.Field(extract.Field{Type: "text", Name: "email"}, extract.Form{}, nil)
	none := classify.Field(extract.Field{Type: "text", Name: "x"}, extract.Form{}, nil)
	order := []classify.FieldResult{ac, typ, label, name, none}
	for i := 1; i < len(order); i++ {
		if order[i].Confidence >= order[i-1].Confidence {
			t.Errorf("confidence %d (%v) not below %d (%v): autocomplete > type > label > name > nothing", i, order[i].Confidence, i-1, order[i-1].Confidence)
		}
	}
}

func TestNameSplitContext(t *testing.T) {
	name := extract.Field{Type: "text", Name: "nom", Label: "Nom"}
	given := extract.Field{Type: "text", Name: "prenom", Label: "Prénom"}
	res := classify.Fields(visibleForm(name, given), nil)
	if res[0].Semantic != shared.SemanticFamilyName || res[1].Semantic != shared.SemanticGivenName {
		t.Errorf("Nom beside Prénom = %s, %s; want family-name, given-name", res[0].Semantic, res[1].Semantic)
	}
	alone := classify.Fields(visibleForm(name), nil)
	if alone[0].Semantic != shared.SemanticPersonName {
		t.Errorf("Nom alone = %s, want person-name", alone[0].Semantic)
	}
}

func hiddenBy(by string, reasons ...string) extract.Visibility {
	return extract.Visibility{Hidden: true, HiddenBy: by, Reasons: reasons}
}

func intp(i int) *int { return &i }

func TestHoneypotStructure(t *testing.T) {
	email := extract.Field{Type: "email", Name: "email", Label: "Email"}
	cases := []struct {
		name string
		f    extract.Field
		form extract.Form
		want bool
	}{
		{"wrapper display:none", extract.Field{Type: "text", Name: "website", Label: "Website", Visibility: hiddenBy(extract.HiddenByWrapper, extract.ReasonDisplayNone)}, extract.Form{}, true},
		{"self visibility:hidden", extract.Field{Type: "text", Name: "email2", Visibility: hiddenBy(extract.HiddenBySelf, extract.ReasonVisibilityHidden)}, extract.Form{}, true},
		{"off-screen", extract.Field{Type: "email", Name: "email", Label: "Email", Visibility: hiddenBy(extract.HiddenByWrapper, extract.ReasonOffScreen)}, extract.Form{}, true},
		{"tabindex -1 and autocomplete off", extract.Field{Type: "text", Name: "company", Label: "Company", TabIndex: intp(-1), AutocompleteTokens: []string{"off"}}, extract.Form{}, true},
		{"leave empty text", extract.Field{Type: "text", Name: "url", Label: "Please leave this field empty"}, extract.Form{}, true},
		{"leave empty, German", extract.Field{Type: "text", Name: "u", Label: "Dieses Feld bitte leer lassen"}, extract.Form{}, true},
		{"gravity class", extract.Field{Type: "text", Name: "input_7", Label: "Phone", WrapperClasses: []string{"gfield gfield--type-honeypot"}}, extract.Form{}, true},
		{"wpforms hp wrapper", extract.Field{Type: "text", Name: "wpforms[hp]", Label: "Email", WrapperClasses: []string{"wpforms-field wpforms-field-hp"}}, extract.Form{}, true},
		{"elementor honeypot", extract.Field{Type: "text", Name: "form_fields[x]", WrapperClasses: []string{"elementor-field-type-honeypot elementor-field-group"}}, extract.Form{}, true},
		{"netlify declared", extract.Field{Type: "text", Name: "bot-field"}, extract.Form{Data: map[string]string{"netlify-honeypot": "bot-field"}}, true},
		{"formspree gotcha", extract.Field{Type: "text", Name: "_gotcha"}, extract.Form{Action: "https://formspree.io/f/abc"}, true},
		{"hidden utility class, no stylesheet", extract.Field{Type: "text", Name: "url", WrapperClasses: []string{"hidden"}}, extract.Form{}, true},
		{"class none on the wrapper", extract.Field{Type: "text", Name: "bottest2", WrapperClasses: []string{"none bottest"}}, extract.Form{}, true},
		{"trap inside a captcha box", extract.Field{Type: "text", Name: "captcha", WrapperClasses: []string{"none", "captcha"}}, extract.Form{}, true},
		{"typed captcha answer", extract.Field{Type: "text", Name: "code", Label: "Type the code", WrapperClasses: []string{"captcha"}}, extract.Form{}, false},
		{"conditional section hidden by class", extract.Field{Type: "text", Name: "company", Label: "Company", WrapperClasses: []string{"hidden"}},
			extract.Form{Fields: []extract.Field{{Type: "text", Name: "vat", Label: "VAT number", WrapperClasses: []string{"hidden"}}}}, false},
		{"name alone is never enough", extract.Field{Type: "text", Name: "honeypot", Label: "Honeypot"}, extract.Form{}, false},
		{"_gotcha elsewhere is a name", extract.Field{Type: "text", Name: "_gotcha"}, extract.Form{Action: "https://example.com/send"}, false},
		{"hidden form hides every field alike", extract.Field{Type: "text", Name: "name", Label: "Name", Visibility: hiddenBy(extract.HiddenByForm, extract.ReasonDisplayNone)}, extract.Form{}, false},
		{"custom checkbox", extract.Field{Type: "checkbox", Name: "consent", Label: "I agree", LabelVisible: true, Visibility: hiddenBy(extract.HiddenBySelf, extract.ReasonOpacityZero)}, extract.Form{}, false},
		{"hidden select (script widget)", extract.Field{Type: "select-one", Name: "country", Visibility: hiddenBy(extract.HiddenBySelf, extract.ReasonDisplayNone)}, extract.Form{}, false},
		{"required is not a trap", extract.Field{Type: "text", Name: "x", Required: true, TabIndex: intp(-1), AutocompleteTokens: []string{"off"}}, extract.Form{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := c.form
			form.Visible = true
			// c.form.Fields are the form's other fields, after the two under test.
			form.Fields = append([]extract.Field{email, c.f}, c.form.Fields...)
			got := classify.Fields(form, nil)[1]
			if (got.Semantic == shared.SemanticHoneypot) != c.want {
				t.Errorf("honeypot = %v (%s, %v), want %v", got.Semantic == shared.SemanticHoneypot, got.Semantic, got.Evidence, c.want)
			}
			if c.want && got.AgentFillable {
				t.Error("a honeypot must not be agent-fillable")
			}
		})
	}
}

func TestHiddenSectionIsNotTraps(t *testing.T) {
	first := extract.Field{Type: "text", Name: "first", Label: "First name", Visibility: hiddenBy(extract.HiddenByWrapper, extract.ReasonDisplayNone)}
	last := extract.Field{Type: "text", Name: "last", Label: "Last name", Visibility: hiddenBy(extract.HiddenByWrapper, extract.ReasonDisplayNone)}
	res := classify.Fields(visibleForm(extract.Field{Type: "email", Name: "email"}, first, last), nil)
	for i, r := range res[1:] {
		if r.Semantic == shared.SemanticHoneypot {
			t.Errorf("field %d of a hidden two-field section called a honeypot: %v", i+1, r.Evidence)
		}
	}
}

func sub(text string) extract.Submit {
	return extract.Submit{Tag: "button", Type: "submit", Text: text, Visible: true}
}

func TestFormPurpose(t *testing.T) {
	email := extract.Field{Type: "email", Name: "email", Label: "Email"}
	name := extract.Field{Type: "text", Name: "name", Label: "Name"}
	phone := extract.Field{Type: "tel", Name: "phone", Label: "Phone"}
	msg := extract.Field{Tag: "textarea", Type: "textarea", Name: "message", Label: "Message"}
	pw := extract.Field{Type: "password", Name: "pw", Label: "Password"}
	q := extract.Field{Type: "search", Name: "q", Label: "Search"}
	date := extract.Field{Type: "date", Name: "when", Label: "Preferred date"}
	cases := []struct {
		name string
		form extract.Form
		want classify.Purpose
	}{
		{"contact", extract.Form{Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Send")}}, classify.PurposeContact},
		{"booking by date field", extract.Form{Fields: []extract.Field{name, email, phone, date}, Submits: []extract.Submit{sub("Send")}}, classify.PurposeBooking},
		{"booking by words", extract.Form{Heading: "Book an appointment", Fields: []extract.Field{name, phone, msg}, Submits: []extract.Submit{sub("Request appointment")}}, classify.PurposeBooking},
		{"quote", extract.Form{Heading: "Get a free quote", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Get my quote")}}, classify.PurposeQuote},
		{"callback", extract.Form{Heading: "Request a call back", Fields: []extract.Field{name, phone}, Submits: []extract.Submit{sub("Call me")}}, classify.PurposeCallback},
		{"enquiry", extract.Form{Heading: "Make an enquiry", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Send enquiry")}}, classify.PurposeEnquiry},
		{"German contact", extract.Form{Heading: "Kontakt", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Absenden")}}, classify.PurposeContact},
		{"comment", extract.Form{ID: "commentform", Action: "https://blog.example/wp-comments-post.php", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Post Comment")}}, classify.PurposeComment},
		{"newsletter", extract.Form{Heading: "Subscribe to our newsletter", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Subscribe")}}, classify.PurposeNewsletter},
		{"search", extract.Form{Fields: []extract.Field{q}, Submits: []extract.Submit{sub("Go")}}, classify.PurposeSearch},
		{"login", extract.Form{Fields: []extract.Field{email, pw}, Submits: []extract.Submit{sub("Log in")}}, classify.PurposeLogin},
		{"registration", extract.Form{Fields: []extract.Field{name, email, pw, {Type: "password", Name: "pw2", Label: "Confirm password"}}, Submits: []extract.Submit{sub("Create account")}}, classify.PurposeRegistration},
		{"password recovery", extract.Form{Heading: "Forgot your password?", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Reset password")}}, classify.PurposePasswordRecovery},
		{"order", extract.Form{Fields: []extract.Field{{Type: "number", Name: "quantity", Label: "Qty"}}, Submits: []extract.Submit{sub("Add to cart")}}, classify.PurposeOrder},
		{"nothing to fill", extract.Form{Fields: []extract.Field{{Type: "hidden", Name: "t", Visibility: hiddenBy(extract.HiddenBySelf, extract.ReasonTypeHidden)}}, Submits: []extract.Submit{sub("Next")}}, classify.PurposeOther},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.form.Visible = true
			got := classify.Form(c.form, nil)
			if got.Purpose != c.want {
				t.Errorf("purpose = %s, want %s (evidence %v)", got.Purpose, c.want, got.Evidence)
			}
			k, isAction := c.want.Kind()
			if got.CustomerAction != isAction {
				t.Errorf("customerAction = %v, want %v", got.CustomerAction, isAction)
			}
			if isAction && (got.Kind == nil || *got.Kind != k) || !isAction && got.Kind != nil {
				t.Errorf("kind = %v, want %v when customer action", got.Kind, k)
			}
		})
	}
}

func TestPurposeKinds(t *testing.T) {
	n := 0
	for _, p := range classify.Purposes() {
		if k, ok := p.Kind(); ok {
			n++
			if !k.Valid() {
				t.Errorf("%s maps to invalid kind %q", p, k)
			}
		}
	}
	if n != 5 {
		t.Errorf("%d customer-action purposes, want 5", n)
	}
}
