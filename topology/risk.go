package topology

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/frontlatch/frontlatch/topology/weborigin"
)

// RiskLevel grades what could happen if an action were executed.
type RiskLevel string

// Risk levels.
const (
	RiskLow      RiskLevel = "low"
	RiskMedium   RiskLevel = "medium"
	RiskHigh     RiskLevel = "high"
	RiskCritical RiskLevel = "critical"
)

// riskLevels lists every RiskLevel.
var riskLevels = []RiskLevel{RiskLow, RiskMedium, RiskHigh, RiskCritical}

// RiskCategory is the closed classification of risk-policy-v0.2.
type RiskCategory string

// Risk categories.
const (
	RiskNavigation  RiskCategory = "navigation"  // same-origin link that only navigates
	RiskDisclosure  RiskCategory = "disclosure"  // opens a menu, tab, modal, accordion, popup
	RiskFormFill    RiskCategory = "form-fill"   // a control that takes a value
	RiskSubmit      RiskCategory = "submit"      // sends a form or data
	RiskAuth        RiskCategory = "auth"        // log in, log out, sign up, password
	RiskPayment     RiskCategory = "payment"     // pays, checks out, buys
	RiskDestructive RiskCategory = "destructive" // deletes, cancels, removes, unsubscribes
	RiskExternal    RiskCategory = "external"    // leaves the origin (other host, mailto:, tel:, new window, download)
	RiskUnknown     RiskCategory = "unknown"     // nothing the policy recognises
)

// riskCategories lists every RiskCategory.
var riskCategories = []RiskCategory{RiskNavigation, RiskDisclosure, RiskFormFill, RiskSubmit, RiskAuth, RiskPayment, RiskDestructive, RiskExternal, RiskUnknown}

// riskPolicy maps each category to its level; explorable says which ones the
// default explorer clicks. Keep the two together: they are the policy.
var riskPolicy = map[RiskCategory]struct {
	level      RiskLevel
	explorable bool
}{
	RiskNavigation:  {RiskLow, true},
	RiskDisclosure:  {RiskLow, true},
	RiskFormFill:    {RiskMedium, false},
	RiskSubmit:      {RiskHigh, false},
	RiskAuth:        {RiskHigh, false},
	RiskPayment:     {RiskCritical, false},
	RiskDestructive: {RiskCritical, false},
	RiskExternal:    {RiskMedium, false},
	RiskUnknown:     {RiskMedium, false},
}

// Risk is the policy's verdict on clicking one element.
type Risk struct {
	Level    RiskLevel
	Category RiskCategory
	Evidence []Evidence
}

// Explorable reports whether the default explorer may click the element.
func (r Risk) Explorable() bool { return riskPolicy[r.Category].explorable }

// SkipReason is the SkippedAction.reason for a refused action, e.g.
// "blocked:destructive".
func (r Risk) SkipReason() string { return "blocked:" + string(r.Category) }

// Keyword rules, checked in this order against the element's accessible name,
// text, value, title, href, id, name and class words. The first match wins, so
// a "Delete booking" button is destructive before it is anything else.
var riskKeywords = []struct {
	category RiskCategory
	re       *regexp.Regexp
}{
	{RiskDestructive, regexp.MustCompile(`(?i)\b(delete|remove|destroy|erase|wipe|purge|discard|deactivate|close (my )?account|cancel (my )?(account|booking|appointment|order|subscription|membership)|unsubscribe|revoke|terminate|reset (all|account|everything))\b`)},
	{RiskPayment, regexp.MustCompile(`(?i)\b(pay|payment|checkout|check out|buy|purchase|place order|order now|add to (cart|basket|bag)|donate|subscribe now|upgrade|billing|credit card|add card)\b`)},
	{RiskAuth, regexp.MustCompile(`(?i)\b(log ?in|log ?out|sign ?in|sign ?out|sign ?up|register|create (an )?account|forgot (your )?password|reset password|my account|authenticate|logout|login|signin|signup)\b`)},
	{RiskSubmit, regexp.MustCompile(`(?i)\b(submit|send|confirm|save|apply|post|publish|request (a )?(call ?back|callback|quote)|enquire|inquire|get (a )?quote|contact us now|complete booking|book (it|appointment now)|finish|accept|agree)\b`)},
}

// disclosureRoles are widget roles whose click reveals content in place.
var disclosureRoles = map[string]bool{"tab": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "treeitem": true}

var formFillRoles = map[string]bool{
	"textbox": true, "searchbox": true, "combobox": true, "checkbox": true, "radio": true,
	"switch": true, "slider": true, "spinbutton": true, "listbox": true, "option": true,
}

// ClassifyRisk applies risk-policy-v0.2 to clicking el on a page at pageURL
// (used to tell same-origin navigation from external links). It is a pure
// function of the element's observed facts, so it is deterministic; its
// evidence level is heuristic because it infers intent from markup and words.
func ClassifyRisk(el *ActionableElement, pageURL string) Risk {
	cat, ev := classify(el, pageURL)
	p := riskPolicy[cat]
	ev = append(ev, Evidence{Level: EvidenceDerived, Source: "risk-policy", Fact: "policy", Value: RiskPolicyVersion})
	return Risk{Level: p.level, Category: cat, Evidence: ev}
}

func heur(fact, value string) Evidence {
	return Evidence{Level: EvidenceHeuristic, Source: "risk-policy", Fact: fact, Value: value}
}

func classify(el *ActionableElement, pageURL string) (RiskCategory, []Evidence) {
	a := el.Attributes
	role := el.Role
	tag := el.Tag
	typ := strings.ToLower(a["type"])
	words := riskWords(el)

	// Controls that take a value are form-fill whatever their words say.
	isControl := tag == "select" || tag == "textarea" ||
		(tag == "input" && !inputIsButton(typ))
	if isControl || (formFillRoles[role] && tag != "button" && tag != "a") {
		return RiskFormFill, []Evidence{heur("control", tag+"[type="+typ+"] role="+role)}
	}

	for _, k := range riskKeywords {
		if m := k.re.FindString(words); m != "" {
			// "Send" on a link to a page is navigation text, not a submission;
			// only the high-stakes words override a link's href.
			if tag == "a" && k.category == RiskSubmit {
				continue
			}
			return k.category, []Evidence{heur("keyword", strings.ToLower(m))}
		}
	}

	if href, ok := a["href"]; ok && (tag == "a" || tag == "area") {
		return classifyLink(el, href, pageURL)
	}

	// A button that submits its form.
	if (tag == "button" && (typ == "" || typ == "submit") && el.Context.Form != nil) ||
		(tag == "input" && (typ == "submit" || typ == "image")) {
		return RiskSubmit, []Evidence{heur("submit-control", "submit button of a form")}
	}
	if typ == "reset" {
		return RiskDestructive, []Evidence{heur("reset-control", "resets a form's values")}
	}
	if a["formaction"] != "" {
		return RiskSubmit, []Evidence{heur("formaction", a["formaction"])}
	}

	// Explicit disclosure markup.
	for _, attr := range []string{"aria-haspopup", "aria-expanded", "aria-controls", "data-toggle", "data-bs-toggle", "data-target", "data-bs-target", "popovertarget", "commandfor"} {
		if v, ok := a[attr]; ok && v != "false" {
			return RiskDisclosure, []Evidence{heur("disclosure-attribute", attr+"="+v)}
		}
	}
	if disclosureRoles[role] || tag == "summary" || role == "DisclosureTriangle" {
		return RiskDisclosure, []Evidence{heur("disclosure-role", tag+" role="+role)}
	}
	// A plain button outside any form changes the page in place (opens a
	// modal, a menu, a "Book now" panel): nothing is sent by the click itself.
	if tag == "button" || role == "button" || (tag == "input" && typ == "button") {
		if el.Context.Form == nil {
			return RiskDisclosure, []Evidence{heur("in-page-button", "button outside any form, no risky wording")}
		}
		if typ == "button" {
			return RiskDisclosure, []Evidence{heur("in-page-button", "type=button inside a form")}
		}
	}
	return RiskUnknown, []Evidence{heur("unrecognised", tag+" role="+role)}
}

func classifyLink(el *ActionableElement, href, pageURL string) (RiskCategory, []Evidence) {
	a := el.Attributes
	if _, ok := a["download"]; ok {
		return RiskExternal, []Evidence{heur("download", href)}
	}
	if t := a["target"]; t != "" && t != "_self" && t != "_top" && t != "_parent" {
		return RiskExternal, []Evidence{heur("new-window", "target="+t)}
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return RiskUnknown, []Evidence{heur("page-url", "unparseable")}
	}
	u, err := base.Parse(strings.TrimSpace(href))
	if err != nil {
		return RiskUnknown, []Evidence{heur("href", "unparseable")}
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "javascript":
		// A script link behaves like an in-page button.
		return RiskDisclosure, []Evidence{heur("javascript-link", "href runs script in the page")}
	default:
		return RiskExternal, []Evidence{heur("scheme", u.Scheme+":")}
	}
	if o := weborigin.Of(u); o != weborigin.Of(base) {
		return RiskExternal, []Evidence{heur("cross-origin", o)}
	}
	if u.Path == base.Path && u.RawQuery == base.RawQuery && u.Fragment != "" {
		return RiskDisclosure, []Evidence{heur("fragment-link", "#"+u.Fragment)}
	}
	return RiskNavigation, []Evidence{heur("same-origin-link", u.Path)}
}

func inputIsButton(typ string) bool {
	switch typ {
	case "button", "submit", "reset", "image":
		return true
	}
	return false
}

// riskWords is the text the keyword rules read: what a user sees and what the
// markup names the action.
func riskWords(el *ActionableElement) string {
	parts := []string{el.AccessibleName, el.Text}
	for _, k := range []string{"value", "title", "aria-label", "href", "id", "name", "formaction", "data-action"} {
		if v := el.Attributes[k]; v != "" {
			parts = append(parts, v)
		}
	}
	s := strings.Join(parts, " | ")
	// Split identifiers so "delete-account" and "deleteAccount" read as words.
	s = camelBoundary.ReplaceAllString(s, "$1 $2")
	return strings.NewReplacer("-", " ", "_", " ", "/", " ", ".", " ").Replace(s)
}

var camelBoundary = regexp.MustCompile(`([a-z])([A-Z])`)
