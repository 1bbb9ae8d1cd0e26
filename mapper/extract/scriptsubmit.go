package extract

import (
	"regexp"
	"strings"
)

// MaxListenerForms bounds the forms whose submit listeners FromPage reads.
const MaxListenerForms = 20

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

// ScriptSubmitOf says whether a form is sent by script, from its onsubmit
// attribute and the source of its submit listeners: code that stops the
// browser's submission (preventDefault(), return false) and does not
// submit the form itself afterwards. The answer names where that was seen
// and the send call the code makes, when one is in it; "" when nothing
// shows a script send. It reads code and runs none.
func ScriptSubmitOf(onsubmit string, listeners []string) string {
	type source struct{ where, code string }
	var srcs []source
	if strings.TrimSpace(onsubmit) != "" {
		srcs = append(srcs, source{"the onsubmit attribute", onsubmit})
	}
	for _, l := range listeners {
		srcs = append(srcs, source{"a submit listener", l})
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
