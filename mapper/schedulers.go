package mapper

import (
	"net/url"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// addVendors finds third-party schedulers and form hosts embedded in a page:
// their scripts, iframes, widget elements and inline calls.
func (b *builder) addVendors(p *extract.Page) {
	for _, s := range p.Scripts {
		if v, ok := vendorByURL(s.Src); ok {
			b.addVendor(v, "", "script[src^="+cssValue(vendorPrefix(s.Src))+"]", "script "+s.Src, p.URL)
		} else if v, ok := vendorByMark(s.ID + " " + s.Text + " " + dataKeys(s.Data)); ok {
			b.addVendor(v, "", "", "inline script or script#"+s.ID+" mentions "+v.name, p.URL)
		}
	}
	for _, f := range p.Frames {
		if v, ok := vendorByURL(f.Src); ok {
			b.addVendor(v, f.Src, "iframe[src^="+cssValue(vendorPrefix(f.Src))+"]", "iframe "+f.Src, p.URL)
		}
	}
	for _, e := range p.Embeds {
		if v, ok := vendorByURL(e.Src + " " + dataValues(e.Data)); ok {
			b.addVendor(v, firstNonEmpty(e.Data["url"], e.Src), elementSelector(e), e.Tag+" widget for "+v.name, p.URL)
		} else if v, ok := vendorByMark(e.ID + " " + e.Class + " " + dataKeys(e.Data)); ok {
			b.addVendor(v, "", elementSelector(e), e.Tag+" widget for "+v.name, p.URL)
		}
	}
	for _, f := range p.Forms {
		if v, ok := vendorByURL(f.Action); ok {
			b.addVendor(v, f.Action, formSelector(&f).Value, "form posting to "+f.Action, p.URL)
		}
	}
}

// addVendor records one sighting of a vendor on a page; a vendor seen
// several times on one page counts once for that page.
func (b *builder) addVendor(v *vendor, vurl, locator, ev, page string) {
	for _, s := range b.schedulers {
		if s.v == v {
			if s.url == "" {
				s.url = vurl
			}
			if s.locator == "" {
				s.locator = locator
			}
			if s.pages[len(s.pages)-1] != page {
				s.pages = append(s.pages, page)
			}
			return
		}
	}
	b.schedulers = append(b.schedulers, &vendorDoor{v: v, url: vurl, locator: locator, ev: ev, pages: []string{page}})
}

// attachVendors makes one opaque action per vendor: its fields live in the
// vendor's frame, which nobody outside it can read.
func (b *builder) attachVendors() {
	for _, s := range b.schedulers {
		kind := shared.KindBooking
		label := "Book online with " + s.v.name
		if s.v.role == roleFormHost {
			kind, label = shared.KindEnquiry, "Form hosted by "+s.v.name
		}
		d, isNew := b.draftFor("vendor|"+s.v.name, kind, label, s.pages[0], slugify(s.v.name))
		if isNew {
			d.action.Provenance = ptr(b.prov(shared.MethodParsedHTML, confVendorDoor, s.ev))
			d.effects.vendor = s.v
		}
		var loc *shared.Locator
		if s.locator != "" {
			l := cssLocator(s.locator)
			loc = &l
		}
		u := firstNonEmpty(s.url, s.pages[0])
		for _, page := range s.pages {
			d.addDoor("vendor", shared.Access{
				Method: shared.AccessSchedulerWidget, URL: u, Locator: loc, Opaque: true, Vendor: strPtr(s.v.name),
				Provenance: b.prov(shared.MethodParsedHTML, confVendorDoor, s.ev+"; third-party frame, fields not readable"),
			}, page)
		}
	}
}

// vendorPrefix is scheme://host/first-segment of a vendor URL, enough to
// find the element again without pinning query strings.
func vendorPrefix(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	seg := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 2)[0]
	return u.Scheme + "://" + u.Host + "/" + seg
}

func elementSelector(e extract.Element) string {
	if e.ID != "" {
		return e.Tag + "#" + cssIdent(e.ID)
	}
	if c := strings.Fields(e.Class); len(c) > 0 {
		return e.Tag + "." + cssIdent(c[0])
	}
	return ""
}

func dataKeys(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, "data-"+k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func dataValues(m map[string]string) string {
	vals := make([]string, 0, len(m))
	for _, v := range m {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	return strings.Join(vals, " ")
}
