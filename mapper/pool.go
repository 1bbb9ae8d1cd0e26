package mapper

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

// PoolOptions configures MapAll.
type PoolOptions struct {
	// Concurrency is how many sites are mapped at once, each in its own
	// reused tab (default DefaultConcurrency).
	Concurrency int
	// PerHost bounds the sites of one host (host:port) mapped at once
	// (default 1): a crawl never opens two tabs on one small business.
	PerHost int
	// Configure, when set, adjusts the options of site i (e.g. its slug).
	Configure func(i int, o *Options)
	// OnStart and OnDone, when set, are told when site i starts and ends
	// (from the worker's goroutine); a site never started (a URL refused
	// before any start, or one left when no tab could be had or ctx ended:
	// see MapAll) is told to neither.
	OnStart func(i int, url string)
	OnDone  func(i int, r Result)
}

// DefaultConcurrency is MapAll's default: on the two-core machine the
// figures are measured on, Chromium's own work per page fills both cores
// at two tabs; three and four tabs map the fifteen sites no faster and
// often slower (docs/benchmark.md, "Concurrency").
const DefaultConcurrency = 2

// Result is what mapping one site of MapAll gave.
type Result struct {
	URL   string
	Graph *shared.ActionGraph // nil when Err is set
	Err   error
	Pages []string      // pages opened in the browser, in order
	Wall  time.Duration // the site's own wall time
}

// MapAll maps sites concurrently: a pool of Concurrency workers, each with
// one reused tab (NewSession, reset between sites), at most PerHost sites
// of one host at a time, every request paced by opts.Limiter. It launches
// one Chromium unless opts.Browser is set, or uses the one running at
// opts.ControlURL (which it leaves running). Results come back in the order
// of urls; a site that fails has its Err set and the others go on. A URL
// that cannot be mapped at all (not an absolute http(s) URL) has its Err
// set before anything is launched, and no browser is launched when no URL
// is left. Every result carries its URL and either a Graph or an Err: a
// site never started because no tab could be had, or because ctx ended
// first, has that as its Err. The error is for a browser or tab that could
// not be had (the other workers go on when only some tabs fail), or ctx
// ending.
func MapAll(ctx context.Context, urls []string, opts Options, po PoolOptions) ([]Result, error) {
	conc := po.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	out := make([]Result, len(urls))
	var todo []int
	for i, u := range urls {
		if _, err := parseSiteURL(u); err != nil {
			out[i] = Result{URL: u, Err: err} // never started: OnStart and OnDone are not told
			continue
		}
		todo = append(todo, i)
	}
	conc = min(conc, len(todo))
	if len(todo) == 0 {
		return out, nil
	}
	browser := opts.Browser
	if browser == nil {
		br, err := opts.newBrowser(ctx)
		if err != nil {
			return nil, err
		}
		defer br.Close()
		browser = br
	}
	// Every worker's tab is had before any site starts: a site is only
	// handed to a worker that can map it, and when no tab can be had every
	// site says why.
	sessions := make([]*topology.Session, conc)
	errs := make([]error, conc)
	var opening sync.WaitGroup
	for k := range conc {
		opening.Add(1)
		go func() {
			defer opening.Done()
			sessions[k], errs[k] = NewSession(ctx, browser, opts)
		}()
	}
	opening.Wait()
	var firstErr error
	var live []*topology.Session
	for k, sess := range sessions {
		if errs[k] != nil {
			firstErr = cmp.Or(firstErr, errs[k])
			continue
		}
		live = append(live, sess)
	}
	if len(live) == 0 {
		for _, i := range todo {
			out[i] = Result{URL: urls[i], Err: firstErr}
		}
		return out, firstErr
	}
	hosts := NewHostSlots(po.PerHost)
	next := make(chan int)
	var wg sync.WaitGroup
	for _, sess := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sess.Close()
			for i := range next {
				release, err := hosts.Acquire(ctx, hostOfURL(urls[i]))
				if err != nil {
					out[i] = Result{URL: urls[i], Err: err}
					continue
				}
				if po.OnStart != nil {
					po.OnStart(i, urls[i])
				}
				o := opts
				o.Browser, o.Session = browser, sess
				if po.Configure != nil {
					po.Configure(i, &o)
				}
				r := Result{URL: urls[i]}
				onPage := o.OnPage
				o.OnPage = func(u string) {
					r.Pages = append(r.Pages, u)
					if onPage != nil {
						onPage(u)
					}
				}
				start := time.Now()
				r.Graph, r.Err = Map(ctx, urls[i], o)
				r.Wall = time.Since(start)
				release()
				out[i] = r
				if po.OnDone != nil {
					po.OnDone(i, r)
				}
			}
		}()
	}
dispatch:
	for n, i := range todo {
		select {
		case next <- i:
		case <-ctx.Done():
			for _, j := range todo[n:] { // never started
				out[j] = Result{URL: urls[j], Err: fmt.Errorf("mapper: %s was not mapped: %w", urls[j], ctx.Err())}
			}
			break dispatch
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}

// hostOfURL is the host:port requests to raw are paced and pooled by.
func hostOfURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return raw
}

// HostSlots bounds how many sites of one host (host:port) are mapped at
// once: MapAll uses it, and so can a crawler's own workers (the fleet's).
// A host is forgotten as soon as no site of it holds or waits for a slot,
// so a worker that maps a million sites keeps no entry per host it has
// seen.
type HostSlots struct {
	per int
	mu  sync.Mutex
	m   map[string]*hostSlot
}

// hostSlot is one host's slots: a token per site being mapped, and how
// many Acquires hold or wait for one (under HostSlots.mu).
type hostSlot struct {
	c    chan struct{}
	refs int
}

// NewHostSlots allows per sites of one host at once (at least 1).
func NewHostSlots(per int) *HostSlots {
	return &HostSlots{per: max(per, 1), m: map[string]*hostSlot{}}
}

// Acquire waits for a slot of host, or ctx's end, and returns the function
// that gives the slot back (once, however often it is called).
func (h *HostSlots) Acquire(ctx context.Context, host string) (release func(), err error) {
	h.mu.Lock()
	s := h.m[host]
	if s == nil {
		s = &hostSlot{c: make(chan struct{}, h.per)}
		h.m[host] = s
	}
	s.refs++
	h.mu.Unlock()
	select {
	case s.c <- struct{}{}:
		var once sync.Once
		return func() {
			once.Do(func() {
				<-s.c
				h.leave(host, s)
			})
		}, nil
	case <-ctx.Done():
		h.leave(host, s)
		return nil, ctx.Err()
	}
}

// leave drops one reference to host's slots, and the entry with the last.
func (h *HostSlots) leave(host string, s *hostSlot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s.refs--
	if s.refs == 0 && h.m[host] == s {
		delete(h.m, host)
	}
}
