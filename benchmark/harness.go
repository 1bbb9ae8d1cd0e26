package benchmark

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/go-rod/rod"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/fixtures"
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
	// Browser is used instead of launching one (an embedder's own).
	Browser *rod.Browser
	// SkipThroughput leaves the reader/writer throughput figures out (tests).
	SkipThroughput bool
	// Now stamps the results; nil means time.Now.
	Now func() time.Time
}

// ErrNoSites is returned when Options.Sites names no fixture site.
var ErrNoSites = errors.New("benchmark: no fixture sites to run")

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
	srv, err := fixtures.Serve(ctx, names...)
	if err != nil {
		return nil, fmt.Errorf("benchmark: serve fixtures: %w", err)
	}
	defer srv.Close()

	rb := o.Browser
	if rb == nil {
		b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
		if err != nil {
			return nil, fmt.Errorf("benchmark: %w", err)
		}
		defer b.Close()
		rb = b.Rod
	}

	res := &Results{
		Command:      o.Command,
		GeneratedAt:  now().UTC().Format(time.RFC3339),
		Machine:      machineOf(rb),
		MissingTally: map[string]int{},
		BlockerTally: map[string]int{},
		Sites:        []SiteResult{},
	}
	var graphs []*shared.ActionGraph
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		url, err := srv.URL(name)
		if err != nil {
			return nil, fmt.Errorf("benchmark: %w", err)
		}
		fmt.Fprintf(progress, "[%2d/%d] %-14s mapping %s\n", i+1, len(names), name, url)
		sr, g := runSite(ctx, rb, name, url)
		if g != nil {
			graphs = append(graphs, g)
			if o.OutDir != "" {
				if err := writeOutputs(filepath.Join(o.OutDir, name), g); err != nil {
					return nil, fmt.Errorf("benchmark: %s: %w", name, err)
				}
			}
		}
		fmt.Fprintf(progress, "[%2d/%d] %-14s %d actions, %d complete, %.2fs (floor %.2fs)%s\n",
			i+1, len(names), name, sr.Actions, sr.Complete, sr.WallSeconds, sr.FloorSeconds, errSuffix(sr.Error))
		res.add(sr)
	}
	res.finish()
	if !o.SkipThroughput && len(graphs) > 0 {
		fmt.Fprintln(progress, "measuring reader and writer throughput against encoding/json")
		res.Performance.measureThroughput(graphs)
	}
	return res, nil
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " ERROR: " + e
}

// runSite maps one site and scores it. The graph is nil when mapping failed.
func runSite(ctx context.Context, b *rod.Browser, name, url string) (SiteResult, *shared.ActionGraph) {
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

	start := time.Now()
	g, err := mapSite(ctx, b, name, url)
	sr.WallSeconds = seconds(time.Since(start))
	if err != nil {
		sr.Error = err.Error()
		sr.Missed = append(sr.Missed, sr.Named...)
		return sr, nil
	}
	canonical, err := shared.Write(g)
	if err != nil {
		sr.Error = fmt.Sprintf("mapper produced an invalid graph: %v", err)
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

	pages := actionPages(url, g)
	sr.Pages = len(pages)
	floor, err := measureFloor(ctx, b, pages)
	if err != nil {
		sr.Error = fmt.Sprintf("floor measurement: %v", err)
	}
	sr.FloorSeconds = seconds(floor)
	if floor > 0 {
		sr.MapToFloor = round(sr.WallSeconds / sr.FloorSeconds)
	}
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
// pages a bare visit must load to see what the mapper saw.
func actionPages(entry string, g *shared.ActionGraph) []string {
	seen := map[string]bool{entry: true}
	pages := []string{entry}
	for _, a := range g.Actions {
		if strings.HasPrefix(a.URL, "http") && !seen[a.URL] {
			seen[a.URL] = true
			pages = append(pages, a.URL)
		}
	}
	sort.Strings(pages[1:])
	return pages
}

// measureFloor is the bare cost of seeing the pages at all: navigate, load
// and one extraction per page, in the same browser the mapper used.
func measureFloor(ctx context.Context, b *rod.Browser, pages []string) (time.Duration, error) {
	start := time.Now()
	for _, u := range pages {
		p, err := topology.OpenPage(ctx, b, u, topology.Options{Offline: true})
		if err != nil {
			return time.Since(start), err
		}
		_, err = extract.FromPage(ctx, p)
		p.Close()
		if err != nil {
			return time.Since(start), err
		}
	}
	return time.Since(start), nil
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
	r.Performance.MapSeconds += sr.WallSeconds
	r.Performance.FloorSeconds += sr.FloorSeconds
	r.Sites = append(r.Sites, sr)
}

func (r *Results) finish() {
	r.SiteMappability = ratio(r.SitesWithCompleteAction, r.SiteCount)
	r.ActionCompleteness = ratio(r.ActionsComplete, r.ActionsDetected)
	r.Agreement.Recall = ratio(r.Agreement.Found, r.Agreement.Named)
	r.Agreement.Precision = ratio(r.Agreement.Found, r.Agreement.Found+r.Agreement.Extra)
	r.Agreement.RequiredRecall = ratio(r.Agreement.RequiredFound, r.Agreement.RequiredNamed)
	r.Agreement.RequiredPrecision = ratio(r.Agreement.RequiredFound, r.Agreement.RequiredFound+r.Agreement.RequiredExtra)
	r.Performance.MapSeconds = round(r.Performance.MapSeconds)
	r.Performance.FloorSeconds = round(r.Performance.FloorSeconds)
	if r.Performance.FloorSeconds > 0 {
		r.Performance.MapToFloor = round(r.Performance.MapSeconds / r.Performance.FloorSeconds)
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

func machineOf(b *rod.Browser) Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), CPUModel: cpuModel()}
	if v, err := b.Version(); err == nil {
		m.Chromium = v.Product
	}
	return m
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

// WriteResults writes r as indented JSON to path, keeping what other
// commands recorded there when r has none: the classifier section (formeval)
// and the performance figures of benchmarks this harness does not run
// (shared's adversarial reads, the executor, the fleet).
func WriteResults(path string, r *Results) error {
	if old, err := os.ReadFile(path); err == nil {
		var prev struct {
			Classifier  json.RawMessage `json:"classifier"`
			Performance struct {
				ReaderAdversarial json.RawMessage `json:"readerAdversarial"`
				Executor          json.RawMessage `json:"executor"`
				Fleet             json.RawMessage `json:"fleet"`
			} `json:"performance"`
		}
		if json.Unmarshal(old, &prev) == nil {
			keep := func(dst *json.RawMessage, v json.RawMessage) {
				if *dst == nil {
					*dst = v
				}
			}
			keep(&r.Classifier, prev.Classifier)
			keep(&r.Performance.ReaderAdversarial, prev.Performance.ReaderAdversarial)
			keep(&r.Performance.Executor, prev.Performance.Executor)
			keep(&r.Performance.Fleet, prev.Performance.Fleet)
		}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(data, '\n'))
}
