package topology

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/go-rod/rod"
)

// The options are split by who reads them, so that no call takes a field it
// ignores:
//
//   - BrowserOptions: the Chromium process (NewBrowser);
//   - PageOptions: one tab — how it is set up (viewport, locale, offline,
//     init scripts…) and how long its steps may take (Browser.OpenPage,
//     Browser.NewSession, and the tab of Browser.Scan and Browser.Explore);
//   - ScanOptions: one capture run (Browser.Scan, Session.Scan);
//   - ExploreOptions: ScanOptions plus the exploration's bounds and policy
//     (Browser.Explore, Session.Explore).
//
// In every one the zero value of a field means the default documented on
// it; a value no default can stand for (a negative bound, an unknown risk
// category) is an *OptionsError.

// ErrInvalidOptions is matched (errors.Is) by every *OptionsError.
var ErrInvalidOptions = errors.New("topology: invalid options")

// OptionsError names the option that was refused and why.
type OptionsError struct {
	Field  string // e.g. "PageOptions.ActionTimeout"
	Value  any    // the value given
	Reason string // e.g. "must not be negative (zero means the default, 5s)"
}

func (e *OptionsError) Error() string {
	return fmt.Sprintf("topology: invalid option %s = %v: %s", e.Field, e.Value, e.Reason)
}

// Is makes OptionsError match ErrInvalidOptions.
func (e *OptionsError) Is(target error) bool { return target == ErrInvalidOptions }

// PageOptions configures one tab: the page's environment and the bounds of
// each step on it. Browser.OpenPage and Browser.NewSession open their tab
// with it, and so do Browser.Scan and Browser.Explore; a Session's runs keep
// the session's.
type PageOptions struct {
	// ActionTimeout bounds each single browser step: one click, one
	// extraction, one settle (default 5s).
	ActionTimeout time.Duration
	// NavigationTimeout bounds a navigation until the response commits
	// (default 15s).
	NavigationTimeout time.Duration
	// LoadTimeout bounds the wait for the load event after a navigation;
	// when it expires the engine proceeds with the DOM it has (default 5s).
	LoadTimeout time.Duration
	// Settle is the quiet window of the quiescence signal: after the load
	// event, a page counts as settled once no structural DOM mutation
	// happened and no request of the page was in flight for this long, with
	// no short timeout pending (default 50ms). A static page is settled as
	// soon as it has loaded.
	Settle time.Duration

	// Viewport is the emulated window (default 1280×800; both sides must
	// be set to replace it).
	Viewport Viewport
	// Locale is the emulated locale (default en-US).
	Locale string
	// Timezone is the emulated IANA time zone (default UTC).
	Timezone string
	// UserAgent replaces the browser's User-Agent in the tab
	// (Emulation.setUserAgentOverride); empty keeps Chromium's own.
	UserAgent string
	// Offline aborts every request whose origin differs from the page's
	// (Fetch interception), so the tab never leaves the site.
	// BrowserOptions.Offline is the process-wide guard under it.
	Offline bool
	// InitScripts run in every document before its own scripts
	// (Page.addScriptToEvaluateOnNewDocument), e.g. to wrap
	// document.modelContext.registerTool.
	InitScripts []string
}

// ScanOptions configures one capture run: Browser.Scan and Session.Scan,
// and the capture part of an exploration (ExploreOptions embeds it).
type ScanOptions struct {
	// MaxElements bounds the actionable elements extracted per state
	// (default 1500); more are recorded as a dom-truncated failure.
	MaxElements int
	// RunTimeout bounds the whole run (default 2m). When it expires the
	// graph built so far is returned with a budget-exhausted failure.
	RunTimeout time.Duration
	// Light captures each state with one in-page extraction only: no DOM
	// snapshot, no accessibility tree, no locator verification. Roles and
	// names are the in-page computation and locators stay unverified; for
	// an embedder that only needs to reach states and read them itself
	// (the mapper revealing modals), at a quarter of the round trips.
	Light bool
	// OnState is called once per captured state — the entry state and each
	// new state reached by a safe edge — while the live page is still in
	// that state, so an embedder can run its own extraction on page. It must
	// not navigate. An error aborts the run and is returned wrapped in
	// ErrOnState.
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

// ExploreOptions configures one exploration: Browser.Explore and
// Session.Explore.
type ExploreOptions struct {
	ScanOptions
	// MaxStates bounds the states the run records (default 50).
	MaxStates int
	// MaxEdges bounds the actions executed (default 200).
	MaxEdges int
	// MaxDepth bounds how many clicks away from the entry state the run
	// goes (default 2: e.g. open a modal, then a tab inside it).
	MaxDepth int
	// ExploreOnly narrows the categories clicked to these (e.g. only
	// RiskDisclosure to open modals and menus without leaving the page).
	// It can only narrow: categories the policy refuses stay refused. Safe
	// actions left out are recorded as skipped with reason
	// "excluded:<category>". Empty means every category the policy allows.
	ExploreOnly []RiskCategory
}

// settings is what a run reads: its tab's PageOptions and its own bounds,
// defaults applied. A Scan carries ExploreOptions too, at their defaults,
// and reads only the ScanOptions part.
type settings struct {
	PageOptions
	ExploreOptions
}

// Defaults, named once for withDefaults and the OptionsError reasons.
const (
	defaultActionTimeout     = 5 * time.Second
	defaultNavigationTimeout = 15 * time.Second
	defaultLoadTimeout       = 5 * time.Second
	defaultSettle            = 50 * time.Millisecond
	defaultLaunchTimeout     = 30 * time.Second
	defaultRunTimeout        = 2 * time.Minute
	defaultMaxElements       = 1500
	defaultMaxStates         = 50
	defaultMaxEdges          = 200
	defaultMaxDepth          = 2
	defaultLocale            = "en-US"
	defaultTimezone          = "UTC"
)

var defaultViewport = Viewport{Width: 1280, Height: 800}

// check collects the first refused value of a validation.
type check struct{ err error }

func (c *check) nonNegDur(field string, v, def time.Duration) {
	if c.err == nil && v < 0 {
		c.err = &OptionsError{Field: field, Value: v, Reason: "must not be negative (zero means the default, " + def.String() + ")"}
	}
}

func (c *check) nonNegInt(field string, v, def int) {
	if c.err == nil && v < 0 {
		c.err = &OptionsError{Field: field, Value: v, Reason: fmt.Sprintf("must not be negative (zero means the default, %d)", def)}
	}
}

// Validate reports, as an *OptionsError, a value no default stands for —
// what OpenPage, NewSession, Scan and Explore would refuse — without a
// browser: e.g. to refuse a command line before launching one.
func (o PageOptions) Validate() error {
	var c check
	c.nonNegDur("PageOptions.ActionTimeout", o.ActionTimeout, defaultActionTimeout)
	c.nonNegDur("PageOptions.NavigationTimeout", o.NavigationTimeout, defaultNavigationTimeout)
	c.nonNegDur("PageOptions.LoadTimeout", o.LoadTimeout, defaultLoadTimeout)
	c.nonNegDur("PageOptions.Settle", o.Settle, defaultSettle)
	if c.err == nil && (o.Viewport.Width < 0 || o.Viewport.Height < 0 || (o.Viewport.Width == 0) != (o.Viewport.Height == 0)) {
		c.err = &OptionsError{Field: "PageOptions.Viewport", Value: o.Viewport, Reason: "needs a positive width and height (zero for both means the default, 1280×800)"}
	}
	return c.err
}

// withDefaults returns o with every zero field set to its default.
func (o PageOptions) withDefaults() PageOptions {
	setDur(&o.ActionTimeout, defaultActionTimeout)
	setDur(&o.NavigationTimeout, defaultNavigationTimeout)
	setDur(&o.LoadTimeout, defaultLoadTimeout)
	setDur(&o.Settle, defaultSettle)
	if o.Viewport.Width <= 0 || o.Viewport.Height <= 0 {
		o.Viewport = defaultViewport
	}
	if o.Locale == "" {
		o.Locale = defaultLocale
	}
	if o.Timezone == "" {
		o.Timezone = defaultTimezone
	}
	return o
}

// withDefaults returns o with every zero field set to its default.
func (o settings) withDefaults() settings {
	return settings{o.PageOptions.withDefaults(), o.ExploreOptions.withDefaults()}
}

// Validate reports, as an *OptionsError, what Scan would refuse.
func (o ScanOptions) Validate() error {
	var c check
	c.nonNegInt("ScanOptions.MaxElements", o.MaxElements, defaultMaxElements)
	c.nonNegDur("ScanOptions.RunTimeout", o.RunTimeout, defaultRunTimeout)
	return c.err
}

// Validate reports, as an *OptionsError, what Explore would refuse.
func (o ExploreOptions) Validate() error {
	if err := o.ScanOptions.Validate(); err != nil {
		return err
	}
	var c check
	c.nonNegInt("ExploreOptions.MaxStates", o.MaxStates, defaultMaxStates)
	c.nonNegInt("ExploreOptions.MaxEdges", o.MaxEdges, defaultMaxEdges)
	c.nonNegInt("ExploreOptions.MaxDepth", o.MaxDepth, defaultMaxDepth)
	for _, cat := range o.ExploreOnly {
		if c.err == nil && !slices.Contains(riskCategories, cat) {
			c.err = &OptionsError{Field: "ExploreOptions.ExploreOnly", Value: cat, Reason: "not a risk category (RiskCategoryValues lists them)"}
		}
	}
	return c.err
}

// withDefaults returns o with every zero field set to its default.
func (o ExploreOptions) withDefaults() ExploreOptions {
	setInt(&o.MaxElements, defaultMaxElements)
	setDur(&o.RunTimeout, defaultRunTimeout)
	setInt(&o.MaxStates, defaultMaxStates)
	setInt(&o.MaxEdges, defaultMaxEdges)
	setInt(&o.MaxDepth, defaultMaxDepth)
	return o
}

// Validate reports, as an *OptionsError, what NewBrowser would refuse
// before launching or connecting to anything (e.g. a ControlURL that is
// not a DevTools URL).
func (o BrowserOptions) Validate() error {
	var c check
	c.nonNegDur("BrowserOptions.LaunchTimeout", o.LaunchTimeout, defaultLaunchTimeout)
	if c.err != nil || o.ControlURL == "" {
		return c.err
	}
	if u, err := url.Parse(o.ControlURL); err != nil || !slices.Contains([]string{"ws", "wss", "http", "https"}, u.Scheme) || u.Host == "" {
		return &OptionsError{Field: "BrowserOptions.ControlURL", Value: o.ControlURL, Reason: "must be the browser's DevTools WebSocket URL (ws://host:port/devtools/browser/…) or its http://host:port"}
	}
	if o.Bin != "" {
		return &OptionsError{Field: "BrowserOptions.Bin", Value: o.Bin, Reason: "cannot be set with ControlURL: a browser that is connected to is not launched"}
	}
	if o.Offline {
		return &OptionsError{Field: "BrowserOptions.Offline", Value: true, Reason: "cannot be set with ControlURL: the resolver of a running browser is its own (PageOptions.Offline still keeps each tab on its site)"}
	}
	return nil
}

func setInt(v *int, d int) {
	if *v <= 0 {
		*v = d
	}
}

func setDur(v *time.Duration, d time.Duration) {
	if *v <= 0 {
		*v = d
	}
}
