package mapper

import (
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// captcha is one CAPTCHA product (REFERENCE.md, "CAPTCHAs"): marks are
// class/id tokens of its widget, urls substrings of its script, fields the
// names of the response control it adds, scripts substrings of inline code.
type captcha struct {
	name    string
	marks   []string
	urls    []string
	fields  []string
	scripts []string
}

// captchas is the one list of CAPTCHA signatures; a more specific product
// comes before the generic "reCAPTCHA" row that catches the rest.
var captchas = []captcha{
	{name: "reCAPTCHA v2", marks: []string{"g-recaptcha"}, fields: []string{"g-recaptcha-response"}},
	{name: "reCAPTCHA v3", urls: []string{"recaptcha/api.js?render=", "recaptcha/enterprise.js?render="}, fields: []string{"_wpcf7_recaptcha_response"}, scripts: []string{"grecaptcha.execute"}},
	{name: "hCaptcha", marks: []string{"h-captcha"}, urls: []string{"hcaptcha.com/1/api.js", "js.hcaptcha.com"}, fields: []string{"h-captcha-response"}},
	{name: "Cloudflare Turnstile", marks: []string{"cf-turnstile"}, urls: []string{"challenges.cloudflare.com/turnstile"}, fields: []string{"cf-turnstile-response"}},
	{name: "Friendly Captcha", marks: []string{"frc-captcha"}, urls: []string{"friendlycaptcha.com", "friendly-challenge"}, fields: []string{"frc-captcha-solution"}},
	{name: genericRecaptcha, urls: []string{"google.com/recaptcha", "recaptcha.net/recaptcha", "gstatic.com/recaptcha"}},
}

// genericRecaptcha names a reCAPTCHA whose version the page does not show;
// it is reported only when no versioned row matched.
const genericRecaptcha = "reCAPTCHA"

// botChallenge is a page that is itself an anti-bot interstitial.
var botChallengeMarks = struct{ titles, urls []string }{
	titles: []string{"just a moment", "attention required", "checking your browser", "ddos protection", "access denied", "are you a robot", "verify you are human", "pardon our interruption"},
	urls:   []string{"/cdn-cgi/challenge-platform/", "captcha-delivery.com", "perimeterx.net", "px-cdn.net", "/_incapsula_resource", "ct.captcha-delivery"},
}

// loginPhrases say an action needs an account.
var loginPhrases = []string{"log in to book", "login to book", "sign in to book", "log in to continue", "sign in to continue", "must be logged in", "please log in", "please sign in", "login required", "anmelden, um", "connectez-vous pour", "inicia sesión para"}

// barrierFinding is one barrier and where it was seen.
type barrierFinding struct {
	kind   shared.BarrierKind
	what   string // the product or wall, so one CAPTCHA seen twice counts once
	detail string
	conf   float64
	ev     string
}

// pageBarriers are the barriers that guard every form of a page.
func pageBarriers(p *extract.Page, challengeHeader string) []barrierFinding {
	return append(pageCaptchas(p), pageBotChallenge(p, challengeHeader)...)
}

// formCaptchas are the CAPTCHAs inside a form: a widget or a response field.
func formCaptchas(f *extract.Form) []barrierFinding {
	var out []barrierFinding
	seen := map[string]bool{}
	for _, c := range captchas {
		for _, w := range f.Widgets {
			if m := matchAny(w.Class+" "+w.ID, c.marks); m != "" && !seen[c.name] {
				seen[c.name] = true
				out = append(out, barrierFinding{shared.BarrierCaptcha, c.name, c.name + " widget in the form; never filled or solved by an agent", 0.95, "form " + w.Tag + "." + m})
			}
		}
		for _, fl := range f.Fields {
			for _, n := range c.fields {
				if fl.Name == n && !seen[c.name] {
					seen[c.name] = true
					out = append(out, barrierFinding{shared.BarrierCaptcha, c.name, c.name + " response field in the form; a token only the CAPTCHA can produce", 0.95, "input[name=" + n + "]"})
				}
			}
		}
	}
	return out
}

// pageCaptchas are the CAPTCHAs a page loads or shows outside any form:
// they guard the page's forms at submit time.
func pageCaptchas(p *extract.Page) []barrierFinding {
	var out []barrierFinding
	seen := map[string]bool{}
	note := func(c captcha, detail, ev string) {
		if seen[c.name] || c.name == genericRecaptcha && (seen["reCAPTCHA v2"] || seen["reCAPTCHA v3"]) {
			return
		}
		seen[c.name] = true
		out = append(out, barrierFinding{shared.BarrierCaptcha, c.name, detail, 0.9, ev})
	}
	for _, c := range captchas {
		for _, s := range p.Scripts {
			if m := matchAny(s.Src, c.urls); m != "" {
				note(c, c.name+" present on the page; no corresponding form input in the markup, so it is script-injected at submit time", m+" matched in a script src")
			}
			if m := matchAny(s.Text, c.scripts); m != "" {
				note(c, c.name+" called from the page's script at submit time", m+" matched in an inline script")
			}
		}
		for _, e := range p.Embeds {
			if m := matchAny(e.Class+" "+e.ID, c.marks); m != "" {
				note(c, c.name+" widget on the page", e.Tag+"."+m)
			}
		}
	}
	return out
}

// pageBotChallenge reports a page that is an anti-bot interstitial.
func pageBotChallenge(p *extract.Page, header string) []barrierFinding {
	if m := matchAny(strings.ToLower(p.Title), botChallengeMarks.titles); m != "" {
		return []barrierFinding{{shared.BarrierBotChallenge, "bot challenge", "the page is an anti-bot challenge (title “" + p.Title + "”); a browser must pass it before any action", 0.8, "page title"}}
	}
	for _, s := range p.Scripts {
		if m := matchAny(s.Src, botChallengeMarks.urls); m != "" {
			return []barrierFinding{{shared.BarrierBotChallenge, "bot challenge", "an anti-bot script guards the page", 0.7, m + " matched in a script src"}}
		}
	}
	if strings.Contains(strings.ToLower(header), "challenge") {
		return []barrierFinding{{shared.BarrierBotChallenge, "bot challenge", "the server answered with an anti-bot challenge header", 0.85, "cf-mitigated: " + header}}
	}
	return nil
}

// formLogin reports a form that needs an account: it asks for a password,
// or its text says to log in first.
func formLogin(f *extract.Form) []barrierFinding {
	for _, fl := range f.Fields {
		if fl.Type == "password" && !fl.Visibility.Hidden {
			return []barrierFinding{{shared.BarrierLogin, "login", "the form asks for a password: the customer needs an account", 0.7, "input[type=password] " + fl.Name}}
		}
	}
	if m := matchAny(strings.ToLower(f.Text), loginPhrases); m != "" {
		return []barrierFinding{{shared.BarrierLogin, "login", "the form says “" + m + "”", 0.75, "form text"}}
	}
	return nil
}

// matchAny returns the first needle found in s (case-insensitive), "" if none.
func matchAny(s string, needles []string) string {
	ls := strings.ToLower(s)
	for _, n := range needles {
		if n != "" && strings.Contains(ls, n) {
			return n
		}
	}
	return ""
}
