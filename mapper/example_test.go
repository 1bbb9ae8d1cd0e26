package mapper_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

const examplePage = `<!DOCTYPE html><html lang="en"><head><title>Acme Plumbing</title></head><body>
<h2>Request a quote</h2>
<form id="quote-form" action="/quote" method="post">
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="p">Phone</label><input id="p" name="phone" type="tel" required>
<label for="j">Describe the job</label><textarea id="j" name="message" required></textarea>
<button type="submit">Get a quote</button></form>
<p>Call us: <a href="tel:+61733915820">(07) 3391 5820</a></p></body></html>`

// fixedClock makes provenance timestamps reproducible.
func fixedClock() time.Time { return time.Date(2026, 8, 25, 8, 0, 0, 0, time.UTC) }

func ExampleMapHTML() {
	g, err := mapper.MapHTML("https://acme-plumbing.example/", []byte(examplePage), mapper.Options{Now: fixedClock})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.GraphID)
	for _, a := range g.Actions {
		fmt.Println(a.ID, a.Access[0].Method, a.SideEffects.Effects[0].Kind)
	}
	// Output:
	// ag_acme-plumbing_20260825
	// acme-plumbing:quote:quote html-form requests-quote
	// acme-plumbing:contact:phone tel-link unknown
}

func ExampleMap() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, examplePage)
	}))
	defer srv.Close()
	// Map launches its own Chromium unless Options.Browser is set.
	g, err := mapper.Map(context.Background(), srv.URL+"/", mapper.Options{Offline: true, NoExplore: true, SiteSlug: "acme"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range g.Actions {
		fmt.Println(a.ID, shared.Completeness(a).Complete)
	}
	// Map needs Chromium, so this example is compiled, not run;
	// TestEmbedding runs the same call and checks what it prints:
	// acme:quote:quote true
	// acme:contact:phone false
}

func ExampleMapPage() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, examplePage)
	}))
	defer srv.Close()
	ctx := context.Background()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer br.Close()
	// The crawler opens the page; installing the recorder first lets MapPage
	// see WebMCP tools the page registers.
	page, err := br.OpenPage(ctx, srv.URL+"/", topology.PageOptions{InitScripts: []string{mapper.WebMCPInitScript()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Close()
	g, err := mapper.MapPage(ctx, page, mapper.Options{SiteSlug: "acme"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Actions), g.Actions[0].Kind)
	// MapPage needs Chromium, so this example is compiled, not run;
	// TestEmbedding runs the same calls and checks what they print:
	// 2 quote
}

// A program that already runs Chromium (chromedp, Playwright, a browser
// started with --remote-debugging-port) hands over its DevTools URL; Map
// opens tabs of its own there and leaves the browser running. Compiled,
// not run (it needs that browser); TestEmbedding runs the same call.
func ExampleMap_controlURL() {
	g, err := mapper.Map(context.Background(), "https://acme-plumbing.example/", mapper.Options{
		ControlURL: "ws://127.0.0.1:9222/devtools/browser/…", // what the browser printed
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Actions))
}

// MapAll maps several sites at once on a pool of reused tabs, never two
// sites of one host at a time, and reports each site on its own.
func ExampleMapAll() {
	urls := []string{"https://acme-plumbing.example/", "https://harbourside-dental.example/"}
	rs, err := mapper.MapAll(context.Background(), urls, mapper.Options{}, mapper.PoolOptions{Concurrency: 2, PerHost: 1})
	if err != nil {
		fmt.Println(err) // no browser could be had
		return
	}
	for _, r := range rs {
		if r.Err != nil {
			fmt.Println(r.URL, r.Err)
			continue
		}
		fmt.Println(r.URL, len(r.Graph.Actions), "actions from", len(r.Pages), "pages in", r.Wall)
	}
}

// NewSession gives a crawler's worker the tab Map reuses from site to site.
func ExampleNewSession() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	opts := mapper.Options{Browser: b, UserAgent: "AcmeCrawler/1.0 (+https://acme.example/bot)"}
	sess, err := mapper.NewSession(ctx, b, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sess.Close()
	opts.Session = sess
	for _, u := range []string{"https://acme-plumbing.example/", "https://harbourside-dental.example/"} {
		g, err := mapper.Map(ctx, u, opts)
		if errors.Is(err, mapper.ErrDisallowed) {
			fmt.Println(u, "robots.txt says no")
			continue
		} else if err != nil {
			fmt.Println(u, err)
			continue
		}
		fmt.Println(g.GraphID, len(g.Actions))
	}
}
