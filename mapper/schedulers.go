package mapper

import (
	"net/url"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// vendorSighting is one sighting of a third-party scheduler or form host
// on a page: its script, iframe, widget element, inline call or a form
// posting to it.
type vendorSighting struct {
	v       *vendor
	url     string // the vendor URL, when one was seen
	locator string
	ev      string
	page    string
}

// vendorSightings finds the third-party schedulers and form hosts
// embedded in a page.
func vendorSightings(p *extract.Page) []vendorSighting {
	var out []vendorSighting
	add := func(v *vendor, vurl, locator, ev string) {
		out = append(out, vendorSighting{v: v, url: vurl, locator: locator, ev: ev, page: p.URL})
	}
	for _, s := range p.Scripts {
		if v, ok := vendorByURL(s.Src); ok {
			add(v, "", "script[src^="+cssValue(vendorPrefix(s.Src))+"]", "script "+s.Src)
		} else if v, ok := vendorByMark(s.ID + " " + s.Text + " " + dataKeys(s.Data)); ok {
			add(v, "", "", "inline script or script#"+s.ID+" mentions "+v.name)
		}
	}
	for _, f := range p.Frames {
		if v, ok := vendorByURL(f.Src); ok {
			add(v, f.Src, "iframe[src^="+cssValue(vendorPrefix(f.Src))+"]", "iframe "+f.Src)
		}
	}
	for _, e := range p.Embeds {
		if v, ok := vendorByURL(e.Src + " " + dataValues(e.Data)); ok {
			add(v, firstNonEmpty(e.Data["url"], e.Src), elementSelector(e), e.Tag+" widget for "+v.name)
		} else if v, ok := vendorByMark(e.ID + " " + e.Class + " " + dataKeys(e.Data)); ok {
			add(v, "", elementSelector(e), e.Tag+" widget for "+v.name)
		}
	}
	for _, f := range p.Forms {
		if v, ok := vendorByURL(f.Action); ok {
			add(v, f.Action, formSelector(&f).Value, "form posting to "+f.Action)
		}
	}
	return out
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
