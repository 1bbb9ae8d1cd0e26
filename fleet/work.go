package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"runtime/debug"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

// WorkOptions configure Work.
type WorkOptions struct {
	// Workers is how many sites this process maps at once (default 2).
	Workers int
	// PerHost bounds the maps of one host running at once in this process
	// (default 1): a fleet never hammers one business. A host is a site
	// URL's canonical host and port (SiteURL's: case, a trailing dot and
	// the scheme's default port make no other host).
	PerHost int
	// BrowserURL drives a remote Chromium over CDP (ws://host:port/devtools/…
	// or http://host:9222); empty launches Debian's Chromium locally.
	BrowserURL string
	// JobTimeout cancels a map that runs longer (default 3m); the job is
	// retried.
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay running before River hands it
	// to another worker, as after a worker process was killed (default
	// JobTimeout + 1m; a value not above JobTimeout is taken as the
	// default, for a job still within its timeout is never rescued).
	RescueAfter time.Duration
	// Map is the mapper's options for every site (Browser is set by Work).
	Map mapper.Options
	// Audit is the verifier's audit store, used to reconcile a re-scan of a
	// site with confirmed actions (verifier.Reconcile). Nil: a map of a
	// site whose latest graph holds confirmed actions fails (code "audit",
	// ErrNoAuditStore, retried: a worker with a store may take it) and is
	// not recorded, so that no confirmation is dropped from the site's
	// latest graph; other sites are mapped as ever.
	Audit shared.AuditLookup
	// RescanEvery queues, at this interval, a re-scan of every site whose
	// latest graph has confirmed actions (0: no re-scans from this process).
	RescanEvery time.Duration
	// Metrics receives counters and the queue depth (nil: none).
	Metrics *Metrics
	// Backoff is the wait before retry number attempt (default River's:
	// attempt⁴ seconds, with jitter).
	Backoff func(attempt int) time.Duration
	// Logger receives one line per job (nil: discarded).
	Logger *slog.Logger
	// Offline keeps a locally launched browser on loopback and the site.
	Offline bool
}

func (o WorkOptions) withDefaults() WorkOptions {
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.PerHost <= 0 {
		o.PerHost = 1
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 3 * time.Minute
	}
	if o.RescueAfter <= o.JobTimeout {
		o.RescueAfter = o.JobTimeout + time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// StopGrace is how long Work lets running jobs finish once its context is
// done; River then cancels them (its SoftStopTimeout), and a job cancelled
// so is put back in the queue without using an attempt or recording a
// failure: the worker stopped, the site did not fail.
const StopGrace = 10 * time.Second

// Work maps queued sites until ctx is done or the Fleet is closed, then
// stops and returns nil (so too when ctx is done before it starts):
// running jobs are given StopGrace to finish and are otherwise
// cancelled and queued again as they were (River's soft stop: no attempt
// used, no failure recorded).
// A job that fails — a site down, a browser connection lost, a timeout —
// fails for retry with backoff; it never stops the worker.
func (f *Fleet) Work(ctx context.Context, opts WorkOptions) error {
	ctx, done, err := f.startWork(ctx)
	if err != nil {
		return err
	}
	defer done()
	o := opts.withDefaults()
	w := &mapWorker{fleet: f, opts: o, stop: ctx, hosts: mapper.NewHostSlots(o.PerHost), browsers: &browserSource{url: o.BrowserURL, offline: o.Offline}}
	defer w.browsers.close()
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, w); err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &rescanWorker{fleet: f}); err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	cfg := &river.Config{
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.Workers}},
		Workers:              workers,
		JobTimeout:           o.JobTimeout,
		RescueStuckJobsAfter: o.RescueAfter,
		// SQLite has no LISTEN/NOTIFY: a free worker finds the next job by
		// polling, so the poll interval is a per-job cost (measured: 200 ms
		// cost 15% at one worker on sub-second maps; BenchmarkFleet).
		FetchPollInterval: 50 * time.Millisecond,
		FetchCooldown:     20 * time.Millisecond,
		// Cancelling ctx is River's soft stop: no job is fetched, running
		// ones have this long, then their contexts are cancelled by the
		// stop, and River makes them available again without counting
		// the attempt.
		SoftStopTimeout: StopGrace,
		Logger:          o.Logger,
	}
	if o.Backoff != nil {
		cfg.RetryPolicy = backoffPolicy(o.Backoff)
	}
	if o.RescanEvery > 0 {
		cfg.PeriodicJobs = []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(o.RescanEvery),
			func() (river.JobArgs, *river.InsertOpts) { return RescanArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})}
	}
	stopMetrics := o.Metrics.watchQueue(ctx, f)
	defer stopMetrics()
	rc, err := f.queue.run(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped before it started: no job was taken
		}
		return err
	}
	<-ctx.Done()
	// River stops on its own (ctx was its start context); a job cancelled
	// at StopGrace still has to return and be written back.
	select {
	case <-rc.stopped:
		return nil
	case <-time.After(StopGrace + 30*time.Second):
		return fmt.Errorf("fleet: stopping workers: running jobs did not return within %s of being cancelled; River rescues them after %s", 30*time.Second, o.RescueAfter)
	}
}

type mapWorker struct {
	river.WorkerDefaults[MapArgs]
	fleet    *Fleet
	opts     WorkOptions
	stop     context.Context // Work's: done when the worker stops
	hosts    *mapper.HostSlots
	browsers *browserSource
}

// Work maps one site and records the result, ok or not, in fleet_maps:
// every attempt that fails — waiting for a host slot, getting a browser,
// mapping, reconciling with the audit store — is a row with its code. A map
// that panics (a bug the site's pages found, or an OnPage callback's) is
// such a failure too ("other"), its tab closed; River retries it.
func (w *mapWorker) Work(ctx context.Context, job *river.Job[MapArgs]) (err error) {
	start := time.Now()
	rec := mapRecord{site: job.Args.URL, jobID: job.ID, attempt: job.Attempt}
	// fail records the attempt's failure, within a bound of its own (the
	// job's context may be what ended it: its timeout), and returns err for
	// River to retry.
	fail := func(code string, err error) error {
		if w.stopped(ctx) {
			// Not the site's failure: River queues the job again as it was
			// (the error is the context's cancellation by the stop).
			w.opts.Logger.Info("map interrupted by the worker's stop; queued again", "site", job.Args.URL, "attempt", job.Attempt)
			return fmt.Errorf("fleet: %s: interrupted by the worker's stop (%v): %w", job.Args.URL, err, ctx.Err())
		}
		rec.at, rec.errCode, rec.err = time.Now().UTC(), code, err.Error()
		w.opts.Metrics.failed(code)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if rerr := w.fleet.record(rctx, rec); rerr != nil {
			return fmt.Errorf("%w (and it could not be recorded: %v)", err, rerr)
		}
		w.opts.Logger.Info("map failed", "site", job.Args.URL, "attempt", job.Attempt, "code", code, "err", err)
		return err
	}
	if _, err := url.Parse(job.Args.URL); err != nil {
		return river.JobCancel(fail("invalid-url", fmt.Errorf("%w: %w", ErrInvalidURL, err)))
	}
	host := hostKey(job.Args.URL)
	release, err := w.hosts.Acquire(ctx, host)
	if err != nil {
		return fail(classify(err), fmt.Errorf("fleet: waiting for a slot of host %s: %w", host, err))
	}
	defer release()
	mo := w.opts.Map
	sess, browser, err := w.browsers.session(ctx, mo)
	if err != nil {
		code := "browser"
		if ctx.Err() != nil {
			code = classify(ctx.Err())
		}
		return fail(code, fmt.Errorf("fleet: browser: %w", err))
	}
	held := true // the tab, until it is given back
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if held {
			w.browsers.put(sess, browser, false)
		}
		w.opts.Logger.Error("map panicked", "site", job.Args.URL, "attempt", job.Attempt, "panic", p, "stack", string(debug.Stack()))
		err = fail("other", fmt.Errorf("fleet: mapping %s panicked: %v", job.Args.URL, p))
	}()
	mo.Browser, mo.Session = browser, sess
	onPage := mo.OnPage
	mo.OnPage = func(u string) {
		w.opts.Metrics.page()
		if onPage != nil {
			onPage(u)
		}
	}
	g, mapErr := mapper.Map(ctx, job.Args.URL, mo)
	reusable := reusableAfter(mapErr)
	held = false
	w.browsers.put(sess, browser, reusable)
	if !reusable {
		w.browsers.checkAlive(ctx, browser)
	}
	if mapErr != nil {
		code := classify(mapErr)
		if code == "browser" {
			w.browsers.invalidate(browser)
		}
		err := fail(code, mapErr)
		// Neither is retried: the URL will not become one, and the
		// site's robots.txt asked not to be mapped (a later re-add or
		// re-scan asks again).
		if code == "invalid-url" || code == "disallowed" {
			return river.JobCancel(err)
		}
		return err
	}
	// Every map of a site is reconciled with its latest graph, a re-scan's
	// or not: a map recorded unreconciled would drop its confirmations.
	g, rec.reconciled, err = w.fleet.reconcile(ctx, job.Args.URL, g, w.opts.Audit)
	switch {
	case errors.Is(err, ErrNoAuditStore):
		return fail("audit", err) // retry: change no confirmation
	case err != nil:
		// The store could not be asked: retry, change no confirmation.
		return fail("audit", fmt.Errorf("fleet: reconciling with the audit store: %w", err))
	}
	if err := rec.setGraph(g); err != nil {
		return river.JobCancel(fail("other", fmt.Errorf("fleet: the mapper made an invalid graph of %s: %w", job.Args.URL, err)))
	}
	// The map is done: it is recorded even if the worker is stopping.
	rec.at = time.Now().UTC()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := w.fleet.record(rctx, rec); err != nil {
		return err
	}
	w.opts.Metrics.mapped(len(g.Actions), time.Since(start))
	w.opts.Logger.Info("mapped", "site", job.Args.URL, "actions", rec.actions, "complete", rec.complete, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// stopped reports whether the job's context was cancelled because the
// worker is stopping (not by the job's timeout, a deadline, nor by a
// cancellation of the job alone).
func (w *mapWorker) stopped(ctx context.Context) bool {
	return w.stop != nil && w.stop.Err() != nil && errors.Is(ctx.Err(), context.Canceled) &&
		!errors.Is(context.Cause(ctx), rivertype.ErrJobCancelledRemotely)
}

// Timeout bounds one map; River cancels the job's context after it.
func (w *mapWorker) Timeout(*river.Job[MapArgs]) time.Duration { return w.opts.JobTimeout }

// classify names a map failure for the store and the metrics.
func classify(err error) string {
	var fe *mapper.FetchError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "timeout" // the job's timeout, or a page that did not answer in time
	case errors.Is(err, mapper.ErrInvalidURL):
		return "invalid-url"
	case errors.As(err, &fe) && errors.Is(fe.Kind, mapper.ErrHTTPStatus):
		return "http-status"
	case errors.Is(err, mapper.ErrUnreachable):
		return "unreachable"
	case errors.Is(err, mapper.ErrNotHTML):
		return "not-html"
	case errors.Is(err, mapper.ErrRedirectLoop):
		return "redirect-loop"
	case errors.Is(err, mapper.ErrDisallowed):
		return "disallowed" // the site's robots.txt: no page was opened
	case errors.Is(err, errBrowserLost):
		return "browser"
	}
	return "other"
}

var errBrowserLost = errors.New("fleet: browser connection lost")

// reusableAfter reports whether a tab may map the next site after a map
// that ended with err: yes when it succeeded or the site itself failed
// (down, an error status, not HTML, its robots.txt refusing), no when the
// tab or the job may be stuck (a timeout, a lost browser, anything else).
func reusableAfter(err error) bool {
	switch classify(err) {
	case "invalid-url", "http-status", "unreachable", "not-html", "redirect-loop", "disallowed":
		return true
	}
	return err == nil
}

// browserSource hands out one browser per process and replaces it when it
// stops answering after a failed job: a local Chromium is relaunched, a
// remote one reconnected.
type browserSource struct {
	url     string
	offline bool
	mu      sync.Mutex
	b       *topology.Browser
	// idle are tabs (mapper sessions) on b that no job holds: a site is
	// mapped in a reused tab, as mapper.MapAll does, not a new one each.
	idle []*topology.Session
}

// session hands out an idle tab of the current browser, or opens one; put
// returns it. A tab of a browser since replaced is closed, not reused.
func (s *browserSource) session(ctx context.Context, mo mapper.Options) (*topology.Session, *topology.Browser, error) {
	b, err := s.get(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		sess := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return sess, b, nil
	}
	s.mu.Unlock()
	sess, err := mapper.NewSession(ctx, b, mo)
	if err != nil {
		s.checkAlive(ctx, b)
		return nil, nil, fmt.Errorf("%w: %w", errBrowserLost, err)
	}
	return sess, b, nil
}

func (s *browserSource) put(sess *topology.Session, b *topology.Browser, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok && s.b != nil && s.b == b {
		s.idle = append(s.idle, sess)
		return
	}
	sess.Close()
}

func (s *browserSource) get(ctx context.Context) (*topology.Browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil {
		return s.b, nil // checked only after a failure (checkAlive): no round trip per job
	}
	// A remote browser's resolver is its own: Offline then keeps each tab
	// on its site (the mapper's PageOptions.Offline). topology resolves an
	// http://host:port to the browser's WebSocket URL.
	opts := topology.BrowserOptions{Offline: s.offline && s.url == "", ControlURL: s.url}
	b, err := topology.NewBrowser(ctx, opts)
	if err != nil {
		if s.url != "" {
			return nil, fmt.Errorf("%w: %w", errBrowserLost, err)
		}
		return nil, err
	}
	s.b = b
	return b, nil
}

// checkAlive asks b for its version after a map failed for a reason not of
// the site's making, and drops it when it does not answer: the next job
// relaunches or reconnects.
func (s *browserSource) checkAlive(ctx context.Context, b *topology.Browser) {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rb := b.Rod(); rb == nil {
		s.invalidate(b)
	} else if _, err := rb.Context(hctx).Version(); err != nil {
		s.invalidate(b)
	}
}

// invalidate drops b if it is still the current browser.
func (s *browserSource) invalidate(b *topology.Browser) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil && s.b == b {
		s.dropLocked()
	}
}

// dropLocked forgets the browser: a local one is closed, a remote one only
// disconnected (it belongs to its pool).
func (s *browserSource) dropLocked() {
	for _, sess := range s.idle {
		sess.Close()
	}
	s.idle = nil
	if s.b != nil {
		s.b.Close()
	}
	s.b = nil
}

func (s *browserSource) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked()
}

// backoffPolicy adapts a backoff function to River's retry policy.
type backoffPolicy func(attempt int) time.Duration

func (p backoffPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(p(job.Attempt))
}
