// LEAD NOTE (remove when read): the house rules you must follow are in /work/notes/preamble.md — read it now (no git commits, deadline 12:05 UTC, only your folders). The CLI main.go appears by 10:45.
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
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if o.ControlURL != "" {
		b := rod.New().ControlURL(o.ControlURL).Context(ctx)
		if err := b.Connect(); err != nil {
			return nil, fmt.Errorf("%w: connect to %s: %v", ErrLaunch, o.ControlURL, err)
		}
		return &Browser{Rod: b.Context(context.Background())}, nil
	}

	bin, err := ResolveChromium(o.Bin)
	if err != nil {
		return nil, err
	}
	sweepStaleProfiles()
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, fmt.Errorf("%w: profile dir: %v", ErrLaunch, err)
	}
	l := launcher.New().
		Context(ctx).
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
		Set("disable-crashpad-for-testing").
		Set("mute-audio")
	if o.Offline {
		l = l.Set("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
	}
	u, err := l.Launch()
	if err != nil {
		// Cleanup blocks forever after a failed launch: remove the dir ourselves.
		l.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %v", ErrLaunch, bin, err)
	}
	b := rod.New().ControlURL(u).Context(ctx)
	if err := b.Connect(); err != nil {
		l.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: connect: %v", ErrLaunch, err)
	}
	return &Browser{Rod: b.Context(context.Background()), launcher: l, dataDir: dir}, nil
}

// Close ends the browser and removes its profile. It is safe to call twice.
func (b *Browser) Close() error {
	if b == nil || b.Rod == nil {
		return nil
	}
	err := b.Rod.Timeout(5 * time.Second).Close()
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
