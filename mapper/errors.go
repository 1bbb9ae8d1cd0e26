package mapper

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error Map returns for a site that cannot be mapped
// matches one of them with errors.Is; a *FetchError carries the details.
var (
	// ErrInvalidURL: the URL is not an absolute http(s) URL with a host.
	ErrInvalidURL = errors.New("mapper: invalid URL")
	// ErrUnreachable: nothing answered (refused, DNS failure, timeout).
	ErrUnreachable = errors.New("mapper: site unreachable")
	// ErrHTTPStatus: the server answered with a 4xx or 5xx status.
	ErrHTTPStatus = errors.New("mapper: site answered with an error status")
	// ErrRedirectLoop: redirects went round in a loop or never ended.
	ErrRedirectLoop = errors.New("mapper: redirect loop")
	// ErrNotHTML: the URL serves something other than an HTML page.
	ErrNotHTML = errors.New("mapper: not an HTML page")
	// ErrNilPage: MapPage was given a nil page.
	ErrNilPage = errors.New("mapper: MapPage was given a nil page")
)

// FetchError says why a URL could not be fetched as an HTML page. It matches
// its Kind (ErrUnreachable, ErrHTTPStatus, ErrRedirectLoop or ErrNotHTML)
// with errors.Is, and unwraps to Cause.
type FetchError struct {
	URL         string
	Kind        error // one of the sentinels above
	Status      int   // HTTP status when one arrived, else 0
	ContentType string
	Cause       error
}

func (e *FetchError) Error() string {
	switch e.Kind {
	case ErrHTTPStatus:
		return fmt.Sprintf("mapper: %s answered HTTP %d", e.URL, e.Status)
	case ErrRedirectLoop:
		return fmt.Sprintf("mapper: %s redirects in a loop: %v", e.URL, e.Cause)
	case ErrNotHTML:
		return fmt.Sprintf("mapper: %s serves %q, not an HTML page", e.URL, e.ContentType)
	case ErrInvalidURL:
		if e.Cause != nil {
			return fmt.Sprintf("mapper: %q is not an absolute http(s) URL: %v", e.URL, e.Cause)
		}
		return fmt.Sprintf("mapper: %q is not an absolute http(s) URL", e.URL)
	}
	return fmt.Sprintf("mapper: %s does not answer: %v", e.URL, e.Cause)
}

// Is makes a FetchError match its Kind.
func (e *FetchError) Is(target error) bool { return target != nil && target == e.Kind }

// Unwrap returns the underlying cause.
func (e *FetchError) Unwrap() error { return e.Cause }
