package door

import (
	"maps"
	"net/url"
	"slices"

	"github.com/frontlatch/frontlatch/topology/weborigin"
)

// SameEndpoint reports whether a request to got reaches the endpoint
// confirmed as a server routes it: the same origin (weborigin.Of; an
// endpoint with none, relative or of another scheme, is reached by
// nothing), the same path (an empty one is "/") and — unless
// queryIsFields — the same query parameters, each with its values, in any
// order, none added or left out (a query that does not parse whole, byte
// for byte).
// A router that dispatches on its query (WordPress's
// admin-ajax.php?action=…, an index.php?route=…) is another endpoint for
// each value. queryIsFields is for a GET form's submission, whose query is
// the form's fields, which a browser puts in place of the action's query.
//
// It is the one rule by which the verifier's sandbox tells the owner that
// a page sent somewhere else than the graph says, and by which the
// executor's browser door blocks a page's send to anywhere but the
// endpoint the owner confirmed.
func SameEndpoint(got, confirmed *url.URL, queryIsFields bool) bool {
	if o := weborigin.Of(confirmed); o == "" || weborigin.Of(got) != o || pathOf(got) != pathOf(confirmed) {
		return false
	}
	if queryIsFields {
		return true
	}
	// Not URL.Query, which drops what it cannot parse — a pair with a bad
	// escape or a semicolon, every pair past the ten thousandth — where a
	// server reads it: a query only parsed in part is the same only byte
	// for byte.
	gq, gerr := url.ParseQuery(got.RawQuery)
	cq, cerr := url.ParseQuery(confirmed.RawQuery)
	if gerr != nil || cerr != nil {
		return got.RawQuery == confirmed.RawQuery
	}
	return maps.EqualFunc(gq, cq, slices.Equal)
}

func pathOf(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}
