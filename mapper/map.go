package mapper

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/go-rod/rod"
)

// Map maps the site at rawURL into an Action Graph. It checks the URL with a
// plain HTTP request first (an unreachable site, an error status, a
// redirect loop or a non-HTML answer ends here with a *FetchError; a page
// robots.txt disallows, with a *DisallowedError), then opens the entry page
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
	// robots.txt and the well-known catalogs are fetched while the entry
	// page is checked and loaded.
	o.prefetch(ctx, resolveOn(site, "/robots.txt"), acceptText)
	for _, p := range ardWellKnown {
		o.prefetch(ctx, resolveOn(site, p), acceptJSON)
	}
	pre, err := fetchHTML(ctx, o, site.String())
	if err != nil {
		return nil, err
	}
	if final, err := url.Parse(pre.URL); err == nil && final.Host != "" {
		site = final
	}
	robots := robotsOf(ctx, o, site)
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
				// A running browser's resolver is its own: Offline then
				// keeps each tab on the site (PageOptions.Offline).
				br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: o.Offline && o.ControlURL == "", ControlURL: o.ControlURL})
				if err != nil {
					return nil, fmt.Errorf("mapper: %w", err)
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

// pageLoader reads the pages of a crawl: in a browser (Map), or from the
// plain-HTTP response as static markup (staticLoader).
type pageLoader interface {
	// load reads the page u, whose plain-HTTP response is f.
	load(ctx context.Context, u string, f *fetched) (*observation, error)
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

func (l browserLoader) load(ctx context.Context, u string, _ *fetched) (*observation, error) {
	return observe(ctx, l.sess, u, l.o)
}

// reveal explores the page the tab shows as loaded (u, just loaded): no
// second load.
func (l browserLoader) reveal(ctx context.Context, _ string) ([]*extract.Page, error) {
	return reveal(ctx, l.sess, l.o)
}

// staticLoader parses each page's plain-HTTP response as MapHTML does:
// nothing is revealed and no script runs.
type staticLoader struct{}

func (staticLoader) load(_ context.Context, _ string, f *fetched) (*observation, error) {
	p, err := extract.FromHTML(f.URL, f.Body)
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	return &observation{url: p.URL, page: p}, nil
}

func (staticLoader) reveal(context.Context, string) ([]*extract.Page, error) { return nil, nil }

// crawl reads the entry page (whose plain-HTTP response is pre) and up to
// o.MaxPages same-site pages, best-scored first, and returns what they gave
// with the ARD catalog references it met. A page robots disallows is not
// opened (unless o.IgnoreRobots) and the notes say so; Map has checked the
// entry page already.
func crawl(ctx context.Context, o Options, site *url.URL, pre *fetched, robots robotsRules, ld pageLoader) (*collection, []catalogRef, error) {
	c := &collection{site: site, redirects: map[string]string{}, cls: newClassifier()}
	visited := map[string]bool{}
	seenForms := map[string]bool{}
	refs := ardFromLinkHeader(site, pre.Header)
	fr := newFrontier()
	fr.push(site.String(), 0)
	opened := 0
	for opened < o.MaxPages {
		next, ok := fr.pop()
		if !ok {
			break
		}
		if ctx.Err() != nil {
			c.note("The run ran out of time before %s was mapped.", relPath(site, next.url))
			break
		}
		resp := pre
		if opened > 0 {
			if !robots.allowed(next.url) && !o.IgnoreRobots {
				c.note("%s was not opened: robots.txt disallows it for %s.", relPath(site, next.url), robots.agent)
				continue
			}
			f, err := fetchHTML(ctx, o, next.url)
			if err != nil {
				c.note("%s was not mapped: %v.", relPath(site, next.url), err)
				continue
			}
			resp = f
			if canonicalPage(f.URL) != canonicalPage(next.url) {
				c.redirects[canonicalPage(next.url)] = f.URL
			}
		}
		opened++
		if o.OnPage != nil {
			o.OnPage(next.url)
		}
		obs, err := ld.load(ctx, next.url, resp)
		if err != nil {
			if opened == 1 {
				if errors.As(err, new(*FetchError)) {
					return nil, nil, err // already says which page and why
				}
				return nil, nil, fmt.Errorf("mapper: the entry page did not load: %w", err)
			}
			c.note("%s was not mapped: %v.", relPath(site, next.url), err)
			continue
		}
		refs = append(refs, ardFromLinkHeader(site, resp.Header)...)
		v := &pageVisit{url: obs.url, doc: obs.page, challenge: challengeOf(resp.Header), tools: obs.tools}
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
		if !visited[canonicalPage(left.url)] {
			c.note("Page budget (%d) reached; %s was not opened.", o.MaxPages, relPath(site, left.url))
		}
	}
	return c, refs, nil
}

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
		UserAgent:   o.UserAgent,
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
		return nil, err
	}
	site, err := parseSiteURL(obs.url)
	if err != nil {
		return nil, err
	}
	c := &collection{site: site, steps: []crawlStep{{page: &pageVisit{url: obs.url, doc: obs.page, tools: obs.tools}}}}
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

// observation is what one page gave as loaded: its document and the
// WebMCP tools it registered.
type observation struct {
	url   string
	page  *extract.Page
	tools []webmcpTool
}

// challengeOf is the bot challenge a response announced ("" for none).
func challengeOf(header http.Header) string {
	if header == nil {
		return ""
	}
	return header.Get("Cf-Mitigated")
}

// readPage extracts a loaded page and the WebMCP tools it registered.
func readPage(ctx context.Context, page *rod.Page, o Options) (*observation, error) {
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	p, err := extract.FromPage(pctx, page)
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	tools, err := readWebMCPTools(pctx, page, 5*time.Second)
	if err != nil {
		tools = nil // a page that broke the recorder still has its forms
	}
	return &observation{url: p.URL, page: p, tools: tools}, nil
}

// observe opens url in the session's tab and extracts it.
func observe(ctx context.Context, sess *topology.Session, u string, o Options) (*observation, error) {
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	if err := o.Limiter.Wait(pctx, hostOfURL(u)); err != nil {
		return nil, &FetchError{URL: u, Kind: ErrUnreachable, Cause: err}
	}
	page, err := sess.Open(pctx, u)
	if err != nil {
		if errors.Is(err, topology.ErrNavigation) {
			return nil, &FetchError{URL: u, Kind: ErrUnreachable, Cause: err}
		}
		return nil, err
	}
	return readPage(pctx, page, o)
}
