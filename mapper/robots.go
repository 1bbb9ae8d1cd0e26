package mapper

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
	"golang.org/x/time/rate"
)

// DefaultUserAgent names the mapper in every request it makes (plain HTTP
// and the browser): the product token robots.txt groups are matched on,
// and where to read what it is.
const DefaultUserAgent = "Frontlatch/" + Version + " (+https://github.com/frontlatch/frontlatch)"

// ErrDisallowed reports an entry URL the site's robots.txt does not let the
// mapper open. Inner pages it disallows are skipped and named in the notes.
var ErrDisallowed = errors.New("mapper: robots.txt disallows the page")

// DisallowedError names the page and the user agent robots.txt refused.
// It matches ErrDisallowed with errors.Is.
type DisallowedError struct {
	URL   string
	Agent string // the robots.txt product token matched
}

func (e *DisallowedError) Error() string {
	return fmt.Sprintf("mapper: robots.txt of %s disallows %s for user agent %q", hostOf(e.URL), e.URL, e.Agent)
}

// Is makes DisallowedError match ErrDisallowed.
func (e *DisallowedError) Is(target error) bool { return target == ErrDisallowed }

// robotsToken is the product token of a User-Agent ("Frontlatch" of
// "Frontlatch/0.1.0 (+…)"), which robots.txt groups name.
func robotsToken(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), "/")
	tok, _, _ = strings.Cut(tok, " ")
	if tok == "" {
		return "*"
	}
	return tok
}

// robotsRules is what a site's robots.txt says to this mapper's agent.
type robotsRules struct {
	group *robotstxt.Group // nil: no robots.txt, or one that could not be read (everything allowed)
	agent string
}

// parseRobots reads a robots.txt answer with temoto/robotstxt (Google's
// rules: the most specific matching group, longest-path Allow/Disallow, a
// 4xx means no rules, a 5xx disallows everything). A file that cannot be
// parsed, or no answer at all, imposes nothing.
func parseRobots(status int, body []byte, ua string) robotsRules {
	r := robotsRules{agent: robotsToken(ua)}
	if status == 0 {
		return r
	}
	data, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil || data == nil {
		return r
	}
	r.group = data.FindGroup(r.agent)
	return r
}

// allowed reports whether the page may be opened.
func (r robotsRules) allowed(raw string) bool {
	if r.group == nil {
		return true
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return r.group.Test(u.RequestURI())
}

// crawlDelay is the group's Crawl-delay (0 when none).
func (r robotsRules) crawlDelay() time.Duration {
	if r.group == nil {
		return 0
	}
	return r.group.CrawlDelay
}

// HostLimiter paces requests per host (host:port): every plain HTTP request
// and every page the mapper opens waits for its host's token. One limiter
// shared by concurrent Maps keeps a whole crawl polite to each host. A
// robots.txt Crawl-delay slows its host further, never speeds it up.
// A host at the limiter's own pace whose burst has refilled is forgotten
// (a fresh one would be the same), so a process that maps a fleet holds
// only the hosts it met lately and the ones a Crawl-delay slowed.
type HostLimiter struct {
	every time.Duration // minimum spacing, 0 for none
	burst int

	mu      sync.Mutex
	hosts   map[string]*rate.Limiter
	sweepAt int // how many hosts make the next new one forget the idle
}

// NewHostLimiter allows each host perSecond requests a second (0 or less:
// unlimited) with bursts of burst (at least 1).
func NewHostLimiter(perSecond float64, burst int) *HostLimiter {
	l := &HostLimiter{burst: max(burst, 1), hosts: map[string]*rate.Limiter{}}
	if perSecond > 0 {
		l.every = time.Duration(float64(time.Second) / perSecond)
	}
	return l
}

// defaultLimiter is shared by every Map of the process that names none.
var defaultLimiter = NewHostLimiter(DefaultHostRate, DefaultHostBurst)

// Default per-host pace: ten requests a second, bursts of five.
const (
	DefaultHostRate  = 10
	DefaultHostBurst = 5
)

// minSweep is how many hosts a HostLimiter holds before it first looks
// for idle ones to forget; after each look, twice as many as remain.
const minSweep = 1024

// pace is the limiter's own rate.
func (l *HostLimiter) pace() rate.Limit {
	if l.every > 0 {
		return rate.Every(l.every)
	}
	return rate.Inf
}

// limiter is host's rate limiter; l.mu must be held, and kept while the
// limiter is used, so that forgetIdle never drops one in use.
func (l *HostLimiter) limiter(host string) *rate.Limiter {
	lim, ok := l.hosts[host]
	if !ok {
		if len(l.hosts) >= max(l.sweepAt, minSweep) {
			l.forgetIdle(time.Now())
			l.sweepAt = 2 * len(l.hosts)
		}
		lim = rate.NewLimiter(l.pace(), l.burst)
		l.hosts[host] = lim
	}
	return lim
}

// forgetIdle drops the hosts at the limiter's own pace whose bursts have
// refilled by now; l.mu must be held.
func (l *HostLimiter) forgetIdle(now time.Time) {
	pace := l.pace()
	for h, lim := range l.hosts {
		if lim.Limit() == pace && lim.Burst() == l.burst && lim.TokensAt(now) >= float64(l.burst) {
			delete(l.hosts, h)
		}
	}
}

// Wait blocks until host may be sent one more request, or ctx ends. When
// ctx's deadline comes before host's turn, Wait returns at once, without
// taking the turn, an error that matches context.DeadlineExceeded and says
// how the host is paced.
func (l *HostLimiter) Wait(ctx context.Context, host string) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	lim := l.limiter(host)
	turn := lim.Reserve()
	every := time.Duration(float64(time.Second) / float64(lim.Limit()))
	l.mu.Unlock()
	wait := turn.Delay()
	if wait == 0 {
		return nil
	}
	if end, ok := ctx.Deadline(); ok && time.Until(end) < wait {
		turn.Cancel()
		return &paceError{host: host, every: every}
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		turn.Cancel()
		return ctx.Err()
	}
}

// paceError says that a host's next turn comes after the run's end: the
// host is paced (by a robots.txt Crawl-delay, or the limiter's own rate)
// more slowly than the time left allows. It is not the host's fault, so it
// is no FetchError; it matches context.DeadlineExceeded.
type paceError struct {
	host  string
	every time.Duration
}

func (e *paceError) Error() string {
	return fmt.Sprintf("%s is paced to one request every %v, and its next turn comes after the run ends", e.host, e.every)
}

func (e *paceError) Unwrap() error { return context.DeadlineExceeded }

// slowTo applies a Crawl-delay: at most one request per delay to host. It
// is called just after host's robots.txt was read, so that request takes
// the turn: the next one waits a whole delay.
func (l *HostLimiter) slowTo(host string, delay time.Duration) {
	if l == nil || delay <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.limiter(host)
	if cur := lim.Limit(); cur == rate.Inf || time.Duration(float64(time.Second)/float64(cur)) < delay {
		lim.SetLimit(rate.Every(delay))
		lim.SetBurst(1)
		lim.Allow()
	}
}
