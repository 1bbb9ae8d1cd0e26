package verifier

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoFormDoor reports an action without a door the sandbox can fill: no
// access entry with method html-form that is not opaque.
var ErrNoFormDoor = errors.New("verifier: the action has no html-form door to run in the sandbox")

// NoFormDoorError names the action and the doors it does have. It matches
// ErrNoFormDoor.
type NoFormDoorError struct {
	ActionID string
	// Doors are the action's access methods ("html-form (opaque)" for an
	// opaque form).
	Doors []string
}

func (e *NoFormDoorError) Error() string {
	doors := "no door at all"
	if len(e.Doors) > 0 {
		doors = "only " + strings.Join(e.Doors, ", ")
	}
	return fmt.Sprintf("verifier: action %q has no html-form door to run in the sandbox (it has %s)", e.ActionID, doors)
}

// Is makes NoFormDoorError match ErrNoFormDoor.
func (e *NoFormDoorError) Is(target error) bool { return target == ErrNoFormDoor }

// ErrSiteDown reports that the door's page could not be loaded: the server
// refused, never answered, or answered with a server error.
var ErrSiteDown = errors.New("verifier: the site is down")

// SiteDownError says which page failed and how. It matches ErrSiteDown and
// unwraps to the browser's error (a *topology.NavigationError) when there
// is one.
type SiteDownError struct {
	URL string
	// Status is the HTTP status of a page that answered with a server
	// error, 0 when it did not answer.
	Status int
	Err    error
}

func (e *SiteDownError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("verifier: the site is down: %s answered HTTP %d", e.URL, e.Status)
	}
	return fmt.Sprintf("verifier: the site is down: %s: %v", e.URL, e.Err)
}

// Is makes SiteDownError match ErrSiteDown.
func (e *SiteDownError) Is(target error) bool { return target == ErrSiteDown }

func (e *SiteDownError) Unwrap() error { return e.Err }

// ErrMismatch reports that the browser did not do what the graph says the
// door does. The run is still recorded: it is the evidence.
var ErrMismatch = errors.New("verifier: the door does not work as the graph maps it")

// MismatchError is what the sandbox saw against what the graph states. It
// matches ErrMismatch. Sandbox returns it together with its result, whose
// run records the observation (outcome failed): an owner must not confirm a
// door that does not exist as mapped, so the graph has to be corrected (or
// the site mapped again) first.
type MismatchError struct {
	ActionID string
	// Graph is the door as the graph maps it.
	Graph Door
	// Observed is what the browser sent (its zero value when it sent
	// nothing, as for a missing form).
	Observed Door
	// Refused is true when the request would have gone to another origin
	// than the graph's endpoint and the sandbox failed it.
	Refused bool
	// Differences says, one line each, what differs.
	Differences []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("verifier: action %q does not work as mapped: %s", e.ActionID, strings.Join(e.Differences, "; "))
}

// Is makes MismatchError match ErrMismatch.
func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }
