package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// page wraps a body in a minimal English document.
func page(title, body string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + `</title></head><body>` + body + `</body></html>`
}

// Plugin signatures (REFERENCE.md, "Form plugins"): each form is recognised
// by its markup and gets the plugin's effects and submission.
func TestPluginSignatures(t *testing.T) {
	const contactFields = `<p><label for="n">Your name</label><input id="n" name="%s" type="text" required></p>
<p><label for="e">Email</label><input id="e" name="%s" type="email" required></p>
<p><label for="m">Message</label><textarea id="m" name="%s" required></textarea></p>`
	emailOwner := []shared.EffectKind{shared.EffectSendsEmailToBusiness}
	cases := []struct {
		name string
		body string
		want []actionSummary
	}{
		{"contact form 7", `<h2>Contact us</h2><div class="wpcf7 no-js" id="wpcf7-f12-o1" data-wpcf7-id="12">
<form action="/contact/#wpcf7-f12-o1" method="post" class="wpcf7-form init" aria-label="Contact form">
<input type="hidden" name="_wpcf7" value="12"><input type="hidden" name="_wpcf7_version" value="6.0.6"><input type="hidden" name="_wpcf7_unit_tag" value="wpcf7-f12-o1">
<p><label for="n">Your name</label><input id="n" name="your-name" type="text" required></p>
<p><label for="e">Your email</label><input id="e" name="your-email" type="email" required></p>
<p><label for="m">Your message</label><textarea id="m" name="your-message" required></textarea></p>
<button type="submit">Send message</button></form></div>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/contact/", Occurrences: 1}},
				Fillable: []string{"your-name:person-name!", "your-email:email!", "your-message:message!"},
				Effects:  emailOwner}}},
		{"gravity forms", `<div class="gform_wrapper gravity-theme" id="gform_wrapper_3"><h2 class="gform_title">Request a quote</h2>
<form method="post" enctype="multipart/form-data" id="gform_3" action="/quote/">
<div class="gfield"><label class="gfield_label" for="input_3_1">Name</label><input name="input_1" id="input_3_1" type="text" aria-required="true"></div>
<div class="gfield"><label class="gfield_label" for="input_3_2">Email</label><input name="input_2" id="input_3_2" type="email" aria-required="true"></div>
<div class="gfield"><label class="gfield_label" for="input_3_3">Describe the job</label><textarea name="input_3" id="input_3_3"></textarea></div>
<input type="hidden" name="gform_submit" value="3"><input type="hidden" name="is_submit_3" value="1"><input type="hidden" name="gform_unique_id" value="">
<input type="submit" id="gform_submit_button_3" value="Get my quote"></form></div>`,
			[]actionSummary{{Kind: shared.KindQuote,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/quote/", Occurrences: 1}},
				Fillable: []string{"input_1:person-name!", "input_2:email!", "input_3:message"},
				Effects:  []shared.EffectKind{shared.EffectRequestsQuote, shared.EffectSendsEmailToBusiness}}}},
		{"wpforms", `<div class="wpforms-container"><h2>Contact us</h2><form id="wpforms-form-88" class="wpforms-validate wpforms-form" method="post" action="/contact/" data-formid="88">
<div class="wpforms-field"><label class="wpforms-field-label" for="wpforms-88-field_0">Name</label><input type="text" id="wpforms-88-field_0" name="wpforms[fields][0]" required></div>
<div class="wpforms-field"><label class="wpforms-field-label" for="wpforms-88-field_1">Email</label><input type="email" id="wpforms-88-field_1" name="wpforms[fields][1]" required></div>
<div class="wpforms-field"><label class="wpforms-field-label" for="wpforms-88-field_2">Comment or Message</label><textarea id="wpforms-88-field_2" name="wpforms[fields][2]" required></textarea></div>
<input type="hidden" name="wpforms[id]" value="88"><input type="hidden" name="wpforms[token]" value="abc123">
<button type="submit" name="wpforms[submit]" value="wpforms-submit">Submit</button></form></div>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/contact/", Occurrences: 1}},
				Fillable: []string{"wpforms[fields][0]:person-name!", "wpforms[fields][1]:email!", "wpforms[fields][2]:message!"},
				Effects:  emailOwner}}},
		{"elementor pro", `<div class="elementor-widget elementor-widget-form"><h2>Get in touch</h2><form class="elementor-form" method="post" name="Contact">
<input type="hidden" name="post_id" value="41"><input type="hidden" name="form_id" value="5e1b3c2">
<div class="elementor-field-group"><label for="form-field-name">Name</label><input type="text" name="form_fields[name]" id="form-field-name" required></div>
<div class="elementor-field-group"><label for="form-field-email">Email</label><input type="email" name="form_fields[email]" id="form-field-email" required></div>
<div class="elementor-field-group"><label for="form-field-message">Message</label><textarea name="form_fields[message]" id="form-field-message"></textarea></div>
<button type="submit" class="elementor-button">Send</button></form></div>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/wp-admin/admin-ajax.php", Occurrences: 1}},
				Fillable: []string{"form_fields[name]:person-name!", "form_fields[email]:email!", "form_fields[message]:message"},
				Effects:  emailOwner}}},
		{"netlify", `<h2>Contact us</h2><form name="contact" method="POST" data-netlify="true" data-netlify-honeypot="bot-field" action="/thanks/">
<input type="hidden" name="form-name" value="contact">
<p style="display:none"><label>Don't fill this out: <input name="bot-field"></label></p>
` + sprintf(contactFields, "name", "email", "message") + `<button type="submit">Send</button></form>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/thanks/", Occurrences: 1}},
				Fillable: []string{"name:person-name!", "email:email!", "message:message!"},
				Effects:  []shared.EffectKind{shared.EffectSendsEmailToBusiness, shared.EffectSharesDataWithThirdParty}}}},
		{"formspree", `<h2>Contact us</h2><form action="https://formspree.io/f/xyzzabcd" method="POST">
` + sprintf(contactFields, "name", "email", "message") + `<input type="text" name="_gotcha" style="display:none"><button type="submit">Send</button></form>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/f/xyzzabcd", Occurrences: 1}},
				Fillable: []string{"name:person-name!", "email:email!", "message:message!"},
				Effects:  []shared.EffectKind{shared.EffectSendsEmailToBusiness, shared.EffectSharesDataWithThirdParty}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Contact", tc.body)}}, nil)
			if diff := cmp.Diff(tc.want, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}
