package executor

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
)

// Sentinels. Every refusal is a *RefusedError matching ErrRefused and, through
// its reasons, the sentinel of each kind of reason it carries, so
// errors.Is(err, ErrCapReached) and errors.As(err, &gateErr) (a
// *shared.UnverifiedActionError) both work on what Execute returns.
var (
	// ErrRefused matches every refusal: nothing was fired.
	ErrRefused = errors.New("executor: refused")
	// ErrCapReached: the confirmation's volume cap is used up for the
	// current window (counted atomically by the audit store).
	ErrCapReached = errors.New("executor: volume cap reached")
	// ErrBarrier: the action has a barrier the executor never passes
	// (CAPTCHA, login, bot challenge, payment wall).
	ErrBarrier = errors.New("executor: the action has a barrier the executor does not pass")
	// ErrOffOrigin: the submission (or the page it needs) would leave the
	// origin the owner confirmed.
	ErrOffOrigin = errors.New("executor: off the confirmed origin")
	// ErrUnknownInput: the agent sent a key the action has no input for.
	ErrUnknownInput = errors.New("executor: unknown input")
	// ErrInvalidInput: the agent's input breaks a declared rule, has the
	// wrong type, is too large, or sets a field the agent may not fill.
	ErrInvalidInput = errors.New("executor: invalid input")
	// ErrUnknownAction: the graph has no action with that id.
	ErrUnknownAction = errors.New("executor: unknown action")
	// ErrNoDoor: the action has no door the executor can submit through
	// (no submission, an unsupported transport, or a browser door without
	// Options.Browser).
	ErrNoDoor = errors.New("executor: no door the executor can submit through")
	// ErrPage: the live page the system tokens come from could not be read,
	// or no longer carries a token the action declares.
	ErrPage = errors.New("executor: live page")
	// ErrClosed: the executor was closed.
	ErrClosed = errors.New("executor: closed")
	// ErrIdempotencyConflict: the idempotency key was first used for this
	// action with other agent input; a key names one call, so this call
	// is neither fired nor answered with the first call's result.
	ErrIdempotencyConflict = errors.New("executor: idempotency key reused with other input")
)

// Reason codes of a RefusedError beyond the gate's own (which are
// shared.RefusalReason values, used as they are).
const (
	ReasonBarrier        = "barrier"
	ReasonOffOrigin      = "origin.off"
	ReasonNoDoor         = "door.none"
	ReasonUnknownInput   = "input.unknown"
	ReasonInvalidInput   = "input.invalid"
	ReasonNotFillable    = "input.not-agent-fillable"
	ReasonCapReached     = "cap.reached"
	ReasonPage           = "page.unreadable"
	ReasonTokenMissing   = "page.token-missing"
	ReasonActionTooLarge = "action.too-large"
	ReasonIdempotency    = "idempotency.conflict"
)

// Reason is one reason a call was refused.
type Reason struct {
	// Code is a gate refusal (shared.RefusalReason, such as
	// "confirmation.revoked") or one of the Reason* constants.
	Code string `json:"code"`
	// Field is the input the reason is about, when there is one.
	Field string `json:"field,omitempty"`
	// Rule is the rule the input broke ("required", "pattern",
	// "max-length", "type", "size"…), when there is one.
	Rule string `json:"rule,omitempty"`
	// Detail says what is wrong, for a person.
	Detail string `json:"detail"`
	// Err is the sentinel (ErrInvalidInput…) or, for gate reasons, the
	// *shared.UnverifiedActionError.
	Err error `json:"-"`
}

// String formats the reason as "code[field/rule]: detail" (or
// "code[field]", "code[rule]" when only one is known).
func (r Reason) String() string {
	s := r.Code
	switch {
	case r.Field != "" && r.Rule != "":
		s += "[" + r.Field + "/" + r.Rule + "]"
	case r.Field != "":
		s += "[" + r.Field + "]"
	case r.Rule != "":
		s += "[" + r.Rule + "]"
	}
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// Bounds on a reason's texts: with them every reason's text (String) fits
// the audit store's bound on a text (audit.MaxText, 64 KiB), whatever the
// action or the agent sent.
const (
	maxReasonName   = 1 << 10  // Code, Field, Rule
	maxReasonDetail = 32 << 10 // Detail
)

// storable returns r with every text the audit store keeps made safe for
// it (storableText): every refusal is audited, whatever bytes the agent's
// input, the action or the site put in a reason.
func (r Reason) storable() Reason {
	r.Code = storableText(r.Code, maxReasonName)
	r.Field = storableText(r.Field, maxReasonName)
	r.Rule = storableText(r.Rule, maxReasonName)
	r.Detail = storableText(r.Detail, maxReasonDetail)
	return r
}

// storableText is escapeStorable(s) bounded to n bytes (at a character
// boundary, marked "…").
func storableText(s string, n int) string {
	return shared.Clip(escapeStorable(s), n)
}

// escapeStorable escapes what the audit store refuses in a text: a NUL
// byte as \x00, a byte that is not UTF-8 as \xNN.
func escapeStorable(s string) string {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				fmt.Fprintf(&b, `\x%02x`, s[i])
			case r == 0:
				b.WriteString(`\x00`)
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
		s = b.String()
	}
	return s
}

// RefusedError is every reason a call was refused. Nothing was fired.
type RefusedError struct {
	ActionID string
	Reasons  []Reason
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString("executor: refused")
	if e.ActionID != "" {
		fmt.Fprintf(&b, " action %q", e.ActionID)
	}
	for i, r := range e.Reasons {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(r.String())
	}
	return b.String()
}

// Unwrap returns ErrRefused and each distinct underlying error of the reasons.
func (e *RefusedError) Unwrap() []error {
	errs := []error{ErrRefused}
	for _, r := range e.Reasons {
		if r.Err == nil {
			continue
		}
		dup := false
		for _, x := range errs {
			if x == r.Err {
				dup = true
				break
			}
		}
		if !dup {
			errs = append(errs, r.Err)
		}
	}
	return errs
}

// Has reports whether code is among the reasons.
func (e *RefusedError) Has(code string) bool {
	for _, r := range e.Reasons {
		if r.Code == code {
			return true
		}
	}
	return false
}

// strings returns the reasons as text, for the audit store.
func (e *RefusedError) strings() []string {
	out := make([]string, len(e.Reasons))
	for i, r := range e.Reasons {
		out[i] = r.String()
	}
	return out
}

// FirstCallError is what Execute returns, beside the first call's Result
// (Duplicate), for a repeated idempotency key whose first call did not
// fire: it failed (nothing was sent), its outcome is unknown (sent and not
// answered, or its process died), or it is still in flight. Nothing was
// sent now: the key names that call, so it is not tried again.
type FirstCallError struct {
	// AttemptID is the first call's attempt.
	AttemptID string
	// Outcome is the first attempt's: "failed", "unknown", or "pending"
	// while it is in flight.
	Outcome string
	// Detail is the error its completion recorded, if any.
	Detail string
}

func (e *FirstCallError) Error() string {
	var s string
	switch e.Outcome {
	case outcomePending:
		s = fmt.Sprintf("executor: attempt %s, the first call under this idempotency key, is still in flight and nothing was sent now: repeat the call later for its result", e.AttemptID)
	case outcomeFailed:
		s = fmt.Sprintf("executor: attempt %s, the first call under this idempotency key, failed without sending anything, and nothing was sent now: give a new key to try again", e.AttemptID)
	default:
		s = fmt.Sprintf("executor: attempt %s, the first call under this idempotency key, has an unknown outcome (the site may have acted on it), and nothing was sent now: check with the site before trying again under a new key", e.AttemptID)
	}
	if e.Detail != "" {
		s += " (it recorded: " + e.Detail + ")"
	}
	return s
}

// UnknownActionError names an action id a graph does not have.
type UnknownActionError struct {
	ID    string
	Known []string
}

func (e *UnknownActionError) Error() string {
	return fmt.Sprintf("executor: the graph has no action %q (it has %s)", e.ID, strings.Join(e.Known, ", "))
}

// Is matches ErrUnknownAction.
func (e *UnknownActionError) Is(target error) bool { return target == ErrUnknownAction }
