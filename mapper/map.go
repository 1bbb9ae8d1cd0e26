package mapper

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/go-rod/rod"
)

// Map maps the site at rawURL into an Action Graph. It reads the site's
// robots.txt first (an entry page it disallows ends here with a
// *DisallowedError, never requested), checks the URL with a plain HTTP
// request (an unreachable site, an error status, a redirect loop or a
// non-HTML answer ends here with a *FetchError), then opens the entry page
// and up to Options.MaxPages same-site pages that carry actions, one after
// the other in one reused tab of a real browser (Options.Session, or a tab
// of Options.Browser, of the browser at Options.ControlURL or of its own),
// reveals modals through topology's safe
// exploration of the page as loaded, reads ARD catalogs (fetched while the
// pages load), and returns the graph. Every action is Unverified.
func Map(ctx context.Context, rawURL string, opts Options) (*shared.ActionGraph, error) {
	o := opts.withDefaults()
	o.fetcher = &fetcher{ahead: map[string]*pendingFetch{}}
	ctx, cancel := context.WithTimeout(ctx, o.RunTimeout)
	defer cancel()
	site, err := parseSiteURL(rawURL)
	if err != nil {
		return nil, err
	}
	// The well-known catalogs are fetched while robots.txt is read and the
	// entry page is checked and loaded.
	o.prefetch(ctx, resolveOn(site, "/robots.txt"), acceptText)
	for _, p := range ardWellKnown {
		o.prefetch(ctx, resolveOn(site, p), acceptJSON)
	}
	// A disallowed entry page is not requested at all, not even pre-flighted.
	robots := robotsOf(ctx, o, site)
	if !robots.allowed(site.String()) && !o.IgnoreRobots {
		return nil, &DisallowedError{URL: site.String(), Agent: robots.agent}
	}
	pre, err := fetchHTML(ctx, o, site.String())
	if err != nil {
		return nil, err
	}
	if final, err := url.Parse(pre.URL); err == nil && final.Host != "" {
		if resolveOn(final, "/robots.txt") != resolveOn(site, "/robots.txt") {
			robots = robotsOf(ctx, o, final) // redirected to another origin: its own rules
		}
		site = final
	}
	if !robots.allowed(site.String()) && !o.IgnoreRobots {
		return nil, &DisallowedError{URL: site.String(), Agent: robots.agent}
	}
	if d := robots.crawlDelay(); d > 0 && !o.IgnoreRobots {
		o.Limiter.slowTo(site.Host, d)
	}
	ld := o.loader
	if ld == nil {
		sess := o.Session
		if sess != nil {
			if err := sess.Reset(ctx); err != nil {
				return nil, fmt.Errorf("mapper: %w", err)
			}
		} else {
			browser := o.Browser
			if browser == nil {
				br, err := o.newBrowser(ctx)
				if err != nil {
					return nil, err
				}
				defer br.Close()
				browser = br
			}
			if sess, err = NewSession(ctx, browser, o); err != nil {
				return nil, err
			}
			defer sess.Close()
		}
		ld = browserLoader{sess: sess, o: o}
	}
	c, refs, err := crawl(ctx, o, site, pre, robots, ld)
	if err != nil {
		return nil, err
	}
	c.catalogs = readCatalogs(ctx, o, site, refs)
	return build(o, c)
}

// newBrowser is the browser Map and MapAll use when o.Browser is not set:
// the one running at o.ControlURL, or else one of their own. A running
// browser's resolver is its own: Offline then keeps each tab on the site
// (PageOptions.Offline) rather than the resolver.
func (o Options) newBrowser(ctx context.Context) (*topology.Browser, error) {
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: o.Offline && o.ControlURL == "", ControlURL: o.ControlURL})
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	return br, nil
}

// pageLoader reads the pages of a crawl: in a browser (Map), or from the
// plain-HTTP response as static markup (staticLoader).
type pageLoader interface {
	// preflight says whether the crawl fetches each page over plain HTTP
	// before load (the loader reads that response); otherwise load learns
	// the response itself (observation.resp) and returns a
	// *responseError for one that is not a page to map.
	preflight() bool
	// load reads the page u, whose plain-HTTP response is f (nil when
	// preflight is false, but for the entry page). With capture the
	// page's state is captured for the reveal that follows, in the same
	// in-page read.
	load(ctx context.Context, u string, f *fetched, capture bool) (*observation, error)
	// reveal returns the states a safe exploration of u, the page load
	// just read, reaches, and what went wrong on the way (for the graph's
	// notes).
	reveal(ctx context.Context, u string) ([]*extract.Page, error)
}

// browserLoader opens each page, one after the other, in one reused tab
// of a browser (a topology.Session).
type browserLoader struct {
	sess *topology.Session
	o    Options
}

func (browserLoader) preflight() bool { return false }

func (l browserLoader) load(ctx context.Context, u string, pre *fetched, capture bool) (*observation, error) {
	return observe(ctx, l.sess, u, l.o, pre == nil, capture)
}

// responseOf is the response the browser got for the page the session
// just opened, judged as a pre-flight would judge it (a *responseError for
// an error status or a body that is not HTML). When the browser reported
// none (a page served without a network response) it asks over plain HTTP.
func responseOf(ctx context.Context, sess *topology.Session, u string, o Options) (*fetched, error) {
	r := sess.Response()
	if r == nil {
		f, err := fetchHTML(ctx, o, u)
		if err != nil {
			return nil, &responseError{err: err}
		}
		return f, nil
	}
	f := &fetched{URL: r.URL, Status: r.Status, ContentType: r.MIMEType, Header: r.Header}
	if f.ContentType == "" {
		f.ContentType = mediaType(r.Header.Get("Content-Type"), nil)
	}
	if err := checkHTML(u, f); err != nil {
		return nil, &responseError{err: err}
	}
	return f, nil
}

// responseError is a page the browser loaded whose response is not one to
// map (an error status, not HTML): err says why, as a pre-flight would.
type responseError struct{ err error }

func (e *responseError) Error() string { return e.err.Error() }
func (e *responseError) Unwrap() error { return e.err }

// reveal explores the page the tab shows as loaded (u, just loaded): no
// second load.
func (l browserLoader) reveal(ctx context.Context, _ string) ([]*extract.Page, error) {
	return reveal(ctx, l.sess, l.o)
}

// staticLoader parses each page's plain-HTTP response as MapHTML does:
// nothing is revealed and no script runs.
type staticLoader struct{}

func (staticLoader) preflight() bool { return true }

func (staticLoader) load(_ context.Context, _ string, f *fetched, _ bool) (*observation, error) {
	p, err := extract.FromHTML(f.URL, f.Body)
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	return &observation{url: p.URL, page: p}, nil
}

func (staticLoader) reveal(context.Context, string) ([]*extract.Page, error) { return nil, nil }

// crawl reads the entry page (whose plain-HTTP response is pre) and up to
// o.MaxPages same-site pages, best-scored first, and returns what they gave
// with the ARD catalog references it met. A page the robots.txt of its
// origin disallows is not opened (unless o.IgnoreRobots) and the notes say
// so; robots is the entry origin's, and Map has checked the entry page
// already.
func crawl(ctx context.Context, o Options, site *url.URL, pre *fetched, robots robotsRules, ld pageLoader) (*collection, []catalogRef, error) {
	c := &collection{site: site, redirects: map[string]string{}, cls: newClassifier()}
	visited := map[string]bool{}
	seenForms := map[string]bool{}
	refs := ardFromLinkHeader(site, pre.Header)
	fr := newFrontier()
	fr.push(site.String(), 0)
	// A same-site page of another origin (a subdomain, the other scheme)
	// answers to its own robots.txt, read once per run, and its own
	// Crawl-delay paces its host.
	origins := map[string]robotsRules{resolveOn(site, "/robots.txt"): robots}
	robotsFor := func(raw string) robotsRules {
		u, err := url.Parse(raw)
		if err != nil {
			return robots
		}
		key := resolveOn(u, "/robots.txt")
		r, ok := origins[key]
		if !ok {
			r = robotsOf(ctx, o, u)
			origins[key] = r
			o.Limiter.slowTo(u.Host, r.crawlDelay())
		}
		return r
	}
	opened := 0
	outOfTime := false // the loop ended with the run, not with the budget
	for opened < o.MaxPages {
		next, ok := fr.pop()
		if !ok {
			break
		}
		if ctx.Err() != nil {
			c.note("The run ran out of time before %s was mapped.", relPath(site, next.url))
			outOfTime = true
			break
		}
		resp := pre
		if opened > 0 {
			if !o.IgnoreRobots {
				if r := robotsFor(next.url); !r.allowed(next.url) {
					c.note("%s was not opened: robots.txt disallows it for %s.", relPath(site, next.url), r.agent)
					continue
				}
			}
			resp = nil
			if ld.preflight() {
				f, err := fetchHTML(ctx, o, next.url)
				if late(err) {
					c.note("The run ran out of time before %s was mapped: %v.", relPath(site, next.url), err)
					outOfTime = true
					break
				}
				if err != nil {
					c.note("%s was not mapped: %v.", relPath(site, next.url), err)
					continue
				}
				if offSite(site, f.URL) {
					c.note("%s was not mapped: it redirects to %s, another site.", relPath(site, next.url), f.URL)
					continue
				}
				resp = f
			}
		}
		if o.OnPage != nil {
			o.OnPage(next.url)
		}
		// The entry page is always explored: its state is captured in the
		// same read as its document.
		obs, err := ld.load(ctx, next.url, resp, opened == 0 && !o.NoExplore)
		var bad *responseError
		if errors.As(err, &bad) {
			// The browser's answer said what a pre-flight would have:
			// not a page to map, and not one of the budget.
			c.note("%s was not mapped: %v.", relPath(site, next.url), bad.err)
			continue
		}
		opened++
		if err == nil && resp == nil {
			resp = obs.resp
		}
		if err == nil && opened > 1 && offSite(site, obs.url) {
			// The crawl follows no link off the site; nor does it map
			// another site's page that one of this site's led to.
			c.note("%s was not mapped: it led to %s, another site.", relPath(site, next.url), obs.url)
			continue
		}
		if err == nil && opened > 1 && canonicalPage(resp.URL) != canonicalPage(next.url) {
			c.redirects[canonicalPage(next.url)] = resp.URL
		}
		if err != nil {
			if opened == 1 {
				if errors.As(err, new(*FetchError)) {
					return nil, nil, err // already says which page and why
				}
				return nil, nil, fmt.Errorf("mapper: the entry page did not load: %w", err)
			}
			if late(err) {
				c.note("The run ran out of time before %s was mapped: %v.", relPath(site, next.url), err)
				outOfTime = true
				break
			}
			c.note("%s was not mapped: %v.", relPath(site, next.url), err)
			continue
		}
		refs = append(refs, ardFromLinkHeader(site, resp.Header)...)
		v := &pageVisit{url: obs.url, doc: obs.page, challenge: challengeOf(resp.Header), tools: obs.tools}
		if obs.toolsErr != nil {
			c.note("The WebMCP tools %s registered could not be read (%v); its forms are mapped.", relPath(site, obs.url), obs.toolsErr)
		}
		c.steps = append(c.steps, crawlStep{page: v})
		visited[canonicalPage(obs.url)] = true
		showsAction := holdsAction(obs.page, seenForms, c.cls)
		if !o.NoExplore && worthRevealing(opened == 1, next.score, showsAction) {
			var err error
			v.revealed, err = ld.reveal(ctx, next.url)
			for _, st := range v.revealed {
				holdsAction(st, seenForms, c.cls)
			}
			if err != nil {
				c.note("Exploring %s: %s; the forms it revealed before are mapped.", relPath(site, next.url), strings.ReplaceAll(err.Error(), "\n", "; "))
			}
		}
		refs = append(refs, ardFromLinkRels(obs.page)...)
		for _, l := range obs.page.Links {
			if u, score := scoreLink(site, l); score > 0 {
				fr.push(u, score)
			}
		}
		for _, f := range obs.page.Frames {
			if u, score := scoreFrameSrc(site, f); score > 0 {
				fr.push(u, score)
			}
		}
	}
	for {
		left, ok := fr.pop()
		if !ok {
			break
		}
		switch {
		case visited[canonicalPage(left.url)]:
		case outOfTime:
			c.note("The run ran out of time before %s was mapped.", relPath(site, left.url))
		default:
			c.note("Page budget (%d) reached; %s was not opened.", o.MaxPages, relPath(site, left.url))
		}
	}
	return c, refs, nil
}

// offSite reports a page URL that is not on site (sameSite), or does not
// parse.
func offSite(site *url.URL, raw string) bool {
	u, err := url.Parse(raw)
	return err != nil || !sameSite(site, u)
}

// late reports an error that says a page's host could not be given its
// turn before the run's end (its pace is slower than the time left).
func late(err error) bool { return errors.As(err, new(*paceError)) }

// Accept headers of the plain HTTP requests.
const (
	acceptHTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
	acceptText = "text/plain"
	acceptJSON = "application/json"
)

// robotsOf reads the site's robots.txt (prefetched by Map).
func robotsOf(ctx context.Context, o Options, site *url.URL) robotsRules {
	f, err := fetch(ctx, o, resolveOn(site, "/robots.txt"), acceptText)
	if f == nil {
		_ = err
		return parseRobots(0, nil, o.UserAgent)
	}
	return parseRobots(f.Status, f.Body, o.UserAgent)
}

// NewSession opens the tab Map opens pages in (Options.Session) on
// browser: an isolated browser context with the WebMCP recorder installed,
// opts.UserAgent and opts.Offline. Close it when done.
func NewSession(ctx context.Context, browser *topology.Browser, opts Options) (*topology.Session, error) {
	s, err := browser.NewSession(ctx, opts.withDefaults().tabOptions())
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	return s, nil
}

// tabOptions are the settings of the tab a Map opens its pages in.
func (o Options) tabOptions() topology.PageOptions {
	return topology.PageOptions{
		Offline:     o.Offline,
		InitScripts: []string{webmcpInitScript},
		LoadTimeout: o.PageTimeout / 4,
		// One step (a probe, the page's read) gets as long: 5s by
		// default, more when the caller gives pages more time.
		ActionTimeout: o.PageTimeout / 4,
		UserAgent:     o.UserAgent,
	}
}

// MapPage maps one page a crawler already has open and loaded. It does not
// navigate, click or close the page. Imperative WebMCP tools are seen only
// when WebMCPInitScript was added to the page before it loaded. ARD
// catalogs of the page's site are read over plain HTTP (same site only).
func MapPage(ctx context.Context, page *rod.Page, opts Options) (*shared.ActionGraph, error) {
	if page == nil {
		return nil, ErrNilPage
	}
	o := opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, o.RunTimeout)
	defer cancel()
	obs, err := readPage(ctx, page, o)
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	site, err := parseSiteURL(obs.url)
	if err != nil {
		return nil, err
	}
	c := &collection{site: site, steps: []crawlStep{{page: &pageVisit{url: obs.url, doc: obs.page, tools: obs.tools}}}}
	if obs.toolsErr != nil {
		c.note("The WebMCP tools %s registered could not be read (%v); its forms are mapped.", relPath(site, obs.url), obs.toolsErr)
	}
	c.catalogs = readCatalogs(ctx, o, site, ardFromLinkRels(obs.page))
	return build(o, c)
}

// MapHTML maps static markup served at pageURL, without a browser or any
// network access: everything is parsed-html (or structured data and
// declarative WebMCP read from the same markup). Visibility comes only from
// the hidden attribute and inline styles, and script-registered tools,
// script-rendered forms and ARD catalogs are not seen.
func MapHTML(pageURL string, html []byte, opts Options) (*shared.ActionGraph, error) {
	o := opts.withDefaults()
	site, err := parseSiteURL(pageURL)
	if err != nil {
		return nil, err
	}
	p, err := extract.FromHTML(site.String(), html)
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	c := &collection{site: site, steps: []crawlStep{{page: &pageVisit{url: p.URL, doc: p}}}}
	for _, r := range ardFromLinkRels(p) {
		c.catalogs = append(c.catalogs, catalogFinding{note: fmt.Sprintf("ARD catalog %s (%s) is not fetched by MapHTML.", r.url, r.route)})
	}
	return build(o, c)
}

// observation is what one page gave as loaded: its document, the WebMCP
// tools it registered and, when the loader learnt it, its response.
type observation struct {
	url   string
	page  *extract.Page
	tools []webmcpTool
	resp  *fetched
	// toolsErr says why the WebMCP tools the page registered could not be
	// read (the recorder broken or its answer unreadable).
	toolsErr error
}

// challengeOf is the bot challenge a response announced ("" for none).
func challengeOf(header http.Header) string {
	if header == nil {
		return ""
	}
	return header.Get("Cf-Mitigated")
}

// pageScript is the one in-page read of a page: the extraction, its
// forms' submit listeners and the WebMCP tools the page registered.
var pageScript = extract.PageScript(webmcpReadJS)

// readPage extracts a loaded page and the WebMCP tools it registered, in
// one Evaluate.
func readPage(ctx context.Context, page *rod.Page, o Options) (*observation, error) {
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	p, tools, err := extract.FromPageWith(pctx, page, webmcpReadJS)
	return observed(p, tools, err)
}

// observed is the observation of one read of pageScript.
func observed(p *extract.Page, tools string, err error) (*observation, error) {
	if err != nil && !errors.Is(err, extract.ErrAlso) {
		return nil, err // extract's own error, prefixed by whoever reports it
	}
	// A page that broke the recorder still has its forms; the notes say
	// its tools could not be read.
	obs := &observation{url: p.URL, page: p}
	if err != nil {
		obs.toolsErr = err
		return obs, nil
	}
	obs.tools, obs.toolsErr = decodeWebMCPTools(tools)
	return obs, nil
}

// observe opens url in the session's tab and reads it (capturing its
// state for the reveal that follows, with capture). With judge, the
// browser's response is checked first (responseOf) and kept.
func observe(ctx context.Context, sess *topology.Session, u string, o Options, judge, capture bool) (*observation, error) {
	// The host's turn is waited for in the run's time, before the page's own.
	if err := o.Limiter.Wait(ctx, hostOfURL(u)); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	if _, err := sess.Open(pctx, u); err != nil {
		if errors.Is(err, topology.ErrNavigation) {
			return nil, &FetchError{URL: u, Kind: ErrUnreachable, Cause: err}
		}
		return nil, err
	}
	var resp *fetched
	if judge {
		var err error
		if resp, err = responseOf(pctx, sess, u, o); err != nil {
			return nil, err
		}
	}
	raw, err := sess.Read(pctx, pageScript, capture)
	if err != nil && !errors.Is(err, topology.ErrStateScript) {
		return nil, err // topology's own error, prefixed by whoever reports it
	}
	p, tools, err := extract.Decode(raw)
	var e *extract.Error
	if errors.As(err, &e) && e.URL == "" {
		e.URL = u
	}
	obs, err := observed(p, tools, err)
	if obs != nil {
		obs.resp = resp
	}
	return obs, err
}
