package executor

import (
	"net/url"
	"testing"
)

// A page's send goes to the confirmed endpoint when it has the endpoint's
// path and, unless it is a GET (whose query is the form's fields), the
// endpoint's query parameters with their values, in any order, and no
// other.
func TestSendsTo(t *testing.T) {
	for _, tc := range []struct {
		name, method, send, endpoint string
		want                         bool
	}{
		{"the endpoint", "POST", "/enquire", "/enquire", true},
		{"another path", "POST", "/subscribe", "/enquire", false},
		{"a trailing slash is another path", "POST", "/enquire/", "/enquire", false},
		{"a query the endpoint does not record", "POST", "/enquire?_=17", "/enquire", false},
		{"the endpoint's query", "POST", "/admin-ajax.php?action=quote", "/admin-ajax.php?action=quote", true},
		{"its query in another order", "POST", "/r?b=2&a=1", "/r?a=1&b=2", true},
		{"its query and a parameter of the page's", "POST", "/r?a=1&delete=1", "/r?a=1", false},
		{"another value of a recorded parameter", "POST", "/admin-ajax.php?action=subscribe", "/admin-ajax.php?action=quote", false},
		{"a recorded parameter left out", "POST", "/admin-ajax.php", "/admin-ajax.php?action=quote", false},
		{"a recorded parameter given twice", "POST", "/r?a=1&a=2", "/r?a=1", false},
		{"a GET form's query is its fields", "GET", "/search?q=taps", "/search?lang=en", true},
		{"a GET to another path", "GET", "/other?q=taps", "/search", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send, err := url.Parse(tc.send)
			if err != nil {
				t.Fatal(err)
			}
			endpoint, err := url.Parse(tc.endpoint)
			if err != nil {
				t.Fatal(err)
			}
			if got := sendsTo(tc.method, send, endpoint); got != tc.want {
				t.Errorf("sendsTo(%s %s, endpoint %s) = %v, want %v", tc.method, tc.send, tc.endpoint, got, tc.want)
			}
		})
	}
}
