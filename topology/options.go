package topology

import (
	"context"
	"time"

	"github.com/go-rod/rod"
)

// Options configures Scan, Explore and OpenPage. The zero value is usable:
// every zero field takes the default documented on it.
type Options struct {
	// MaxStates bounds the states a run records (default 50).
	MaxStates int
	// MaxEdges bounds the actions Explore executes (default 200).
	MaxEdges int
	// MaxDepth bounds how many clicks away from the entry state Explore goes
	// (default 2: e.g. open a modal, then a tab inside it).
	MaxDepth int
	// MaxElements bounds the actionable elements extracted per state
	// (default 1500); more are recorded as a dom-truncated failure.
	MaxElements int
	// ActionTimeout bounds each single browser step: one click, one
	// extraction, one settle (default 5s).
	ActionTimeout time.Duration
	// NavigationTimeout bounds a navigation until the response commits
	// (default 15s).
	NavigationTimeout time.Duration
	// LoadTimeout bounds the wait for the load event after a navigation;
	// when it expires the engine proceeds with the DOM it has (default 5s).
	LoadTimeout time.Duration
	// RunTimeout bounds the whole run (default 2m). When it expires the
	// graph built so far is returned with a budget-exhausted failure.
	RunTimeout time.Duration
	// Settle is the quiet window of the quiescence signal: after the load
	// event, a page counts as settled once no structural DOM mutation
	// happened and no request of the page was in flight for this long, with
	// no short timeout pending (default 50ms). A static page is settled as
	// soon as it has loaded.
	Settle time.Duration

	// Light captures each state with one in-page extraction only: no DOM
	// snapshot, no accessibility tree, no locator verification. Roles and
	// names are the in-page computation and locators stay unverified; for
	// an embedder that only needs to reach states and read them itself
	// (the mapper revealing modals), at a quarter of the round trips.
	Light bool

	// ExploreOnly narrows the categories Explore clicks to these (e.g. only
	// RiskDisclosure to open modals and menus without leaving the page).
	// It can only narrow: categories the policy refuses stay refused. Safe
	// actions left out are recorded as skipped with reason "excluded:<category>".
	ExploreOnly []RiskCategory

	// Viewport is the emulated window (default 1280×800).
	Viewport Viewport
	// Locale is the emulated locale (default en-US).
	Locale string
	// Timezone is the emulated IANA time zone (default UTC).
	Timezone string
	// UserAgent replaces the browser's User-Agent in every tab the run opens
	// (Emulation.setUserAgentOverride); empty keeps Chromium's own.
	UserAgent string
	// Offline aborts every request whose origin differs from the entry
	// URL's (Fetch interception), so a scan never leaves the site.
	Offline bool

	// Browser configures the Chromium that Scan and Explore launch (or
	// connect to, with Browser.ControlURL). ScanWith and ExploreWith ignore it.
	Browser BrowserOptions

	// InitScripts run in every document before its own scripts
	// (Page.addScriptToEvaluateOnNewDocument), e.g. to wrap
	// document.modelContext.registerTool.
	InitScripts []string

	// OnState is called once per captured state — the entry state and each
	// new state reached by a safe edge — while the live page is still in
	// that state, so an embedder can run its own extraction on page. It must
	// not navigate. An error aborts the run and is returned wrapped.
	OnState func(ctx context.Context, page *rod.Page, state *StateNode) error
	// StateScript, when set, is the source of a JavaScript function of no
	// arguments returning a string (or a Promise of one), run in the same
	// in-page Evaluate as the engine's own extraction of every captured
	// state, with DevTools' Command Line API in scope (getEventListeners).
	// Its answer goes to OnStateScript: an embedder reading each state
	// itself so pays one Evaluate per state, not two.
	StateScript string
	// OnStateScript is called once per captured state, after OnState, with
	// StateScript's answer for it, or the error it threw (the state itself
	// is captured either way). It must not navigate; an error it returns
	// aborts the run like OnState's.
	OnStateScript func(ctx context.Context, page *rod.Page, state *StateNode, result string, scriptErr error) error
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	setInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	setInt(&o.MaxStates, 50)
	setInt(&o.MaxEdges, 200)
	setInt(&o.MaxDepth, 2)
	setInt(&o.MaxElements, 1500)
	setDur(&o.ActionTimeout, 5*time.Second)
	setDur(&o.NavigationTimeout, 15*time.Second)
	setDur(&o.LoadTimeout, 5*time.Second)
	setDur(&o.RunTimeout, 2*time.Minute)
	setDur(&o.Settle, 50*time.Millisecond)
	if o.Viewport.Width <= 0 || o.Viewport.Height <= 0 {
		o.Viewport = Viewport{Width: 1280, Height: 800}
	}
	if o.Locale == "" {
		o.Locale = "en-US"
	}
	if o.Timezone == "" {
		o.Timezone = "UTC"
	}
	o.Browser.Offline = o.Browser.Offline || o.Offline
	return o
}
