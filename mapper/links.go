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

// addLinks collects the tel:, mailto: and booking links of a page, each
// with the words around it (which say what the link is for).
func (b *builder) addLinks(p *extract.Page) {
	for _, l := range p.Links {
		key := directKey(l.Href)
		switch {
		case strings.HasPrefix(key, "tel:"):
			b.tels, _ = addLinkDoor(b.tels, key, l.Href, wordsAround(l), shared.KindContact, p.URL)
		case strings.HasPrefix(key, "mailto:"):
			b.mails, _ = addLinkDoor(b.mails, key, l.Href, wordsAround(l), shared.KindContact, p.URL)
		case key == "" && !strings.HasPrefix(strings.ToLower(l.Href), "tel:") && !strings.HasPrefix(strings.ToLower(l.Href), "mailto:"):
			b.addLinkOut(p, l)
		}
	}
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

// addLinkOut records a link whose words say it leads to a booking, quote or
// callback on a page not mapped here: another site (a vendor's booking page
// included) or a same-site page the crawl did not reach.
func (b *builder) addLinkOut(p *extract.Page, l extract.Link) {
	u, err := url.Parse(l.Href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return
	}
	v, isVendor := vendorByURL(l.Href)
	kind, _, ok := intentOf(l.Text)
	if isVendor && !ok {
		kind, ok = shared.KindBooking, v.role == roleScheduler
	}
	if !ok || !linkOutKinds[kind] {
		return
	}
	u.Fragment = ""
	key := string(kind) + "|" + u.String()
	var d *linkDoor
	b.linkOuts, d = addLinkDoor(b.linkOuts, key, u.String(), l.Text, kind, p.URL)
	d.sameSite = sameSite(b.site, u)
	if isVendor {
		d.vendor = v
	}
}

// addLinkDoor counts one more sighting of the link with key in list, or
// adds it, and returns the list and that link.
func addLinkDoor(list []*linkDoor, key, href, text string, kind shared.ActionKind, page string) ([]*linkDoor, *linkDoor) {
	for _, d := range list {
		if d.key == key {
			d.pages = append(d.pages, page)
			d.contexts = append(d.contexts, text)
			return list, d
		}
	}
	d := &linkDoor{key: key, href: href, text: text, kind: kind, pages: []string{page}, contexts: []string{text}}
	return append(list, d), d
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

// attachLinks turns the collected links into doors. A phone number or an
// email address offered for a specific action joins that action (created
// if the site has no other door to it); one offered as the general way to
// reach the business joins the site's contact form, else one contact
// action. Link-outs to pages that were mapped are dropped: those pages'
// own doors stand for them.
func (b *builder) attachLinks() {
	b.attachVendors()
	for _, l := range b.linkOuts {
		if l.sameSite && b.visited[canonicalPage(l.href)] || l.vendor != nil && b.embedded(l.vendor) {
			continue
		}
		part := linkOutPart(l)
		d, isNew := b.draftFor("linkout|"+l.key, l.kind, clip(firstNonEmpty(l.text, kindLabel(l.kind)), 120), l.pages[0], part)
		if isNew {
			d.action.Provenance = ptr(b.prov(shared.MethodParsedHTML, confLinkOutDoor, "link text “"+l.text+"” points to "+l.href))
			d.effects.vendor = l.vendor
		}
		if b.leadsToLogin(l.href) {
			d.addBarriers([]barrierFinding{{shared.BarrierLogin, "login", "the linked page sends a visitor to a login form: an account is needed first", 0.85, l.href + " → " + b.redirects[canonicalPage(l.href)]}})
		}
		b.addLinkDoors(d, l, shared.AccessLinkToPage)
	}

	var contact *draft
	for _, group := range []struct {
		links []*linkDoor
		m     shared.AccessMethod
	}{{b.tels, shared.AccessTelLink}, {b.mails, shared.AccessMailtoLink}} {
		for _, l := range group.links {
			kind := directKind(l)
			d := b.firstDraftOfKind(kind)
			if d == nil && kind == shared.KindContact {
				if contact == nil {
					contact, _ = b.draftFor("contact|links", shared.KindContact, "Contact the business", b.siteURL(), "")
				}
				d = contact
			}
			if d == nil {
				d, _ = b.draftFor("direct|"+string(kind), kind, kindLabel(kind), l.pages[0], "")
			}
			b.addLinkDoors(d, l, group.m)
			if d.action.Provenance == nil {
				d.action.Provenance = ptr(b.prov(shared.MethodParsedHTML, 0.9, "tel: and mailto: links reach the business directly"))
			}
			if len(d.action.Inputs) == 0 && !d.hasDrivableDoor() {
				switch group.m {
				case shared.AccessTelLink:
					d.effects.phoneOnly = d.effects.mailto == ""
					if d.idPart == "" {
						d.idPart = "phone"
					}
				case shared.AccessMailtoLink:
					if d.effects.mailto == "" {
						d.effects.mailto = strings.TrimPrefix(l.key, "mailto:")
					}
					d.effects.phoneOnly = false
					if d.idPart == "" || d.idPart == "phone" {
						d.idPart = "email"
					}
				}
			}
		}
	}
}

// embedded reports whether a vendor's widget is embedded on the site (its
// links then open the widget and are not doors of their own).
func (b *builder) embedded(v *vendor) bool {
	for _, s := range b.schedulers {
		if s.v == v {
			return true
		}
	}
	return false
}

// firstDraftOfKind returns the first action of kind found so far.
func (b *builder) firstDraftOfKind(kind shared.ActionKind) *draft {
	for _, d := range b.drafts {
		if d.action.Kind == kind && d.key != "contact|links" {
			return d
		}
	}
	return nil
}

// hasDrivableDoor reports whether d has a door an agent can submit through.
func (d *draft) hasDrivableDoor() bool {
	for _, a := range d.action.Access {
		switch a.Method {
		case shared.AccessHTMLForm, shared.AccessWebMCPTool, shared.AccessDocumentedEndpoint:
			return true
		}
	}
	return false
}

// leadsToLogin reports whether a same-site URL is, or redirects to, a page
// whose only form is a login.
func (b *builder) leadsToLogin(href string) bool {
	key := canonicalPage(href)
	if b.loginPages[key] {
		return true
	}
	if to, ok := b.redirects[key]; ok {
		return b.loginPages[canonicalPage(to)]
	}
	return false
}

// addLinkDoors adds one door per page occurrence of a link.
func (b *builder) addLinkDoors(d *draft, l *linkDoor, m shared.AccessMethod) {
	loc := shared.Locator{Strategy: shared.StrategyCSS, Value: "a[href=" + cssValue(l.href) + "]", Stability: shared.StabilityStable}
	conf := confLinkDoor
	if m == shared.AccessLinkToPage {
		conf = confLinkOutDoor
	}
	var vendorName *string
	if l.vendor != nil {
		vendorName = strPtr(l.vendor.name)
	}
	for _, page := range l.pages {
		d.addDoor(l.key, shared.Access{
			Method: m, URL: l.href, Locator: &loc, Vendor: vendorName,
			Provenance: b.prov(shared.MethodParsedHTML, conf, loc.Value),
		}, page)
	}
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
