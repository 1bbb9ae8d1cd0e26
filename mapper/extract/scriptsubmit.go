package extract

import (
	"regexp"
	"strings"
)

// MaxListenerForms bounds the forms whose submit listeners FromPage reads.
const MaxListenerForms = 20

// maxListenerButtons bounds the submit buttons of a form whose click
// listeners FromPage reads.
const maxListenerButtons = 5

var (
	// stopsSubmission: the code keeps the browser from submitting.
	stopsSubmission = regexp.MustCompile(`\bpreventDefault\s*\(|\breturn\s+false\b`)
	// submitsNatively: the code submits the form itself afterwards.
	submitsNatively = regexp.MustCompile(`\.(submit|requestSubmit)\s*\(`)
	// sendCalls are the script sends a handler may make, named as a person
	// would say them.
	sendCalls = []struct {
		re   *regexp.Regexp
		name string
	}{
		{regexp.MustCompile(`\bfetch\s*\(`), "fetch()"},
		{regexp.MustCompile(`\bXMLHttpRequest\b`), "XMLHttpRequest"},
		{regexp.MustCompile(`\$\.(ajax|post)\s*\(|jQuery\.(ajax|post)\s*\(`), "jQuery ajax"},
		{regexp.MustCompile(`\baxios\b`), "axios"},
		{regexp.MustCompile(`\bsendBeacon\s*\(`), "sendBeacon()"},
	}
)

// Handlers is the code a page gives a form's submission: its onsubmit
// attribute, the source of its submit listeners, and the source of the
// click listeners of its submit buttons (an onclick attribute is one;
// jQuery's handlers, bound on the element or delegated to it, are
// listeners too), each as FromPage reads them in a browser (static markup
// shows the attribute only).
type Handlers struct {
	OnSubmit string
	Submit   []string
	Click    []string
	// Delegated is the source of the submit listeners of the window, the
	// document or the body whose code names the form, and of their click
	// listeners whose code names one of its submit buttons: a selector it
	// matches, or its id, name or one of its classes.
	Delegated []string
}

// ScriptSubmitOf says whether a form is sent by script, from the code its
// page gives its submission: code that stops the browser's submission
// (preventDefault(), return false) and does not submit the form itself
// afterwards — in the onsubmit attribute, a submit listener, or a click
// listener of a submit button (many a page sends the form from its
// button's click). The answer names where that was seen and the send call
// the code makes, when one is in it; "" when nothing shows a script send.
// It reads code and runs none.
func ScriptSubmitOf(h Handlers) string {
	type source struct{ where, code string }
	var srcs []source
	if strings.TrimSpace(h.OnSubmit) != "" {
		srcs = append(srcs, source{"the onsubmit attribute", h.OnSubmit})
	}
	for _, l := range h.Submit {
		srcs = append(srcs, source{"a submit listener", l})
	}
	for _, l := range h.Click {
		srcs = append(srcs, source{"a submit button's click listener", l})
	}
	for _, l := range h.Delegated {
		srcs = append(srcs, source{"a listener of the page that names the form or its button", l})
	}
	for _, s := range srcs {
		if !stopsSubmission.MatchString(s.code) || submitsNatively.MatchString(s.code) {
			continue
		}
		for _, c := range sendCalls {
			if c.re.MatchString(s.code) {
				return s.where + " stops the browser's submission and sends the form with " + c.name
			}
		}
		return s.where + " stops the browser's submission (the code that sends the form is not in it)"
	}
	return ""
}

// maxListenerSource bounds the source read of one listener.
const maxListenerSource = 8000
