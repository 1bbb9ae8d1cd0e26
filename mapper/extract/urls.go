package extract

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// parseURL resolves ref against base as a browser does (the WHATWG URL
// standard, new URL(ref, base)) where pages rely on it and Go's url.Parse
// reads otherwise: leading and trailing C0 controls and spaces are dropped
// and tabs and newlines removed; other control characters (in an http(s)
// URL spaces, quotes and angle brackets too) are percent-encoded, as a
// tel: or mailto: URL keeps its spaces; in an http(s) URL a backslash
// before the query is a slash ("\contact" is /contact), "http:/x" with the
// base's own scheme is relative and "https:host/x" with another names
// host; the host is lower-cased, an international one written in
// Punycode, and the scheme's default port dropped.
func parseURL(base *url.URL, ref string) (*url.URL, error) {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	ref = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(ref)
	scheme, _, hasScheme := splitScheme(ref)
	special := isSpecial(scheme) || !hasScheme && base != nil && isSpecial(base.Scheme)
	if special {
		end := strings.IndexAny(ref, "?#")
		if end < 0 {
			end = len(ref)
		}
		ref = strings.ReplaceAll(ref[:end], `\`, "/") + ref[end:]
		if hasScheme {
			_, rest, _ := splitScheme(ref)
			switch {
			case strings.HasPrefix(rest, "//"):
			case base != nil && strings.EqualFold(scheme, base.Scheme):
				ref = rest // "http:/x" against an http base is relative
			default:
				ref = scheme + "://" + strings.TrimLeft(rest, "/")
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(ref); i++ {
		switch c := ref[i]; {
		case c < ' ' || c == 0x7f || special && (c == ' ' || c == '"' || c == '<' || c == '>'):
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	u, err := url.Parse(b.String())
	if err != nil {
		return nil, err
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if isSpecial(u.Scheme) && u.Host != "" {
		host, port := u.Hostname(), u.Port()
		if net.ParseIP(host) == nil {
			if a, err := idna.Lookup.ToASCII(host); err == nil {
				host = a
			}
		}
		host = strings.ToLower(host)
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		if port == "" || port == defaultPort[strings.ToLower(u.Scheme)] {
			u.Host = host
		} else {
			u.Host = host + ":" + port
		}
	}
	return u, nil
}

// defaultPort is the port a special scheme's URL leaves out.
var defaultPort = map[string]string{"http": "80", "https": "443"}

// isSpecial reports the schemes whose URLs the standard reads with the
// rules above (ws, wss, ftp and file are special too; pages link http(s)).
func isSpecial(scheme string) bool {
	s := strings.ToLower(scheme)
	return s == "http" || s == "https"
}

// splitScheme splits "scheme:rest"; false when ref starts with no scheme.
func splitScheme(ref string) (scheme, rest string, ok bool) {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return ref[:i], ref[i+1:], true
		default:
			return "", ref, false
		}
	}
	return "", ref, false
}
