package weborigin_test

import (
	"net/url"
	"testing"

	"github.com/frontlatch/frontlatch/topology/weborigin"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/x", "http://h"},
		{"http://Example.COM/a?b", "http://example.com"},
		{"HTTP://Example.COM:80/x", "http://example.com"},
		{"https://example.com:443", "https://example.com"},
		{"https://h:80/", "https://h:80"},
		{"http://h:443/", "http://h:443"},
		{"https://example.com:8443/x", "https://example.com:8443"},
		{"http://127.0.0.1:40197/contact/", "http://127.0.0.1:40197"},
		{"http://[::1]:80/", "http://[::1]"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"ws://h:80/s", "ws://h"},
		{"wss://h:443/s", "wss://h"},
		{"wss://h:80/s", "wss://h:80"},
		{"file:///tmp/a.html", "file://"},
		{"/relative/path", ""},
		{"mailto:a@b.example", ""},
		{"http:///no-host", ""},
		{"javascript:alert(1)", ""},
		{"data:text/html,x", ""},
		{"ftp://h/x", ""},
		{"A://::0", ""},
		{"http://[::1]/", "http://[::1]"},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := weborigin.Of(u); got != tc.want {
			t.Errorf("Of(%s) = %q, want %q", tc.in, got, tc.want)
		}
		if got := weborigin.OfString(tc.in); got != tc.want {
			t.Errorf("OfString(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := weborigin.OfString("http://h/%zz"); got != "" {
		t.Errorf(`OfString of an unparsable URL = %q, want ""`, got)
	}
}
