package mapper

import (
	"net/url"
	"testing"
)

// A site is its registrable domain by the public suffix list; a host the
// list cannot place (an IP, localhost) is its own site, port included.
func TestSameSite(t *testing.T) {
	cases := []struct {
		base, u string
		want    bool
	}{
		{"https://www.acme.com.au/", "https://acme.com.au/contact/", true},
		{"https://acme.com.au/", "https://book.acme.com.au/", true},
		{"https://acme.com.au/", "http://ACME.com.au./x", true},
		{"https://acme.com.au/", "https://other.com.au/", false},
		{"https://acme.co.uk/", "https://co.uk/", false},
		{"https://acme.github.io/", "https://other.github.io/", false},
		{"https://acme.myshopify.com/", "https://rival.myshopify.com/", false},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/contact/", true},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:9090/", false},
		{"http://localhost:3000/", "http://localhost:3000/book", true},
		{"http://localhost:3000/", "http://localhost:4000/", false},
		{"https://acme.com.au/", "mailto:hello@acme.com.au", false},
		{"https://acme.com.au/", "ftp://acme.com.au/file", false},
	}
	for _, tc := range cases {
		t.Run(tc.base+" "+tc.u, func(t *testing.T) {
			b, err := url.Parse(tc.base)
			if err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(tc.u)
			if err != nil {
				t.Fatal(err)
			}
			if got := sameSite(b, u); got != tc.want {
				t.Errorf("sameSite = %v, want %v", got, tc.want)
			}
		})
	}
}
