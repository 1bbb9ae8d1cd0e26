package topology

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
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
var ErrChromiumNotFound = errors.New("topology: chromium not found: install it with `make chromium` (apt-get install -y chromium) or set " + EnvChromium)

// ErrLaunch reports that Chromium was found but did not start.
var ErrLaunch = errors.New("topology: chromium failed to launch")

// ErrNilBrowser reports a nil *rod.Browser passed to ScanWith, ExploreWith or
// OpenPage.
var ErrNilBrowser = errors.New("topology: nil browser: pass the *rod.Browser of a running Chromium (NewBrowser(...).Rod)")

// BrowserOptions configures NewBrowser.
type BrowserOptions struct {
	// Bin is the Chromium binary. Empty means $FRONTLATCH_CHROMIUM, then
	// /usr/bin/chromium, then chromium on $PATH.
	Bin string
	// ControlURL connects to an already running browser (its DevTools
	// websocket URL) instead of launching one. Bin is then ignored.
	ControlURL string
	// Offline makes Chromium resolve no host but loopback, so a page cannot
	// reach the network even through a subresource.
	Offline bool
	// LaunchTimeout bounds start-up and connection; zero means 30s.
	LaunchTimeout time.Duration
}

// Browser is a Chromium process (or remote connection) owned by Frontlatch.
// Close it to end the process and remove its profile directory.
type Browser struct {
	// Rod is the underlying browser; embedders may open their own pages on it.
	Rod *rod.Browser

	launcher *launcher.Launcher
	dataDir  string
	stop     context.CancelFunc // ends the DevTools connection
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
// lets rod download a browser: the binary must exist on this machine.
func NewBrowser(ctx context.Context, o BrowserOptions) (*Browser, error) {
	timeout := o.LaunchTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLaunch, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if o.ControlURL != "" {
		b, stop, err := connect(ctx, o.ControlURL)
		if err != nil {
			return nil, fmt.Errorf("%w: connect to %s: %w (is the browser running with --remote-debugging-port?)", ErrLaunch, o.ControlURL, err)
		}
		return &Browser{Rod: b, stop: stop}, nil
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
		Set("mute-audio")
	if o.Offline {
		l = l.Set("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
	}
	u, err := launch(ctx, l)
	if err != nil {
		// Cleanup blocks forever after a failed launch: remove the dir ourselves.
		l.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %w", ErrLaunch, bin, err)
	}
	b, stop, err := connect(ctx, u)
	if err != nil {
		l.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: connect: %w", ErrLaunch, err)
	}
	return &Browser{Rod: b, launcher: l, dataDir: dir, stop: stop}, nil
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

// Close ends the browser and removes its profile. It is safe to call twice.
func (b *Browser) Close() error {
	if b == nil || b.Rod == nil {
		return nil
	}
	var err error
	if b.launcher != nil {
		err = b.Rod.Timeout(5 * time.Second).Close()
	}
	if b.stop != nil {
		b.stop()
	}
	if b.launcher != nil {
		b.launcher.Kill()
		os.RemoveAll(b.dataDir)
		b.launcher = nil
	}
	b.Rod = nil
	if err != nil && !strings.Contains(err.Error(), "closed") {
		return fmt.Errorf("topology: close browser: %w", err)
	}
	return nil
}

// PID is the process id of the Chromium that NewBrowser launched (0 for a
// browser connected through ControlURL), e.g. to measure its memory.
func (b *Browser) PID() int {
	if b == nil || b.launcher == nil {
		return 0
	}
	return b.launcher.PID()
}

const profilePrefix = "frontlatch-chromium-"

// sweepStaleProfiles removes profile directories left by killed runs that are
// older than an hour, so a crashed process does not fill /tmp over time.
func sweepStaleProfiles() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && time.Since(st.ModTime()) > time.Hour {
			os.RemoveAll(m)
		}
	}
}
