package weborigin

import (
	"net/url"
	"strings"
)

// Of returns u's origin as a browser writes it: scheme://host[:port], case
// folded, without the scheme's default port (80 for http and ws, 443 for
// https and wss); "file://" for a file URL. A URL with no scheme or no host
// (a relative or an opaque one) has no origin: Of returns "".
func Of(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "file" {
		return "file://"
	}
	if scheme == "" || host == "" {
		return ""
	}
	switch {
	case port == "80" && (scheme == "http" || scheme == "ws"),
		port == "443" && (scheme == "https" || scheme == "wss"):
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// OfString is Of of a URL in text; "" when it does not parse or has no
// origin.
func OfString(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return Of(u)
}
