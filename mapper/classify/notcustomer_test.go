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

// The same class of forms as pages write them, in several languages,
// read from markup (extract.FromHTML) and classified with the shipped
// model: hosted card widgets, card fields, pay and account-creation
// buttons, checkouts with a notes box. None is a customer action.
func TestCheckoutPaymentAndAccountPagesAreNotCustomerActions(t *testing.T) {
	pages := []struct{ name, html string }{
		{"en Stripe card element in a payment form", `<form id="payment-form" action="/charge" method="post">
			<h2>Support our work</h2>
			<label for="n">Full name</label><input id="n" name="name">
			<label for="e">Email</label><input id="e" type="email" name="email">
			<label for="a">Amount</label><input id="a" name="amount" value="25">
			<div id="card-element"></div>
			<label for="m">Leave a message (optional)</label><textarea id="m" name="message"></textarea>
			<button type="submit">Donate</button></form>`},
		{"en hosted card iframe", `<form action="/order" method="post">
			<label>Name <input name="customer_name"></label>
			<label>Email <input type="email" name="customer_email"></label>
			<label>Phone <input type="tel" name="customer_phone"></label>
			<iframe src="https://js.stripe.com/v3/elements-inner-card-3f2a.html" title="Secure card payment input frame"></iframe>
			<button>Submit</button></form>`},
		{"de card fields", `<form action="/kasse" method="post"><fieldset><legend>Ihre Angaben</legend>
			<label for="v">Vorname</label><input id="v" name="vorname">
			<label for="nn">Nachname</label><input id="nn" name="nachname">
			<label for="em">E-Mail</label><input id="em" name="email" type="email">
			<label for="k">Kartennummer</label><input id="k" name="f_k" inputmode="numeric">
			<label for="g">Gültig bis (MM/JJ)</label><input id="g" name="f_g">
			<label for="p">Prüfnummer</label><input id="p" name="f_p">
			<label for="an">Anmerkungen</label><textarea id="an" name="anmerkungen"></textarea>
			</fieldset><button type="submit">Jetzt kaufen</button></form>`},
		{"fr sign-up with an about-you box", `<form action="/inscription" method="post">
			<label for="p">Prénom</label><input id="p" name="prenom">
			<label for="e">Adresse e-mail</label><input id="e" name="email" type="email">
			<label for="t">Téléphone</label><input id="t" name="tel" type="tel">
			<label for="b">Présentez-vous en quelques mots</label><textarea id="b" name="bio"></textarea>
			<button type="submit">Créer mon compte</button></form>`},
		{"es login", `<form action="/cuenta/entrar" method="post"><h3>Iniciar sesión</h3>
			<label for="c">Correo electrónico</label><input id="c" name="correo" type="email">
			<label for="k">Contraseña</label><input id="k" name="clave" type="password">
			<button type="submit">Entrar</button></form>`},
		{"it Braintree hosted fields with order notes", `<form action="/checkout" method="post" id="ordine">
			<label for="n">Nome e cognome</label><input id="n" name="nome">
			<label for="e">Email</label><input id="e" name="email" type="email">
			<label for="t">Telefono</label><input id="t" name="telefono">
			<div class="braintree-hosted-fields"><iframe src="https://assets.braintreegateway.com/web/3.97.2/html/hosted-fields-frame.min.html#number"></iframe></div>
			<label for="o">Note sull'ordine</label><textarea id="o" name="note"></textarea>
			<button type="submit">Conferma</button></form>`},
		{"ja credit card", `<form action="/purchase" method="post">
			<label for="n">お名前</label><input id="n" name="name">
			<label for="m">メールアドレス</label><input id="m" name="mail" type="email">
			<label for="c">カード番号</label><input id="c" name="c_no">
			<label for="x">有効期限</label><input id="x" name="c_exp">
			<label for="s">セキュリティコード</label><input id="s" name="c_sec">
			<button type="submit">注文する</button></form>`},
		{"pl pay button", `<form action="/zamowienie" method="post">
			<label for="i">Imię i nazwisko</label><input id="i" name="imie">
			<label for="e">E-mail</label><input id="e" name="email" type="email">
			<label for="t">Telefon</label><input id="t" name="telefon" type="tel">
			<button type="submit">Zapłać teraz</button></form>`},
		{"nl account without a password", `<form action="/registreren" method="post"><h2>Account aanmaken</h2>
			<label for="n">Naam</label><input id="n" name="naam">
			<label for="e">E-mailadres</label><input id="e" name="email" type="email">
			<label for="t">Telefoonnummer</label><input id="t" name="telefoon" type="tel">
			<button type="submit">Doorgaan</button></form>`},
		{"en free-trial sign-up", `<form action="/trial" method="post"><h2>Start your free trial</h2>
			<label for="n">Full name</label><input id="n" name="name">
			<label for="e">Work email</label><input id="e" name="email" type="email">
			<label for="t">Phone</label><input id="t" name="phone" type="tel">
			<label for="c">Company</label><input id="c" name="company">
			<button type="submit">Start free trial</button></form>`},
		{"sv checkout with a message", `<form action="/kassa" method="post"><h2>Dina uppgifter</h2>
			<label for="n">Namn</label><input id="n" name="namn">
			<label for="e">E-post</label><input id="e" name="epost" type="email">
			<label for="t">Telefon</label><input id="t" name="tel">
			<label for="a">Leveransadress</label><input id="a" name="adress">
			<label for="m">Meddelande</label><textarea id="m" name="meddelande"></textarea>
			<button type="submit">Till betalning</button></form>`},
		{"pt checkout with a notes box", `<form action="/loja/pedido" method="post"><h2>Finalizar compra</h2>
			<label for="n">Nome</label><input id="n" name="nome">
			<label for="e">E-mail</label><input id="e" name="email" type="email">
			<label for="t">Telefone</label><input id="t" name="telefone" type="tel">
			<label for="r">Endereço de entrega</label><input id="r" name="endereco">
			<label for="o">Observações</label><textarea id="o" name="obs"></textarea>
			<button type="submit">Continuar</button></form>`},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			page, err := extract.FromHTML("https://shop.example/page", []byte("<!doctype html><html><body>"+p.html+"</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Forms) != 1 {
				t.Fatalf("%d forms extracted, want 1", len(page.Forms))
			}
			got := classify.Form(page.Forms[0], page)
			if got.CustomerAction || got.Purpose == classify.PurposeComment {
				t.Errorf("purpose %s (rule %s), a customer action; evidence %v", got.Purpose, got.Rule, got.Evidence)
			}
			if got.Rule == "" || len(got.Evidence) == 0 {
				t.Errorf("no rule or evidence: %+v", got)
			}
		})
	}
}

// Contact details with no message box and nothing a customer action asks
// (rule details-only): the details step of a checkout or a sign-up, a
// mailing-list form with a phone, read from markup in several languages.
// None is a customer action; beside them, forms without a message that
// say what they ask — a callback (said, or a name and a phone alone), a
// booking with a date, a quote — stay customer actions.
func TestContactDetailsAloneAreNotCustomerActions(t *testing.T) {
	pages := []struct {
		name, html string
		customer   bool
	}{
		{"en your-details step", `<form action="/step-2" method="post"><h2>Your details</h2>
			<label for="f">First name</label><input id="f" name="first_name">
			<label for="l">Last name</label><input id="l" name="last_name">
			<label for="e">Email</label><input id="e" name="email" type="email">
			<label for="t">Phone</label><input id="t" name="phone" type="tel">
			<label for="a">Street address</label><input id="a" name="street">
			<label for="z">Postcode</label><input id="z" name="postcode">
			<button type="submit">Continue</button></form>`, false},
		{"de Ihre Daten", `<form action="/schritt2" method="post"><h2>Ihre Daten</h2>
			<label for="v">Vorname</label><input id="v" name="vorname">
			<label for="n">Nachname</label><input id="n" name="nachname">
			<label for="e">E-Mail</label><input id="e" name="email" type="email">
			<label for="t">Telefon</label><input id="t" name="telefon">
			<label for="s">Straße und Hausnummer</label><input id="s" name="strasse">
			<label for="p">PLZ</label><input id="p" name="plz"><label for="o">Ort</label><input id="o" name="ort">
			<button type="submit">Weiter</button></form>`, false},
		{"es datos personales", `<form action="/paso2" method="post">
			<label for="n">Nombre</label><input id="n" name="nombre">
			<label for="e">Correo electrónico</label><input id="e" name="correo" type="email">
			<label for="t">Teléfono</label><input id="t" name="telefono">
			<button type="submit">Siguiente</button></form>`, false},
		{"ja member details", `<form action="/entry/confirm" method="post">
			<label for="n">お名前</label><input id="n" name="name">
			<label for="m">メールアドレス</label><input id="m" name="mail" type="email">
			<label for="t">電話番号</label><input id="t" name="tel">
			<label for="z">郵便番号</label><input id="z" name="zip">
			<button type="submit">次へ</button></form>`, false},
		{"en call me back", `<form action="/callback" method="post"><h3>Request a call back</h3>
			<label for="n">Name</label><input id="n" name="name">
			<label for="t">Phone</label><input id="t" name="phone" type="tel">
			<button type="submit">Call me back</button></form>`, true},
		{"ru name and phone, nothing said", `<form method="post"><input name="name" placeholder="Имя">
			<input name="phone" type="tel" placeholder="Телефон"><button type="submit">Отправить</button></form>`, true},
		{"fr réservation with a date", `<form action="/reserver" method="post">
			<label for="n">Nom</label><input id="n" name="nom">
			<label for="t">Téléphone</label><input id="t" name="tel" type="tel">
			<label for="e">E-mail</label><input id="e" name="email" type="email">
			<label for="d">Date</label><input id="d" name="date" type="date">
			<label for="p">Nombre de personnes</label><input id="p" name="personnes" type="number">
			<button type="submit">Envoyer</button></form>`, true},
		{"en free quote without a message", `<form action="/quote" method="post"><h2>Get a free quote</h2>
			<label for="n">Name</label><input id="n" name="name">
			<label for="e">Email</label><input id="e" name="email" type="email">
			<label for="t">Phone</label><input id="t" name="phone" type="tel">
			<label for="z">Postcode</label><input id="z" name="postcode">
			<button type="submit">Get my quote</button></form>`, true},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			page, err := extract.FromHTML("https://site.example/page", []byte("<!doctype html><html><body>"+p.html+"</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Forms) != 1 {
				t.Fatalf("%d forms extracted, want 1", len(page.Forms))
			}
			got := classify.Form(page.Forms[0], page)
			if claimed := got.CustomerAction || got.Purpose == classify.PurposeComment; claimed != p.customer {
				t.Errorf("purpose %s (rule %s): customer action %v, want %v; evidence %v", got.Purpose, got.Rule, claimed, p.customer, got.Evidence)
			}
		})
	}
}

// The shipped purpose model may take back a weak claim of a customer
// action (OverruleMargin): plain message forms that name no purpose —
// a name, an email or phone, a message box and a send button — stay
// customer actions in every language here.
func TestPlainMessageFormsStayCustomerActions(t *testing.T) {
	pages := []struct{ name, html string }{
		{"en", `<form method="post"><label for="n">Name</label><input id="n" name="name"><label for="e">Email</label><input id="e" name="email" type="email">
			<label for="m">Message</label><textarea id="m" name="message"></textarea><button type="submit">Send</button></form>`},
		{"de", `<form method="post"><label for="n">Ihr Name</label><input id="n" name="name"><label for="e">E-Mail</label><input id="e" name="email" type="email">
			<label for="m">Ihre Nachricht</label><textarea id="m" name="nachricht"></textarea><button type="submit">Absenden</button></form>`},
		{"es", `<form method="post"><label for="n">Nombre</label><input id="n" name="nombre"><label for="e">Correo</label><input id="e" name="correo" type="email">
			<label for="m">Mensaje</label><textarea id="m" name="mensaje"></textarea><button type="submit">Enviar</button></form>`},
		{"it", `<form method="post"><label for="n">Nome</label><input id="n" name="nome"><label for="t">Telefono</label><input id="t" name="telefono" type="tel">
			<label for="m">Messaggio</label><textarea id="m" name="messaggio"></textarea><button type="submit">Invia</button></form>`},
		{"ru", `<form method="post"><label for="n">Имя</label><input id="n" name="name"><label for="t">Телефон</label><input id="t" name="phone" type="tel">
			<label for="m">Сообщение</label><textarea id="m" name="msg"></textarea><button type="submit">Отправить</button></form>`},
		{"ja", `<form method="post"><label for="n">お名前</label><input id="n" name="name"><label for="e">メールアドレス</label><input id="e" name="mail" type="email">
			<label for="m">お問い合わせ内容</label><textarea id="m" name="body"></textarea><button type="submit">送信</button></form>`},
		{"pt", `<form method="post"><label for="n">Nome</label><input id="n" name="nome"><label for="e">E-mail</label><input id="e" name="email" type="email">
			<label for="m">Mensagem</label><textarea id="m" name="mensagem"></textarea><button type="submit">Enviar</button></form>`},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			page, err := extract.FromHTML("https://site.example/", []byte("<!doctype html><html><body>"+p.html+"</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Forms) != 1 {
				t.Fatalf("%d forms extracted, want 1", len(page.Forms))
			}
			if got := classify.Form(page.Forms[0], page); !got.CustomerAction {
				t.Errorf("purpose %s (rule %s), not a customer action; evidence %v", got.Purpose, got.Rule, got.Evidence)
			}
		})
	}
}
