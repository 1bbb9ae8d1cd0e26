package mapper

import (
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Door confidences of links: a tel: or mailto: href is unambiguous; a
// link-out's meaning rests on its words.
const (
	confLinkDoor    = 0.95
	confLinkOutDoor = 0.6
	confVendorDoor  = 0.9
)

// linkOutKinds are the kinds a link-out to another page is recorded for:
// contact pages are crawled, booking systems elsewhere are not.
var linkOutKinds = map[shared.ActionKind]bool{shared.KindBooking: true, shared.KindQuote: true, shared.KindCallback: true}

// linkSighting is one tel:, mailto: or link-out link of a page, as the
// doors stage reads it: what it is (method), the key that makes one
// number, address or page one door, and the words around it (which say
// what it is for).
type linkSighting struct {
	method   shared.AccessMethod // tel-link, mailto-link or link-to-page
	key      string
	href     string
	text     string
	kind     shared.ActionKind
	page     string
	sameSite bool    // a link-out to a page of the site
	vendor   *vendor // a link-out to a vendor's booking page, nil otherwise
}

// linkSightings reads the tel:, mailto: and booking links of a page, each
// with the words around it.
func linkSightings(site *url.URL, p *extract.Page) []linkSighting {
	var out []linkSighting
	for _, l := range p.Links {
		key := directKey(l.Href)
		switch {
		case strings.HasPrefix(key, "tel:"):
			out = append(out, linkSighting{method: shared.AccessTelLink, key: key, href: l.Href, text: wordsAround(l), kind: shared.KindContact, page: p.URL})
		case strings.HasPrefix(key, "mailto:"):
			out = append(out, linkSighting{method: shared.AccessMailtoLink, key: key, href: l.Href, text: wordsAround(l), kind: shared.KindContact, page: p.URL})
		case key == "" && !strings.HasPrefix(strings.ToLower(l.Href), "tel:") && !strings.HasPrefix(strings.ToLower(l.Href), "mailto:"):
			if ls, ok := linkOut(site, p.URL, l); ok {
				out = append(out, ls)
			}
		}
	}
	return out
}

// wordsAround is what a person reads of a tel: or mailto: link: its own
// text, the sentence around it and, when it stands among links only, the
// heading above (extract.Link.Context and Heading).
func wordsAround(l extract.Link) string {
	return l.Text + " " + strings.TrimSpace(l.Context+" "+l.Heading)
}

// directKey is "tel:<digits>" or "mailto:<address>" for a tel:/mailto: href,
// so one number written two ways is one door; "" for any other href.
func directKey(href string) string {
	lh := strings.ToLower(strings.TrimSpace(href))
	switch {
	case strings.HasPrefix(lh, "tel:"):
		if n := telNumber(strings.TrimSpace(href)); n != "" {
			return "tel:" + n
		}
	case strings.HasPrefix(lh, "mailto:"):
		if a := mailAddress(strings.TrimSpace(href)); a != "" {
			return "mailto:" + a
		}
	}
	return ""
}

// linkOut reads a link whose words say it leads to a booking, quote or
// callback on a page not mapped here: another site (a vendor's booking
// page included) or a same-site page the crawl may not reach.
func linkOut(site *url.URL, page string, l extract.Link) (linkSighting, bool) {
	u, err := url.Parse(l.Href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return linkSighting{}, false
	}
	v, isVendor := vendorByURL(l.Href)
	kind, _, ok := intentOf(l.Text)
	if isVendor && !ok {
		kind, ok = shared.KindBooking, v.role == roleScheduler
	}
	if !ok || !linkOutKinds[kind] {
		return linkSighting{}, false
	}
	u.Fragment = ""
	ls := linkSighting{method: shared.AccessLinkToPage, key: string(kind) + "|" + u.String(), href: u.String(), text: l.Text, kind: kind, page: page, sameSite: sameSite(site, u)}
	if isVendor {
		ls.vendor = v
	}
	return ls, true
}

// directKinds are the kinds a phone number or an email address can be a
// door of. Calling is not asking to be called, so never a callback.
var directKinds = map[shared.ActionKind]bool{shared.KindBooking: true, shared.KindQuote: true, shared.KindEnquiry: true}

// directKind is what a tel: or mailto: link is offered for: the specific
// action its words name in any of its occurrences ("Request an appointment
// or call …", a "Bookings" heading), else general contact.
func directKind(l *linkDoor) shared.ActionKind {
	for _, in := range intentWords {
		if !directKinds[in.kind] {
			continue
		}
		for _, c := range l.contexts {
			if k, _, ok := intentOf(c); ok && k == in.kind {
				return k
			}
		}
	}
	return shared.KindContact
}

// telNumber normalises a tel: href to its digits and a leading +.
func telNumber(href string) string {
	raw, _ := url.PathUnescape(href[len("tel:"):])
	var sb strings.Builder
	for i, r := range raw {
		if r >= '0' && r <= '9' || (r == '+' && i == 0) {
			sb.WriteRune(r)
		}
		if r == ';' || r == '?' {
			break
		}
	}
	return sb.String()
}

// mailAddress is the lower-case address of a mailto: href, without query.
func mailAddress(href string) string {
	raw := href[len("mailto:"):]
	if i := strings.IndexAny(raw, "?"); i >= 0 {
		raw = raw[:i]
	}
	raw, _ = url.PathUnescape(raw)
	raw = strings.ToLower(strings.TrimSpace(raw))
	if !strings.Contains(raw, "@") {
		return ""
	}
	return raw
}

// linkOutPart names a link-out door in its action id: the vendor, else the
// path for a page of this site ("members-book"), else the other site's
// host and path — never this site's own host, which the id already says.
func linkOutPart(l *linkDoor) string {
	switch {
	case l.vendor != nil:
		return slugify(l.vendor.name)
	case l.sameSite:
		if p := slugify(pathOf(l.href)); p != "" {
			return p
		}
		return "home"
	}
	return slugify(hostOf(l.href) + "-" + pathOf(l.href))
}
