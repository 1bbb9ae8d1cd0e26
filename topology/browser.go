package topology

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

func init() {
	// rod's init registers a global -rod flag and parses os.Args unless this is
	// set; a library must not take over its embedder's command line.
	if os.Getenv("DISABLE_ROD_FLAG") == "" {
		os.Setenv("DISABLE_ROD_FLAG", "1")
	}
}

// EnvChromium names the environment variable that overrides the Chromium binary.
const EnvChromium = "FRONTLATCH_CHROMIUM"

// DefaultChromium is where Debian's chromium package installs its launcher.
const DefaultChromium = "/usr/bin/chromium"

// ErrChromiumNotFound reports that no Chromium binary could be found. Frontlatch
// never downloads a browser: install Debian's package (make chromium) or point
// FRONTLATCH_CHROMIUM at a binary.
var ErrChromiumNotFound = errors.New("topology: chromium not found")

// ErrLaunch reports that Chromium was found but did not start.
var ErrLaunch = errors.New("topology: chromium failed to launch")

// ErrNilBrowser reports a nil *Browser, or Attach(nil), used to open a page.
var ErrNilBrowser = errors.New("topology: nil browser: get one from NewBrowser, or wrap a *rod.Browser with Attach")

// ErrBrowserClosed reports a Browser used after Close.
var ErrBrowserClosed = errors.New("topology: browser closed")

// BrowserOptions configures NewBrowser: the Chromium process, or the
// connection to one already running.
type BrowserOptions struct {
	// Bin is the Chromium binary. Empty means $FRONTLATCH_CHROMIUM, then
	// /usr/bin/chromium, then chromium on $PATH. It cannot be set with
	// ControlURL.
	Bin string
	// ControlURL connects to an already running browser instead of
	// launching one: its DevTools WebSocket URL (ws://host:port/devtools/
	// browser/…, as a Chromium started with --remote-debugging-port prints
	// it, or chromedp's or Playwright's), or its http://host:port, whose
	// /json/version names the WebSocket URL. Close then ends only the
	// connection; the browser keeps running.
	ControlURL string
	// Offline makes the launched Chromium resolve no host but loopback, so
	// a page cannot reach the network even through a subresource. It
	// cannot be set with ControlURL (a running browser's resolver is its
	// own); PageOptions.Offline keeps each tab on its site either way.
	Offline bool
	// LaunchTimeout bounds start-up and connection; zero means 30s.
	LaunchTimeout time.Duration

	// netLog, set by this package's tests only, has the launched Chromium
	// write its NetLog (every DNS query and connection it makes) there.
	netLog string
}

// Browser is the one handle every run and page goes through: a Chromium
// that NewBrowser launched (or connected to, with BrowserOptions.ControlURL),
// or a *rod.Browser the caller already drives, wrapped by Attach. Its
// methods may be called from several goroutines; each run and page works in
// its own browser context or tab. Close it when done.
type Browser struct {
	mu       sync.Mutex
	rod      *rod.Browser
	closed   bool
	launcher *launcher.Launcher
	dataDir  string
	stop     context.CancelFunc // ends the DevTools connection NewBrowser opened
	wsURL    string             // the DevTools URL NewBrowser connected to

	// The confined browser contexts, whose pages may open no tab of their
	// own, and the watch of new targets that closes any they open (see
	// watchPopups).
	popMu     sync.Mutex
	confined  map[proto.BrowserBrowserContextID]bool
	watchStop context.CancelFunc // nil until the first Confine
}

// Attach wraps a browser the caller already runs and connected to with
// rod, e.g. an embedding crawler's. Runs and pages work in browser contexts
// and tabs of their own, so the caller's cookies and tabs are untouched;
// Close does not close what Attach did not open. Attach(nil) gives a Browser
// whose methods return ErrNilBrowser.
func Attach(b *rod.Browser) *Browser { return &Browser{rod: b} }

// Rod is the underlying rod browser, for an embedder's own pages (nil once
// closed).
func (b *Browser) Rod() *rod.Browser {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rod
}

// handle returns the rod browser to work on, or why there is none.
func (b *Browser) handle() (*rod.Browser, error) {
	if b == nil {
		return nil, ErrNilBrowser
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.closed:
		return nil, ErrBrowserClosed
	case b.rod == nil:
		return nil, ErrNilBrowser
	}
	return b.rod, nil
}

// ResolveChromium returns the Chromium binary NewBrowser would launch, or
// ErrChromiumNotFound.
func ResolveChromium(bin string) (string, error) {
	candidates := []string{bin, os.Getenv(EnvChromium), DefaultChromium}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
		if bin != "" && c == bin {
			return "", fmt.Errorf("%w: %s does not exist", ErrChromiumNotFound, bin)
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", ErrChromiumNotFound
}

// NewBrowser launches headless Chromium (or connects to ControlURL). It never
// lets rod download a browser: the binary must exist on this machine. Bad
// options are an *OptionsError.
func NewBrowser(ctx context.Context, o BrowserOptions) (*Browser, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	timeout := o.LaunchTimeout
	if timeout == 0 {
		timeout = defaultLaunchTimeout
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLaunch, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if o.ControlURL != "" {
		ws, err := devtoolsURL(ctx, o.ControlURL)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w (is the browser running with --remote-debugging-port?)", ErrLaunch, o.ControlURL, err)
		}
		b, stop, err := connect(ctx, ws)
		if err != nil {
			return nil, fmt.Errorf("%w: connect to %s: %w (is the browser running with --remote-debugging-port?)", ErrLaunch, o.ControlURL, err)
		}
		return &Browser{rod: b, stop: stop, wsURL: ws}, nil
	}

	bin, err := ResolveChromium(o.Bin)
	if err != nil {
		return nil, err
	}
	sweepStaleProfiles()
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, fmt.Errorf("%w: profile dir: %w", ErrLaunch, err)
	}
	// No Context(ctx): the launcher kills the browser when its context ends,
	// and ctx only bounds start-up.
	// Not disable-crashpad-for-testing: with Chromium 156 here it makes every
	// navigation fail with net::ERR_ABORTED (rod's default disable-breakpad
	// stays on).
	l := launcher.New().
		Bin(bin). // a non-empty Bin means rod's download code is never reached
		Headless(true).
		NoSandbox(true).
		Leakless(true).
		UserDataDir(dir).
		Set("disable-gpu").
		Set("disable-extensions").
		Set("disable-component-update").
		Set("disable-background-networking").
		Set("disable-sync").
		Set("no-first-run").
		Set("disable-quic").
		Set("mute-audio").
		// rod's two, and Chromium's own queries of a form's signature to
		// Google's autofill servers, made as a page with a form loads.
		Set("disable-features", "site-per-process", "TranslateUI", "AutofillServerCommunication")
	if o.Offline {
		l = l.Set("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
	}
	if o.netLog != "" {
		l = l.Set("log-net-log", o.netLog).Set("net-log-capture-mode", "Everything")
	}
	u, err := launch(ctx, l)
	if err != nil {
		// Cleanup blocks forever after a failed launch: remove the dir
		// ourselves (best effort, as below: a directory left behind is
		// swept by a later launch, and the launch error is the one to tell).
		l.Kill()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %w", ErrLaunch, bin, err)
	}
	b, stop, err := connect(ctx, u)
	if err != nil {
		l.Kill()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: connect: %w", ErrLaunch, err)
	}
	return &Browser{rod: b, launcher: l, dataDir: dir, stop: stop, wsURL: u}, nil
}

// launch starts the browser and returns its DevTools URL. rod's Launch has no
// deadline of its own (it waits for the URL on the browser's stderr), so a
// browser that never prints one is given up on when ctx ends; the caller
// then kills it, which also ends the Launch left waiting.
func launch(ctx context.Context, l *launcher.Launcher) (string, error) {
	type result struct {
		u   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		u, err := l.Launch()
		done <- result{u, err}
	}()
	select {
	case r := <-done:
		return r.u, r.err
	case <-ctx.Done():
		return "", fmt.Errorf("no DevTools URL before the launch timeout: %w", ctx.Err())
	}
}

// devtoolsURL returns the WebSocket URL of controlURL: itself when it is
// one, else what the browser's http(s)://host:port/json/version names,
// on the host given (the browser reports its own view of it).
func devtoolsURL(ctx context.Context, controlURL string) (string, error) {
	u, err := url.Parse(controlURL)
	if err != nil {
		return "", err
	}
	if u.Scheme == "ws" || u.Scheme == "wss" {
		return controlURL, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.Scheme+"://"+u.Host+"/json/version", nil)
	if err != nil {
		return "", err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("/json/version answered %s", res.Status)
	}
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&v); err != nil {
		return "", fmt.Errorf("/json/version: %w", err)
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil || (ws.Scheme != "ws" && ws.Scheme != "wss") {
		return "", fmt.Errorf("/json/version names no WebSocket URL (%q)", v.WebSocketDebuggerURL)
	}
	ws.Host = u.Host
	return ws.String(), nil
}

// connect opens the DevTools connection. rod binds the websocket to the
// browser's context for its whole life, so the connection gets a context of
// its own (ended by Close) and ctx only bounds the handshake.
func connect(ctx context.Context, controlURL string) (*rod.Browser, context.CancelFunc, error) {
	connCtx, stop := context.WithCancel(context.Background())
	b := rod.New().ControlURL(controlURL).Context(connCtx)
	errc := make(chan error, 1)
	go func() { errc <- b.Connect() }()
	select {
	case err := <-errc:
		if err != nil {
			stop()
			return nil, nil, err
		}
		return b, stop, nil
	case <-ctx.Done():
		stop()
		return nil, nil, ctx.Err()
	}
}

// Close ends what NewBrowser started: the Chromium it launched (and its
// profile directory) or the connection it opened. A browser wrapped by
// Attach is left as it is. It is safe to call twice; the Browser cannot be
// used afterwards (ErrBrowserClosed).
func (b *Browser) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	b.stopWatch()
	var err error
	if b.launcher != nil && b.rod != nil {
		err = b.rod.Timeout(5 * time.Second).Close()
	}
	if b.stop != nil {
		b.stop()
	}
	if b.launcher != nil {
		// A browser told to close (Browser.close) exits by itself, its
		// children with it: wait for that, bounded. The launcher's Kill
		// sleeps a second before it kills, so it is only for a browser
		// that did not close or did not exit in time.
		if err != nil || !exited(b.launcher, closeWait) {
			b.launcher.Kill()
		}
		// Best effort: a killed browser's last writes can race the removal;
		// a profile left behind is swept by a later launch (older than an
		// hour, sweepStaleProfiles).
		_ = os.RemoveAll(b.dataDir)
		b.launcher = nil
	}
	b.rod = nil
	if err != nil && !strings.Contains(err.Error(), "closed") {
		return fmt.Errorf("topology: close browser: %w", err)
	}
	return nil
}

// closeWait bounds the wait for a closed browser's process to exit.
const closeWait = 3 * time.Second

// exited reports whether the launched browser's process exits within d.
// The launcher's Cleanup returns once it has (and removes the profile
// directory); a process that does not exit leaves that goroutine waiting
// until the caller's Kill ends it.
func exited(l *launcher.Launcher, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		l.Cleanup()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// OpenPage opens rawURL in a new tab hardened the way the engine hardens
// its own: a dialog auto-accept handler registered before navigating,
// offline request blocking (opts.Offline), opts.InitScripts, the emulated
// viewport, locale and time zone, a bounded navigation, a bounded wait for
// load (past which the page is used as it is) and a wait for stability.
// ctx bounds the opening only. The page outlives it and its opening's
// bounds, and so do its handlers, until the page (or the browser) is
// closed; the caller closes the page. A call made on it later, with a
// context of its own, works however old the tab. A failed navigation
// returns a *NavigationError (errors.Is ErrNavigation) and closes the tab;
// bad input is ErrInvalidURL or an *OptionsError.
func (b *Browser) OpenPage(ctx context.Context, rawURL string, opts PageOptions) (*rod.Page, error) {
	rb, err := b.prepare(rawURL, opts)
	if err != nil {
		return nil, err
	}
	return openPage(ctx, rb, rawURL, opts.withDefaults())
}

// prepare checks what every page or run of the browser is given — the
// page options and the URL — and returns the live rod browser.
func (b *Browser) prepare(rawURL string, page PageOptions) (*rod.Browser, error) {
	if err := page.Validate(); err != nil {
		return nil, err
	}
	if _, err := parseEntryURL(rawURL); err != nil {
		return nil, err
	}
	return b.handle()
}

// PID is the process id of the Chromium that NewBrowser launched (0 for a
// browser connected through ControlURL or wrapped by Attach, and once
// closed), e.g. to measure its memory.
func (b *Browser) PID() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.launcher == nil {
		return 0
	}
	return b.launcher.PID()
}

const profilePrefix = "frontlatch-chromium-"

// sweepStaleProfiles removes profile directories left by killed runs that are
// older than an hour, so a crashed process does not fill /tmp over time.
func sweepStaleProfiles() {
	// Glob fails only on a malformed pattern, and this one is constant. A
	// directory that cannot be removed (another user's, say) is left: the
	// sweep is housekeeping, never a reason to refuse a launch.
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && time.Since(st.ModTime()) > time.Hour {
			_ = os.RemoveAll(m)
		}
	}
}
