package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// bookingForm is a plain booking form; extra is markup placed inside it.
func bookingForm(extra string) string {
	return `<h2>Book an appointment</h2><form id="booking" action="/book" method="post">
<label for="n">Full name</label><input id="n" name="name" autocomplete="name" required>
<label for="p">Phone</label><input id="p" name="phone" type="tel" autocomplete="tel" required>
<label for="d">Preferred date</label><input id="d" name="date" type="date">` + extra + `
<button type="submit">Book now</button></form>`
}

// Each CAPTCHA and wall is reported as a barrier of the action it guards,
// whether it sits in the form or is loaded by the page.
func TestBarriers(t *testing.T) {
	cases := []struct {
		name   string
		title  string
		body   string
		want   []shared.BarrierKind
		detail string // a word the first barrier's detail must carry
	}{
		{"none", "Book", bookingForm(""), nil, ""},
		{"recaptcha v2", "Book", bookingForm(`<div class="g-recaptcha" data-sitekey="6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI"></div>`) + `<script src="https://www.google.com/recaptcha/api.js" async defer></script>`, []shared.BarrierKind{shared.BarrierCaptcha}, "reCAPTCHA v2"},
		{"recaptcha v3", "Book", bookingForm("") + `<script src="https://www.google.com/recaptcha/api.js?render=6LcQx7IqAAAA"></script>`, []shared.BarrierKind{shared.BarrierCaptcha}, "reCAPTCHA v3"},
		{"hcaptcha", "Book", bookingForm(`<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>`) + `<script src="https://js.hcaptcha.com/1/api.js" async defer></script>`, []shared.BarrierKind{shared.BarrierCaptcha}, "hCaptcha"},
		{"turnstile", "Book", bookingForm(`<div class="cf-turnstile" data-sitekey="1x00000000000000000000AA"></div>`) + `<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>`, []shared.BarrierKind{shared.BarrierCaptcha}, "Turnstile"},
		{"friendly captcha", "Book", bookingForm(`<div class="frc-captcha" data-sitekey="FCMGEMUD2KTDSQ5H"></div>`), []shared.BarrierKind{shared.BarrierCaptcha}, "Friendly Captcha"},
		{"login in form", "Book", `<h2>Book a class</h2><form action="/book" method="post"><p>Members must be logged in to book.</p>
<label for="c">Class</label><select id="c" name="class"><option value="hiit">HIIT</option><option value="yoga">Yoga</option></select>
<label for="n">Name</label><input id="n" name="name" required><label for="e">Member email</label><input id="e" name="email" type="email" required><button type="submit">Book class</button></form>`, []shared.BarrierKind{shared.BarrierLogin}, "logged in"},
		{"bot challenge", "Just a moment...", bookingForm(""), []shared.BarrierKind{shared.BarrierBotChallenge}, "anti-bot"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page(tc.title, tc.body)}}, nil)
			a := findAction(t, g, shared.KindBooking)
			var got []shared.BarrierKind
			for _, b := range a.Barriers {
				got = append(got, b.Kind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("barriers (-want +got):\n%s", diff)
			}
			if tc.detail != "" && !contains(*a.Barriers[0].Detail, tc.detail) {
				t.Errorf("barrier detail %q does not name %q", *a.Barriers[0].Detail, tc.detail)
			}
		})
	}
}

// findAction returns the only action of kind, failing the test otherwise.
func findAction(t *testing.T, g *shared.ActionGraph, kind shared.ActionKind) shared.Action {
	t.Helper()
	var found []shared.Action
	for _, a := range g.Actions {
		if a.Kind == kind {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s action, got %d in %+v", kind, len(found), summaryOf(g))
	}
	return found[0]
}
