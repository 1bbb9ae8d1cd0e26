package portal

import (
	"regexp"
	"strconv"

	"github.com/frontlatch/frontlatch/shared"
)

// consentKeyWords names, for the owner, each key of shared.ConsentSubject
// and of the structs inside it, by its JSON name; a test walks the structs'
// json tags, so a key added to the consent subject needs words here.
var consentKeyWords = map[string]string{
	// ConsentSubject
	"actionId":   "which action it is",
	"kind":       "what kind of action it is", // also ConsentEffect.kind: see effectKeyWords
	"disclosure": "what it does",
	"limits":     "your limits",
	"doors":      "its ways in",
	"effects":    "what it does",
	"barriers":   "what stands in an agent's way (a CAPTCHA, a sign-in)",
	// AcknowledgedDisclosure
	"holdsInventory":    "whether it holds a slot or stock for the customer",
	"reversible":        "whether it can be undone",
	"createsObligation": "whether it commits you to something",
	"transmitsPii":      "whether it sends the customer's personal data",
	"chargesMoney":      "whether it charges money",
	"summary":           "its summary",
	// ConfirmationLimits, VolumeCap
	"volumeCap": "how often agents may use it",
	"notify":    "where notices go",
	"max":       "how often agents may use it",
	"per":       "how often agents may use it",
	// ConsentDoor
	"method":    "how it is reached",
	"url":       "its address",
	"toolName":  "its WebMCP tool",
	"transport": "how it sends",
	"endpoint":  "where it sends submissions",
	"enctype":   "how it sends",
	// ConsentEffect
	"target": "who or what it reaches",
}

var changePath = regexp.MustCompile(`^\$\.(doors|effects|disclosure\.effects)\[(\d+)\](?:\.(\w+))?$|^\$\.(?:\w+\.)*(\w+)$`)

// changeWords says one consent change in the owner's words, keeping the
// values as the comparison gives them.
func changeWords(c shared.ConsentChange) string {
	what := c.Path
	if m := changePath.FindStringSubmatch(c.Path); m != nil {
		switch {
		case m[1] == "doors":
			n, _ := strconv.Atoi(m[2])
			what = "way in " + strconv.Itoa(n+1)
			if m[3] != "" {
				what = consentKeyWords[m[3]] + " (" + what + ")"
			} else {
				what += " was added or removed"
			}
		case m[1] == "effects" || m[1] == "disclosure.effects":
			n, _ := strconv.Atoi(m[2])
			what = "what it does (effect " + strconv.Itoa(n+1) + ")"
			if m[3] == "target" {
				what = consentKeyWords["target"] + " (effect " + strconv.Itoa(n+1) + ")"
			}
		case consentKeyWords[m[4]] != "":
			what = consentKeyWords[m[4]]
		}
	}
	return upperFirst(what) + ": you were shown " + c.Confirmed + ", it is now " + c.Now + " (" + c.Path + ")"
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
