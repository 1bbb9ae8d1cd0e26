package weborigin_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/topology/weborigin"
)

// FuzzOfString: Of never panics, and an origin it writes is a fixed point
// (the origin of the origin is itself), lower case, with no path, query,
// fragment or user; URLs that differ only in case of scheme and host, or
// by the scheme's default port, share it.
func FuzzOfString(f *testing.F) {
	for _, s := range []string{"https://Example.com:443/a?b#c", "http://[::1]:80/", "ws://h:80", "file:///x", "/rel", "mailto:x@y", "http://user:pw@h:8080/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		o := weborigin.OfString(raw)
		if o == "" {
			return
		}
		if o != strings.ToLower(o) {
			t.Fatalf("OfString(%q) = %q, not lower case", raw, o)
		}
		if again := weborigin.OfString(o); again != o {
			t.Fatalf("OfString(%q) = %q, whose own origin is %q", raw, o, again)
		}
		u, err := url.Parse(o)
		if err != nil {
			t.Fatalf("OfString(%q) = %q, which does not parse: %v", raw, o, err)
		}
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && o != "file://") {
			t.Fatalf("OfString(%q) = %q carries more than an origin", raw, o)
		}
		if up, err := url.Parse(raw); err == nil && up.Host != "" {
			up.Scheme, up.Host = strings.ToUpper(up.Scheme), strings.ToUpper(up.Host)
			if got := weborigin.Of(up); got != o {
				t.Fatalf("Of of %q in capitals = %q, want %q", raw, got, o)
			}
		}
	})
}
