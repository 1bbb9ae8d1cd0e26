package mapper

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// collection is what a crawl gathered, in crawl order: the pages it read
// and what it could not read. build makes the graph from it alone, without
// a browser or the network, so everything after the crawl is testable on
// pages extracted from static markup.
type collection struct {
	site      *url.URL
	steps     []crawlStep
	redirects map[string]string // canonicalPage of a requested URL → the URL it redirected to
	catalogs  []catalogFinding  // what reading the site's ARD catalogs found
	cls       classifier        // the crawl's classifier, with what it already read
}

// crawlStep is one page read, or a note about one that was not.
type crawlStep struct {
	page *pageVisit // nil for a note
	note string
}

// pageVisit is what one page gave: its document as loaded, the bot
// challenge its response announced, the WebMCP tools it registered and the
// states a safe exploration revealed.
type pageVisit struct {
	url       string
	doc       *extract.Page
	challenge string // the Cf-Mitigated header, "" for none
	tools     []webmcpTool
	revealed  []*extract.Page
}

// note adds a note about the crawl in its place among the pages.
func (c *collection) note(format string, args ...any) {
	c.steps = append(c.steps, crawlStep{note: fmt.Sprintf(format, args...)})
}

// build makes the graph of a collection: pure, deterministic given
// Options.Now, and validated the way shared.Write will.
func build(o Options, c *collection) (*shared.ActionGraph, error) {
	b := newBuilder(o, c.site, c.cls)
	for k, v := range c.redirects {
		b.redirects[k] = v
	}
	for _, st := range c.steps {
		if st.page == nil {
			b.note("%s", st.note)
			continue
		}
		b.addVisit(st.page)
	}
	b.addCatalogs(c.catalogs)
	return b.result()
}

// addVisit maps one page: its forms (and those a click revealed), links,
// widgets, structured data and WebMCP tools.
func (b *builder) addVisit(v *pageVisit) {
	b.visited[canonicalPage(v.url)] = true
	b.addForms(v.doc, v.challenge)
	b.noteSiteName(v.doc)
	b.addLinks(v.doc)
	b.addVendors(v.doc)
	b.addStructuredData(v.doc)
	b.addWebMCPTools(v.url, v.tools)
	for _, st := range v.revealed {
		b.addForms(st, v.challenge)
	}
}

// builder assembles one graph from the pages of a site. Pages are added in
// crawl order (entry page first); finish folds, names and orders actions.
type builder struct {
	signer
	o    Options
	site *url.URL
	slug string
	cls  classifier

	drafts     []*draft
	byKey      map[string]*draft
	seenForms  map[string]bool   // a form element seen in several states counts once
	visited    map[string]bool   // canonicalPage of every page mapped
	redirects  map[string]string // canonicalPage of a requested URL → the URL it redirected to
	loginPages map[string]bool   // canonicalPage of pages whose form is a login

	siteName    string // og:site_name or application-name of the first page that has one
	ldActions   []pagedLDAction
	tels, mails []*linkDoor
	linkOuts    []*linkDoor
	schedulers  []*vendorDoor
	notes       []string
}

// draft is an action being assembled, with what its effects and barriers
// will be read from.
type draft struct {
	key     string
	idPart  string
	action  shared.Action
	doors   map[string]int      // door key → index in action.Access
	pages   map[string][]string // door key → pages it was seen on
	doorEv  map[string]string   // door key → evidence of its first sighting
	effects effectContext
	barrier []barrierFinding
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

func newBuilder(o Options, site *url.URL, cls classifier) *builder {
	slug := o.SiteSlug
	if slug == "" {
		slug = siteSlug(site.Host)
	}
	return &builder{
		signer: signer{at: shared.TimestampOf(o.Now()), by: o.by()},
		o:      o, site: site, slug: slug, cls: cls,
		byKey: map[string]*draft{}, seenForms: map[string]bool{}, visited: map[string]bool{},
		redirects: map[string]string{}, loginPages: map[string]bool{},
	}
}

// signer signs the provenance records of one run: when and by whom. The
// stages that need nothing else — validations, effects, barriers — are its
// methods, so they read only their own input.
type signer struct {
	at shared.Timestamp
	by string
}

// prov is a provenance record signed by this run.
func (s signer) prov(m shared.ProvenanceMethod, conf float64, evidence string) shared.Provenance {
	if conf >= 1 {
		conf = 0.99 // only an owner may be certain
	}
	return shared.Provenance{Method: m, Confidence: conf, At: s.at, By: s.by, Evidence: strPtr(evidence)}
}

// draftFor returns the draft with key, creating it with kind and label.
func (b *builder) draftFor(key string, kind shared.ActionKind, label, pageURL, idPart string) (*draft, bool) {
	if d, ok := b.byKey[key]; ok {
		return d, false
	}
	d := &draft{
		key: key, idPart: idPart,
		action: shared.NewAction("", kind, label, pageURL),
		doors:  map[string]int{}, pages: map[string][]string{}, doorEv: map[string]string{},
	}
	d.effects.kind = kind
	d.effects.siteHost = strings.ToLower(b.site.Hostname())
	b.byKey[key] = d
	b.drafts = append(b.drafts, d)
	return d, true
}

// addDoor adds a door to d, or counts one more occurrence of it.
func (d *draft) addDoor(key string, a shared.Access, page string) {
	if i, ok := d.doors[key]; ok {
		d.action.Access[i].Occurrences++
		d.pages[key] = append(d.pages[key], page)
		return
	}
	if a.Occurrences == 0 {
		a.Occurrences = 1
	}
	d.doors[key] = len(d.action.Access)
	d.action.Access = append(d.action.Access, a)
	d.pages[key] = []string{page}
	if a.Provenance.Evidence != nil {
		d.doorEv[key] = *a.Provenance.Evidence
	}
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

// note records a fact about the run for the graph's notes.
func (b *builder) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	for _, m := range b.notes {
		if m == n {
			return
		}
	}
	b.notes = append(b.notes, n)
}

// relPath names a page by its path for evidence ("/contact/").
func (b *builder) relPath(raw string) string { return relPath(b.site, raw) }

// relPath names a page of site by its path ("/contact/"); a page of
// another site keeps its whole URL.
func relPath(site *url.URL, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || !sameSite(site, u) {
		return raw
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// finish ends the door stage (structured data and link doors attach to
// the actions the forms made), then runs the last stages on each action in
// turn — folding, effects, barriers — names the actions and returns the
// graph.
func (b *builder) finish() *shared.ActionGraph {
	b.attachStructuredData()
	b.attachLinks()
	g := shared.NewGraph(b.graphID(), shared.Site{Domain: b.site.Hostname(), URL: b.siteURL(), Name: strPtr(b.siteName)}, b.at, b.o.Generator)
	names := actionNamer{slug: b.slug, used: map[string]int{}}
	for _, d := range b.drafts {
		a := d.action
		foldOccurrences(a.Access, d, b.relPath)
		d.effects.inputs = a.Inputs
		a.SideEffects = b.sideEffects(d.effects)
		a.Barriers = append(a.Barriers, b.barriers(d.barrier)...)
		a.ID = names.id(a.Kind, d.idPart)
		note := "Mapped only. Nothing here has been confirmed by the business and nothing may execute."
		a.Verification = shared.Unverified{Note: &note}
		g.Actions = append(g.Actions, a)
	}
	if len(b.notes) > 0 {
		n := strings.Join(b.notes, " ")
		g.Notes = &n
	}
	return g
}

// foldOccurrences is the folding stage: a door seen more than once says in
// its evidence where its copies were (rel names a page).
func foldOccurrences(access []shared.Access, d *draft, rel func(string) string) {
	for key, i := range d.doors {
		if n := access[i].Occurrences; n > 1 {
			ev := d.doorEv[key] + "; " + foldNote(access[i].Method, uniquePaths(rel, d.pages[key]), n)
			access[i].Provenance.Evidence = &ev
		}
	}
}

// barriers is the barriers stage: the findings of an action's doors and
// pages, as the graph records them.
func (s signer) barriers(fs []barrierFinding) []shared.Barrier {
	var out []shared.Barrier
	for _, f := range fs {
		out = append(out, shared.Barrier{Kind: f.kind, Detail: strPtr(f.detail), Provenance: s.prov(shared.MethodParsedHTML, f.conf, f.ev)})
	}
	return out
}

// result finishes the graph and validates it the way shared.Write will: a
// graph the contract refuses is the mapper's bug, reported rather than
// handed on for the next stage to trust.
func (b *builder) result() (*shared.ActionGraph, error) {
	g := b.finish()
	if _, err := shared.Write(g); err != nil {
		return nil, fmt.Errorf("mapper: the graph of %s does not validate: %w", b.site, err)
	}
	return g, nil
}

func (b *builder) graphID() string {
	if b.o.GraphID != "" {
		return b.o.GraphID
	}
	at, _ := b.at.Time()
	return graphID(b.slug, at)
}

func (b *builder) siteURL() string {
	u := *b.site
	u.Path, u.RawQuery, u.Fragment, u.RawPath = "/", "", "", ""
	return u.String()
}

// actionNamer names the actions of a graph: <site-slug>:<kind>:<part>,
// made unique with a counter.
type actionNamer struct {
	slug string
	used map[string]int
}

func (n actionNamer) id(kind shared.ActionKind, part string) string {
	if part == "" {
		part = string(kind)
	}
	id := n.slug + ":" + string(kind) + ":" + part
	n.used[id]++
	if c := n.used[id]; c > 1 {
		id = fmt.Sprintf("%s-%d", id, c)
	}
	return id
}

// foldNote explains an occurrences count in a door's evidence.
func foldNote(m shared.AccessMethod, pages []string, n int) string {
	where := "on " + strings.Join(pages, ", ")
	if len(pages) == 1 {
		where = "on the same page (" + pages[0] + ")"
	}
	what := "identical form"
	switch m {
	case shared.AccessTelLink, shared.AccessMailtoLink, shared.AccessLinkToPage:
		what = "same link"
	case shared.AccessSchedulerWidget:
		what = "same widget"
	}
	return fmt.Sprintf("%s repeated %s, folded to occurrences: %d", what, where, n)
}

func uniquePaths(rel func(string) string, pages []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pages {
		r := rel(p)
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// firstDraft returns the first draft of one of kinds that has a door of method m.
func (b *builder) firstDraft(m shared.AccessMethod, kinds ...shared.ActionKind) *draft {
	for _, k := range kinds {
		for _, d := range b.drafts {
			if d.action.Kind != k {
				continue
			}
			for _, a := range d.action.Access {
				if a.Method == m {
					return d
				}
			}
		}
	}
	return nil
}

// noteSiteName keeps the name a page gives its site in its metadata.
func (b *builder) noteSiteName(p *extract.Page) {
	if b.siteName != "" {
		return
	}
	for _, m := range p.Meta {
		if strings.EqualFold(m.Property, "og:site_name") || strings.EqualFold(m.Name, "application-name") {
			if n := strings.TrimSpace(m.Content); n != "" {
				b.siteName = clip(n, 120)
				return
			}
		}
	}
}

// pageBarriers are the barriers that guard every form of a page.
func pageBarriers(p *extract.Page, challengeHeader string) []barrierFinding {
	return append(pageCaptchas(p), pageBotChallenge(p, challengeHeader)...)
}
