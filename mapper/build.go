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
// Options.Now, and validated the way shared.Write will. It is a pipeline
// of stages, each a function of its own input (docs/mapper.md, "Inside:
// crawl, then build"):
//
//  1. doors (findDoors, cardDoors): each page, and each MCP server card,
//     read alone into plain door values — pageDoors, toolDoor;
//  2. actions (actionSet): doors grouped into action drafts across pages
//     and states — []*draft;
//  3. inputs and 4. validations (inputSource): what each action needs,
//     from the form, tool schema or structured data that made it;
//  5. effects (sideEffects: an effectContext);
//  6. barriers (barriers: []barrierFinding);
//  7. folding (foldOccurrences: doorCopies) and naming (actionNamer).
//
// What every stage may read and none changes is passed in: the site, the
// signer of provenance (the run's clock and name) and the classifier.
func build(o Options, c *collection) (*shared.ActionGraph, error) {
	s := signer{at: shared.TimestampOf(o.Now()), by: o.by()}
	var notes noteList
	acts := newActionSet(s, c.site, c.redirects)
	seen := map[string]bool{} // form elements already read: one seen in several states counts once
	siteName := ""
	for _, st := range c.steps {
		if st.page == nil {
			notes.add(st.note)
			continue
		}
		doors := findDoors(s, c.site, c.cls, st.page, seen)
		if siteName == "" {
			siteName = doors.siteName
		}
		acts.addPage(doors, &notes)
	}
	for _, f := range c.catalogs {
		if f.card == nil {
			notes.add(f.note)
			continue
		}
		cd := cardDoors(s, c.cls, *f.card, f.base, f.ev, siteRoot(c.site))
		notes.add(cd.note)
		acts.addTools(cd.tools, &notes)
	}
	drafts := acts.finish()

	slug := o.SiteSlug
	if slug == "" {
		slug = siteSlug(c.site.Host)
	}
	g := shared.NewGraph(graphIDOf(o, slug, s.at), shared.Site{Domain: c.site.Hostname(), URL: siteRoot(c.site), Name: strPtr(siteName)}, s.at, o.Generator)
	names := newActionNamer(slug, drafts)
	for _, d := range drafts {
		g.Actions = append(g.Actions, assemble(s, c.site, d, names))
	}
	if len(notes) > 0 {
		n := strings.Join(notes, " ")
		g.Notes = &n
	}
	if _, err := shared.Write(g); err != nil {
		// a graph the contract refuses is the mapper's bug, reported
		// rather than handed on for the next stage to trust
		return nil, fmt.Errorf("mapper: the graph of %s does not validate: %w", c.site, err)
	}
	return g, nil
}

// assemble runs the stages after grouping on one action draft: inputs,
// validations, effects, barriers, folding and naming.
func assemble(s signer, site *url.URL, d *draft, names *actionNamer) shared.Action {
	a := d.action
	if d.inputs != nil {
		a.Inputs = append(a.Inputs, d.inputs.inputs(s)...)
		a.Validations = append(a.Validations, d.inputs.validations(s)...)
	}
	ec := d.effects
	ec.inputs = a.Inputs
	a.SideEffects = s.sideEffects(ec)
	a.Barriers = append(a.Barriers, s.barriers(d.barrier)...)
	foldOccurrences(a.Access, d.copies, func(raw string) string { return relPath(site, raw) })
	a.ID = names.id(a.Kind, d.idPart)
	note := "Mapped only. Nothing here has been confirmed by the business and nothing may execute."
	a.Verification = shared.Unverified{Note: &note}
	return a
}

// signer signs the provenance records of one run: when and by whom. Every
// stage that makes a record is given it, read-only.
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

// noteList is the graph's notes in the order they arose, each once.
type noteList []string

// add records a note; "" and a note already there are left out.
func (n *noteList) add(note string) {
	if note == "" {
		return
	}
	for _, m := range *n {
		if m == note {
			return
		}
	}
	*n = append(*n, note)
}

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

// siteRoot is the site's home page URL.
func siteRoot(site *url.URL) string {
	u := *site
	u.Path, u.RawQuery, u.Fragment, u.RawPath = "/", "", "", ""
	return u.String()
}

// graphIDOf is Options.GraphID, else ag_<slug>_<yyyymmdd> of the run's clock.
func graphIDOf(o Options, slug string, at shared.Timestamp) string {
	if o.GraphID != "" {
		return o.GraphID
	}
	t, _ := at.Time()
	return graphID(slug, t)
}

// doorCopies is where one door of an action was seen: the folding stage's
// input.
type doorCopies struct {
	index    int      // the door's place in the action's access list
	pages    []string // the page of each sighting
	evidence string   // the evidence of its first sighting
}

// foldOccurrences is the folding stage: a door seen more than once says in
// its evidence where its copies were (rel names a page).
func foldOccurrences(access []shared.Access, copies map[string]*doorCopies, rel func(string) string) {
	for _, c := range copies {
		if n := access[c.index].Occurrences; n > 1 {
			ev := c.evidence + "; " + foldNote(access[c.index].Method, uniquePaths(rel, c.pages), n)
			access[c.index].Provenance.Evidence = &ev
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

// actionNamer names the actions of a graph: <site-slug>:<kind>:<part>,
// made unique with a counter. An action's natural id is kept by the first
// action, in discovery order, that has it; a later one gets the first of
// -2, -3… that is neither given already nor the natural id of any action
// of the graph, so no id is given twice and no action loses its natural id
// to another's suffix.
type actionNamer struct {
	slug    string
	natural map[string]bool // the natural id of every action of the graph
	given   map[string]bool
}

// newActionNamer is the namer of a graph of drafts, which knows all their
// natural ids before it names the first.
func newActionNamer(slug string, drafts []*draft) *actionNamer {
	n := &actionNamer{slug: slug, natural: map[string]bool{}, given: map[string]bool{}}
	for _, d := range drafts {
		n.natural[n.naturalID(d.action.Kind, d.idPart)] = true
	}
	return n
}

func (n *actionNamer) naturalID(kind shared.ActionKind, part string) string {
	if part == "" {
		part = string(kind)
	}
	return n.slug + ":" + string(kind) + ":" + part
}

// id names the next action, in discovery order.
func (n *actionNamer) id(kind shared.ActionKind, part string) string {
	base := n.naturalID(kind, part)
	id := base
	for c := 2; n.given[id] || id != base && n.natural[id]; c++ {
		id = fmt.Sprintf("%s-%d", base, c)
	}
	n.given[id] = true
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
