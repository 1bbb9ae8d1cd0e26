package compiler

import (
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// The words every format uses to state an action's verification status, so
// that no format says it differently.

// statusMarker prefixes the title of an action offered without the owner's
// confirmation; "" for a verified action.
func statusMarker(s shared.VerificationStatus) string {
	switch s {
	case shared.StatusVerified:
		return ""
	case shared.StatusSandboxTested:
		return "[SANDBOX-TESTED, NOT VERIFIED] "
	}
	return "[UNVERIFIED] "
}

// statusSentence states the action's verification status for a reader.
func statusSentence(ap *actionPlan) string {
	a := ap.action
	var s string
	switch v := a.Verification.(type) {
	case shared.Verified:
		if ap.unconfirmed != "" {
			s = fmt.Sprintf("Verification: NOT CONFIRMED — the graph says the business verified this action, but its audit record does not confirm it (%s), so an agent must not execute it.",
				ap.unconfirmed)
			break
		}
		s = fmt.Sprintf("Verification: verified — the business confirmed this action and its consequences on %s (%s).",
			datePart(v.Confirmation.ConfirmedAt), v.Confirmation.Method)
	case shared.SandboxTested:
		s = "Verification: SANDBOX-TESTED, NOT VERIFIED — it ran in test mode only; the business has not confirmed it, so an agent must not execute it."
	default:
		s = "Verification: UNVERIFIED — mapped only and not confirmed by the business, so an agent must not execute it."
	}
	if n := verificationNote(a); n != "" {
		s += " Note: " + sentence(n)
	}
	return s
}

func verificationNote(a *shared.Action) string {
	var n *string
	switch v := a.Verification.(type) {
	case shared.Unverified:
		n = v.Note
	case shared.SandboxTested:
		n = v.Note
	case shared.Verified:
		n = v.Note
	}
	if n == nil {
		return ""
	}
	return *n
}

func datePart(t shared.Timestamp) string {
	if len(t) >= 10 {
		return string(t[:10])
	}
	return string(t)
}

// words turns a vocabulary member into words: "sends-email-to-business" →
// "sends email to business".
func words[T ~string](v T) string { return strings.ReplaceAll(string(v), "-", " ") }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// effectsPhrase lists what the action does: "sends email to business
// (reception@…); creates callback request".
func effectsPhrase(se *shared.SideEffects) string {
	parts := make([]string, len(se.Effects))
	for i, e := range se.Effects {
		p := words(e.Kind)
		var extra []string
		if e.Target != nil && *e.Target != "" {
			extra = append(extra, *e.Target)
		}
		if e.HoldsInventory {
			extra = append(extra, "holds a slot or stock")
		}
		if len(extra) > 0 {
			p += " (" + strings.Join(extra, "; ") + ")"
		}
		parts[i] = p
	}
	return strings.Join(parts, "; ")
}

// consequences states the side effects in one paragraph.
func consequences(se *shared.SideEffects) string {
	return fmt.Sprintf("Consequences: %s. Charges money: %s. Creates an obligation for the business: %s. Transmits personal information: %s. Reversible: %s.",
		effectsPhrase(se), yesNo(se.ChargesMoney), yesNo(se.CreatesObligation), yesNo(se.TransmitsPii), se.Reversible)
}

// barriersSentence names what stands between an agent and a submission.
func barriersSentence(a *shared.Action) string {
	if len(a.Barriers) == 0 {
		return ""
	}
	parts := make([]string, len(a.Barriers))
	for i, b := range a.Barriers {
		parts[i] = words(b.Kind)
		if b.Detail != nil && *b.Detail != "" {
			parts[i] += " (" + *b.Detail + ")"
		}
	}
	return "Barriers: " + strings.Join(parts, "; ") + "."
}

// doorInfo describes a door a person (or an agent relaying to one) can use
// but an agent cannot call.
func doorInfo(d *shared.Access) string {
	var s string
	switch d.Method {
	case shared.AccessTelLink:
		s = "phone " + strings.TrimPrefix(d.URL, "tel:")
	case shared.AccessMailtoLink:
		s = "email " + strings.TrimPrefix(d.URL, "mailto:")
	case shared.AccessSchedulerWidget:
		s = "online scheduler"
		if d.Vendor != nil && *d.Vendor != "" {
			s += " (" + *d.Vendor + ")"
		}
		s += " at " + d.URL
	case shared.AccessLinkToPage:
		s = "the page " + d.URL
	default:
		s = words(d.Method) + " at " + d.URL
		if !d.Opaque {
			s += " (no submission an agent can drive)"
		}
	}
	if d.Opaque {
		s += " (opaque: its fields are inside a third-party frame)"
	}
	return s
}

// otherWays lists an action's information-only doors in one sentence.
func otherWays(info []*shared.Access) string {
	if len(info) == 0 {
		return ""
	}
	parts := make([]string, len(info))
	for i, d := range info {
		parts[i] = doorInfo(d)
	}
	return "Other ways to do this (information only, not callable): " + strings.Join(parts, "; ") + "."
}

// actionDescription is the one text an agent reads about an action: what it
// is, what it does, what stands in the way, and its verification status —
// first when the owner has not confirmed it, so it cannot be missed.
func actionDescription(ap *actionPlan) string {
	a := ap.action
	parts := []string{sentence(a.Label + " (" + string(a.Kind) + ")"), sentence(a.SideEffects.Summary), consequences(&a.SideEffects)}
	if s := barriersSentence(a); s != "" {
		parts = append(parts, s)
	}
	if s := otherWays(ap.info); s != "" {
		parts = append(parts, s)
	}
	if ap.status == shared.StatusVerified {
		parts = append(parts, statusSentence(ap))
	} else {
		parts = append([]string{statusSentence(ap)}, parts...)
	}
	return strings.Join(nonEmpty(parts), " ")
}

// title is the action's label, marked when it is not verified.
func title(ap *actionPlan) string { return statusMarker(ap.status) + ap.action.Label }

func nonEmpty(ss []string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}
