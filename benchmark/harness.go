package benchmark

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

// Options configures Run.
type Options struct {
	// Sites limits the run to these fixture sites; empty means all fifteen.
	Sites []string
	// OutDir, when set, receives out/<site>/graph.json and every compiled
	// format of each site's graph.
	OutDir string
	// Progress receives one line per step while the run goes on (stderr in
	// the CLI); nil discards it.
	Progress io.Writer
	// Command is recorded in the results as the command that produced them.
	Command string
	// Browser is used instead of launching one (an embedder's own:
	// topology.Attach wraps a *rod.Browser).
	Browser *topology.Browser
	// SkipThroughput leaves the reader/writer throughput figures out (tests).
	SkipThroughput bool
	// Concurrency is how many sites are mapped at once, each in its own
	// reused tab (default DefaultConcurrency).
	Concurrency int
	// PerHost bounds the sites of one host (host:port) mapped at once
	// (default 1).
	PerHost int
	// Scaling also maps the whole set at each of these concurrencies and
	// records pages/s and peak memory at each (Results.Performance.Scaling).
	Scaling []int
	// Now stamps the results; nil means time.Now.
	Now func() time.Time
}

// ErrNoSites is returned when Options.Sites names no fixture site.
var ErrNoSites = errors.New("benchmark: no fixture sites to run")

// ErrDuplicateSite is returned when Options.Sites names a site twice: it
// would be mapped and counted twice in every figure.
var ErrDuplicateSite = errors.New("benchmark: a fixture site is named twice")

// Run serves the fixture set on loopback, maps every site with one browser,
// scores the graphs against completeness and each SITE.md, measures the
// floor and the contract's throughput, and returns the results. Per-site
// failures are recorded in that site's entry; the run goes on.
func Run(ctx context.Context, o Options) (*Results, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	names := o.Sites
	if len(names) == 0 {
		names = fixtures.Names()
	}
	if len(names) == 0 {
		return nil, ErrNoSites
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("%w: %q", ErrDuplicateSite, n)
		}
		seen[n] = true
	}
	srv, err := fixtures.Serve(ctx, names...)
	if err != nil {
		return nil, fmt.Errorf("benchmark: serve fixtures: %w", err)
	}
	defer srv.Close()

	rb, browserPID := o.Browser, 0
	if rb == nil {
		b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
		if err != nil {
			return nil, fmt.Errorf("benchmark: %w", err)
		}
		defer b.Close()
		rb, browserPID = b, b.PID()
	}

	res := &Results{
		Command:      o.Command,
		GeneratedAt:  now().UTC().Format(time.RFC3339),
		Machine:      machineOf(rb),
		MissingTally: map[string]int{},
		BlockerTally: map[string]int{},
		Sites:        []SiteResult{},
	}
	jobs := make([]siteJob, len(names))
	for i, name := range names {
		url, err := srv.URL(name)
		if err != nil {
			return nil, fmt.Errorf("benchmark: %w", err)
		}
		jobs[i] = siteJob{name: name, url: url}
	}
	conc := o.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	fmt.Fprintf(progress, "mapping %d sites, %d at a time\n", len(jobs), conc)
	mapStart := time.Now()
	mapped, err := mapAll(ctx, rb, jobs, conc, o.PerHost, progress)
	if err != nil {
		return nil, err
	}
	mapWall := time.Since(mapStart)

	// The physical floor, in the same browser right after mapping: one
	// reused tab, navigate + load event + one extraction, over the entry
	// page of every site (a sample of the pages mapped: measuring all of
	// them would cost as much as mapping them).
	var sample []string
	for i, m := range mapped {
		if len(m.pages) > 0 {
			sample = append(sample, jobs[i].url)
		}
	}
	fmt.Fprintf(progress, "measuring the floor: %d pages in one reused tab\n", len(sample))
	artefact := time.Now()
	floor, err := measureFloor(ctx, rb, sample)
	if err != nil {
		return nil, fmt.Errorf("benchmark: floor: %w", err)
	}
	artefacts := time.Since(artefact)
	var graphs []*shared.ActionGraph
	for i, m := range mapped {
		artefact = time.Now()
		sr, g := scoreSite(jobs[i], m, floor)
		artefacts += time.Since(artefact)
		if g != nil {
			graphs = append(graphs, g)
			if o.OutDir != "" {
				if err := writeOutputs(filepath.Join(o.OutDir, jobs[i].name), g); err != nil {
					return nil, fmt.Errorf("benchmark: %s: %w", jobs[i].name, err)
				}
			}
		}
		res.add(sr)
	}
	artefact = time.Now()
	res.finish(mapWall, conc, floor)
	if len(o.Scaling) > 0 {
		fmt.Fprintf(progress, "scaling: mapping the set at %v concurrent tabs\n", o.Scaling)
		res.Performance.Scaling, err = measureScaling(ctx, rb, browserPID, jobs, o.Scaling, o.PerHost, progress)
		if err != nil {
			return nil, err
		}
		res.Performance.ScalingNote = fmt.Sprintf("measured %s by %q, load average %.2f at the start, one browser, the %d sites mapped once per level one level after the other",
			res.GeneratedAt, o.Command, res.Machine.LoadAverage, len(jobs))
	}
	if !o.SkipThroughput && len(graphs) > 0 {
		fmt.Fprintln(progress, "measuring reader and writer throughput against encoding/json")
		res.Performance.measureThroughput(graphs)
	}
	artefacts += time.Since(artefact)
	res.Performance.ArtefactSeconds = seconds(artefacts)
	return res, nil
}

// DefaultConcurrency is how many sites the benchmark maps at once.
const DefaultConcurrency = mapper.DefaultConcurrency

// siteJob is one fixture site to map.
type siteJob struct{ name, url string }

// siteMap is what mapping one site gave.
type siteMap struct {
	graph *shared.ActionGraph
	err   error
	wall  time.Duration
	pages []string // pages opened in the browser, in order
}

// mapAll maps every job with mapper.MapAll: conc workers, each with one
// reused tab, at most perHost sites of one host at a time. Results come
// back in job order.
func mapAll(ctx context.Context, b *topology.Browser, jobs []siteJob, conc, perHost int, progress io.Writer) ([]siteMap, error) {
	urls := make([]string, len(jobs))
	for i, j := range jobs {
		urls[i] = j.url
	}
	var mu sync.Mutex
	rs, err := mapper.MapAll(ctx, urls, mapOptions(b), mapper.PoolOptions{
		Concurrency: conc, PerHost: perHost,
		Configure: func(i int, o *mapper.Options) { o.SiteSlug = jobs[i].name },
		OnStart: func(i int, u string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(progress, "[%2d/%d] %-14s mapping %s\n", i+1, len(jobs), jobs[i].name, u)
		},
		OnDone: func(i int, r mapper.Result) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(progress, "[%2d/%d] %-14s %d pages, %.2fs%s\n", i+1, len(jobs), jobs[i].name, len(r.Pages), r.Wall.Seconds(), errSuffix(errString(r.Err)))
		},
	})
	if err != nil {
		return nil, fmt.Errorf("benchmark: %w", err)
	}
	out := make([]siteMap, len(rs))
	for i, r := range rs {
		out[i] = siteMap{graph: r.Graph, err: r.Err, wall: r.Wall, pages: r.Pages}
	}
	return out, nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// scoreSite scores one mapped site. The graph is nil when mapping failed.
func scoreSite(j siteJob, m siteMap, floor Floor) (SiteResult, *shared.ActionGraph) {
	name, url := j.name, j.url
	sr := SiteResult{Site: name, URL: url, Missing: map[string]int{}, Blockers: map[string]int{},
		Named: []string{}, Found: []string{}, Missed: []string{}, Extra: []string{}}
	expected, err := fixtures.Expected(name)
	if err != nil {
		sr.Error = err.Error()
		return sr, nil
	}
	for _, e := range expected {
		sr.Named = append(sr.Named, describeExpected(e))
	}
	sr.WallSeconds = seconds(m.wall)
	sr.PagesOpened = len(m.pages)
	sr.FloorSeconds = round(floor.PerPageSeconds * float64(sr.PagesOpened))
	if sr.FloorSeconds > 0 {
		sr.MapToFloor = round(sr.WallSeconds / sr.FloorSeconds)
	}
	g := m.graph
	if m.err != nil {
		sr.Error = m.err.Error()
		sr.Missed = append(sr.Missed, sr.Named...)
		return sr, nil
	}
	canonical, err := shared.Write(g)
	if err != nil {
		sr.Error = fmt.Sprintf("mapper produced an invalid graph: %v", err)
		sr.Missed = append(sr.Missed, sr.Named...) // nothing is scored from it
		return sr, nil
	}
	sr.Graph = canonical

	rep := shared.GraphCompleteness(g)
	sr.Actions, sr.Complete, sr.Mappability = rep.Actions, rep.Complete, rep.Mappability
	// The report's tallies count actions per reason: the roadmap figure.
	sr.Missing, sr.Blockers = rep.MissingTally, rep.BlockerTally
	var pairs []pair
	sr.Found, sr.Missed, sr.Extra, pairs = agree(expected, g.Actions)
	sr.RequiredNamed, sr.RequiredFound, sr.RequiredExtra, sr.RequiredDiffs = agreeRequired(pairs)
	sr.Pages = len(actionPages(url, g))
	return sr, g
}

func describeExpected(e fixtures.ExpectedAction) string {
	doors := make([]string, len(e.Doors))
	for i, d := range e.Doors {
		doors[i] = string(d)
	}
	return fmt.Sprintf("%s via %s", e.Kind, strings.Join(doors, ","))
}

func describeAction(a shared.Action) string {
	var doors []string
	for _, ac := range a.Access {
		doors = append(doors, string(ac.Method))
	}
	return fmt.Sprintf("%s via %s (%s)", a.Kind, strings.Join(doors, ","), a.ID)
}

// pair is an expected action and the mapped action that agrees with it.
type pair struct {
	expected fixtures.ExpectedAction
	action   shared.Action
}

// agree pairs each expected action with at most one mapped action of the same
// kind sharing at least one door method. What pairs is found; expected
// actions left over are missed; mapped ones left over are extra.
func agree(expected []fixtures.ExpectedAction, actions []shared.Action) (found, missed, extra []string, pairs []pair) {
	found, missed, extra = []string{}, []string{}, []string{}
	used := make([]bool, len(actions))
	for _, e := range expected {
		match := -1
		for i, a := range actions {
			if !used[i] && a.Kind == e.Kind && sharesDoor(e.Doors, a.Access) {
				match = i
				break
			}
		}
		if match < 0 {
			missed = append(missed, describeExpected(e))
			continue
		}
		used[match] = true
		found = append(found, describeExpected(e))
		pairs = append(pairs, pair{e, actions[match]})
	}
	for i, a := range actions {
		if !used[i] {
			extra = append(extra, describeAction(a))
		}
	}
	return found, missed, extra, pairs
}

// agreeRequired compares, for each found action, the meanings of the fields
// SITE.md says a person must fill with those of the mapped action's required
// agent-fillable inputs, as multisets: named counts the judged ones, found
// those the mapper gave the same meaning, extra the mapped ones no judgement
// names. diffs says what differed, per action.
func agreeRequired(pairs []pair) (named, found, extra int, diffs []string) {
	diffs = []string{}
	for _, p := range pairs {
		want := map[shared.SemanticType]int{}
		for _, s := range p.expected.Required {
			want[s]++
		}
		named += len(p.expected.Required)
		var surplus []string
		for _, in := range p.action.Inputs {
			if !in.Required || !in.AgentFillable {
				continue
			}
			if want[in.Semantic] > 0 {
				want[in.Semantic]--
				found++
				continue
			}
			extra++
			surplus = append(surplus, string(in.Semantic)+" ("+in.Name+")")
		}
		var lacking []string
		for _, s := range p.expected.Required {
			if want[s] > 0 {
				want[s]--
				lacking = append(lacking, string(s))
			}
		}
		if len(lacking)+len(surplus) > 0 {
			d := string(p.expected.Kind) + ":"
			if len(lacking) > 0 {
				d += " missing " + strings.Join(lacking, ", ")
			}
			if len(surplus) > 0 {
				d += " extra " + strings.Join(surplus, ", ")
			}
			diffs = append(diffs, d)
		}
	}
	return named, found, extra, diffs
}

func sharesDoor(doors []shared.AccessMethod, access []shared.Access) bool {
	for _, d := range doors {
		for _, ac := range access {
			if ac.Method == d {
				return true
			}
		}
	}
	return false
}

// actionPages is the entry page plus every page an action was found on: the
// pages a bare visit must load to see what the mapper saw. Pages are
// compared as URLs: the entry is a bare origin ("http://127.0.0.1:41234",
// as fixtures.Server.URL gives it) and an action on the home page is at
// "http://127.0.0.1:41234/", one page; a fragment names no other page.
func actionPages(entry string, g *shared.ActionGraph) []string {
	seen := map[string]bool{samePage(entry): true}
	pages := []string{entry}
	for _, a := range g.Actions {
		if k := samePage(a.URL); strings.HasPrefix(a.URL, "http") && !seen[k] {
			seen[k] = true
			pages = append(pages, a.URL)
		}
	}
	sort.Strings(pages[1:])
	return pages
}

// samePage is the key under which two URLs of one page are equal: the root
// path "/" for an empty one, no fragment.
func samePage(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw
	}
	if u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// measureFloor is the physical floor of looking at pages at all: one
// reused tab of the same browser, and per page a navigation, the load
// event and one extraction Evaluate (the mapper's own extract.FromPage) —
// no settle, no second look, no new tab.
func measureFloor(ctx context.Context, b *topology.Browser, pages []string) (Floor, error) {
	f := Floor{Pages: len(pages), Method: "one reused tab of the same browser: navigate, load event, one extraction Evaluate (extract.FromPage), over each site's entry page, right after mapping"}
	if len(pages) == 0 {
		return f, nil
	}
	rb := b.Rod()
	if rb == nil {
		return f, topology.ErrBrowserClosed
	}
	p, err := rb.Context(ctx).Timeout(30 * time.Second).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return f, err
	}
	// Closed on its own context: p carries the 30 s creation timeout and
	// ctx, so a floor that outlasted either (a slow machine, an
	// interrupted run) left the tab open in the browser.
	defer func() { _ = p.Context(context.Background()).Timeout(5 * time.Second).Close() }()
	start := time.Now()
	for _, u := range pages {
		if err := p.Context(ctx).Timeout(15 * time.Second).Navigate(u); err != nil {
			return f, err
		}
		// A page whose load event does not come in time would add the
		// whole wait to the floor and shrink every ratio: an error.
		if err := p.Context(ctx).Timeout(5 * time.Second).WaitLoad(); err != nil {
			return f, fmt.Errorf("%s: waiting for the load event: %w", u, err)
		}
		if _, err := extract.FromPage(ctx, p); err != nil {
			return f, err
		}
	}
	f.Seconds = seconds(time.Since(start))
	f.PerPageSeconds = round(f.Seconds / float64(len(pages)))
	f.PerPageMs = round(1000 * f.Seconds / float64(len(pages)))
	return f, nil
}

// writeOutputs writes graph.json and every compiled format into dir. Formats
// are compiled twice: as published (verified actions only, which for a fresh
// map is none) and with --include-unverified into dir/include-unverified, so
// a first-time user sees what the tools would look like once confirmed.
func writeOutputs(dir string, g *shared.ActionGraph) error {
	data, err := shared.Write(g)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "graph.json"), data); err != nil {
		return err
	}
	for _, variant := range []struct {
		sub string
		opt compiler.Options
	}{{"", compiler.Options{}}, {"include-unverified", compiler.Options{IncludeUnverified: true}}} {
		files, err := compiler.CompileAll(g, variant.opt)
		if err != nil {
			return fmt.Errorf("compile: %w", err)
		}
		for _, f := range files {
			if err := writeFile(filepath.Join(dir, variant.sub, f.Name), f.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func (r *Results) add(sr SiteResult) {
	r.SiteCount++
	if sr.Complete > 0 {
		r.SitesWithCompleteAction++
	}
	r.ActionsDetected += sr.Actions
	r.ActionsComplete += sr.Complete
	for k, v := range sr.Missing {
		r.MissingTally[k] += v
	}
	for k, v := range sr.Blockers {
		r.BlockerTally[k] += v
	}
	r.Agreement.Named += len(sr.Named)
	r.Agreement.Found += len(sr.Found)
	r.Agreement.Missed += len(sr.Missed)
	r.Agreement.Extra += len(sr.Extra)
	r.Agreement.RequiredNamed += sr.RequiredNamed
	r.Agreement.RequiredFound += sr.RequiredFound
	r.Agreement.RequiredExtra += sr.RequiredExtra
	r.Performance.SiteSeconds += sr.WallSeconds
	r.Performance.PagesOpened += sr.PagesOpened
	r.Sites = append(r.Sites, sr)
}

func (r *Results) finish(mapWall time.Duration, conc int, floor Floor) {
	r.SiteMappability = ratio(r.SitesWithCompleteAction, r.SiteCount)
	r.ActionCompleteness = ratio(r.ActionsComplete, r.ActionsDetected)
	r.Agreement.Recall = ratio(r.Agreement.Found, r.Agreement.Named)
	r.Agreement.Precision = ratio(r.Agreement.Found, r.Agreement.Found+r.Agreement.Extra)
	r.Agreement.RequiredRecall = ratio(r.Agreement.RequiredFound, r.Agreement.RequiredNamed)
	r.Agreement.RequiredPrecision = ratio(r.Agreement.RequiredFound, r.Agreement.RequiredFound+r.Agreement.RequiredExtra)
	p := &r.Performance
	p.Concurrency = conc
	p.MapSeconds = seconds(mapWall)
	p.SiteSeconds = round(p.SiteSeconds)
	p.Floor = floor
	if p.PagesOpened > 0 && floor.PerPageSeconds > 0 {
		// Each site's wall time over its pages, against the floor per
		// page: what one page costs the mapper, inflated by the other
		// sites mapped beside it (an upper bound of the sequential cost).
		p.PerPageToFloor = round(p.SiteSeconds / float64(p.PagesOpened) / floor.PerPageSeconds)
		// The run's wall time over all pages: the throughput figure.
		p.WallPerPageToFloor = round(p.MapSeconds / float64(p.PagesOpened) / floor.PerPageSeconds)
	}
	if p.MapSeconds > 0 {
		p.PagesPerSecond = round(float64(p.PagesOpened) / p.MapSeconds)
	}
}

// ratio is a/b rounded to four places, 0 when b is 0 (an empty set scores
// nothing, never a vacuous 1).
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return round(float64(a) / float64(b))
}

func round(x float64) float64 { return math.Round(x*10000) / 10000 }

func seconds(d time.Duration) float64 { return round(d.Seconds()) }

func machineOf(b *topology.Browser) Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), CPUModel: cpuModel(), LoadAverage: loadAverage()}
	if rb := b.Rod(); rb != nil {
		if v, err := rb.Version(); err == nil {
			m.Chromium = v.Product
		}
	}
	return m
}

func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// ErrResultsFile reports a results file that exists but cannot be read as
// results: WriteResults keeps sections other commands recorded in it, so it
// does not overwrite what it cannot read.
var ErrResultsFile = errors.New("benchmark: the results file cannot be read as results (it keeps the sections other commands recorded); fix or move it")

// WriteResults writes r as indented JSON to path, keeping what other
// commands recorded there when r has none: the classifier section (formeval),
// the performance figures of benchmarks this harness does not run (shared's
// adversarial reads, the executor, the fleet, topology's confined tab),
// performance.before and the
// last --scaling measurement. A file that exists but cannot be read as
// results gives an error matching ErrResultsFile and is left as it is. The
// file is replaced whole (a temporary file renamed over it), so a reader
// never sees it half written. in itself is not changed: what the run
// prints afterwards is the run's own.
func WriteResults(path string, in *Results) error {
	r := *in // what is kept goes to the file, not into the caller's results
	old, err := os.ReadFile(path)
	switch {
	case err == nil && len(strings.TrimSpace(string(old))) > 0:
		var prev struct {
			Classifier  json.RawMessage `json:"classifier"`
			Performance struct {
				ReaderAdversarial json.RawMessage `json:"readerAdversarial"`
				Executor          json.RawMessage `json:"executor"`
				Fleet             json.RawMessage `json:"fleet"`
				Confine           json.RawMessage `json:"confine"`
				Before            json.RawMessage `json:"before"`
				Scaling           []ScalingPoint  `json:"scaling"`
				ScalingNote       string          `json:"scalingNote"`
			} `json:"performance"`
		}
		if err := json.Unmarshal(old, &prev); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrResultsFile, path, err)
		}
		keep := func(dst *json.RawMessage, v json.RawMessage) {
			if *dst == nil {
				*dst = v
			}
		}
		keep(&r.Classifier, prev.Classifier)
		keep(&r.Performance.ReaderAdversarial, prev.Performance.ReaderAdversarial)
		keep(&r.Performance.Executor, prev.Performance.Executor)
		keep(&r.Performance.Fleet, prev.Performance.Fleet)
		keep(&r.Performance.Confine, prev.Performance.Confine)
		keep(&r.Performance.Before, prev.Performance.Before)
		if r.Performance.Scaling == nil {
			r.Performance.Scaling, r.Performance.ScalingNote = prev.Performance.Scaling, prev.Performance.ScalingNote
		}
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	data, err := json.MarshalIndent(&r, "", "  ")
	if err != nil {
		return err
	}
	return replaceFile(path, append(data, '\n'))
}

// replaceFile writes data to a temporary file beside path and renames it
// over path.
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " ERROR: " + e
}
