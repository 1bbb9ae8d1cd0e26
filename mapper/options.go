package mapper

import (
	"net/http"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

// Version is the mapper's release, the workspace's one release number
// (shared.ModuleVersion, checked against versions.yaml by a test); it signs
// every provenance record ("mapper@<Version>") unless Options.Generator
// says otherwise.
const Version = shared.ModuleVersion

// Options configures Map, MapPage and MapHTML. The zero value is usable:
// every zero field takes the default documented on it.
type Options struct {
	// MaxPages bounds the pages Map opens in the browser, entry page
	// included (default 6). Only same-site pages whose links say they carry
	// an action (contact, book, quote, appointment… in several languages)
	// are queued, best first.
	MaxPages int
	// PageTimeout bounds opening, settling and extracting one page
	// (default 20s, or RunTimeout when that is shorter). A page that takes
	// longer is skipped, not waited on. It starts when the page's host's
	// turn comes (Limiter): waiting for the turn is the run's time.
	PageTimeout time.Duration
	// FetchTimeout bounds each plain HTTP request: the pre-flight of a page,
	// robots.txt, an ARD catalog (default 10s), from the moment its host's
	// turn comes.
	FetchTimeout time.Duration
	// RunTimeout bounds a whole Map (default 2m); pages not reached by then
	// are left out and named in the graph's notes.
	RunTimeout time.Duration
	// MaxFetchBytes bounds a body read over plain HTTP (default 2 MiB).
	MaxFetchBytes int64
	// Offline keeps the browser on loopback and the site's own origin:
	// no third-party script runs, no host but the site's is contacted.
	Offline bool
	// NoExplore turns off revealing modals and "Book now" triggers through
	// topology's safe exploration; forms already in the DOM are still read.
	NoExplore bool

	// Browser is a browser to open pages in (topology.NewBrowser, or
	// topology.Attach for a *rod.Browser of your own). When nil, Map connects to
	// ControlURL, or else launches its own through topology.NewBrowser and
	// closes it before returning.
	Browser *topology.Browser
	// ControlURL is the DevTools WebSocket URL of a Chromium already running
	// (the one a chromedp or Playwright program started with
	// --remote-debugging-port): Map (and MapAll, one tab per worker) opens
	// its pages there, in a tab of its own, and leaves the browser running.
	// Ignored when Browser or Session is set.
	ControlURL string
	// Session is a tab to open the pages in, from NewSession: a crawler
	// mapping site after site reuses one per worker instead of paying a new
	// tab (a renderer process) per site. Map resets it (cookies cleared)
	// before and does not close it. It wins over Browser and ControlURL;
	// when nil, Map opens a session on Browser (or ControlURL's browser, or
	// its own) and closes it before returning.
	Session *topology.Session
	// HTTPClient makes the plain HTTP requests. When nil a bounded
	// keep-alive client is used that follows at most 10 redirects and
	// detects loops.
	HTTPClient *http.Client
	// UserAgent is sent with every plain HTTP request and by the browser
	// (default DefaultUserAgent, which names Frontlatch and a URL). Its
	// product token (the part before "/") is the agent robots.txt groups
	// are matched on.
	UserAgent string
	// IgnoreRobots opens pages robots.txt disallows (only for sites you
	// own: by default a disallowed page is not opened and the notes say so,
	// and a Crawl-delay paces the run).
	IgnoreRobots bool
	// Limiter paces requests per host (default: one limiter shared by the
	// process, DefaultHostRate requests a second per host, bursts of
	// DefaultHostBurst). Share one across concurrent Maps of a crawl.
	Limiter *HostLimiter

	// OnPage, when set, is called with the URL of every page Map opens in
	// the browser (entry page included), e.g. to count page loads.
	OnPage func(pageURL string)

	fetcher *fetcher // this Map's prefetched answers

	// Now stamps generatedAt and every provenance "at" (default time.Now);
	// set it for reproducible output.
	Now func() time.Time
	// Generator names the producer in the graph (default mapper/Version).
	Generator shared.Generator
	// SiteSlug is the first part of every action id and of the graph id
	// (default: derived from the host, e.g. "harbourside-dental").
	SiteSlug string
	// GraphID overrides the graph id (default ag_<slug>_<yyyymmdd>).
	GraphID string

	// loader reads the crawl's pages; nil is the browser. Tests set
	// staticLoader to run the whole crawl without one.
	loader pageLoader
}

// withDefaults returns o with every zero field set.
func (o Options) withDefaults() Options {
	if o.MaxPages <= 0 {
		o.MaxPages = 6
	}
	if o.RunTimeout <= 0 {
		o.RunTimeout = 2 * time.Minute
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = min(20*time.Second, o.RunTimeout)
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = 10 * time.Second
	}
	if o.MaxFetchBytes <= 0 {
		o.MaxFetchBytes = 2 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Limiter == nil {
		o.Limiter = defaultLimiter
	}
	if o.Generator.Name == "" {
		o.Generator = shared.Generator{Name: "mapper", Version: Version}
	}
	return o
}

// by is the provenance signature of this run.
func (o Options) by() string { return o.Generator.Name + "@" + o.Generator.Version }
