package classify_test

import (
	"strconv"
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
		{"en arrival window", extract.Field{Type: "select-one", Name: "arrival", Label: "Arrival window", Options: []extract.Option{{Value: "Morning (8am-12pm)"}, {Value: "Afternoon (12pm-4pm)"}}}, shared.SemanticPreferredTimeWindow},
		{"en arrival date", extract.Field{Type: "date", Name: "arrival", Label: "Arrival"}, shared.SemanticDate},
		{"de Mobilnummer", extract.Field{Type: "text", Name: "f20", Label: "Mobilnummer"}, shared.SemanticPhone},
		{"de Immobilie is not a phone", extract.Field{Type: "text", Name: "f21", Label: "Art der Immobilie"}, shared.SemanticUnknown},
		{"en mobility is not a phone", extract.Field{Type: "text", Name: "f22", Label: "Mobility needs"}, shared.SemanticUnknown},
		{"pt Data (a date)", extract.Field{Type: "text", Name: "f23", Label: "Data"}, shared.SemanticDate},
		{"pl Data urodzenia", extract.Field{Type: "text", Name: "f24", Label: "Data urodzenia"}, shared.SemanticDate},
		{"en personal data is not a date", extract.Field{Type: "text", Name: "f25", Label: "Your personal data"}, shared.SemanticUnknown},
		{"en hotel name is not a person", extract.Field{Type: "text", Name: "f26", Label: "Hotel name"}, shared.SemanticUnknown},
		{"en postcode look-up", extract.Field{Type: "text", Name: "f27", Label: "Postcode search"}, shared.SemanticPostcode},
		{"en a site search is not a postcode", extract.Field{Type: "text", Name: "f28", Label: "Search"}, shared.SemanticUnknown},
		{"fr SMS à ce numéro", extract.Field{Type: "text", Name: "f29", Label: "Oui, par SMS à ce numéro :"}, shared.SemanticPhone},
		{"en referral", extract.Field{Type: "select-one", Name: "r", Label: "How did you hear about us?"}, shared.SemanticReferralSource},
		{"en area of law", extract.Field{Type: "select-one", Name: "practice_area", Label: "Area of law", Options: []extract.Option{{Value: "Family"}, {Value: "Employment"}}}, shared.SemanticServiceRequested},
		{"en type of bike (choice)", extract.Field{Type: "select-one", Name: "bike_type", Label: "Type of bike", Options: []extract.Option{{Value: "road"}, {Value: "mountain"}, {Value: "ebike"}, {Value: "commuter"}}}, shared.SemanticServiceRequested},
		{"en type of bike (free text)", extract.Field{Type: "text", Name: "bike", Label: "Type of bike"}, shared.SemanticUnknown},
		{"fr type de prestation", extract.Field{Type: "select-one", Name: "t", Label: "Type de véhicule", Options: []extract.Option{{Value: "a"}, {Value: "b"}, {Value: "c"}, {Value: "d"}}}, shared.SemanticServiceRequested},
		{"de Nachname", extract.Field{Type: "text", Name: "f2", Label: "Nachname", LabelSource: extract.LabelFor}, shared.SemanticFamilyName},
		{"de Telefonnummer", extract.Field{Type: "text", Name: "f3", Label: "Ihre Telefonnummer"}, shared.SemanticPhone},
		{"de Geburtsdatum", extract.Field{Type: "text", Name: "f4", Label: "Geburtsdatum"}, shared.SemanticDate},
		{"es Apellidos", extract.Field{Type: "text", Name: "f5", Label: "Apellidos"}, shared.SemanticFamilyName},
		{"es Mensaje textarea", extract.Field{Tag: "textarea", Type: "textarea", Name: "f6", Label: "Mensaje"}, shared.SemanticMessage},
		{"fr Prénom", extract.Field{Type: "text", Name: "f7", Label: "Prénom"}, shared.SemanticGivenName},
		{"fr Code postal", extract.Field{Type: "text", Name: "f8", Label: "Code postal"}, shared.SemanticPostcode},
		{"it Cognome", extract.Field{Type: "text", Name: "f9", Label: "Cognome", LabelSource: extract.LabelFor}, shared.SemanticFamilyName},
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
		{"select prompt option names the list", extract.Field{Type: "select-one", Name: "reg", Options: []extract.Option{{Value: "0", Text: "Toutes régions"}, {Value: "1", Text: "Alsace"}, {Value: "2", Text: "Aquitaine"}}}, shared.SemanticRegion},
		{"select prompt option, dashes", extract.Field{Type: "select-one", Name: "c1", Options: []extract.Option{{Value: "", Text: "-- Select your country --"}, {Value: "fr", Text: "France"}}}, shared.SemanticCountry},
		{"a real first option is no prompt", extract.Field{Type: "select-one", Name: "s2", Options: []extract.Option{{Value: "ny", Text: "New York City"}, {Value: "la", Text: "Los Angeles"}}}, shared.SemanticUnknown},
		{"a long list of brands is no country list", extract.Field{Type: "select-one", Name: "manf", Options: manyOptions("Brand", 300)}, shared.SemanticUnknown},
		{"a select listing countries", extract.Field{Type: "select-one", Name: "x7", Options: []extract.Option{{Value: "de", Text: "Deutschland"}, {Value: "at", Text: "Österreich"}, {Value: "ch", Text: "Schweiz"}, {Value: "fr", Text: "Frankreich"}, {Value: "it", Text: "Italien"}}}, shared.SemanticCountry},
		{"a select listing countries with dial codes", extract.Field{Type: "select-one", Name: "x8", Options: []extract.Option{{Value: "1", Text: "日本 (+81)"}, {Value: "2", Text: "中国"}, {Value: "3", Text: "韓国"}, {Value: "4", Text: "アメリカ (+1)"}, {Value: "5", Text: "その他"}}}, shared.SemanticCountry},
		{"typed captcha answer is no token", extract.Field{Tag: "input", Type: "text", Name: "captcha-690", Label: "captcha", LabelSource: extract.LabelNearby, WrapperClasses: []string{"wpcf7-form-control-wrap captcha-690"}}, shared.SemanticUnknown},
		{"captcha widget's response box is a token", extract.Field{Tag: "textarea", Type: "textarea", Name: "resp", WrapperClasses: []string{"g-recaptcha"}, Visibility: hiddenBy(extract.HiddenBySelf, extract.ReasonDisplayNone)}, shared.SemanticSystemToken},
		{"en profile full name is a name (profile is not a file)", extract.Field{Type: "text", Name: "profile.Full Name"}, shared.SemanticPersonName},
		{"fi checkbox tiedotteita", extract.Field{Type: "checkbox", Name: "info", Label: "Haluan vastaanottaa ylläpidolta tiedotteita.", LabelSource: extract.LabelNearby}, shared.SemanticMarketingOptIn},
		{"fa checkbox typed with Arabic letters", extract.Field{Type: "checkbox", Name: "o1", Label: "دريافت ايميل از سوي مديران سايت"}, shared.SemanticMarketingOptIn},
		{"ar email still read after folding", extract.Field{Type: "text", Name: "o2", Label: "البريد الإلكتروني"}, shared.SemanticEmail},
		// CJK: 名 alone is a given name, not every word with 名 in it
		{"ja 会社名 is a company", extract.Field{Type: "text", Name: "k1", Label: "会社名", LabelSource: extract.LabelFor}, shared.SemanticCompany},
		{"ja 件名 is a subject", extract.Field{Type: "text", Name: "k2", Label: "件名（必須）", LabelSource: extract.LabelFor}, shared.SemanticSubject},
		{"ja 氏名（全角） is a full name", extract.Field{Type: "text", Name: "k3", Label: "氏名（全角）", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"zh 公司名称 is a company", extract.Field{Type: "text", Name: "k4", Label: "公司名称", LabelSource: extract.LabelFor}, shared.SemanticCompany},
		{"ja 名（カナ） is a given name", extract.Field{Type: "text", Name: "k5", Label: "名（カナ）", LabelSource: extract.LabelFor}, shared.SemanticGivenName},
		{"pt CEP is a postcode", extract.Field{Type: "text", Name: "k6", Label: "CEP", LabelSource: extract.LabelFor}, shared.SemanticPostcode},
		{"tr Cep telefonu is a phone", extract.Field{Type: "text", Name: "k7", Label: "Cep Telefonu", LabelSource: extract.LabelFor}, shared.SemanticPhone},
		{"it Codice postale", extract.Field{Type: "text", Name: "k8", Label: "Codice postale", LabelSource: extract.LabelFor}, shared.SemanticPostcode},
		{"pl Kraj is still a country", extract.Field{Type: "text", Name: "k9", Label: "Kraj", LabelSource: extract.LabelFor}, shared.SemanticCountry},
		{"en preferred date is no referral", extract.Field{Type: "text", Name: "d1", Label: "Preferred date", LabelSource: extract.LabelFor}, shared.SemanticDate},
		{"en country/region is a country", extract.Field{Type: "select-one", Name: "d2", Label: "Country/Region", LabelSource: extract.LabelFor}, shared.SemanticCountry},
		{"ru Дом (Cyrillic word end)", extract.Field{Type: "text", Name: "d3", Label: "Дом", LabelSource: extract.LabelFor}, shared.SemanticStreetAddress},
		{"ru Пол is not ours", extract.Field{Type: "select-one", Name: "d4", Label: "Пол:", LabelSource: extract.LabelFor, Options: []extract.Option{{Value: "m", Text: "М"}, {Value: "f", Text: "Ж"}}}, shared.SemanticUnknown},
		{"nl Gemeente", extract.Field{Type: "text", Name: "d5", Label: "Gemeente", LabelSource: extract.LabelFor}, shared.SemanticLocality},
		{"tr İsim (dotted capital İ)", extract.Field{Type: "text", Name: "f40", Label: "İsim", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"tr İl (province)", extract.Field{Type: "text", Name: "f41", Label: "İl", LabelSource: extract.LabelFor}, shared.SemanticLocality},
		{"tr ADI SOYADI in capitals (dotless ı)", extract.Field{Type: "text", Name: "f42", Label: "ADI SOYADI", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"tr KULLANICI ADI in capitals is not a name", extract.Field{Type: "text", Name: "f43", Label: "KULLANICI ADI", LabelSource: extract.LabelFor}, shared.SemanticUnknown},
		{"tr AÇIKLAMA in capitals", extract.Field{Tag: "textarea", Type: "textarea", Name: "f44", Label: "AÇIKLAMA", LabelSource: extract.LabelFor}, shared.SemanticMessage},
		{"it Il tuo messaggio is no Turkish province", extract.Field{Tag: "textarea", Type: "textarea", Name: "e1", Label: "Il tuo messaggio", LabelSource: extract.LabelFor}, shared.SemanticMessage},
		{"de Firma is not inside confirmation", extract.Field{Type: "text", Name: "fConfirmationCode", Label: "Bestätigungscode"}, shared.SemanticUnknown},
		{"fr Validation du formulaire is no company", extract.Field{Type: "text", Name: "confirmar", Label: "Validation du formulaire"}, shared.SemanticUnknown},
		{"en display name is not a person", extract.Field{Type: "text", Name: "display_name", Label: "Display Name"}, shared.SemanticUnknown},
		{"ru Контрольный вопрос is a challenge", extract.Field{Type: "text", Name: "q7", Label: "Контрольный вопрос"}, shared.SemanticUnknown},
		{"de Vor- und Nachname is a full name", extract.Field{Type: "text", Name: "e2", Label: "Vor- und Nachname", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"de Name, Vorname is a full name", extract.Field{Type: "text", Name: "e3", Label: "Name, Vorname", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"fr Nom et prénom is a full name", extract.Field{Type: "text", Name: "e4", Label: "Nom et prénom", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"tr Adınız Soyadınız is a full name", extract.Field{Type: "text", Name: "e5", Label: "Adınız Soyadınız", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"fr Tél.", extract.Field{Type: "text", Name: "e6", Label: "Tél.", LabelSource: extract.LabelFor}, shared.SemanticPhone},
		{"ru Тел.", extract.Field{Type: "text", Name: "e7", Label: "Тел.", LabelSource: extract.LabelFor}, shared.SemanticPhone},
		{"el Επωνυμία", extract.Field{Type: "text", Name: "e8", Label: "Επωνυμία", LabelSource: extract.LabelFor}, shared.SemanticCompany},
		{"checkbox notify me of new posts", extract.Field{Type: "checkbox", Name: "subscribe_blog", Label: "Notify me of new posts by email.", LabelSource: extract.LabelFor}, shared.SemanticMarketingOptIn},
		{"checkbox de ich willige ein", extract.Field{Type: "checkbox", Name: "dsgvo", Label: "Ich willige ein, dass meine Angaben gespeichert werden.", LabelSource: extract.LabelFor}, shared.SemanticConsent},
		// the common types in lt, lv, et, sk, sl, hr, bg, uk
		{"lt El. paštas", extract.Field{Type: "text", Name: "m1", Label: "El. paštas", LabelSource: extract.LabelFor}, shared.SemanticEmail},
		{"lt Vardas ir pavardė", extract.Field{Type: "text", Name: "m2", Label: "Vardas ir pavardė", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"lt Vartotojo vardas is not a name", extract.Field{Type: "text", Name: "m3", Label: "Vartotojo vardas", LabelSource: extract.LabelFor}, shared.SemanticUnknown},
		{"lv Uzvārds", extract.Field{Type: "text", Name: "m4", Label: "Uzvārds", LabelSource: extract.LabelFor}, shared.SemanticFamilyName},
		{"lv Tālrunis", extract.Field{Type: "text", Name: "m5", Label: "Tālrunis", LabelSource: extract.LabelFor}, shared.SemanticPhone},
		{"et Postiindeks", extract.Field{Type: "text", Name: "m6", Label: "Postiindeks", LabelSource: extract.LabelFor}, shared.SemanticPostcode},
		{"sk Priezvisko", extract.Field{Type: "text", Name: "m7", Label: "Priezvisko", LabelSource: extract.LabelFor}, shared.SemanticFamilyName},
		{"sl Poštna številka", extract.Field{Type: "text", Name: "m8", Label: "Poštna številka", LabelSource: extract.LabelFor}, shared.SemanticPostcode},
		{"hr Ime i prezime", extract.Field{Type: "text", Name: "m9", Label: "Ime i prezime", LabelSource: extract.LabelFor}, shared.SemanticPersonName},
		{"hr Poruka", extract.Field{Tag: "textarea", Type: "textarea", Name: "m10", Label: "Poruka", LabelSource: extract.LabelFor}, shared.SemanticMessage},
		{"bg Град", extract.Field{Type: "text", Name: "m11", Label: "Град", LabelSource: extract.LabelFor}, shared.SemanticLocality},
		{"bg Потребителско име is not a name", extract.Field{Type: "text", Name: "m12", Label: "Потребителско име", LabelSource: extract.LabelFor}, shared.SemanticUnknown},
		{"uk Прізвище", extract.Field{Type: "text", Name: "m13", Label: "Прізвище", LabelSource: extract.LabelFor}, shared.SemanticFamilyName},
		{"uk Електронна пошта", extract.Field{Type: "text", Name: "m14", Label: "Електронна пошта", LabelSource: extract.LabelFor}, shared.SemanticEmail},
		// consent and opt-in checkboxes in lt, lv, et, sk, sl, hr, bg, uk
		{"lt checkbox sutinku", extract.Field{Type: "checkbox", Name: "rules", Label: "Sutinku su taisyklėmis"}, shared.SemanticConsent},
		{"lv checkbox jaunumi", extract.Field{Type: "checkbox", Name: "n", Label: "Vēlos saņemt jaunumus e-pastā"}, shared.SemanticMarketingOptIn},
		{"et checkbox nõustun", extract.Field{Type: "checkbox", Name: "t", Label: "Nõustun tingimustega"}, shared.SemanticConsent},
		{"sk checkbox súhlasím", extract.Field{Type: "checkbox", Name: "t", Label: "Súhlasím so spracovaním osobných údajov"}, shared.SemanticConsent},
		{"sl checkbox novice", extract.Field{Type: "checkbox", Name: "n", Label: "Želim prejemati e-novice"}, shared.SemanticMarketingOptIn},
		{"hr checkbox slažem se", extract.Field{Type: "checkbox", Name: "t", Label: "Slažem se s uvjetima korištenja"}, shared.SemanticConsent},
		{"bg checkbox съгласен", extract.Field{Type: "checkbox", Name: "t", Label: "Съгласен съм с условията"}, shared.SemanticConsent},
		{"uk checkbox розсилка", extract.Field{Type: "checkbox", Name: "n", Label: "Хочу отримувати розсилку"}, shared.SemanticMarketingOptIn},
		{"uk checkbox погоджуюсь", extract.Field{Type: "checkbox", Name: "t", Label: "Я погоджуюсь з умовами"}, shared.SemanticConsent},
		// languages added with sv, da, no, fi, cs, hu, ro, el, ar, fa, he, vi, id
		{"sv Förnamn", extract.Field{Type: "text", Name: "l0", Label: "Förnamn"}, shared.SemanticGivenName},
		{"sv Efternamn", extract.Field{Type: "text", Name: "l1", Label: "Efternamn"}, shared.SemanticFamilyName},
		{"sv För- och efternamn", extract.Field{Type: "text", Name: "l2", Label: "För- och efternamn"}, shared.SemanticPersonName},
		{"sv E-postadress", extract.Field{Type: "text", Name: "l3", Label: "E-postadress"}, shared.SemanticEmail},
		{"sv Telefonnummer", extract.Field{Type: "text", Name: "l4", Label: "Telefonnummer"}, shared.SemanticPhone},
		{"sv Mobilnummer", extract.Field{Type: "text", Name: "l5", Label: "Mobilnummer"}, shared.SemanticPhone},
		{"sv Postnummer", extract.Field{Type: "text", Name: "l6", Label: "Postnummer"}, shared.SemanticPostcode},
		{"sv Postort", extract.Field{Type: "text", Name: "l7", Label: "Postort"}, shared.SemanticLocality},
		{"sv Företagsnamn", extract.Field{Type: "text", Name: "l8", Label: "Företagsnamn"}, shared.SemanticCompany},
		{"sv Meddelande", extract.Field{Tag: "textarea", Type: "textarea", Name: "l9", Label: "Meddelande"}, shared.SemanticMessage},
		{"sv Ämne", extract.Field{Type: "text", Name: "l10", Label: "Ämne"}, shared.SemanticSubject},
		{"sv användarnamn is not a name", extract.Field{Type: "text", Name: "l11", Label: "Användarnamn"}, shared.SemanticUnknown},
		{"sv Lösenord is not ours", extract.Field{Type: "text", Name: "l12", Label: "Lösenord"}, shared.SemanticUnknown},
		{"sv checkbox villkor", extract.Field{Type: "checkbox", Name: "l13", Label: "Jag godkänner villkoren"}, shared.SemanticConsent},
		{"sv checkbox nyhetsbrev", extract.Field{Type: "checkbox", Name: "l14", Label: "Jag vill prenumerera på nyhetsbrevet"}, shared.SemanticMarketingOptIn},
		{"da Fornavn", extract.Field{Type: "text", Name: "l15", Label: "Fornavn"}, shared.SemanticGivenName},
		{"da Efternavn", extract.Field{Type: "text", Name: "l16", Label: "Efternavn"}, shared.SemanticFamilyName},
		{"da Navn", extract.Field{Type: "text", Name: "l17", Label: "Navn"}, shared.SemanticPersonName},
		{"da Brugernavn is not a name", extract.Field{Type: "text", Name: "l18", Label: "Brugernavn"}, shared.SemanticUnknown},
		{"da Postnr. og by", extract.Field{Type: "text", Name: "l19", Label: "Postnr. og by"}, shared.SemanticPostcode},
		{"da By", extract.Field{Type: "text", Name: "l20", Label: "By"}, shared.SemanticLocality},
		{"da Besked", extract.Field{Tag: "textarea", Type: "textarea", Name: "l21", Label: "Besked"}, shared.SemanticMessage},
		{"da Emne", extract.Field{Type: "text", Name: "l22", Label: "Emne"}, shared.SemanticSubject},
		{"da checkbox persondatapolitik", extract.Field{Type: "checkbox", Name: "l23", Label: "Jeg accepterer persondatapolitikken"}, shared.SemanticConsent},
		{"da checkbox nyhedsbrev", extract.Field{Type: "checkbox", Name: "l24", Label: "Tilmeld nyhedsbrev"}, shared.SemanticMarketingOptIn},
		{"no Etternavn", extract.Field{Type: "text", Name: "l25", Label: "Etternavn"}, shared.SemanticFamilyName},
		{"no E-post", extract.Field{Type: "text", Name: "l26", Label: "E-post"}, shared.SemanticEmail},
		{"no Mobil", extract.Field{Type: "text", Name: "l27", Label: "Mobil"}, shared.SemanticPhone},
		{"no Poststed", extract.Field{Type: "text", Name: "l28", Label: "Poststed"}, shared.SemanticLocality},
		{"no Melding", extract.Field{Tag: "textarea", Type: "textarea", Name: "l29", Label: "Melding"}, shared.SemanticMessage},
		{"no Brukernavn is not a name", extract.Field{Type: "text", Name: "l30", Label: "Brukernavn"}, shared.SemanticUnknown},
		{"no checkbox personvern", extract.Field{Type: "checkbox", Name: "l31", Label: "Jeg godtar personvernerklæringen"}, shared.SemanticConsent},
		{"fi Etunimi", extract.Field{Type: "text", Name: "l32", Label: "Etunimi"}, shared.SemanticGivenName},
		{"fi Sukunimi", extract.Field{Type: "text", Name: "l33", Label: "Sukunimi"}, shared.SemanticFamilyName},
		{"fi Etu- ja sukunimi", extract.Field{Type: "text", Name: "l34", Label: "Etu- ja sukunimi"}, shared.SemanticPersonName},
		{"fi Nimi", extract.Field{Type: "text", Name: "l35", Label: "Nimi"}, shared.SemanticPersonName},
		{"fi Sähköpostiosoite", extract.Field{Type: "text", Name: "l36", Label: "Sähköpostiosoite"}, shared.SemanticEmail},
		{"fi Puhelinnumero", extract.Field{Type: "text", Name: "l37", Label: "Puhelinnumero"}, shared.SemanticPhone},
		{"fi Postinumero", extract.Field{Type: "text", Name: "l38", Label: "Postinumero"}, shared.SemanticPostcode},
		{"fi Postitoimipaikka", extract.Field{Type: "text", Name: "l39", Label: "Postitoimipaikka"}, shared.SemanticLocality},
		{"fi Katuosoite", extract.Field{Type: "text", Name: "l40", Label: "Katuosoite"}, shared.SemanticStreetAddress},
		{"fi Yrityksen nimi", extract.Field{Type: "text", Name: "l41", Label: "Yrityksen nimi"}, shared.SemanticCompany},
		{"fi Viesti", extract.Field{Tag: "textarea", Type: "textarea", Name: "l42", Label: "Viesti"}, shared.SemanticMessage},
		{"fi Käyttäjätunnus is not a name", extract.Field{Type: "text", Name: "l43", Label: "Käyttäjätunnus"}, shared.SemanticUnknown},
		{"fi Nimike is not a name", extract.Field{Type: "text", Name: "l44", Label: "Nimike"}, shared.SemanticUnknown},
		{"fi checkbox tietosuoja", extract.Field{Type: "checkbox", Name: "l45", Label: "Hyväksyn tietosuojaselosteen"}, shared.SemanticConsent},
		{"fi checkbox uutiskirje", extract.Field{Type: "checkbox", Name: "l46", Label: "Tilaa uutiskirje"}, shared.SemanticMarketingOptIn},
		{"cs Jméno", extract.Field{Type: "text", Name: "l47", Label: "Jméno"}, shared.SemanticPersonName},
		{"cs Příjmení", extract.Field{Type: "text", Name: "l48", Label: "Příjmení"}, shared.SemanticFamilyName},
		{"cs Jméno a příjmení", extract.Field{Type: "text", Name: "l49", Label: "Jméno a příjmení"}, shared.SemanticPersonName},
		{"cs Telefon", extract.Field{Type: "text", Name: "l50", Label: "Telefon"}, shared.SemanticPhone},
		{"cs PSČ", extract.Field{Type: "text", Name: "l51", Label: "PSČ"}, shared.SemanticPostcode},
		{"cs Město", extract.Field{Type: "text", Name: "l52", Label: "Město"}, shared.SemanticLocality},
		{"cs Zpráva", extract.Field{Tag: "textarea", Type: "textarea", Name: "l53", Label: "Vaše zpráva"}, shared.SemanticMessage},
		{"cs Uživatelské jméno is not a name", extract.Field{Type: "text", Name: "l54", Label: "Uživatelské jméno"}, shared.SemanticUnknown},
		{"cs obecný is not a town", extract.Field{Type: "text", Name: "l55", Label: "Obecný dotaz"}, shared.SemanticMessage},
		{"cs checkbox souhlas", extract.Field{Type: "checkbox", Name: "l56", Label: "Souhlasím se zpracováním osobních údajů"}, shared.SemanticConsent},
		{"cs checkbox obchodní sdělení", extract.Field{Type: "checkbox", Name: "l57", Label: "Souhlasím se zasíláním obchodních sdělení"}, shared.SemanticMarketingOptIn},
		{"hu Vezetéknév", extract.Field{Type: "text", Name: "l58", Label: "Vezetéknév"}, shared.SemanticFamilyName},
		{"hu Keresztnév", extract.Field{Type: "text", Name: "l59", Label: "Keresztnév"}, shared.SemanticGivenName},
		{"hu Név", extract.Field{Type: "text", Name: "l60", Label: "Név"}, shared.SemanticPersonName},
		{"hu Vezeték- és keresztnév", extract.Field{Type: "text", Name: "l61", Label: "Vezeték- és keresztnév"}, shared.SemanticPersonName},
		{"hu E-mail cím", extract.Field{Type: "text", Name: "l62", Label: "E-mail cím"}, shared.SemanticEmail},
		{"hu Telefonszám", extract.Field{Type: "text", Name: "l63", Label: "Telefonszám"}, shared.SemanticPhone},
		{"hu Irányítószám", extract.Field{Type: "text", Name: "l64", Label: "Irányítószám"}, shared.SemanticPostcode},
		{"hu Település", extract.Field{Type: "text", Name: "l65", Label: "Település"}, shared.SemanticLocality},
		{"hu Cégnév", extract.Field{Type: "text", Name: "l66", Label: "Cégnév"}, shared.SemanticCompany},
		{"hu Üzenet", extract.Field{Tag: "textarea", Type: "textarea", Name: "l67", Label: "Üzenet"}, shared.SemanticMessage},
		{"hu Felhasználónév is not a name", extract.Field{Type: "text", Name: "l68", Label: "Felhasználónév"}, shared.SemanticUnknown},
		{"hu checkbox adatkezelés", extract.Field{Type: "checkbox", Name: "l69", Label: "Elfogadom az adatkezelési tájékoztatót"}, shared.SemanticConsent},
		{"hu checkbox hírlevél", extract.Field{Type: "checkbox", Name: "l70", Label: "Feliratkozom a hírlevélre"}, shared.SemanticMarketingOptIn},
		{"ro Prenume", extract.Field{Type: "text", Name: "l71", Label: "Prenume"}, shared.SemanticGivenName},
		{"ro Nume și prenume", extract.Field{Type: "text", Name: "l72", Label: "Nume și prenume"}, shared.SemanticPersonName},
		{"ro Nume", extract.Field{Type: "text", Name: "l73", Label: "Nume"}, shared.SemanticPersonName},
		{"ro Număr de telefon", extract.Field{Type: "text", Name: "l74", Label: "Număr de telefon"}, shared.SemanticPhone},
		{"ro Cod poștal", extract.Field{Type: "text", Name: "l75", Label: "Cod poștal"}, shared.SemanticPostcode},
		{"ro Oraș", extract.Field{Type: "text", Name: "l76", Label: "Oraș"}, shared.SemanticLocality},
		{"ro Județ", extract.Field{Type: "text", Name: "l77", Label: "Județ"}, shared.SemanticRegion},
		{"ro Mesaj", extract.Field{Tag: "textarea", Type: "textarea", Name: "l78", Label: "Mesaj"}, shared.SemanticMessage},
		{"ro nume is not numero", extract.Field{Type: "text", Name: "l79", Label: "Numero di serie"}, shared.SemanticUnknown},
		{"ro checkbox termeni", extract.Field{Type: "checkbox", Name: "l80", Label: "Sunt de acord cu termenii și condițiile"}, shared.SemanticConsent},
		{"ro checkbox newsletter", extract.Field{Type: "checkbox", Name: "l81", Label: "Vreau să primesc oferte"}, shared.SemanticMarketingOptIn},
		{"el Επώνυμο", extract.Field{Type: "text", Name: "l82", Label: "Επώνυμο"}, shared.SemanticFamilyName},
		{"el Ονοματεπώνυμο", extract.Field{Type: "text", Name: "l83", Label: "Ονοματεπώνυμο"}, shared.SemanticPersonName},
		{"el Τηλέφωνο", extract.Field{Type: "text", Name: "l84", Label: "Τηλέφωνο"}, shared.SemanticPhone},
		{"el Μήνυμα", extract.Field{Tag: "textarea", Type: "textarea", Name: "l85", Label: "Μήνυμα"}, shared.SemanticMessage},
		{"el ΠΟΛΗ upper case", extract.Field{Type: "text", Name: "l86", Label: "ΠΟΛΗ"}, shared.SemanticLocality},
		{"el checkbox όρους", extract.Field{Type: "checkbox", Name: "l87", Label: "Αποδέχομαι τους όρους χρήσης"}, shared.SemanticConsent},
		{"ar الاسم الكامل", extract.Field{Type: "text", Name: "l88", Label: "الاسم الكامل"}, shared.SemanticPersonName},
		{"ar البريد الإلكتروني", extract.Field{Type: "text", Name: "l89", Label: "البريد الإلكتروني"}, shared.SemanticEmail},
		{"ar رقم الهاتف", extract.Field{Type: "text", Name: "l90", Label: "رقم الهاتف"}, shared.SemanticPhone},
		{"ar الرمز البريدي is not email", extract.Field{Type: "text", Name: "l91", Label: "الرمز البريدي"}, shared.SemanticPostcode},
		{"ar اسم المستخدم is not a name", extract.Field{Type: "text", Name: "l92", Label: "اسم المستخدم"}, shared.SemanticUnknown},
		{"ar checkbox الشروط", extract.Field{Type: "checkbox", Name: "l93", Label: "أوافق على الشروط والأحكام"}, shared.SemanticConsent},
		{"fa نام خانوادگی", extract.Field{Type: "text", Name: "l94", Label: "نام خانوادگی"}, shared.SemanticFamilyName},
		{"fa ایمیل", extract.Field{Type: "text", Name: "l95", Label: "ایمیل"}, shared.SemanticEmail},
		{"fa شماره تماس", extract.Field{Type: "text", Name: "l96", Label: "شماره تماس"}, shared.SemanticPhone},
		{"fa نام کاربری is not a name", extract.Field{Type: "text", Name: "l97", Label: "نام کاربری"}, shared.SemanticUnknown},
		{"fa checkbox قوانین", extract.Field{Type: "checkbox", Name: "l98", Label: "قوانین را می\u200cپذیرم"}, shared.SemanticConsent},
		{"he שם פרטי", extract.Field{Type: "text", Name: "l99", Label: "שם פרטי"}, shared.SemanticGivenName},
		{"he שם משפחה", extract.Field{Type: "text", Name: "l100", Label: "שם משפחה"}, shared.SemanticFamilyName},
		{"he טלפון", extract.Field{Type: "text", Name: "l101", Label: "טלפון"}, shared.SemanticPhone},
		{"he שם משתמש is not a name", extract.Field{Type: "text", Name: "l102", Label: "שם משתמש"}, shared.SemanticUnknown},
		{"he checkbox תקנון", extract.Field{Type: "checkbox", Name: "l103", Label: "קראתי ואני מסכים לתקנון"}, shared.SemanticConsent},
		{"vi Họ và tên", extract.Field{Type: "text", Name: "l104", Label: "Họ và tên"}, shared.SemanticPersonName},
		{"vi Số điện thoại", extract.Field{Type: "text", Name: "l105", Label: "Số điện thoại"}, shared.SemanticPhone},
		{"vi Địa chỉ", extract.Field{Type: "text", Name: "l106", Label: "Địa chỉ"}, shared.SemanticStreetAddress},
		{"vi Tên đăng nhập is not a name", extract.Field{Type: "text", Name: "l107", Label: "Tên đăng nhập"}, shared.SemanticUnknown},
		{"vi checkbox điều khoản", extract.Field{Type: "checkbox", Name: "l108", Label: "Tôi đồng ý với điều khoản sử dụng"}, shared.SemanticConsent},
		{"id Nama lengkap", extract.Field{Type: "text", Name: "l109", Label: "Nama lengkap"}, shared.SemanticPersonName},
		{"id Nomor telepon", extract.Field{Type: "text", Name: "l110", Label: "Nomor telepon"}, shared.SemanticPhone},
		{"id Kota", extract.Field{Type: "text", Name: "l111", Label: "Kota"}, shared.SemanticLocality},
		{"id Pesan", extract.Field{Tag: "textarea", Type: "textarea", Name: "l112", Label: "Pesan"}, shared.SemanticMessage},
		{"id Nama pengguna is not a name", extract.Field{Type: "text", Name: "l113", Label: "Nama pengguna"}, shared.SemanticUnknown},
		{"id checkbox syarat", extract.Field{Type: "checkbox", Name: "l114", Label: "Saya setuju dengan syarat dan ketentuan"}, shared.SemanticConsent},
		{"no Saken gjelder", extract.Field{Type: "text", Name: "l200", Label: "Saken gjelder"}, shared.SemanticSubject},
		{"sv shop name is not a person", extract.Field{Type: "text", Name: "l201", Label: "Butikens namn"}, shared.SemanticUnknown},
		{"da Afrejsedato", extract.Field{Type: "text", Name: "l202", Label: "Afrejsedato"}, shared.SemanticDate},
		{"da departure from a place is not a date", extract.Field{Type: "text", Name: "l203", Label: "Afrejse fra"}, shared.SemanticUnknown},
		{"hu security question is not a message", extract.Field{Type: "text", Name: "l204", Label: "Biztonsági kérdés"}, shared.SemanticUnknown},
		{"fi Syntymäpäivä", extract.Field{Type: "text", Name: "l205", Label: "Syntymäpäivä"}, shared.SemanticDate},
		{"vi Thành phố is a city, not ph(one)", extract.Field{Type: "text", Name: "l206", Label: "Thành phố"}, shared.SemanticLocality},
		{"en Tell us is not tel", extract.Field{Tag: "textarea", Type: "textarea", Name: "l207", Label: "Tell us about your project"}, shared.SemanticMessage},
		{"es Dato obligatorio hint is not a date", extract.Field{Type: "text", Name: "l116", Hint: "Dato obligatorio"}, shared.SemanticUnknown},
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

// A choice list of categories is the subject of the message beside it; in
// a form without a message box (a search form's filter) it is nothing of
// ours.
func TestChoiceSubjectBesideAMessage(t *testing.T) {
	message := extract.Field{Tag: "textarea", Type: "textarea", Name: "msg", Label: "Message"}
	hiddenMessage := message
	hiddenMessage.Visibility = hiddenBy(extract.HiddenByWrapper, extract.ReasonDisplayNone)
	opts := []extract.Option{{Value: "a", Text: "Billing"}, {Value: "b", Text: "Technical"}, {Value: "c", Text: "Other"}, {Value: "d", Text: "Press"}}
	lists := []struct {
		lang string
		f    extract.Field
	}{
		{"en", extract.Field{Type: "select-one", Name: "cat", Label: "Category", LabelSource: extract.LabelFor, Options: opts}},
		{"en how can we help", extract.Field{Type: "select-one", Name: "menu-839", Label: "How can we help you?", LabelSource: extract.LabelNearby, Options: opts}},
		{"fr", extract.Field{Type: "select-one", Name: "cid", Label: "Catégorie *", LabelSource: extract.LabelFor, Options: opts}},
		{"es", extract.Field{Type: "select-one", Name: "x", Label: "¿Cómo podemos ayudarte? (Por favor, elige uno)", LabelSource: extract.LabelNearby, Options: opts}},
		{"ru radio group", extract.Field{Type: "radio", Name: "form[type]", Label: "Категория вопроса:", LabelSource: extract.LabelAriaLabelledBy, Options: opts}},
		{"de", extract.Field{Type: "select-one", Name: "k", Label: "Kategorie", LabelSource: extract.LabelFor, Options: opts}},
		{"ja", extract.Field{Type: "select-one", Name: "k", Label: "お問い合わせ種別", LabelSource: extract.LabelFor, Options: opts}},
	}
	for _, l := range lists {
		t.Run(l.lang, func(t *testing.T) {
			for _, c := range []struct {
				what string
				form extract.Form
				want shared.SemanticType
			}{
				{"beside a message box", visibleForm(extract.Field{Type: "email", Name: "email"}, l.f, message), shared.SemanticSubject},
				{"without a message box", visibleForm(extract.Field{Type: "text", Name: "q", Label: "Search"}, l.f), shared.SemanticUnknown},
				{"beside a hidden message box", visibleForm(extract.Field{Type: "email", Name: "email"}, l.f, hiddenMessage), shared.SemanticUnknown},
			} {
				if got := classify.FieldsWith(c.form, nil, nil)[1]; got.Semantic != c.want {
					t.Errorf("%s: %q = %s %v, want %s", c.what, l.f.Label, got.Semantic, got.Evidence, c.want)
				}
			}
		})
	}
}

// manyOptions is n options "<prefix> 1"… "<prefix> n".
func manyOptions(prefix string, n int) []extract.Option {
	out := make([]extract.Option, n)
	for i := range out {
		out[i] = extract.Option{Value: strconv.Itoa(i + 1), Text: prefix + " " + strconv.Itoa(i+1)}
	}
	return out
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
		{"leave empty, Swedish", extract.Field{Type: "text", Name: "u", Label: "Lämna detta fält tomt"}, extract.Form{}, true},
		{"leave empty, Finnish", extract.Field{Type: "text", Name: "u", Label: "Jätä tämä kenttä tyhjäksi"}, extract.Form{}, true},
		{"leave empty, Czech", extract.Field{Type: "text", Name: "u", Label: "Toto pole nevyplňujte"}, extract.Form{}, true},
		{"leave empty, Hungarian", extract.Field{Type: "text", Name: "u", Label: "Ezt a mezőt hagyja üresen"}, extract.Form{}, true},
		{"must not be empty, Vietnamese, is a required field", extract.Field{Type: "text", Name: "u", Label: "Họ và tên", Hint: "Vui lòng không để trống"}, extract.Form{}, false},
		{"must not be empty, Danish, is a required field", extract.Field{Type: "text", Name: "u", Label: "Navn", Hint: "Feltet må ikke være tomt"}, extract.Form{}, false},
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
		{"newsletter sign-up", extract.Form{Heading: "Sign up for our newsletter", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Sign up")}}, classify.PurposeNewsletter},
		{"register your interest", extract.Form{Heading: "Register your interest", Fields: []extract.Field{name, email, phone, msg}, Submits: []extract.Submit{sub("Register your interest")}}, classify.PurposeEnquiry},
		{"enquiry", extract.Form{Heading: "Make an enquiry", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Send enquiry")}}, classify.PurposeEnquiry},
		{"German contact", extract.Form{Heading: "Kontakt", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Absenden")}}, classify.PurposeContact},
		{"comment", extract.Form{ID: "commentform", Action: "https://blog.example/wp-comments-post.php", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Post Comment")}}, classify.PurposeComment},
		{"newsletter", extract.Form{Heading: "Subscribe to our newsletter", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Subscribe")}}, classify.PurposeNewsletter},
		{"search", extract.Form{Fields: []extract.Field{q}, Submits: []extract.Submit{sub("Go")}}, classify.PurposeSearch},
		{"login", extract.Form{Fields: []extract.Field{email, pw}, Submits: []extract.Submit{sub("Log in")}}, classify.PurposeLogin},
		{"registration", extract.Form{Fields: []extract.Field{name, email, pw, {Type: "password", Name: "pw2", Label: "Confirm password"}}, Submits: []extract.Submit{sub("Create account")}}, classify.PurposeRegistration},
		{"password recovery", extract.Form{Heading: "Forgot your password?", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Reset password")}}, classify.PurposePasswordRecovery},
		{"order", extract.Form{Fields: []extract.Field{{Type: "number", Name: "quantity", Label: "Qty"}}, Submits: []extract.Submit{sub("Add to cart")}}, classify.PurposeOrder},
		// languages added with sv, da, no, fi, cs, hu, ro, el, ar, fa, he, vi, id
		{"sv booking", extract.Form{Heading: "Boka tid", Fields: []extract.Field{name, phone, msg}, Submits: []extract.Submit{sub("Boka")}}, classify.PurposeBooking},
		{"da quote", extract.Form{Heading: "Få et uforpligtende tilbud", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Send")}}, classify.PurposeQuote},
		{"no callback", extract.Form{Heading: "Bli oppringt", Fields: []extract.Field{name, phone}, Submits: []extract.Submit{sub("Ring meg")}}, classify.PurposeCallback},
		{"fi newsletter", extract.Form{Heading: "Tilaa uutiskirje", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Tilaa")}}, classify.PurposeNewsletter},
		{"fi application form is not a search", extract.Form{Heading: "Hakulomake", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Lähetä")}}, classify.PurposeContact},
		{"cs quote", extract.Form{Heading: "Nezávazná poptávka", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("Odeslat poptávku")}}, classify.PurposeQuote},
		{"hu booking", extract.Form{Heading: "Időpontfoglalás", Fields: []extract.Field{name, phone, msg}, Submits: []extract.Submit{sub("Foglalok")}}, classify.PurposeBooking},
		{"ro password recovery", extract.Form{Heading: "Ai uitat parola?", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Resetare parolă")}}, classify.PurposePasswordRecovery},
		{"el booking", extract.Form{Heading: "Κράτηση τραπεζιού", Fields: []extract.Field{name, phone, msg}, Submits: []extract.Submit{sub("Κράτηση")}}, classify.PurposeBooking},
		{"ar contact", extract.Form{Heading: "اتصل بنا", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("إرسال")}}, classify.PurposeContact},
		{"fa newsletter", extract.Form{Heading: "عضویت در خبرنامه", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("عضویت")}}, classify.PurposeNewsletter},
		{"he quote", extract.Form{Heading: "קבלת הצעת מחיר", Fields: []extract.Field{name, email, msg}, Submits: []extract.Submit{sub("שלח")}}, classify.PurposeQuote},
		{"vi booking", extract.Form{Heading: "Đặt lịch hẹn", Fields: []extract.Field{name, phone, msg}, Submits: []extract.Submit{sub("Đặt lịch")}}, classify.PurposeBooking},
		{"id newsletter", extract.Form{Heading: "Berlangganan buletin kami", Fields: []extract.Field{email}, Submits: []extract.Submit{sub("Berlangganan")}}, classify.PurposeNewsletter},
		{"pl Kup teraz", extract.Form{Fields: []extract.Field{{Type: "number", Name: "n", Label: "Ilość"}}, Submits: []extract.Submit{sub("Kup teraz")}}, classify.PurposeOrder},
		{"no kupongen is not Polish kup", extract.Form{Heading: "Kontakt oss", Fields: []extract.Field{name, email}, Submits: []extract.Submit{sub("Send inn kupongen")}}, classify.PurposeContact},
		{"sv login", extract.Form{Heading: "Logga in", Fields: []extract.Field{{Type: "text", Name: "u", Label: "Användarnamn"}}, Submits: []extract.Submit{sub("Logga in")}}, classify.PurposeLogin},
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
	for _, p := range classify.PurposeValues() {
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
