package mapper

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
// the other in one reused tab of a real browser (its own unless
// Options.Browser is set), reveals modals through topology's safe
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
	sess := o.Session
	if sess != nil {
		if err := sess.Reset(ctx); err != nil {
			return nil, fmt.Errorf("mapper: %w", err)
		}
	} else {
		browser := o.Browser
		if browser == nil {
			br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: o.Offline})
			if err != nil {
				return nil, fmt.Errorf("mapper: %w", err)
			}
			defer br.Close()
			browser = br.Rod
		}
		if sess, err = NewSession(ctx, browser, o); err != nil {
			return nil, err
		}
		defer sess.Close()
	}
	b := newBuilder(o, site, classifier{})
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
			b.note("The run ran out of time before %s was mapped.", b.relPath(next.url))
			break
		}
		header := pre.Header
		if opened > 0 {
			if !robots.allowed(next.url) && !o.IgnoreRobots {
				b.note("%s was not opened: robots.txt disallows it for %s.", b.relPath(next.url), robots.agent)
				continue
			}
			f, err := fetchHTML(ctx, o, next.url)
			if err != nil {
				b.note("%s was not mapped: %v.", b.relPath(next.url), err)
				continue
			}
			header = f.Header
			if canonicalPage(f.URL) != canonicalPage(next.url) {
				b.redirects[canonicalPage(next.url)] = f.URL
			}
		}
		opened++
		if o.OnPage != nil {
			o.OnPage(next.url)
		}
		obs, err := observe(ctx, sess, next.url, o)
		if err != nil {
			if opened == 1 {
				return nil, fmt.Errorf("mapper: the entry page did not load: %w", err)
			}
			b.note("%s was not mapped: %v.", b.relPath(next.url), err)
			continue
		}
		refs = append(refs, ardFromLinkHeader(site, header)...)
		showsAction := b.addObservation(obs, header)
		if !o.NoExplore && worthRevealing(opened == 1, next.score, showsAction) {
			for _, st := range reveal(ctx, sess, o) {
				b.addForms(st, challengeOf(header))
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
		if !b.visited[canonicalPage(left.url)] {
			b.note("Page budget (%d) reached; %s was not opened.", o.MaxPages, b.relPath(left.url))
		}
	}
	b.addCatalogs(ctx, b.discoverCatalogs(ctx, refs))
	return b.result()
}

// Accept headers of the plain HTTP requests.
const (
	acceptHTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
	acceptText = "text/plain"
	acceptJSON = "application/json"
)

// resolveOn resolves a site-relative path on site.
func resolveOn(site *url.URL, p string) string {
	u, err := site.Parse(p)
	if err != nil {
		return p
	}
	return u.String()
}

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
func NewSession(ctx context.Context, browser *rod.Browser, opts Options) (*topology.Session, error) {
	s, err := topology.NewSession(ctx, browser, opts.withDefaults().tabOptions())
	if err != nil {
		return nil, fmt.Errorf("mapper: %w", err)
	}
	return s, nil
}

// tabOptions are the settings of the tab a Map opens its pages in.
func (o Options) tabOptions() topology.Options {
	return topology.Options{
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
	b := newBuilder(o, site, classifier{})
	b.addObservation(obs, nil)
	b.addCatalogs(ctx, b.discoverCatalogs(ctx, ardFromLinkRels(obs.page)))
	return b.result()
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
	b := newBuilder(o, site, classifier{})
	b.addObservation(&observation{url: p.URL, page: p}, nil)
	for _, r := range ardFromLinkRels(p) {
		b.note("ARD catalog %s (%s) is not fetched by MapHTML.", r.url, r.route)
	}
	return b.result()
}

// observation is what one page gave as loaded: its document and the
// WebMCP tools it registered.
type observation struct {
	url   string
	page  *extract.Page
	tools []webmcpTool
}

// addObservation maps one page and reports whether its document holds a
// form that is a customer action. Links, widgets and structured data are
// page facts; forms a click reveals are added apart (addForms).
func (b *builder) addObservation(obs *observation, header http.Header) (showsAction bool) {
	b.visited[canonicalPage(obs.url)] = true
	showsAction = b.addForms(obs.page, challengeOf(header))
	b.noteSiteName(obs.page)
	b.addLinks(obs.page)
	b.addVendors(obs.page)
	b.addStructuredData(obs.page)
	b.addWebMCPTools(obs.url, obs.tools)
	return showsAction
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
