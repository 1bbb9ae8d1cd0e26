package door

import (
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// Of returns a's door and its index in a.Access, or (nil, -1) when a has
// no door that can be driven: only tel: and mailto: links, opaque widgets,
// links to pages, or doors without a submission that can be made.
//
// It returns the first non-opaque html-form door, whatever its submission
// (the sandbox runs it and records what the browser sends, even when the
// graph does not know), and otherwise the first non-opaque door for which
// Sendable holds.
func Of(a *shared.Action) (*shared.Access, int) {
	if a == nil {
		return nil, -1
	}
	for i := range a.Access {
		if Runnable(&a.Access[i]) {
			return &a.Access[i], i
		}
	}
	for i := range a.Access {
		if d := &a.Access[i]; !d.Opaque && Sendable(d) {
			return d, i
		}
	}
	return nil, -1
}

// Runnable reports whether the sandbox can run d: an html-form door that is
// not opaque. Only a form has fields a browser can fill with test data.
func Runnable(d *shared.Access) bool {
	return d != nil && d.Method == shared.AccessHTMLForm && !d.Opaque
}

// Sendable reports whether d records a submission that can be made as it
// stands: form-post, form-get or json-endpoint to an endpoint that is not a
// URI template ("/slots/{date}" documents a family of endpoints, it names
// none), or javascript-only or webmcp-execute, which a browser drives on
// the door's page.
func Sendable(d *shared.Access) bool {
	if d == nil || d.Submission == nil {
		return false
	}
	s := d.Submission
	switch s.Transport {
	case shared.TransportFormPost, shared.TransportFormGet, shared.TransportJSONEndpoint:
		return s.Endpoint != nil && *s.Endpoint != "" && !strings.Contains(*s.Endpoint, "{")
	case shared.TransportJavascriptOnly, shared.TransportWebMCPExecute:
		return true
	}
	return false
}
