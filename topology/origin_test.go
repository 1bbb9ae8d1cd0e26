package topology

import (
	"net/url"
	"testing"
)

// originOf is the one origin rule of topology's tabs, runs and confined
// contexts: as a browser writes it, case folded, no default port.
func TestOriginOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://Example.COM/a?b", "http://example.com"},
		{"http://example.com:80/", "http://example.com"},
		{"https://example.com:443", "https://example.com"},
		{"https://example.com:8443/x", "https://example.com:8443"},
		{"http://127.0.0.1:40197/contact/", "http://127.0.0.1:40197"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"HTTP://example.com", "http://example.com"},
		{"file:///tmp/a.html", "file://"},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := originOf(u); got != tc.want {
			t.Errorf("originOf(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
