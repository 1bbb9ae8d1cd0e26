package mapper

import (
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// draft is one action as the actions stage assembles it from its doors,
// with what the later stages read: its inputs' source, the evidence of its
// effects and the barriers found on its doors and pages.
type draft struct {
	key     string
	idPart  string
	action  shared.Action          // kind, label, page, provenance and doors so far
	copies  map[string]*doorCopies // door key → where that door was seen
	inputs  inputSource            // nil when no door says what the action needs
	effects effectContext
	barrier []barrierFinding
}

// actionSet is the actions stage: it groups the doors of every page, in
// crawl order, into actions — one door seen on several pages or in several
// states is one door with occurrences, one action reached by several doors
// is one action. It is the one stage with state, because grouping is
// across pages; it changes nothing it is given.
type actionSet struct {
	s         signer
	site      *url.URL
	redirects map[string]string // canonicalPage of a requested URL → the URL it redirected to

	drafts     []*draft
	byKey      map[string]*draft
	visited    map[string]bool // canonicalPage of every page mapped
	loginPages map[string]bool // canonicalPage of pages whose form is a login

	// doors that join actions only once every page is read (finish)
	structured            []ldDoor
	tels, mails, linkOuts []*linkDoor
	vendors               []*vendorDoor
}

// linkDoor is a tel:, mailto: or booking link seen on one or more pages.
type linkDoor struct {
	key, href, text string
	kind            shared.ActionKind
	pages           []string
	contexts        []string // what a person reads around each occurrence
	sameSite        bool
	vendor          *vendor // a vendor's booking page, nil otherwise
}

// vendorDoor is a third-party widget or link seen on one or more pages.
type vendorDoor struct {
	v       *vendor
	url     string // the vendor URL, when one was seen
	locator string
	ev      string
	pages   []string
}

func newActionSet(s signer, site *url.URL, redirects map[string]string) *actionSet {
	return &actionSet{s: s, site: site, redirects: redirects,
		byKey: map[string]*draft{}, visited: map[string]bool{}, loginPages: map[string]bool{}}
}

// addPage groups the doors of one page; what it leaves out is noted.
// Forms and tools make their actions now (in page order); links, widgets
// and structured data wait for finish, which knows every page's forms.
func (as *actionSet) addPage(pd pageDoors, notes *noteList) {
	as.visited[canonicalPage(pd.url)] = true
	for _, p := range pd.loginPages {
		as.loginPages[p] = true
	}
	as.addForms(pd.forms, notes)
	for _, l := range pd.links {
		as.addLink(l)
	}
	for _, v := range pd.vendors {
		as.addVendor(v)
	}
	as.structured = append(as.structured, pd.structured...)
	for _, n := range pd.ldNotes {
		notes.add(n)
	}
	as.addTools(pd.tools, notes)
	as.addForms(pd.revealed, notes)
}

// addForms makes or joins the action of each form door.
func (as *actionSet) addForms(fs []formDoor, notes *noteList) {
	for _, fd := range fs {
		if fd.note != "" {
			notes.add(fd.note)
			continue
		}
		notes.add(fd.toolNote)
		d, isNew := as.draftOf(fd.head)
		for _, k := range fd.doors {
			d.addDoor(k.key, k.access, fd.head.page)
		}
		d.addBarriers(fd.barriers)
		if !isNew {
			continue
		}
		d.inputs = fd.inputs
		d.setEffects(fd.effects)
	}
}

// addTools makes or joins the action of each tool door (WebMCP or an MCP
// server card's).
func (as *actionSet) addTools(ts []toolDoor, notes *noteList) {
	for _, t := range ts {
		if t.note != "" {
			notes.add(t.note)
			continue
		}
		d, isNew := as.draftOf(t.head)
		d.addDoor(t.door.key, t.door.access, t.doorPage)
		if !isNew {
			continue
		}
		d.inputs = t.params
		for _, p := range t.problems {
			notes.add(p)
		}
		d.effects.text = t.text
	}
}

// addLink counts one sighting of a link.
func (as *actionSet) addLink(l linkSighting) {
	switch l.method {
	case shared.AccessTelLink:
		as.tels, _ = addLinkDoor(as.tels, l)
	case shared.AccessMailtoLink:
		as.mails, _ = addLinkDoor(as.mails, l)
	default:
		var d *linkDoor
		as.linkOuts, d = addLinkDoor(as.linkOuts, l)
		d.sameSite = l.sameSite
		if l.vendor != nil {
			d.vendor = l.vendor
		}
	}
}

// addLinkDoor counts one more sighting of l in list, or adds it, and
// returns the list and l's entry.
func addLinkDoor(list []*linkDoor, l linkSighting) ([]*linkDoor, *linkDoor) {
	for _, d := range list {
		if d.key == l.key {
			d.pages = append(d.pages, l.page)
			d.contexts = append(d.contexts, l.text)
			return list, d
		}
	}
	d := &linkDoor{key: l.key, href: l.href, text: l.text, kind: l.kind, pages: []string{l.page}, contexts: []string{l.text}}
	return append(list, d), d
}

// addVendor records one sighting of a vendor; a vendor seen several times
// on one page counts once for that page.
func (as *actionSet) addVendor(vs vendorSighting) {
	for _, s := range as.vendors {
		if s.v == vs.v {
			if s.url == "" {
				s.url = vs.url
			}
			if s.locator == "" {
				s.locator = vs.locator
			}
			if s.pages[len(s.pages)-1] != vs.page {
				s.pages = append(s.pages, vs.page)
			}
			return
		}
	}
	as.vendors = append(as.vendors, &vendorDoor{v: vs.v, url: vs.url, locator: vs.locator, ev: vs.ev, pages: []string{vs.page}})
}

// finish ends the actions stage: structured data, widgets and links join
// the actions the forms made (or make their own), and the drafts are
// returned in the order their actions were first seen.
func (as *actionSet) finish() []*draft {
	for _, l := range as.structured {
		as.attachStructured(l)
	}
	as.attachVendors()
	as.attachLinks()
	return as.drafts
}

// draftFor returns the draft with key, creating it with kind and label.
func (as *actionSet) draftFor(key string, kind shared.ActionKind, label, pageURL, idPart string) (*draft, bool) {
	if d, ok := as.byKey[key]; ok {
		return d, false
	}
	d := &draft{
		key: key, idPart: idPart,
		action: shared.NewAction("", kind, label, pageURL),
		copies: map[string]*doorCopies{},
	}
	d.effects.kind = kind
	d.effects.siteHost = lowerHost(as.site)
	as.byKey[key] = d
	as.drafts = append(as.drafts, d)
	return d, true
}

// draftOf returns the draft of the action a door opens, creating it from
// the door's head (and its provenance) when it is the first door of it.
func (as *actionSet) draftOf(h actionHead) (*draft, bool) {
	d, isNew := as.draftFor(h.key, h.kind, h.label, h.page, h.idPart)
	if isNew {
		d.action.Provenance = ptr(h.provenance)
	}
	return d, isNew
}

// addDoor adds a door to d, or counts one more occurrence of it.
func (d *draft) addDoor(key string, a shared.Access, page string) {
	if c, ok := d.copies[key]; ok {
		d.action.Access[c.index].Occurrences++
		c.pages = append(c.pages, page)
		return
	}
	if a.Occurrences == 0 {
		a.Occurrences = 1
	}
	c := &doorCopies{index: len(d.action.Access), pages: []string{page}}
	if a.Provenance.Evidence != nil {
		c.evidence = *a.Provenance.Evidence
	}
	d.copies[key] = c
	d.action.Access = append(d.action.Access, a)
}

// setEffects gives d the evidence of its effects its first door carries.
func (d *draft) setEffects(ec effectContext) {
	ec.kind, ec.siteHost = d.effects.kind, d.effects.siteHost
	d.effects = ec
}

// addBarriers adds findings not already recorded.
func (d *draft) addBarriers(fs []barrierFinding) {
	for _, f := range fs {
		dup := false
		for _, g := range d.barrier {
			if g.kind == f.kind && g.what == f.what {
				dup = true
			}
		}
		if !dup {
			d.barrier = append(d.barrier, f)
		}
	}
}

// attachStructured adds a potentialAction's door to the form of the same
// kind that sends to the same endpoint path, or makes its own action.
func (as *actionSet) attachStructured(l ldDoor) {
	if p := pathOf(l.target); p != "" && !strings.Contains(p, "{") {
		for _, d := range as.drafts {
			for _, acc := range d.action.Access {
				if acc.Method == shared.AccessHTMLForm && d.action.Kind == l.head.kind && acc.Submission != nil && acc.Submission.Endpoint != nil && pathOf(*acc.Submission.Endpoint) == p {
					d.addDoor("ld|"+l.typ+"|"+l.target, l.door, l.head.page)
					return
				}
			}
		}
	}
	d, isNew := as.draftOf(l.head)
	d.addDoor("ld", l.door, l.head.page)
	if !isNew {
		return
	}
	d.effects.text = l.text
	d.inputs = l.inputs
}

// attachVendors makes one opaque action per vendor: its fields live in the
// vendor's frame, which nobody outside it can read.
func (as *actionSet) attachVendors() {
	for _, s := range as.vendors {
		kind := shared.KindBooking
		label := "Book online with " + s.v.name
		if s.v.role == roleFormHost {
			kind, label = shared.KindEnquiry, "Form hosted by "+s.v.name
		}
		d, isNew := as.draftFor("vendor|"+s.v.name, kind, label, s.pages[0], slugify(s.v.name))
		if isNew {
			d.action.Provenance = ptr(as.s.prov(shared.MethodParsedHTML, confVendorDoor, s.ev))
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
				Provenance: as.s.prov(shared.MethodParsedHTML, confVendorDoor, s.ev+"; third-party frame, fields not readable"),
			}, page)
		}
	}
}

// attachLinks turns the collected links into doors. A phone number or an
// email address offered for a specific action joins that action (created
// if the site has no other door to it); one offered as the general way to
// reach the business joins the site's contact form, else one contact
// action. Link-outs to pages that were mapped are dropped: those pages'
// own doors stand for them.
func (as *actionSet) attachLinks() {
	for _, l := range as.linkOuts {
		if l.sameSite && as.visited[canonicalPage(l.href)] || l.vendor != nil && as.embedded(l.vendor) {
			continue
		}
		part := linkOutPart(l)
		d, isNew := as.draftFor("linkout|"+l.key, l.kind, clip(firstNonEmpty(l.text, kindLabel(l.kind)), 120), l.pages[0], part)
		if isNew {
			d.action.Provenance = ptr(as.s.prov(shared.MethodParsedHTML, confLinkOutDoor, "link text “"+l.text+"” points to "+l.href))
			d.effects.vendor = l.vendor
		}
		if as.leadsToLogin(l.href) {
			d.addBarriers([]barrierFinding{{shared.BarrierLogin, "login", "the linked page sends a visitor to a login form: an account is needed first", 0.85, l.href + " → " + as.redirects[canonicalPage(l.href)]}})
		}
		as.addLinkDoors(d, l, shared.AccessLinkToPage)
	}

	var contact *draft
	for _, group := range []struct {
		links []*linkDoor
		m     shared.AccessMethod
	}{{as.tels, shared.AccessTelLink}, {as.mails, shared.AccessMailtoLink}} {
		for _, l := range group.links {
			kind := directKind(l)
			d := as.firstDraftOfKind(kind)
			if d == nil && kind == shared.KindContact {
				if contact == nil {
					contact, _ = as.draftFor("contact|links", shared.KindContact, "Contact the business", siteRoot(as.site), "")
				}
				d = contact
			}
			if d == nil {
				d, _ = as.draftFor("direct|"+string(kind), kind, kindLabel(kind), l.pages[0], "")
			}
			as.addLinkDoors(d, l, group.m)
			if d.action.Provenance == nil {
				d.action.Provenance = ptr(as.s.prov(shared.MethodParsedHTML, 0.9, "tel: and mailto: links reach the business directly"))
			}
			// (an action whose doors say what it needs has a door an
			// agent submits through: a form, a tool or an endpoint)
			if !d.hasDrivableDoor() {
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
func (as *actionSet) embedded(v *vendor) bool {
	for _, s := range as.vendors {
		if s.v == v {
			return true
		}
	}
	return false
}

// firstDraftOfKind returns the first action of kind found so far.
func (as *actionSet) firstDraftOfKind(kind shared.ActionKind) *draft {
	for _, d := range as.drafts {
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
func (as *actionSet) leadsToLogin(href string) bool {
	key := canonicalPage(href)
	if as.loginPages[key] {
		return true
	}
	if to, ok := as.redirects[key]; ok {
		return as.loginPages[canonicalPage(to)]
	}
	return false
}

// addLinkDoors adds one door per page occurrence of a link.
func (as *actionSet) addLinkDoors(d *draft, l *linkDoor, m shared.AccessMethod) {
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
			Provenance: as.s.prov(shared.MethodParsedHTML, conf, loc.Value),
		}, page)
	}
}
