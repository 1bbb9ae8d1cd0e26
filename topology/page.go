package topology

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ErrInvalidURL reports a URL the engine cannot open: it must be absolute
// http(s) with a host, or file.
var ErrInvalidURL = errors.New("topology: invalid URL")

// ErrNavigation reports that a page could not be opened.
var ErrNavigation = errors.New("topology: navigation failed")

// NavigationError says why a navigation failed. It matches ErrNavigation with
// errors.Is; Timeout tells a server that never answered from one that refused.
type NavigationError struct {
	URL     string
	Timeout bool
	Reason  string // Chromium's error text (net::ERR_…) or "timeout"
	Err     error
}

func (e *NavigationError) Error() string {
	return fmt.Sprintf("topology: navigate to %s: %s", e.URL, e.Reason)
}

// Is makes NavigationError match ErrNavigation.
func (e *NavigationError) Is(target error) bool { return target == ErrNavigation }

func (e *NavigationError) Unwrap() error { return e.Err }

// ErrPageStuck reports that a page stopped answering (an endless script) and
// was closed.
var ErrPageStuck = errors.New("topology: page stopped responding and was closed")

// parseEntryURL validates a caller URL.
func parseEntryURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrInvalidURL, raw, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, raw)
		}
	case "file":
	case "":
		return nil, fmt.Errorf("%w: %q is not absolute (no scheme)", ErrInvalidURL, raw)
	default:
		return nil, fmt.Errorf("%w: %q: the scheme is not http, https or file", ErrInvalidURL, raw)
	}
	return u, nil
}

// tab is a hardened page: JavaScript dialogs are accepted, foreign requests
// are failed in offline mode, and main-frame loading is tracked, all by event
// handlers registered before the first navigation.
type tab struct {
	page    *rod.Page
	browser *rod.Browser
	o       PageOptions
	origin  string             // requests outside it are failed when o.Offline
	stop    context.CancelFunc // ends the event handlers
	end     context.CancelFunc // ends the page's own context (createPage); nil for none

	loading atomic.Bool
	mu      sync.Mutex
	dialogs []string // messages of dialogs accepted since the last drain
	blocked []string // first blocked request URLs since the last drain
	nBlock  int

	// The page's requests in flight (CDP Network events) and when the last
	// one started or ended; changed is closed and replaced on each event.
	inflight map[proto.NetworkRequestID]time.Time
	lastNet  time.Time
	changed  chan struct{}

	// doc is the main frame's last document response (nil before one).
	doc *Response
}

// Response is the main document's HTTP response as the browser received it
// (CDP Network.responseReceived of the main frame's document request, after
// redirects): what a plain-HTTP pre-flight of the page would have told.
type Response struct {
	URL      string // the final URL, after redirects
	Status   int
	MIMEType string // lower case, without parameters
	Header   http.Header
}

// setResponse records the first main-frame document response since the
// last navigate.
func (t *tab) setResponse(r *proto.NetworkResponse) {
	if r == nil {
		return
	}
	h := http.Header{}
	for k, v := range r.Headers {
		// Chromium joins repeated headers with a newline.
		for _, line := range strings.Split(v.Str(), "\n") {
			h.Add(k, line)
		}
	}
	mt := strings.ToLower(strings.TrimSpace(strings.Split(r.MIMEType, ";")[0]))
	t.mu.Lock()
	if t.doc == nil { // the navigation's own, not a later script navigation's
		t.doc = &Response{URL: r.URL, Status: r.Status, MIMEType: mt, Header: h}
	}
	t.mu.Unlock()
}

// response is the last main-frame document response (nil for none).
func (t *tab) response() *Response {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.doc
}

// netEvent records a request starting (start) or ending.
func (t *tab) netEvent(id proto.NetworkRequestID, start bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if start {
		t.inflight[id] = now
	} else if _, ok := t.inflight[id]; ok {
		delete(t.inflight, id)
	} else {
		return
	}
	t.lastNet = now
	close(t.changed)
	t.changed = make(chan struct{})
}

// netIdle reports that no request started within netPatience is in flight
// and none started or ended within quiet (a request that never ends, such
// as a long poll, is not waited for past netPatience).
func (t *tab) netIdle(now time.Time, quiet time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, began := range t.inflight {
		if now.Sub(began) < netPatience {
			return false
		}
		delete(t.inflight, id)
	}
	return now.Sub(t.lastNet) >= quiet
}

// netChanged is closed at the next network event.
func (t *tab) netChanged() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed
}

func step(ctx context.Context, p *rod.Page, d time.Duration) *rod.Page {
	return p.Context(ctx).Timeout(d)
}

// createPage creates a blank tab on b, the creation bounded by d and by
// ctx, and returns it with the end of its life. rod ties a page's Mouse
// and Keyboard (and what an Element's Click or Input sends through them)
// to the context the page was created under, whatever Context or Timeout
// is set on a clone later: a page created under a step's bound would have
// a dead mouse once the bound passed (a tab older than
// ActionTimeout+NavigationTimeout clicked nothing), and one created under
// the caller's ctx a dead mouse once ctx was cancelled. So the page is
// created under a context of its own, which only end (the tab's close)
// and the creation's bound — stopped once the page exists — cancel. The
// package sends no input through rod's Mouse or Keyboard (ClickAt sends
// each event under a bound of its own); a caller that does gets calls
// bounded only by the contexts it sets on them.
func createPage(ctx context.Context, b *rod.Browser, d time.Duration) (*rod.Page, context.CancelFunc, error) {
	life, end := context.WithCancelCause(context.Background())
	stopCaller := context.AfterFunc(ctx, func() { end(context.Cause(ctx)) })
	timer := time.AfterFunc(d, func() { end(context.DeadlineExceeded) })
	p, err := b.Context(life).Page(proto.TargetCreateTarget{URL: "about:blank"})
	timer.Stop()
	stopCaller()
	if err == nil && life.Err() != nil { // the bound ended as the page was made
		_, _ = proto.TargetCloseTarget{TargetID: p.TargetID}.Call(b.Context(context.Background()).Timeout(5 * time.Second))
		err = life.Err()
	}
	if err != nil {
		if cause := context.Cause(life); cause != nil {
			err = fmt.Errorf("%w (%v)", cause, err)
		}
		end(nil)
		return nil, nil, err
	}
	return p, func() { end(nil) }, nil
}

// openTab creates and hardens a tab on b. Nothing is navigated yet.
func openTab(ctx context.Context, b *rod.Browser, o PageOptions, origin string) (*tab, error) {
	p, end, err := createPage(ctx, b, o.ActionTimeout+o.NavigationTimeout)
	if err != nil {
		return nil, fmt.Errorf("topology: open tab: %w", err)
	}
	p = p.Context(context.Background())
	hctx, stop := context.WithCancel(context.Background())
	t := &tab{page: p, browser: b, o: o, origin: origin, stop: stop, end: end,
		inflight: map[proto.NetworkRequestID]time.Time{}, changed: make(chan struct{})}

	hp := p.Context(hctx)
	handlers := []any{
		func(e *proto.PageJavascriptDialogOpening) {
			t.mu.Lock()
			t.dialogs = append(t.dialogs, string(e.Type)+": "+truncate(e.Message, 120))
			t.mu.Unlock()
			// An event handler has no one to return an error to: a dialog
			// that could not be accepted keeps the page blocked, and the
			// next step on it times out and is recorded (stuck).
			_ = proto.PageHandleJavaScriptDialog{Accept: true}.Call(p.Timeout(o.ActionTimeout))
		},
		func(e *proto.PageFrameStartedLoading) {
			if e.FrameID == p.FrameID {
				t.loading.Store(true)
			}
		},
		func(e *proto.PageFrameStoppedLoading) {
			if e.FrameID == p.FrameID {
				t.loading.Store(false)
			}
		},
		func(e *proto.NetworkRequestWillBeSent) {
			if isFavicon(e) {
				return // the browser's own, after load: not the page's doing
			}
			t.netEvent(e.RequestID, true)
		},
		func(e *proto.NetworkResponseReceived) {
			if e.Type == proto.NetworkResourceTypeDocument && e.FrameID == p.FrameID {
				t.setResponse(e.Response)
			}
		},
		func(e *proto.NetworkLoadingFinished) { t.netEvent(e.RequestID, false) },
		func(e *proto.NetworkLoadingFailed) { t.netEvent(e.RequestID, false) },
	}
	if o.Offline {
		handlers = append(handlers, func(e *proto.FetchRequestPaused) {
			// As for dialogs: a paused request that could not be continued
			// or failed stays pending, and the wait for load or quiescence
			// that follows reports it (load-timeout, bounded by netPatience).
			if t.allowed(e.Request.URL) {
				_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(p.Timeout(o.ActionTimeout))
				return
			}
			t.mu.Lock()
			t.nBlock++
			if len(t.blocked) < 5 {
				t.blocked = append(t.blocked, truncate(e.Request.URL, 200))
			}
			t.mu.Unlock()
			_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(p.Timeout(o.ActionTimeout))
		})
	}
	// The domains the handlers need are enabled here, each call bounded:
	// EachEvent enables what is not yet, under hctx, which has no deadline
	// (rod enabled the Page domain as it made the tab, under createPage's
	// bound, but does not say whether it could).
	enable := map[string]func(proto.Client) error{
		"Page.enable":    proto.PageEnable{}.Call,
		"Network.enable": proto.NetworkEnable{}.Call,
	}
	if o.Offline {
		enable["Fetch.enable"] = proto.FetchEnable{}.Call
	}
	for what, call := range enable {
		if err := call(step(ctx, p, o.ActionTimeout)); err != nil {
			t.close()
			return nil, fmt.Errorf("topology: open tab: %s: %w", what, err)
		}
	}
	wait := hp.EachEvent(handlers...)
	go wait()

	setup := []func(c proto.Client) error{
		proto.EmulationSetDeviceMetricsOverride{Width: o.Viewport.Width, Height: o.Viewport.Height, DeviceScaleFactor: 1}.Call,
		proto.EmulationSetLocaleOverride{Locale: o.Locale}.Call,
		proto.EmulationSetTimezoneOverride{TimezoneID: o.Timezone}.Call,
	}
	if o.UserAgent != "" {
		setup = append(setup, proto.EmulationSetUserAgentOverride{UserAgent: o.UserAgent, AcceptLanguage: o.Locale}.Call)
	}
	for _, call := range setup {
		if err := call(step(ctx, p, o.ActionTimeout)); err != nil {
			t.close()
			return nil, fmt.Errorf("topology: configure tab (viewport, locale %q, time zone %q): %w", o.Locale, o.Timezone, err)
		}
	}
	for _, src := range append([]string{quietJS}, o.InitScripts...) {
		if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: src}).Call(step(ctx, p, o.ActionTimeout)); err != nil {
			t.close()
			return nil, fmt.Errorf("topology: add init script: %w", err)
		}
	}
	return t, nil
}

// isFavicon tells the browser's own favicon request, which Chromium starts
// after the load event, from the page's requests.
func isFavicon(e *proto.NetworkRequestWillBeSent) bool {
	if e.Type != proto.NetworkResourceTypeOther || e.Request == nil {
		return false
	}
	u, err := url.Parse(e.Request.URL)
	return err == nil && u.Path == "/favicon.ico"
}

// allowed reports whether offline mode lets a request through: same origin as
// the entry, or a URL that never touches the network.
func (t *tab) allowed(raw string) bool {
	for _, s := range []string{"data:", "blob:", "about:", "chrome-error:"} {
		if strings.HasPrefix(raw, s) {
			return true
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return weborigin.Of(u) == t.origin
}

// drain returns and clears the dialogs accepted and requests blocked so far.
func (t *tab) drain() (dialogs []string, blocked []string, nBlocked int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	dialogs, blocked, nBlocked = t.dialogs, t.blocked, t.nBlock
	t.dialogs, t.blocked, t.nBlock = nil, nil, 0
	return
}

// close ends the tab through the browser (Target.closeTarget), which works
// even when the renderer is stuck in an endless script.
func (t *tab) close() {
	if t == nil || t.page == nil {
		return
	}
	// Best effort: the target may be gone already (closed by the page, the
	// browser exiting); there is nothing else to close it with.
	_, _ = proto.TargetCloseTarget{TargetID: t.page.TargetID}.Call(t.browser.Timeout(5 * time.Second))
	t.stop()
	if t.end != nil {
		t.end()
	}
	t.page = nil
}

// eval runs a function in the page and returns its string result (callers
// return JSON.stringify output, which crosses CDP faster than a deep object).
func (t *tab) eval(ctx context.Context, d time.Duration, js string, args ...any) (string, error) {
	if t.page == nil {
		return "", ErrPageStuck
	}
	res, err := step(ctx, t.page, d).Evaluate(rod.Eval(js, args...).ByPromise())
	if err != nil {
		return "", err
	}
	return res.Value.Str(), nil
}

// evalFn runs fn, the source of a JavaScript function of no arguments
// returning a string (or a Promise of one), in the page's main frame with
// DevTools' Command Line API in scope (Runtime.evaluate with
// includeCommandLineAPI), and returns its result.
func (t *tab) evalFn(ctx context.Context, d time.Duration, fn string) (string, error) {
	if t.page == nil {
		return "", ErrPageStuck
	}
	res, err := proto.RuntimeEvaluate{
		Expression:            "(" + fn + ")()",
		IncludeCommandLineAPI: true,
		ReturnByValue:         true,
		AwaitPromise:          true,
	}.Call(step(ctx, t.page, d))
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		msg := res.ExceptionDetails.Text
		if res.ExceptionDetails.Exception != nil && res.ExceptionDetails.Exception.Description != "" {
			msg = res.ExceptionDetails.Exception.Description
		}
		return "", &scriptThrew{truncate(msg, 300)}
	}
	if res.Result == nil {
		return "", errors.New("topology: in-page script returned nothing")
	}
	return res.Result.Value.Str(), nil
}

// scriptThrew is evalFn's error for a script that threw (or whose Promise
// rejected): what it threw.
type scriptThrew struct{ msg string }

func (e *scriptThrew) Error() string { return "topology: in-page script: " + e.msg }

// navOutcome is what a bounded navigation observed.
type navOutcome struct {
	navErr   *NavigationError // the navigation itself failed
	settle   settleOutcome
	finalURL string
}

// navigate opens u: bounded Page.navigate, then a bounded wait for load and
// stability. A page that never finishes loading is used as it is.
func (t *tab) navigate(ctx context.Context, u string) navOutcome {
	t.mu.Lock()
	t.doc = nil
	t.mu.Unlock()
	err := step(ctx, t.page, t.o.NavigationTimeout).Navigate(u)
	if err != nil {
		ne := &NavigationError{URL: u, Err: err, Reason: err.Error()}
		var re *rod.NavigationError
		switch {
		case errors.As(err, &re):
			ne.Reason = re.Reason
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			ne.Timeout, ne.Reason = true, "timeout after "+t.o.NavigationTimeout.String()
			// Best effort: the navigation has failed and is reported either
			// way; a page that cannot stop loading is replaced by the next
			// navigation, or found stuck by the next step.
			_ = proto.PageStopLoading{}.Call(step(ctx, t.page, time.Second))
		}
		return navOutcome{navErr: ne}
	}
	s := t.settle(ctx, t.o.LoadTimeout)
	return navOutcome{settle: s, finalURL: s.url}
}

// settleOutcome is how a wait for stability ended.
type settleOutcome struct {
	url      string
	loading  bool // main frame still loading at the deadline
	unstable bool // DOM or URL still changing at the deadline
	stuck    bool // the page did not answer at all
	err      error
}

//go:embed quiet.js
var quietSource string

// quietKey is the property of window under which quiet.js keeps its
// probe: drawn at random once per process, so a page can neither look it
// up nor hide it.
var quietKey = func() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on the platforms Chromium runs on
	}
	return "__frontlatchQuiet" + hex.EncodeToString(b[:])
}()

// quietJS is quiet.js with its key.
var quietJS = strings.ReplaceAll(quietSource, "__FRONTLATCH_QUIET_KEY__", quietKey)

// quietProbe waits in the page, at most maxMs, until the document is
// complete, no structural mutation happened for quietMs and no short
// timeout is pending (quiet.js keeps both, and waits, with the built-ins
// it took before the page's scripts ran; a document without the recorder,
// such as an error page, counts as quiet). It answers [url, readyState,
// ms since the last mutation, pending timeouts, whether it was quiet].
const quietProbe = `(key, quietMs, maxMs, ignoreTimers) => {
  const st = window[key];
  if (st) return st.probe(quietMs, maxMs, ignoreTimers);
  return JSON.stringify([location.href, document.readyState, 1e9, 0, document.readyState === 'complete']);
}`

// Quiescence bounds: a timeout chain (a page polling with setTimeout) or a
// request that never ends (a long poll, a beacon) is waited for at most
// this long, then the page is taken as it is.
const (
	timerPatience = time.Second
	netPatience   = time.Second
	probeMaxWait  = 250 * time.Millisecond
)

// settle waits until the page is quiescent: the main frame loaded
// (readyState complete, no main-frame load pending), no structural DOM
// mutation for o.Settle, no short timeout pending and no request of the
// page in flight (CDP Network events) — a static page is settled as soon as
// it has loaded. It is bounded by d; past it the caller proceeds with the
// page as it is, and the outcome says why it was not quiet. A page that does
// not answer a probe within ActionTimeout is reported stuck.
func (t *tab) settle(ctx context.Context, d time.Duration) settleOutcome {
	return t.settleFrom(ctx, d, false)
}

// settleAfterClick is settle after a click: the page is not taken as
// quiet before one quiet window has passed since the click, so a click
// that starts a navigation or a timer-less fetch a moment later is seen
// starting (frameStartedLoading, requestWillBeSent) rather than missed.
func (t *tab) settleAfterClick(ctx context.Context, d time.Duration) settleOutcome {
	return t.settleFrom(ctx, d, true)
}

func (t *tab) settleFrom(ctx context.Context, d time.Duration, afterClick bool) settleOutcome {
	start := time.Now()
	deadline := start.Add(d)
	quiet := t.o.Settle
	var out settleOutcome
	for {
		// Each probe gets the full ActionTimeout: only a page that cannot
		// answer one tiny Evaluate in that long counts as stuck, however
		// close the settle deadline is.
		wait := min(probeMaxWait, max(time.Until(deadline), 0))
		ignoreTimers := time.Since(start) >= timerPatience
		probe, err := t.eval(ctx, t.o.ActionTimeout+wait, quietProbe, quietKey, quiet.Milliseconds(), wait.Milliseconds(), ignoreTimers)
		now := time.Now()
		if err != nil {
			out.err = err
			if ctx.Err() != nil {
				return out
			}
			if errors.Is(err, context.DeadlineExceeded) {
				out.stuck = true
				return out
			}
		} else if v, derr := decodeProbe(probe); derr != nil {
			// A page that broke the probe (replaced JSON, say) cannot be
			// seen to settle: it is waited for to the deadline and reported
			// as still changing, with why.
			out.err, out.unstable = derr, true
		} else {
			out.err = nil
			out.url, _ = v[0].(string)
			complete := v[1] == "complete"
			since, _ := v[2].(float64)
			pending, _ := v[3].(float64)
			loading := t.loading.Load() || !complete
			domQuiet := time.Duration(since)*time.Millisecond >= quiet
			timersDone := pending == 0 || ignoreTimers
			netIdle := t.netIdle(now, quiet)
			waited := !afterClick || now.Sub(start) >= quiet
			if !loading && domQuiet && timersDone && netIdle && waited {
				return settleOutcome{url: out.url}
			}
			out.loading = loading
			out.unstable = !domQuiet
		}
		if now.After(deadline) {
			return out
		}
		select {
		case <-ctx.Done():
			out.err = ctx.Err()
			return out
		case <-t.netChanged():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// decodeProbe reads quietProbe's answer: [url, readyState, ms since the
// last mutation, pending timeouts, quiet].
func decodeProbe(probe string) ([]any, error) {
	var v []any
	if err := json.Unmarshal([]byte(probe), &v); err != nil {
		return nil, fmt.Errorf("topology: quiescence probe answered %q: %w", truncate(probe, 80), err)
	}
	if len(v) != 5 {
		return nil, fmt.Errorf("topology: quiescence probe answered %q: want 5 values", truncate(probe, 80))
	}
	return v, nil
}

// openPage is Browser.OpenPage on b, with o's defaults applied; each
// setup runs on the tab before it navigates.
func openPage(ctx context.Context, b *rod.Browser, rawURL string, o PageOptions, setup ...func(*rod.Page) error) (*rod.Page, error) {
	u, err := parseEntryURL(rawURL)
	if err != nil {
		return nil, err
	}
	t, err := openTab(ctx, b, o, weborigin.Of(u))
	if err != nil {
		return nil, err
	}
	for _, f := range setup {
		if err := f(t.page); err != nil {
			t.close()
			return nil, fmt.Errorf("topology: open tab: %w", err)
		}
	}
	stopWhenGone(b, t)
	nav := t.navigate(ctx, u.String())
	if nav.navErr != nil {
		t.close()
		return nil, nav.navErr
	}
	if nav.settle.stuck {
		t.close()
		return nil, fmt.Errorf("%w: %s", ErrPageStuck, u)
	}
	if nav.settle.err != nil && ctx.Err() != nil {
		t.close()
		return nil, ctx.Err()
	}
	return t.page, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && n < len(s) && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// stopWhenGone ends the tab's event handlers when its target is destroyed
// (the caller closed the page) or the browser's connection ends, not with
// the context the page was opened under: the page outlives that context,
// and so must what answers its dialogs and, offline, its requests. A
// caller opening thousands of pages under one long context leaks nothing
// as long as it closes them. The destroyed-event wait is registered before
// returning so a close right after OpenPage is not missed.
func stopWhenGone(b *rod.Browser, t *tab) {
	target := t.page.TargetID
	gone := b.Context(context.Background()).EachEvent(func(e *proto.TargetTargetDestroyed) bool {
		return e.TargetID == target
	})
	go func() {
		gone()
		t.stop()
		t.end()
	}()
}
