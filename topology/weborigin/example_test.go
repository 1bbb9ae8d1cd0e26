package weborigin_test

import (
	"fmt"
	"net/url"

	"github.com/frontlatch/frontlatch/topology/weborigin"
)

// Two URLs are same-origin when their origins are the same string.
func ExampleOfString() {
	fmt.Println(weborigin.OfString("HTTPS://Harbour-Plumbing.example:443/contact/"))
	fmt.Println(weborigin.OfString("https://harbour-plumbing.example/quote") == weborigin.OfString("https://HARBOUR-PLUMBING.example:443/"))
	fmt.Println(weborigin.OfString("https://harbour-plumbing.example:8443/") == weborigin.OfString("https://harbour-plumbing.example/"))
	// Output:
	// https://harbour-plumbing.example
	// true
	// false
}

// Of reads a parsed URL; one with no host has no origin.
func ExampleOf() {
	for _, raw := range []string{"http://[::1]:80/contact", "/contact"} {
		u, _ := url.Parse(raw)
		fmt.Printf("%q\n", weborigin.Of(u))
	}
	// Output:
	// "http://[::1]"
	// ""
}
