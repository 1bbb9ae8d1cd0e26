package mapper

import (
	"net"
	"net/url"
	"strings"
	"time"
	"unicode"

	"golang.org/x/net/publicsuffix"
)

// slugMax bounds a slug so ids stay readable.
const slugMax = 48

// slugify lower-cases s and keeps ASCII letters and digits, joining runs of
// anything else with single hyphens.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > slugMax {
		out = strings.TrimRight(out[:slugMax], "-")
	}
	return out
}

// siteSlug derives a slug from a host: the first label after "www.", or the
// whole address for an IP ("127-0-0-1").
func siteSlug(host string) string {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimPrefix(strings.ToLower(h), "www.")
	if net.ParseIP(h) == nil {
		if i := strings.IndexByte(h, '.'); i > 0 {
			h = h[:i]
		}
	}
	if s := slugify(h); s != "" {
		return s
	}
	return "site"
}

// graphID is ag_<slug>_<yyyymmdd>.
func graphID(slug string, at time.Time) string {
	return "ag_" + slug + "_" + at.UTC().Format("20060102")
}

// formSlug turns a form id such as "appointment-form" or "gform_3" into the
// last part of an action id ("appointment", "gform-3"); "" when nothing is left.
func formSlug(id string) string {
	s := slugify(id)
	for _, cut := range []string{"-form", "form-"} {
		if strings.HasSuffix(s, cut) && len(s) > len(cut) {
			s = strings.TrimSuffix(s, cut)
		}
		if strings.HasPrefix(s, cut) && len(s) > len(cut) {
			s = strings.TrimPrefix(s, cut)
		}
	}
	if s == "form" {
		return ""
	}
	return s
}

// sameSite reports whether u, an http(s) URL, is on the site of base: the
// same registrable domain by the public suffix list (www.acme.com.au and
// book.acme.com.au are one site; two shops on myshopify.com or two pages
// on github.io are not).
func sameSite(base, u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	return siteOf(u) == siteOf(base)
}

// siteOf is the registrable domain of u's host (eTLD+1). A host the list
// cannot place — an IP address, localhost, a bare suffix — is its own
// site, port included, so two servers on 127.0.0.1 are two sites.
func siteOf(u *url.URL) string {
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if net.ParseIP(h) == nil {
		if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
			return d
		}
	}
	return strings.TrimPrefix(strings.ToLower(u.Host), "www.")
}

// hostOf returns the lower-case host of raw, "" when raw does not parse.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// pathOf returns the path of raw ("/" when empty), "" when raw does not parse.
func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if u.Path == "" {
		return "/"
	}
	return u.Path
}
