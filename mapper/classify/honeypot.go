package classify

import (
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// honeypotThreshold: the structural score at which a field is a honeypot.
// One strong signal suffices (off-screen, hidden by its own wrapper, a
// plugin's honeypot class, "leave this empty"); weak ones (tabindex=-1,
// autocomplete=off) only count together with another.
const honeypotThreshold = 0.5

// Honeypot signal weights.
const (
	hpOffScreen = 0.65 // positioned far outside the page
	// display:none / visibility:hidden / hidden attribute on the control or
	// its wrapper while the form shows. Conditional sections hide fields the
	// same way, but several at once: see the damping below.
	hpHiddenByStyle = 0.55
	hpInvisible     = 0.5 // opacity 0, zero size, clipped
	// A "hidden"/"sr-only"-style class on the control or a wrapper whose
	// stylesheet did not load (static extraction, saved pages, blocked
	// CSS): as strong as the computed hiding it stands for, damped alike.
	hpUtilityClass = 0.55
	hpPluginClass  = 0.9  // honeypot class of a plugin or a hand-made wrapper
	hpDeclared     = 0.95 // data-netlify-honeypot names it; Formspree's _gotcha on a Formspree form
	hpLeaveEmpty   = 0.65 // nearby text says to leave it empty
	hpTabIndex     = 0.35 // tabindex=-1 on a text control: out of keyboard reach; with autocomplete=off, a trap
	hpAutocomplete = 0.15 // autocomplete=off/new-password on a non-password control
	hpAriaHidden   = 0.2  // aria-hidden on a control that is still rendered (off-screen, clipped)
	hpDuplicate    = 0.2  // hidden, and asks for what a visible field of the form already asks for
	hpRequired     = -0.3 // honeypots are not required
	hpPrefilled    = -0.2 // honeypots start empty
)

// honeypot scores the structure of field i of the form (f) as a honeypot;
// evidence lists the signals.
// The name is never a signal, except where a service declares the
// honeypot's name in markup (Netlify's data-netlify-honeypot, Formspree's
// documented _gotcha on a form that posts to Formspree).
func honeypot(i int, f extract.Field, fc *formContext) (float64, []string) {
	if !isTextLike(f) && f.Type != "checkbox" {
		return 0, nil
	}
	// Checkboxes: only a declaration counts. Visibility does not: custom
	// checkboxes are hidden behind their styled labels.
	checkbox := f.Type == "checkbox"
	score := 0.0
	var ev []string
	add := func(w float64, why string) {
		score += w
		ev = append(ev, why)
	}
	if n, ok := fc.form.Data["netlify-honeypot"]; ok && n != "" && n == f.Name {
		add(hpDeclared, "named by data-netlify-honeypot")
	}
	if f.Name == "_gotcha" && isFormspree(fc.form.Action) {
		add(hpDeclared, "Formspree _gotcha on a Formspree form")
	}
	if anyClass(f, honeypotClass) {
		add(hpPluginClass, "honeypot class on the control or its wrapper")
	}
	v := f.Visibility
	ownHiding := v.Hidden && (v.HiddenBy == extract.HiddenBySelf || v.HiddenBy == extract.HiddenByWrapper)
	// Several hidden text controls in a visible form are a collapsed step
	// or a conditional section (first and last name shown on demand), not
	// traps, which come alone: their hiding counts for half.
	damp := 1.0
	if fc.hiddenTextFields >= 2 {
		damp = 0.5
	}
	if ownHiding && !checkbox {
		switch {
		case has(v.Reasons, extract.ReasonOffScreen):
			add(hpOffScreen, "positioned off-screen ("+v.HiddenBy+")")
		case has(v.Reasons, extract.ReasonDisplayNone) || has(v.Reasons, extract.ReasonVisibilityHidden) || has(v.Reasons, extract.ReasonHiddenAttribute):
			add(hpHiddenByStyle*damp, "hidden by CSS on the "+hiddenWhere(v.HiddenBy)+" while the form shows")
		case has(v.Reasons, extract.ReasonOpacityZero) || has(v.Reasons, extract.ReasonZeroSize) || has(v.Reasons, extract.ReasonClipped):
			add(hpInvisible*damp, "invisible "+hiddenWhere(v.HiddenBy)+" (opacity 0, zero size or clipped)")
		}
	} else if !v.Hidden && !checkbox && anyClass(f, hiddenUtilityClass) {
		add(hpUtilityClass*damp, "hiding utility class on the control or its wrapper")
	}
	if checkbox {
		return score, ev
	}
	if f.TabIndex != nil && *f.TabIndex < 0 {
		add(hpTabIndex, "tabindex=-1")
	}
	if f.Type != "password" && hasAny(f.AutocompleteTokens, "off", "nope", "new-password", "false", "no") {
		add(hpAutocomplete, "autocomplete="+strings.Join(f.AutocompleteTokens, " "))
	}
	for _, t := range []string{f.Label, f.Placeholder, f.Hint, f.NearbyText} {
		if c, ok := anyMatch(cHoneypotText, text(t)); ok {
			add(hpLeaveEmpty, "text says to leave it empty: "+c.why())
			break
		}
	}
	if has(v.Reasons, extract.ReasonAriaHidden) && !has(v.Reasons, extract.ReasonDisplayNone) {
		add(hpAriaHidden, "aria-hidden")
	}
	if score > 0 && score < honeypotThreshold && (ownHiding || anyClass(f, hiddenUtilityClass)) {
		s := fc.textSemantic(i, f)
		others := fc.visibleSemantics[s]
		if !v.Hidden {
			others-- // the control was counted among the visible ones
		}
		if s != "" && others > 0 {
			add(hpDuplicate, "hidden duplicate of a visible "+string(s)+" field")
		}
	}
	if score > 0 {
		if f.Required {
			add(hpRequired, "required (honeypots are not)")
		}
		if f.Value != "" && f.Type != "checkbox" {
			add(hpPrefilled, "has a default value")
		}
	}
	return score, ev
}

func hiddenWhere(by string) string {
	if by == extract.HiddenBySelf {
		return "control"
	}
	return "wrapper"
}

func isFormspree(action string) bool {
	u, err := url.Parse(action)
	return err == nil && (u.Hostname() == "formspree.io" || strings.HasSuffix(u.Hostname(), ".formspree.io"))
}

func has(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func hasAny(ss []string, want ...string) bool {
	for _, w := range want {
		if has(ss, w) {
			return true
		}
	}
	return false
}
