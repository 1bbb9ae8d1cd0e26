package topology

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ErrOnState wraps an error returned by ScanOptions.OnState, which aborts a run.
var ErrOnState = errors.New("topology: OnState hook failed")

// Scan captures the entry state of rawURL in a fresh tab set up by page
// and returns its Topology Graph. The run works in a browser context of its
// own, so the cookies and tabs of a browser wrapped by Attach are untouched.
// An entry page that cannot be loaded is not an error: the graph then has no
// state and a graph-level failed observation (stateId null) saying why.
// Errors are reserved for bad input (ErrInvalidURL, an *OptionsError), an
// unusable Browser (ErrNilBrowser, ErrBrowserClosed), a cancelled ctx and an
// OnState failure (ErrOnState).
func (b *Browser) Scan(ctx context.Context, rawURL string, page PageOptions, opts ScanOptions) (*Graph, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return b.run(ctx, rawURL, page, ExploreOptions{ScanOptions: opts}, ModeScan)
}

// Explore is Scan, then clicks every element the risk policy deems safe,
// each from a clean entry state, recording edges, new states and refusals.
func (b *Browser) Explore(ctx context.Context, rawURL string, page PageOptions, opts ExploreOptions) (*Graph, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return b.run(ctx, rawURL, page, opts, ModeExplore)
}

// ValidateURL reports, as ErrInvalidURL, a URL no run or page can open (it
// must be absolute http(s) with a host, or file), without a browser: e.g.
// to refuse bad input before launching one.
func ValidateURL(rawURL string) error {
	_, err := parseEntryURL(rawURL)
	return err
}

func (b *Browser) run(ctx context.Context, rawURL string, page PageOptions, opts ExploreOptions, mode Mode) (*Graph, error) {
	rb, err := b.prepare(rawURL, page)
	if err != nil {
		return nil, err
	}
	return execute(ctx, rb, rawURL, settings{page, opts}.withDefaults(), mode)
}

// run is the state of one Scan or Explore.
type run struct {
	o       settings
	tabOpts PageOptions // the options the tab was opened with (a replacement tab gets the same)
	mode    Mode
	// current: the tab already shows the entry page, settled (a Session's
	// page); untouched: it still shows the entry state as captured, so the
	// first edge needs no reset.
	current, untouched bool
	b                  *rod.Browser // the run's own browser context
	tab                *tab
	entry              *url.URL
	origin             string

	g         *Graph
	byHash    map[string]int // stateHash → index in g.States
	snaps     []*snapshot    // parallel to g.States
	failIDs   map[string]int
	budgetHit map[string]bool
	noted     map[string]bool // failures recorded once per run (reset steps)

	// verifyBudget is the in-page time one state's locator verification
	// may take before it stops and leaves the rest unverified: a share of
	// ActionTimeout, so its answer comes back before the call is cut off.
	verifyBudget time.Duration

	entryChecks, entryMismatches int
	dead                         bool // no usable tab is left

	// pre is the entry state a Session captured already (Session.Read),
	// with the outcome of the settle that preceded it; version is the
	// browser's product string when already known.
	pre       *snapshot
	preSettle settleOutcome
	version   string
}

func (r *run) now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func newSessionID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (it crashes the program instead)
	return "crawl-" + hex.EncodeToString(b[:])
}

// InputFingerprint is the deterministic fingerprint of a run's input: the URL,
// the mode and every policy and scoring version.
func InputFingerprint(rawURL string, mode Mode) string {
	h := sha256.New()
	for _, p := range []string{rawURL, string(mode), ArtifactVersion, RiskPolicyVersion, NormalizationRuleVersion, LocatorScoringVersion} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// execute is one run on b, with o's defaults applied.
func execute(ctx context.Context, b *rod.Browser, rawURL string, o settings, mode Mode) (*Graph, error) {
	u, err := parseEntryURL(rawURL)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithTimeout(ctx, o.RunTimeout)
	defer cancel()
	inc, err := b.Context(runCtx).Timeout(o.ActionTimeout).Incognito()
	if err != nil {
		return nil, fmt.Errorf("topology: create browser context: %w", err)
	}
	ctxB := inc.Context(context.Background())
	defer func() {
		// Best effort, after the graph is complete: a context that cannot be
		// disposed of (the browser gone, or not answering) ends with the
		// browser or the connection; failing a finished run for it would
		// lose the graph.
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: inc.BrowserContextID}.Call(b.Timeout(5 * time.Second))
	}()
	t, err := openTab(runCtx, ctxB, o.PageOptions, weborigin.Of(u))
	if err != nil {
		return nil, err
	}
	r := newRun(o, mode, u, ctxB, t)
	defer func() { r.tab.close() }()
	return r.execute(ctx, runCtx, b, rawURL, false)
}

func newRun(o settings, mode Mode, u *url.URL, b *rod.Browser, t *tab) *run {
	return &run{o: o, tabOpts: t.o, mode: mode, entry: u, origin: weborigin.Of(u), b: b, tab: t,
		verifyBudget: o.ActionTimeout * 3 / 4,
		byHash:       map[string]int{}, failIDs: map[string]int{}, budgetHit: map[string]bool{}, noted: map[string]bool{}}
}

// execute drives the run on its tab. When current is true the tab already
// shows the entry page, loaded and settled: the entry state is captured
// without navigating again.
func (r *run) execute(ctx, runCtx context.Context, root *rod.Browser, rawURL string, current bool) (*Graph, error) {
	o, u := r.o, r.entry
	version := r.version
	if version == "" {
		version = "unknown"
		if v, err := (proto.BrowserGetVersion{}).Call(root.Context(runCtx).Timeout(o.ActionTimeout)); err == nil {
			version = v.Product
			r.version = version
		}
	}
	r.g = &Graph{
		SchemaVersion: SchemaVersion,
		Metadata: Metadata{
			ArtifactVersion: ArtifactVersion, InputURL: rawURL, EntryURL: u.String(), GeneratedAt: r.now(),
			EngineVersion: EngineVersion, Mode: r.mode, CrawlSessionID: newSessionID(), InputSeed: rawURL,
			InputFingerprint: InputFingerprint(rawURL, r.mode),
			RuntimeContext: RuntimeContext{BrowserEngine: "chromium", BrowserVersion: version, Viewport: o.Viewport,
				Locale: o.Locale, Timezone: o.Timezone, AuthContext: "anonymous", Offline: o.Offline},
			Site:                     Site{BaseURL: r.origin + "/", EntryURL: u.String()},
			RiskPolicyVersion:        RiskPolicyVersion,
			NormalizationRuleVersion: NormalizationRuleVersion,
			LocatorScoringVersion:    LocatorScoringVersion,
		},
		States: []StateNode{}, Elements: []ActionableElement{}, Edges: []ActionEdge{},
		SkippedActions: []SkippedAction{}, FailedObservations: []FailedObservation{},
	}
	r.current = current
	err := r.drive(runCtx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if runCtx.Err() != nil {
		r.addFailure(r.failure(nil, nil, nil, FailBudgetExhausted, "run timeout "+o.RunTimeout.String()+" reached; the graph holds what was observed before it"))
	}
	r.finish()
	return r.g, nil
}

// drive runs the mode. Only OnState errors are returned; everything the page
// does wrong becomes a failed observation.
func (r *run) drive(ctx context.Context) error {
	entry, err := r.enter(ctx)
	if err != nil || entry < 0 || r.mode == ModeScan {
		return err
	}
	return r.explore(ctx, entry)
}

// enter navigates to the entry URL and records the entry state. It returns
// the state's index, or -1 when there is none (the failure is recorded).
func (r *run) enter(ctx context.Context) (int, error) {
	var nav navOutcome
	switch {
	case r.current && r.pre != nil:
		nav.settle = r.preSettle // captured right after that settle
	case r.current:
		nav.settle = r.tab.settle(ctx, r.o.LoadTimeout)
	default:
		nav = r.tab.navigate(ctx, r.entry.String())
	}
	if nav.navErr != nil {
		reason := FailNavigationFailed
		if nav.navErr.Timeout {
			reason = FailNavigationTimeout
		}
		r.addFailure(r.failure(nil, nil, nil, reason, nav.navErr.Error(), Evidence{EvidenceObserved, "cdp", "navigation-error", nav.navErr.Reason}))
		return -1, nil
	}
	if nav.settle.stuck {
		r.stuck(ctx, nil, nil, nil, "entry page did not answer within "+r.o.ActionTimeout.String()+" (endless script?)")
		return -1, nil
	}
	var snap *snapshot
	var err error
	if r.current && r.pre != nil {
		snap, err = r.complete(ctx, r.pre)
	} else {
		snap, err = r.capture(ctx)
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
		// The document changed under the extraction (a late redirect, a
		// reload): let it settle once more and retry.
		r.tab.settle(ctx, r.o.LoadTimeout)
		snap, err = r.capture(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return -1, nil
		}
		r.stuck(ctx, nil, nil, nil, "entry state extraction failed: "+err.Error())
		return -1, nil
	}
	r.g.Metadata.EntryURL = snap.raw.URL
	r.g.Metadata.Site.EntryURL = snap.raw.URL
	idx := r.addState(snap, nil)
	sid := snap.stateID
	if nav.settle.loading {
		r.addFailure(r.failure(&sid, nil, nil, FailLoadTimeout, "the entry page never finished loading within "+r.o.LoadTimeout.String()+"; captured the DOM as it was"))
	} else if nav.settle.unstable {
		r.addFailure(r.failure(&sid, nil, nil, FailTimedOut, "the entry page kept changing for "+r.o.LoadTimeout.String()+"; captured it mid-change"))
	}
	if !sameDocument(r.entry.String(), snap.raw.URL) {
		r.addFailure(r.failure(&sid, nil, nil, FailNavigatedAway, "the entry URL ended at "+snap.raw.URL,
			Evidence{EvidenceObserved, "cdp", "requested-url", r.entry.String()}, Evidence{EvidenceObserved, "dom", "final-url", snap.raw.URL}))
	}
	r.recordPageEvents(&sid, nil, nil)
	if err := r.onState(ctx, idx); err != nil {
		return -1, err
	}
	// On a session's page the entry state was loaded once already: the
	// first click starts from it as captured rather than from a reload.
	r.untouched = r.current
	return idx, nil
}

// sameDocument compares two URLs ignoring the fragment and a bare trailing slash.
func sameDocument(a, b string) bool {
	pa, ea := url.Parse(a)
	pb, eb := url.Parse(b)
	if ea != nil || eb != nil {
		return a == b
	}
	key := func(u *url.URL) string {
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		return u.Scheme + "://" + u.Host + p + "?" + u.RawQuery
	}
	return key(pa) == key(pb)
}

// recordPageEvents turns dialogs accepted and requests blocked since the last
// drain into failed observations and evidence of the given state.
func (r *run) recordPageEvents(stateID, elementID, action *string) {
	dialogs, blocked, n := r.tab.drain()
	for _, d := range dialogs {
		r.addFailure(r.failure(stateID, elementID, action, FailDialog, "JavaScript dialog auto-accepted: "+d))
	}
	if n > 0 && stateID != nil {
		if i, ok := r.stateIndex(*stateID); ok {
			st := &r.g.States[i]
			st.Evidence = append(st.Evidence, Evidence{EvidenceObserved, "cdp", "offline-blocked-requests", strconv.Itoa(n)})
			for _, b := range blocked {
				st.Evidence = append(st.Evidence, Evidence{EvidenceObserved, "cdp", "offline-blocked-request", b})
			}
		}
	}
}

func (r *run) stateIndex(id string) (int, bool) {
	for i := range r.g.States {
		if r.g.States[i].StateID == id {
			return i, true
		}
	}
	return 0, false
}

// addState appends a captured state with its elements and failures.
func (r *run) addState(s *snapshot, openedBy *string) int {
	s.state.OpenedByEdgeID = openedBy
	r.g.States = append(r.g.States, s.state)
	r.g.Elements = append(r.g.Elements, s.elements...)
	for _, f := range s.fails {
		r.addFailure(f)
	}
	r.byHash[s.stateHash] = len(r.g.States) - 1
	r.snaps = append(r.snaps, s)
	return len(r.g.States) - 1
}

func (r *run) onState(ctx context.Context, idx int) error {
	st := r.g.States[idx]
	if r.o.OnState != nil {
		if err := r.o.OnState(ctx, r.tab.page, &st); err != nil {
			return fmt.Errorf("%w: state %s: %w", ErrOnState, st.StateID, err)
		}
	}
	if r.o.OnStateScript != nil {
		s := r.snaps[idx]
		if err := r.o.OnStateScript(ctx, r.tab.page, &st, s.script, s.scriptErr); err != nil {
			return fmt.Errorf("%w: state %s: %w", ErrOnState, st.StateID, err)
		}
	}
	return nil
}

// failure builds a FailedObservation with a deterministic id.
func (r *run) failure(stateID, elementID, action *string, reason FailReason, msg string, ev ...Evidence) FailedObservation {
	if ev == nil {
		ev = []Evidence{}
	}
	return FailedObservation{
		StateID: stateID, ElementID: elementID, ActionType: action, Reason: reason,
		Message: msg, Evidence: ev, CreatedAt: r.now(),
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (r *run) addFailure(f FailedObservation) {
	key := idOf("fail", deref(f.StateID), deref(f.ElementID), deref(f.ActionType), string(f.Reason))
	r.failIDs[key]++
	if n := r.failIDs[key]; n > 1 {
		key += "-" + strconv.Itoa(n)
	}
	f.FailedObservationID = key
	r.g.FailedObservations = append(r.g.FailedObservations, f)
}

// stuck records a page that stopped answering and replaces its tab.
func (r *run) stuck(ctx context.Context, stateID, elementID, action *string, msg string) {
	r.addFailure(r.failure(stateID, elementID, action, FailTimedOut, msg+"; the tab was closed"))
	r.tab.drain()
	r.tab.close()
	r.untouched = false
	t, err := openTab(ctx, r.b, r.tabOpts, r.origin)
	if err != nil {
		// Nothing more can be observed: the run ends with what it has.
		r.dead = true
		r.tab = &tab{browser: r.b, stop: func() {}}
		r.addFailure(r.failure(stateID, nil, nil, FailPageClosed, "could not open a replacement tab: "+err.Error()))
		return
	}
	r.tab = t
}

// finish fills the summary.
func (r *run) finish() {
	g := r.g
	s := Summary{
		States: len(g.States), Elements: len(g.Elements), Edges: len(g.Edges),
		SkippedActions: len(g.SkippedActions), FailedObservations: len(g.FailedObservations),
		FailedObservationsByReason: map[string]int{}, SkippedActionsByRiskCategory: map[string]int{}, EdgesByRiskCategory: map[string]int{},
	}
	for _, f := range g.FailedObservations {
		s.FailedObservationsByReason[string(f.Reason)]++
	}
	for _, a := range g.SkippedActions {
		s.SkippedActionsByRiskCategory[string(a.RiskCategory)]++
	}
	for _, e := range g.Edges {
		s.EdgesByRiskCategory[string(e.RiskCategory)]++
	}
	g.Summary = s
	if r.entryChecks > 0 && len(g.States) > 0 {
		if r.entryMismatches > 0 {
			g.States[0].Lifecycle = LifecycleConflicted
		} else {
			g.States[0].Lifecycle = LifecycleVerified
		}
		g.States[0].Evidence = append(g.States[0].Evidence,
			Evidence{EvidenceVerified, "explorer", "entry-resets", strconv.Itoa(r.entryChecks)},
			Evidence{EvidenceVerified, "explorer", "entry-mismatches", strconv.Itoa(r.entryMismatches)})
	}
}
