package topology

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ErrSessionClosed reports a Session used after Close.
var ErrSessionClosed = errors.New("topology: session closed")

// Session is one isolated browser context holding one reused, hardened tab:
// the way to open many pages of one site at the price of one tab. Opening a
// new tab costs a renderer process (200–700 ms here); navigating a reused
// one costs a page load. A Session is not safe for concurrent use: open one
// per site (or per worker) and Close it.
type Session struct {
	root  *rod.Browser // the caller's browser
	b     *rod.Browser // the session's own browser context
	ctxID proto.BrowserBrowserContextID
	o     PageOptions

	mu  sync.Mutex
	tab *tab
	// settled is how the last Open's wait for quiescence ended; pre is
	// the state Read captured since (nil when none, or the page moved on);
	// version is the browser's product string, asked once.
	settled settleOutcome
	pre     *snapshot
	version string
}

// NewSession creates an incognito browser context on the browser (the
// embedder's cookies and tabs are untouched) and one tab hardened like
// OpenPage's: dialogs accepted, offline request blocking, opts.InitScripts,
// viewport, locale and time zone. Nothing is navigated yet. Every page the
// session opens, and every run on it, keeps these PageOptions.
func (b *Browser) NewSession(ctx context.Context, opts PageOptions) (*Session, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	rb, err := b.handle()
	if err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	inc, err := rb.Context(ctx).Timeout(o.ActionTimeout).Incognito()
	if err != nil {
		return nil, fmt.Errorf("topology: create browser context: %w", err)
	}
	s := &Session{root: rb, b: inc.Context(context.Background()), ctxID: inc.BrowserContextID, o: o}
	t, err := openTab(ctx, s.b, o, "")
	if err != nil {
		s.dispose()
		return nil, err
	}
	s.tab = t
	return s, nil
}

// Open navigates the session's tab to rawURL, waits (bounded) for the load
// event and quiescence, and returns the page, which stays the session's:
// do not close it. Errors are OpenPage's: ErrInvalidURL, a
// *NavigationError, ErrPageStuck (the tab is then replaced, so the session
// stays usable) or ctx's error.
func (s *Session) Open(ctx context.Context, rawURL string) (*rod.Page, error) {
	u, err := parseEntryURL(rawURL)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return nil, ErrSessionClosed
	}
	if s.tab.page == nil {
		if err := s.replaceTab(ctx); err != nil {
			return nil, err
		}
	}
	s.tab.setOrigin(weborigin.Of(u))
	s.tab.drain()
	s.pre = nil
	nav := s.tab.navigate(ctx, u.String())
	s.settled = nav.settle
	if nav.navErr != nil {
		return nil, nav.navErr
	}
	if nav.settle.stuck {
		if err := s.replaceTab(ctx); err != nil {
			// The next Open tries again (the tab has no page).
			return nil, fmt.Errorf("%w: %s; no new tab could be opened: %w", ErrPageStuck, u, err)
		}
		return nil, fmt.Errorf("%w: %s", ErrPageStuck, u)
	}
	if nav.settle.err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return s.tab.page, nil
}

// Reset makes the session fit for another site: its cookies are cleared
// and the tab shows about:blank (storage is per origin, so another site
// cannot read what this one stored; the HTTP cache is kept).
func (s *Session) Reset(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return ErrSessionClosed
	}
	s.pre = nil
	if err := (proto.StorageClearCookies{BrowserContextID: s.ctxID}).Call(s.b.Context(ctx).Timeout(s.o.ActionTimeout)); err != nil {
		return fmt.Errorf("topology: reset session: %w", err)
	}
	if s.tab.page == nil {
		return s.replaceTab(ctx)
	}
	if err := step(ctx, s.tab.page, s.o.NavigationTimeout).Navigate("about:blank"); err != nil {
		// A tab that cannot even show about:blank is replaced; the reset
		// fails only if that fails too.
		if rerr := s.replaceTab(ctx); rerr != nil {
			return fmt.Errorf("topology: reset session: %w; no new tab could be opened: %w", err, rerr)
		}
	}
	return nil
}

// Read runs script — the source of a JavaScript function of no arguments
// returning a string, or a Promise of one — on the page the last Open
// left, in one in-page Evaluate with DevTools' Command Line API in scope
// (getEventListeners), and returns its answer. With capture, the same
// Evaluate also captures the page's state for the engine, and the next
// Explore or Scan takes its entry state from it instead of settling and
// extracting again (as long as nothing else ran on the page in between:
// another Open, Reset or run drops it). Errors: ErrSessionClosed,
// ErrPageStuck, ctx's, a failed Evaluate, or ErrStateScript when the
// script threw (with capture, the state is kept all the same).
func (s *Session) Read(ctx context.Context, script string, capture bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return "", ErrSessionClosed
	}
	if s.tab.page == nil {
		return "", ErrPageStuck
	}
	s.pre = nil
	if !capture {
		out, err := s.tab.evalFn(ctx, s.o.ActionTimeout, script)
		if thrown := (*scriptThrew)(nil); errors.As(err, &thrown) {
			return "", fmt.Errorf("%w: %s", ErrStateScript, thrown.msg)
		}
		return out, err
	}
	snap, err := extractWith(ctx, s.tab, s.o.ActionTimeout, defaultMaxElements, script)
	if err != nil {
		return "", err
	}
	s.pre = snap
	return snap.script, snap.scriptErr
}

// Response is the main document's response to the last Open, as the
// browser received it (status, headers, final URL, media type), or nil
// when the browser reported none (a page served without a network
// response, or a failed navigation).
func (s *Session) Response() *Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return nil
	}
	return s.tab.response()
}

// Page is the session's tab (nil once closed).
func (s *Session) Page() *rod.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return nil
	}
	return s.tab.page
}

// Explore explores the page the last Open left in the session's tab, as
// Browser.Explore does, without loading it again: the entry state is
// captured as the page is, and the first safe click starts from it; every
// later one starts from a clean entry state (the session's storage and
// cookies cleared, the entry URL reloaded: the replays run in this
// session's isolated context). The tab and its step timeouts are the
// session's (its PageOptions); opts gives the run's bounds and policy.
func (s *Session) Explore(ctx context.Context, opts ExploreOptions) (*Graph, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return s.run(ctx, opts, ModeExplore)
}

// Scan captures the page the last Open left, as Browser.Scan does, without
// loading it again.
func (s *Session) Scan(ctx context.Context, opts ScanOptions) (*Graph, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return s.run(ctx, ExploreOptions{ScanOptions: opts}, ModeScan)
}

func (s *Session) run(ctx context.Context, opts ExploreOptions, mode Mode) (*Graph, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return nil, ErrSessionClosed
	}
	if s.tab.page == nil {
		return nil, ErrPageStuck
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := settings{s.o, opts.withDefaults()}
	pre := s.pre
	s.pre = nil // the run moves the page on
	if pre != nil && pre.maxElements != o.MaxElements {
		pre = nil // captured under another bound: capture again
	}
	var href string
	if pre != nil {
		href = pre.raw.URL
	} else {
		h, err := s.tab.eval(ctx, s.o.ActionTimeout, `() => location.href`)
		if err != nil {
			return nil, fmt.Errorf("topology: session page: %w", err)
		}
		href = h
	}
	u, err := parseEntryURL(href)
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithTimeout(ctx, o.RunTimeout)
	defer cancel()
	r := newRun(o, mode, u, s.b, s.tab)
	r.tabOpts = s.o
	r.pre, r.preSettle, r.version = pre, s.settled, s.version
	g, err := r.execute(ctx, runCtx, s.root, href, true)
	s.version = r.version
	s.tab = r.tab // a stuck page's tab was replaced
	if r.dead {
		s.tab.page = nil
	}
	return g, err
}

// replaceTab closes the session's tab and opens a new one.
func (s *Session) replaceTab(ctx context.Context) error {
	origin := ""
	if s.tab != nil {
		origin = s.tab.origin
		s.tab.close()
	}
	t, err := openTab(ctx, s.b, s.o, origin)
	if err != nil {
		s.tab = &tab{browser: s.b, stop: func() {}}
		return err
	}
	s.tab = t
	return nil
}

// Close closes the tab and disposes of the session's browser context. It is
// safe to call twice.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tab == nil {
		return nil
	}
	s.tab.close()
	s.tab = nil
	return s.dispose()
}

func (s *Session) dispose() error {
	err := proto.TargetDisposeBrowserContext{BrowserContextID: s.ctxID}.Call(s.root.Timeout(5 * time.Second))
	if err != nil {
		return fmt.Errorf("topology: close session: %w", err)
	}
	return nil
}

// setOrigin sets the origin offline mode lets through (the page about to
// be opened).
func (t *tab) setOrigin(origin string) {
	t.mu.Lock()
	t.origin = origin
	t.mu.Unlock()
}
