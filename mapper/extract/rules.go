package extract

import "regexp"

// The word and class lists extraction depends on, declared once here. The
// in-page script receives their sources as its argument (FromPage), so the
// browser and the static extractor apply the same lists. Patterns use only
// syntax shared by Go's RE2 and JavaScript (no look-around, \b only around
// ASCII words), and are matched case-insensitively.
const (
	// sendPattern: text of a control that sends what was typed — used to
	// find the submit control of a form that has no submit button, and the
	// button of a formless group.
	sendPattern = `\b(send|submit|enquire|inquire|request|book|reserve|subscribe|sign ?up|register|get (a )?quote|call me|contact us|apply|go|search|ok|senden|absenden|abschicken|anfragen|buchen|enviar|solicitar|reservar|envoyer|soumettre|valider|inviare|invia|prenota|verzenden|versturen|aanvragen|boeken|zoeken|suchen|buscar|rechercher|cerca|wyślij|gönder)\b|réserver|отправ|найти|送信|検索|提交|发送|搜索|전송|보내기|검색`
	// widgetClassPattern: class tokens of third-party widgets and captchas.
	widgetClassPattern = `(^|[\s_-])(widget|captcha|recaptcha|h-captcha|cf-turnstile|frc-captcha)([\s_-]|$)`
	// dialogClassPattern: class tokens of containers that open as modals.
	dialogClassPattern = `(^|[\s_-])(modal|popup|pop-up|lightbox|dialog|overlay|offcanvas)([\s_-]|$)`
	// hintClassPattern: class tokens of a field's help text.
	hintClassPattern = `(^|[\s_-])(help|hint|description|desc|instructions?|form-text|field-description|gfield_description|caption|note)([\s_-]|$)`
	// buttonClassPattern: class tokens of link/div elements styled as buttons.
	buttonClassPattern = `(^|[\s_-])(btn|button|submit)([\s_-]|$)`
	// directLinkPattern: the raw href of a link that reaches the business
	// directly (a phone number or an email address); only these links
	// carry Link.Context and Link.Heading.
	directLinkPattern = `^\s*(tel|mailto):`
	// linkSeparatorPattern: what may stand between links in a block that
	// holds nothing but links ("Phone | Email", "a · b").
	linkSeparatorPattern = `[\s:|·•,.-]`
)

var (
	sendWords      = regexp.MustCompile(`(?i)` + sendPattern)
	widgetClass    = regexp.MustCompile(`(?i)` + widgetClassPattern)
	dialogClass    = regexp.MustCompile(`(?i)` + dialogClassPattern)
	hintClass      = regexp.MustCompile(`(?i)` + hintClassPattern)
	buttonClass    = regexp.MustCompile(`(?i)` + buttonClassPattern)
	directLink     = regexp.MustCompile(`(?i)` + directLinkPattern)
	onlySeparators = regexp.MustCompile(`^` + linkSeparatorPattern + `*$`)
)

// scriptConfig is the argument of extract.js.
type scriptConfig struct {
	Send   string `json:"send"`
	Widget string `json:"widget"`
	Dialog string `json:"dialog"`
	Hint   string `json:"hint"`
	Button string `json:"button"`
	Direct string `json:"direct"`
	Sep    string `json:"sep"`
}

var jsConfig = scriptConfig{Send: sendPattern, Widget: widgetClassPattern, Dialog: dialogClassPattern, Hint: hintClassPattern, Button: buttonClassPattern, Direct: directLinkPattern, Sep: linkSeparatorPattern}
