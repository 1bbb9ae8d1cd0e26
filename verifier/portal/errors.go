package portal

import (
	"errors"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// Sentinels, matched with errors.Is; the typed errors below carry detail.
var (
	// ErrGraphUnreadable: the graph file cannot be read or is not a valid
	// 0.1 Action Graph (*GraphError).
	ErrGraphUnreadable = errors.New("portal: graph does not read")
	// ErrUnknownAction: no action of the graph has the id (*UnknownActionError).
	ErrUnknownAction = errors.New("portal: unknown action")
	// ErrStore: the audit store could not record the confirmation
	// (*StoreError); nothing was written to the graph.
	ErrStore = errors.New("portal: audit store failed")
	// ErrNoStore: Options.Store is nil.
	ErrNoStore = errors.New("portal: no audit store given")
	// ErrRefused: a confirmation was refused (*RefusedError); nothing was written.
	ErrRefused = errors.New("portal: confirmation refused")
	// ErrGate: the confirmed action would not pass the consent gate, so the
	// graph was not written (wraps the gate's *shared.UnverifiedActionError).
	ErrGate = errors.New("portal: confirmed action does not pass the consent gate")
)

// GraphError says why the graph file at Path does not read: an I/O error
// (Err) or the strict reader's issues, each with its path and code.
type GraphError struct {
	Path   string
	Issues []shared.Issue
	Err    error
}

func (e *GraphError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("portal: %s: %v", e.Path, e.Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "portal: %s: not a valid Action Graph (%d issue", e.Path, len(e.Issues))
	if len(e.Issues) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(")")
	for i, is := range e.Issues {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(e.Issues)-i)
			break
		}
		b.WriteString("; ")
		b.WriteString(is.String())
	}
	return b.String()
}

// Is matches ErrGraphUnreadable, and shared.ErrInvalidGraph when the file
// read but did not validate.
func (e *GraphError) Is(target error) bool {
	return target == ErrGraphUnreadable || (target == shared.ErrInvalidGraph && len(e.Issues) > 0)
}

func (e *GraphError) Unwrap() error { return e.Err }

// UnknownActionError names an action id the graph does not have.
type UnknownActionError struct {
	Path, ID string
}

func (e *UnknownActionError) Error() string {
	return fmt.Sprintf("portal: %s has no action %q", e.Path, e.ID)
}

func (e *UnknownActionError) Is(target error) bool { return target == ErrUnknownAction }

// StoreError is the audit store's failure during Op; nothing was written to
// the graph.
type StoreError struct {
	Op  string
	Err error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("portal: audit store: %s: %v (nothing was written)", e.Op, e.Err)
}

func (e *StoreError) Is(target error) bool { return target == ErrStore }
func (e *StoreError) Unwrap() error        { return e.Err }

// Refusal reasons of a RefusedError.
const (
	RefuseNoSession   = "no-session"   // no valid session cookie
	RefuseCrossSite   = "cross-site"   // Origin, Referer or Sec-Fetch-Site is not this server
	RefuseCSRF        = "csrf"         // the form's CSRF token is not the session's
	RefuseReplay      = "replay"       // the form's nonce was already used, or never issued
	RefuseChanged     = "changed"      // the action on disk is not what was shown
	RefuseLimits      = "limits"       // the limits or name the owner entered are not usable
	RefuseWrongAction = "wrong-action" // the form was issued for another action
	RefuseBadHost     = "bad-host"     // the Host header is not this server (DNS rebinding)
	RefuseBadRequest  = "bad-request"  // the body is too large or not a form
)

// RefusedError is a refused confirmation or request: Reason is one of the
// Refuse* constants, Detail says what was wrong.
type RefusedError struct {
	Reason string
	Detail string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("portal: refused (%s): %s", e.Reason, e.Detail)
}

func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// RenderError is a template that failed to execute: a defect of this package.
type RenderError struct {
	Page string
	Err  error
}

func (e *RenderError) Error() string { return fmt.Sprintf("portal: render %s: %v", e.Page, e.Err) }
func (e *RenderError) Unwrap() error { return e.Err }
