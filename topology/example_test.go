package topology_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/go-rod/rod"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
)

const examplePage = `<!doctype html><html lang="en"><title>Plumber</title><body>
<main><h1>Fast Plumbing</h1>
<button type="button" onclick="document.getElementById('q').hidden=false">Get a quote</button>
<div id="q" role="dialog" aria-label="Quote" hidden><label>Phone <input type="tel" name="phone" required></label></div>
</main></body></html>`

// Browser.Scan captures the entry state: its elements and the best
// verified locator of each.
func ExampleBrowser_Scan() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, examplePage)
	}))
	defer site.Close()
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if errors.Is(err, topology.ErrChromiumNotFound) {
		log.Fatal("install chromium first: ", err)
	} else if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	g, err := b.Scan(ctx, site.URL, topology.PageOptions{Offline: true, ActionTimeout: 10 * time.Second}, topology.ScanOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Metadata.Mode, len(g.States), "state")
	for _, e := range g.Elements {
		fmt.Printf("%s %q visible=%v best=%s\n", e.Role, e.AccessibleName, e.Interactability.Visible, e.Locators[0].Expression)
	}
	// Output:
	// scan 1 state
	// button "Get a quote" visible=true best=getByRole('button', { name: 'Get a quote', exact: true })
	// textbox "Phone" visible=false best=getByLabel('Phone', { exact: true })
}

// Browser.Explore clicks every safe element from a clean entry state;
// refused actions are listed with the policy's reason. An entry page that
// does not load is a graph-level failure, not an error.
func ExampleBrowser_Explore() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	g, err := b.Explore(ctx, "http://127.0.0.1:8080/", topology.PageOptions{Offline: true}, topology.ExploreOptions{MaxStates: 20})
	if err != nil {
		log.Fatal(err)
	}
	if len(g.States) == 0 { // the entry page did not load: see the graph-level failure
		fmt.Println(g.FailedObservations[0].Reason, g.FailedObservations[0].Message)
	}
	for _, s := range g.SkippedActions {
		fmt.Println(s.ElementID, s.Reason) // e.g. blocked:destructive
	}
}

// An OnState hook lets the embedder run its own extraction on the live page
// of every state the engine captures; InitScripts run before the page's own.
func ExampleScanOptions_onState() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	page := topology.PageOptions{InitScripts: []string{`window.__seen = [];`}}
	opts := topology.ExploreOptions{ScanOptions: topology.ScanOptions{
		OnState: func(ctx context.Context, p *rod.Page, st *topology.StateNode) error {
			res, err := p.Context(ctx).Timeout(5 * time.Second).Eval(`() => document.forms.length`)
			if err != nil {
				return err
			}
			fmt.Println(st.StateID, "forms:", res.Value.Int())
			return nil
		},
	}}
	if _, err := b.Explore(ctx, "http://127.0.0.1:8080/", page, opts); err != nil {
		log.Fatal(err)
	}
}

// Validate refuses options before anything is launched, with the engine's
// own rules: e.g. a command line checked before NewBrowser.
func ExampleScanOptions_Validate() {
	err := topology.ScanOptions{RunTimeout: -time.Second}.Validate()
	var oe *topology.OptionsError
	if errors.As(err, &oe) {
		fmt.Println(errors.Is(err, topology.ErrInvalidOptions), oe.Field)
	}
	err = topology.BrowserOptions{ControlURL: "ftp://127.0.0.1:9222"}.Validate()
	fmt.Println(errors.Is(err, topology.ErrInvalidOptions))
	// Output:
	// true ScanOptions.RunTimeout
	// true
}

// Browser.OpenPage gives an embedder a page hardened like the engine's own.
func ExampleBrowser_OpenPage() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	p, err := b.OpenPage(ctx, "http://127.0.0.1:8080/", topology.PageOptions{Offline: true})
	var ne *topology.NavigationError
	if errors.As(err, &ne) {
		log.Fatalf("page unreachable (timeout=%v): %v", ne.Timeout, err)
	} else if err != nil {
		log.Fatal(err)
	}
	defer p.Timeout(5 * time.Second).Close() // every rod call with a bound
	info, err := p.Context(ctx).Timeout(5 * time.Second).Info()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Title)
}

// Attach wraps a browser the caller already drives with rod: runs work in
// browser contexts of their own, and Close leaves the caller's browser
// running.
func ExampleAttach() {
	ctx := context.Background()
	// The crawler's own connection; rod binds it to the context it is
	// made with, so the handshake is bounded by a timer, not a Timeout.
	own := rod.New().ControlURL("ws://127.0.0.1:9222/devtools/browser/…")
	connected := make(chan error, 1)
	go func() { connected <- own.Connect() }()
	select {
	case err := <-connected:
		if err != nil {
			log.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		log.Fatal("no DevTools handshake within 10s")
	}
	defer own.Timeout(5 * time.Second).Close()
	b := topology.Attach(own)
	defer b.Close() // ends nothing: own stays the caller's
	g, err := b.Scan(ctx, "http://127.0.0.1:8080/", topology.PageOptions{}, topology.ScanOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(g.Elements), "elements")
}

// Rod is the escape hatch for an embedder's own pages on the same browser;
// PID is the launched Chromium's process id (0 when connected or attached).
func ExampleBrowser_Rod() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	v, err := b.Rod().Timeout(5 * time.Second).Version()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.Product, "pid", b.PID() > 0)
}

// BrowserOptions.ControlURL connects to a Chromium another program runs
// (chromedp, Playwright's connectOverCDP, --remote-debugging-port): Close
// ends only the connection.
func ExampleBrowserOptions_controlURL() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{ControlURL: "ws://127.0.0.1:9222/devtools/browser/…"})
	if err != nil {
		log.Fatal(err) // ErrLaunch: nothing answers there
	}
	defer b.Close()
	g, err := b.Scan(ctx, "http://127.0.0.1:8080/", topology.PageOptions{Offline: true}, topology.ScanOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(g.States), "state")
}

// A value no default stands for is an *OptionsError naming the field;
// zero means the default.
func ExampleOptionsError() {
	_, err := topology.NewBrowser(context.Background(), topology.BrowserOptions{LaunchTimeout: -time.Second})
	var oe *topology.OptionsError
	if errors.As(err, &oe) {
		fmt.Println(errors.Is(err, topology.ErrInvalidOptions), oe.Field)
	}
	// Output: true BrowserOptions.LaunchTimeout
}

// ClassifyRisk is the risk-policy-v0.2 verdict the explorer applies.
func ExampleClassifyRisk() {
	for _, el := range []topology.ActionableElement{
		{Tag: "button", Role: "button", AccessibleName: "Delete account", Attributes: map[string]string{"type": "button"}},
		{Tag: "button", Role: "button", AccessibleName: "Book now", Attributes: map[string]string{"type": "button", "aria-haspopup": "dialog"}},
		{Tag: "a", Role: "link", AccessibleName: "About", Attributes: map[string]string{"href": "/about"}},
		{Tag: "a", Role: "link", AccessibleName: "Call us", Attributes: map[string]string{"href": "tel:+61290000000"}},
	} {
		r := topology.ClassifyRisk(&el, "https://dentist.example/")
		fmt.Println(el.AccessibleName, "→", r.Category, r.Level, "explore:", r.Explorable())
	}
	// Output:
	// Delete account → destructive critical explore: false
	// Book now → disclosure low explore: true
	// About → navigation low explore: true
	// Call us → external medium explore: false
}

// ValidateURL refuses a URL no run can open before any browser starts.
func ExampleValidateURL() {
	for _, u := range []string{"https://dentist.example/", "ftp://dentist.example/", "index.html"} {
		fmt.Println(u, errors.Is(topology.ValidateURL(u), topology.ErrInvalidURL))
	}
	// Output:
	// https://dentist.example/ false
	// ftp://dentist.example/ true
	// index.html true
}

// InputFingerprint is the same for the same input on every run.
func ExampleInputFingerprint() {
	scan := topology.InputFingerprint("https://dentist.example/", topology.ModeScan)
	again := topology.InputFingerprint("https://dentist.example/", topology.ModeScan)
	explore := topology.InputFingerprint("https://dentist.example/", topology.ModeExplore)
	fmt.Println(scan == again, scan == explore)
	// Output: true false
}

// NewBrowser launches Debian's Chromium once so that many runs can share it;
// Close ends the process and removes its profile.
func ExampleNewBrowser() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true, LaunchTimeout: 20 * time.Second})
	switch {
	case errors.Is(err, topology.ErrChromiumNotFound):
		log.Fatal(err) // the message says how to install it
	case errors.Is(err, topology.ErrLaunch):
		log.Fatal("chromium is installed but did not start: ", err)
	case err != nil:
		log.Fatal(err)
	}
	defer b.Close()
	for _, u := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/contact"} {
		g, err := b.Scan(ctx, u, topology.PageOptions{Offline: true}, topology.ScanOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u, len(g.Elements), "elements")
	}
}

// ResolveChromium says which binary NewBrowser would launch, without
// launching it: an explicit path, then $FRONTLATCH_CHROMIUM, then
// /usr/bin/chromium, then chromium on $PATH.
func ExampleResolveChromium() {
	bin, err := topology.ResolveChromium("")
	if err != nil {
		fmt.Println(err) // ErrChromiumNotFound, with how to install it
		return
	}
	fmt.Println("chromium at", bin)
}

// A Session opens page after page of one site in one reused tab, and
// explores the page it shows without loading it again.
func ExampleBrowser_NewSession() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.NewSession(ctx, topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for _, u := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/contact/"} {
		page, err := s.Open(ctx, u) // the session's tab: do not close it
		if err != nil {
			log.Print(err)
			continue
		}
		title, err := page.Context(ctx).Timeout(5 * time.Second).Eval(`() => document.title`)
		if err != nil {
			log.Print(err)
			continue
		}
		fmt.Println(u, title.Value.Str())
	}
	g, err := s.Explore(ctx, topology.ExploreOptions{MaxDepth: 1, ScanOptions: topology.ScanOptions{Light: true}})
	if err == nil {
		fmt.Println(len(g.States), "states")
	}
}

// Session.Scan captures the page Open left, without loading it again;
// Reset clears the session's cookies before another site.
func ExampleSession_Scan() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.NewSession(ctx, topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for _, site := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8081/"} {
		if err := s.Reset(ctx); err != nil {
			log.Fatal(err)
		}
		if _, err := s.Open(ctx, site); err != nil {
			log.Print(err)
			continue
		}
		g, err := s.Scan(ctx, topology.ScanOptions{MaxElements: 500})
		if err != nil {
			log.Fatal(err)
		}
		info, err := s.Page().Context(ctx).Timeout(5 * time.Second).Info()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(site, len(g.Elements), "elements on", info.URL)
	}
}

// Read runs the embedder's own in-page script on the page a Session just
// opened and, with capture, captures the state for the engine in the same
// Evaluate, so exploring the page next costs no second extraction; each
// state a click reveals is read the same way through StateScript.
func ExampleSession_Read() {
	ctx := context.Background()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.NewSession(ctx, topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Open(ctx, "http://127.0.0.1:8080/"); err != nil {
		log.Fatal(err)
	}
	if r := s.Response(); r != nil {
		fmt.Println(r.Status, r.MIMEType, r.URL) // what a pre-flight would have said
	}
	const forms = `() => String(document.forms.length)`
	n, err := s.Read(ctx, forms, true)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "forms as loaded")
	_, err = s.Explore(ctx, topology.ExploreOptions{MaxDepth: 1, ScanOptions: topology.ScanOptions{Light: true, StateScript: forms,
		OnStateScript: func(_ context.Context, _ *rod.Page, st *topology.StateNode, result string, scriptErr error) error {
			if st.OpenedByEdgeID != nil && scriptErr == nil {
				fmt.Println(result, "forms after a click")
			}
			return nil
		}}})
	if err != nil {
		log.Print(err)
	}
}

// Seal a tab before closing it when nothing it sends may reach the site:
// a closing page's pagehide beacon or keepalive fetch outlives the tab.
func ExampleSeal() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	p, err := b.OpenPage(ctx, "http://127.0.0.1:8080/contact/", topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	sctx, scancel := context.WithTimeout(ctx, topology.SealTimeout)
	defer scancel()
	if err := topology.Seal(sctx, p); err != nil {
		log.Print(err) // close it all the same
	}
	_ = p.Timeout(5 * time.Second).Close()
}

// Confine keeps a tab to its site: what the page opens elsewhere — a
// WebSocket carrying a form, a worker's fetch — is refused by the
// context's proxy, and Refused says what was.
func ExampleBrowser_Confine() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	c, err := b.Confine(ctx, "http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close() // its tabs, cookies and proxy go with it
	p, err := c.OpenPage(ctx, "http://127.0.0.1:8080/contact/", topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Timeout(5 * time.Second).Close()
	for _, r := range c.Refused() {
		fmt.Println("stopped:", r)
	}
}

// ClickAt presses an element as a person does, at the point pagejs's
// pressPoint gives (here a form's submit button, in the open).
func ExampleClickAt() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	p, err := b.OpenPage(ctx, "http://127.0.0.1:8080/contact/", topology.PageOptions{Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Timeout(5 * time.Second).Close()
	res, err := p.Timeout(10 * time.Second).Eval(pagejs.MustInline(`() => {
  //pagejs:include pierce
  //pagejs:include norm
  //pagejs:include labels
  //pagejs:include accname
  //pagejs:include locate
  //pagejs:include control
  //pagejs:include press
  const at = pressPoint(document.querySelector("form button[type=submit]"));
  return at ? [at.x, at.y] : null;
}`))
	if err != nil {
		log.Fatal(err)
	}
	if res.Value.Nil() {
		log.Fatal("the button is hidden or covered")
	}
	at := res.Value.Arr()
	if err := topology.ClickAt(ctx, p, at[0].Num(), at[1].Num(), 5*time.Second); err != nil {
		log.Fatal(err)
	}
}
