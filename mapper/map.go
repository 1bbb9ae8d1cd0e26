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
// redirect loop or a non-HTML answer ends here with a *FetchError), then
// opens the entry page and up to Options.MaxPages same-site pages that
// carry actions in a real browser (its own unless Options.Browser is set),
// reveals modals through topology's safe exploration, reads ARD catalogs,
// and returns the graph. Every action is Unverified.
func Map(ctx context.Context, rawURL string, opts Options) (*shared.ActionGraph, error) {
	o := opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, o.RunTimeout)
	defer cancel()
	site, err := parseSiteURL(rawURL)
	if err != nil {
		return nil, err
	}
	pre, err := fetchHTML(ctx, o, site.String())
	if err != nil {
		return nil, err
	}
	if final, err := url.Parse(pre.URL); err == nil && final.Host != "" {
		site = final
	}
	browser := o.Browser
	if browser == nil {
		br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: o.Offline})
		if err != nil {
			return nil, fmt.Errorf("mapper: %w", err)
		}
		defer br.Close()
		browser = br.Rod
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
		entry, score := opened == 1, next.score
		obs, err := observe(ctx, browser, next.url, o, func(p *extract.Page) bool {
			return !o.NoExplore && worthRevealing(entry, score, p)
		})
		if err != nil {
			if opened == 1 {
				return nil, fmt.Errorf("mapper: the entry page did not load: %w", err)
			}
			b.note("%s was not mapped: %v.", b.relPath(next.url), err)
			continue
		}
		refs = append(refs, ardFromLinkHeader(site, header)...)
		b.addObservation(obs, header)
		refs = append(refs, ardFromLinkRels(obs.states[0])...)
		for _, l := range obs.states[0].Links {
			if u, score := scoreLink(site, l); score > 0 {
				fr.push(u, score)
			}
		}
		for _, f := range obs.states[0].Frames {
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
	b.addCatalogs(ctx, b.discoverCatalogs(ctx, ardFromLinkRels(obs.states[0])))
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
	b.addObservation(&observation{url: p.URL, states: []*extract.Page{p}}, nil)
	for _, r := range ardFromLinkRels(p) {
		b.note("ARD catalog %s (%s) is not fetched by MapHTML.", r.url, r.route)
	}
	return b.result()
}

// observation is what one page gave: its states (entry first, then each
// state safe exploration revealed) and the WebMCP tools it registered.
type observation struct {
	url    string
	states []*extract.Page
	tools  []webmcpTool
}

// addObservation maps one page. Forms are read in every state (a modal's
// form may exist only once opened) and counted once per element; links,
// widgets and structured data are page facts, read from the entry state.
func (b *builder) addObservation(obs *observation, header http.Header) {
	b.visited[canonicalPage(obs.url)] = true
	entry := obs.states[0]
	challenge := ""
	if header != nil {
		challenge = header.Get("Cf-Mitigated")
	}
	for _, st := range obs.states {
		b.addForms(st, challenge)
	}
	b.noteSiteName(entry)
	b.addLinks(entry)
	b.addVendors(entry)
	b.addStructuredData(entry)
	b.addWebMCPTools(obs.url, obs.tools)
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
	return &observation{url: p.URL, states: []*extract.Page{p}, tools: tools}, nil
}

// observe opens url in browser, extracts it, and when explore says the
// page is worth it reveals modals and "Book now" triggers through topology.
func observe(ctx context.Context, browser *rod.Browser, u string, o Options, explore func(*extract.Page) bool) (*observation, error) {
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	page, err := topology.OpenPage(pctx, browser, u, topology.Options{
		Offline:     o.Offline,
		InitScripts: []string{webmcpInitScript},
		LoadTimeout: o.PageTimeout / 4,
	})
	if err != nil {
		if errors.Is(err, topology.ErrNavigation) {
			return nil, &FetchError{URL: u, Kind: ErrUnreachable, Cause: err}
		}
		return nil, err
	}
	defer func() { _ = page.Context(context.Background()).Timeout(5 * time.Second).Close() }()
	obs, err := readPage(pctx, page, o)
	if err != nil {
		return nil, err
	}
	if explore(obs.states[0]) {
		obs.states = append(obs.states, reveal(pctx, browser, u, o)...)
	}
	return obs, nil
}
