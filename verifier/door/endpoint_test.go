package door_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/verifier/door"
)

func TestSameEndpoint(t *testing.T) {
	for _, tc := range []struct {
		name, got, confirmed string
		queryIsFields        bool
		want                 bool
	}{
		{"the endpoint", "http://h/send", "http://h/send", false, true},
		{"a default port", "http://h:80/send", "http://h/send", false, true},
		{"case in the host", "http://H/send", "http://h/send", false, true},
		{"an empty path is /", "http://h", "http://h/", false, true},
		{"another port", "http://h:1/send", "http://h:2/send", false, false},
		{"a relative endpoint is reached by nothing", "/send", "/send", false, false},
		{"another scheme is no origin", "mailto:a@h", "mailto:a@h", false, false},
		{"another scheme", "https://h/send", "http://h/send", false, false},
		{"another path", "http://h/subscribe", "http://h/send", false, false},
		{"a trailing slash is another path", "http://h/send/", "http://h/send", false, false},
		{"a query the endpoint does not have", "http://h/send?x=1", "http://h/send", false, false},
		{"the endpoint's query", "http://h/admin-ajax.php?action=quote", "http://h/admin-ajax.php?action=quote", false, true},
		{"its query in another order", "http://h/r?b=2&a=1", "http://h/r?a=1&b=2", false, true},
		{"another value of its parameter", "http://h/admin-ajax.php?action=subscribe", "http://h/admin-ajax.php?action=quote", false, false},
		{"its parameter left out", "http://h/admin-ajax.php", "http://h/admin-ajax.php?action=quote", false, false},
		{"its parameter given twice", "http://h/r?a=1&a=2", "http://h/r?a=1", false, false},
		{"its query and one more", "http://h/r?a=1&delete=1", "http://h/r?a=1", false, false},
		{"a pair with a bad escape added", "http://h/admin-ajax.php?action=quote&action=%zz", "http://h/admin-ajax.php?action=quote", false, false},
		{"a pair with a semicolon added", "http://h/admin-ajax.php?action=quote&action=delete;", "http://h/admin-ajax.php?action=quote", false, false},
		{"more pairs than a query parses", "http://h/send?" + strings.Repeat("action=delete&", 10_001), "http://h/send", false, false},
		{"a query that does not parse, byte for byte", "http://h/r?a=%zz", "http://h/r?a=%zz", false, true},
		{"a query that does not parse, another", "http://h/r?a=%zz", "http://h/r?a=%yy", false, false},
		{"a GET form's query is its fields", "http://h/book/?date=1", "http://h/book/?lang=en", true, true},
		{"a GET form to another path", "http://h/other?q=1", "http://h/book/", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := url.Parse(tc.got)
			if err != nil {
				t.Fatal(err)
			}
			confirmed, err := url.Parse(tc.confirmed)
			if err != nil {
				t.Fatal(err)
			}
			if r := door.SameEndpoint(got, confirmed, tc.queryIsFields); r != tc.want {
				t.Errorf("SameEndpoint(%.100s, %.100s, %v) = %v, want %v", tc.got, tc.confirmed, tc.queryIsFields, r, tc.want)
			}
		})
	}
}
