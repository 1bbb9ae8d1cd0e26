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
	ld := o.loader
	if ld == nil {
		browser := o.Browser
		if browser == nil {
			br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: o.Offline, ControlURL: o.ControlURL})
			if err != nil {
				return nil, fmt.Errorf("mapper: %w", err)
			}
			defer br.Close()
			browser = br.Rod
		}
		ld = browserLoader{browser: browser, o: o}
	}
	c, refs, err := crawl(ctx, o, site, pre, ld)
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
	// reveal returns the states a safe exploration of u reaches, and what
	// went wrong on the way (for the graph's notes).
	reveal(ctx context.Context, u string) ([]*extract.Page, error)
}

// browserLoader opens each page in a browser.
type browserLoader struct {
	browser *rod.Browser
	o       Options
}

func (l browserLoader) load(ctx context.Context, u string, _ *fetched) (*observation, error) {
	return observe(ctx, l.browser, u, l.o)
}

func (l browserLoader) reveal(ctx context.Context, u string) ([]*extract.Page, error) {
	return reveal(ctx, l.browser, u, l.o)
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
// with the ARD catalog references it met.
func crawl(ctx context.Context, o Options, site *url.URL, pre *fetched, ld pageLoader) (*collection, []catalogRef, error) {
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

// observe opens url in browser and extracts it.
func observe(ctx context.Context, browser *rod.Browser, u string, o Options) (*observation, error) {
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
	return readPage(pctx, page, o)
}
