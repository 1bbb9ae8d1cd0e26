package weborigin

import (
	"net"
	"net/url"
	"strings"
)

// Of returns u's origin as a browser writes it: scheme://host[:port], case
// folded, without the scheme's default port (80 for http and ws, 443 for
// https and wss); "file://" for a file URL. A URL with no origin of that
// kind — relative, of another scheme (mailto:, data:, javascript:), with
// no host or with a host that is no name and no IP address — gives "":
// two URLs are same-origin only when Of gives both the same non-empty
// string.
func Of(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	switch scheme {
	case "file":
		return "file://"
	case "http", "https", "ws", "wss":
	default:
		return ""
	}
	if host == "" || (strings.Contains(host, ":") && net.ParseIP(host) == nil) {
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
