package benchmark

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

func TestAgree(t *testing.T) {
	form := shared.Access{Method: shared.AccessHTMLForm}
	tel := shared.Access{Method: shared.AccessTelLink}
	action := func(id string, k shared.ActionKind, doors ...shared.Access) shared.Action {
		a := shared.NewAction(id, k, id, "http://x/")
		a.Access = doors
		return a
	}
	tests := []struct {
		name                 string
		expected             []fixtures.ExpectedAction
		actions              []shared.Action
		found, missed, extra int
	}{
		{"match by kind and door", []fixtures.ExpectedAction{{Kind: shared.KindBooking, Doors: []shared.AccessMethod{shared.AccessHTMLForm}}},
			[]shared.Action{action("a", shared.KindBooking, form)}, 1, 0, 0},
		{"same kind, no shared door", []fixtures.ExpectedAction{{Kind: shared.KindBooking, Doors: []shared.AccessMethod{shared.AccessHTMLForm}}},
			[]shared.Action{action("a", shared.KindBooking, tel)}, 0, 1, 1},
		{"wrong kind", []fixtures.ExpectedAction{{Kind: shared.KindQuote, Doors: []shared.AccessMethod{shared.AccessHTMLForm}}},
			[]shared.Action{action("a", shared.KindContact, form)}, 0, 1, 1},
		{"one action cannot satisfy two judgements", []fixtures.ExpectedAction{
			{Kind: shared.KindContact, Doors: []shared.AccessMethod{shared.AccessHTMLForm}},
			{Kind: shared.KindContact, Doors: []shared.AccessMethod{shared.AccessHTMLForm}}},
			[]shared.Action{action("a", shared.KindContact, form)}, 1, 1, 0},
		{"empty site, nothing mapped", nil, nil, 0, 0, 0},
		{"empty site, something mapped", nil, []shared.Action{action("a", shared.KindContact, form)}, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, m, e, _ := agree(tt.expected, tt.actions)
			got := []int{len(f), len(m), len(e)}
			if diff := cmp.Diff([]int{tt.found, tt.missed, tt.extra}, got); diff != "" {
				t.Errorf("agree (found, missed, extra) (-want +got):\n%s", diff)
			}
		})
	}
}

// Required fields agree as multisets of meanings; only required inputs an
// agent fills count on the mapped side.
func TestAgreeRequired(t *testing.T) {
	input := func(name string, s shared.SemanticType, required, fillable bool) shared.Input {
		return shared.Input{Name: name, Type: "text", Semantic: s, Required: required, AgentFillable: fillable}
	}
	judged := func(s ...shared.SemanticType) fixtures.ExpectedAction {
		return fixtures.ExpectedAction{Kind: shared.KindBooking, Required: s}
	}
	mapped := func(ins ...shared.Input) shared.Action {
		a := shared.NewAction("a", shared.KindBooking, "a", "http://x/")
		a.Inputs = ins
		return a
	}
	tests := []struct {
		name                string
		p                   pair
		named, found, extra int
		diffs               []string
	}{
		{"same meanings", pair{judged(shared.SemanticPersonName, shared.SemanticPhone),
			mapped(input("name", shared.SemanticPersonName, true, true), input("phone", shared.SemanticPhone, true, true), input("notes", shared.SemanticMessage, false, true))},
			2, 2, 0, []string{}},
		{"wrong meaning", pair{judged(shared.SemanticPersonName, shared.SemanticPreferredTimeWindow),
			mapped(input("name", shared.SemanticPersonName, true, true), input("when", shared.SemanticDate, true, true))},
			2, 1, 1, []string{"booking: missing preferred-time-window extra date (when)"}},
		{"a honeypot is not a required field", pair{judged(shared.SemanticEmail),
			mapped(input("email", shared.SemanticEmail, true, true), input("website", shared.SemanticHoneypot, true, false))},
			1, 1, 0, []string{}},
		{"two of one meaning", pair{judged(shared.SemanticPhone, shared.SemanticPhone),
			mapped(input("phone", shared.SemanticPhone, true, true))},
			2, 1, 0, []string{"booking: missing phone"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, f, e, d := agreeRequired([]pair{tt.p})
			if diff := cmp.Diff([]int{tt.named, tt.found, tt.extra}, []int{n, f, e}); diff != "" {
				t.Errorf("(named, found, extra) (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.diffs, d); diff != "" {
				t.Errorf("diffs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRatioOfEmptySetIsZero(t *testing.T) {
	if got := ratio(0, 0); got != 0 {
		t.Errorf("ratio(0, 0) = %v, want 0: an empty set must never score a vacuous 1", got)
	}
	if got := ratio(11, 15); got != 0.7333 {
		t.Errorf("ratio(11, 15) = %v, want 0.7333", got)
	}
}

func TestResultsAggregate(t *testing.T) {
	r := &Results{MissingTally: map[string]int{}, BlockerTally: map[string]int{}}
	r.add(SiteResult{Site: "a", Actions: 2, Complete: 1, Missing: map[string]int{"inputs.no_contact_channel": 1}, Named: []string{"x"}, Found: []string{"x"}, RequiredNamed: 3, RequiredFound: 2, RequiredExtra: 2, PagesOpened: 3, WallSeconds: 0.9})
	r.add(SiteResult{Site: "b", Actions: 0, Complete: 0, Named: []string{}, Extra: []string{}, PagesOpened: 1, WallSeconds: 0.3})
	r.add(SiteResult{Site: "c", Actions: 1, Complete: 0, Missing: map[string]int{"inputs.no_contact_channel": 1}, Named: []string{"y"}, Missed: []string{"y"}, Extra: []string{"z"}, PagesOpened: 2, WallSeconds: 0.6})
	r.finish(900*time.Millisecond, 2, Floor{PerPageSeconds: 0.1})
	perf := Performance{Concurrency: 2, MapSeconds: 0.9, SiteSeconds: 1.8, PagesOpened: 6, PagesPerSecond: 6.6667,
		Floor: Floor{PerPageSeconds: 0.1}, PerPageToFloor: 3, WallPerPageToFloor: 1.5}
	if diff := cmp.Diff(perf, r.Performance); diff != "" {
		t.Errorf("performance (-want +got):\n%s", diff)
	}
	want := struct {
		Sites, WithComplete, Detected, Complete int
		SiteMap, ActionComp                     float64
		Tally                                   map[string]int
		Agreement                               Agreement
	}{3, 1, 3, 1, 0.3333, 0.3333, map[string]int{"inputs.no_contact_channel": 2},
		Agreement{Named: 2, Found: 1, Missed: 1, Extra: 1, Recall: 0.5, Precision: 0.5,
			RequiredNamed: 3, RequiredFound: 2, RequiredExtra: 2, RequiredRecall: 0.6667, RequiredPrecision: 0.5}}
	got := want
	got.Sites, got.WithComplete, got.Detected, got.Complete = r.SiteCount, r.SitesWithCompleteAction, r.ActionsDetected, r.ActionsComplete
	got.SiteMap, got.ActionComp, got.Tally, got.Agreement = r.SiteMappability, r.ActionCompleteness, r.MissingTally, r.Agreement
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("aggregate (-want +got):\n%s", diff)
	}
}

// TestRunProducesValidGraphs maps two real fixture sites through Chromium
// and checks that every graph the harness records reads back as a valid 0.1
// Action Graph and that the recorded counts are the graph's own.
func TestRunProducesValidGraphs(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium")
	}
	out := t.TempDir()
	res, err := Run(context.Background(), Options{Sites: []string{"clinic01", "brochure01"}, OutDir: out, SkipThroughput: true, Concurrency: 2, Scaling: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sites) != 2 {
		t.Fatalf("got %d site results, want 2", len(res.Sites))
	}
	p := res.Performance
	if p.PagesOpened == 0 || p.Floor.Pages != len(res.Sites) || p.Floor.PerPageSeconds <= 0 || p.PerPageToFloor <= 0 {
		t.Errorf("performance lacks the floor or the pages: %+v", p)
	}
	if len(p.Scaling) != 2 || p.Scaling[0].Tabs != 1 || p.Scaling[1].Tabs != 2 {
		t.Fatalf("scaling %+v, want points at 1 and 2 tabs", p.Scaling)
	}
	for _, pt := range p.Scaling {
		// Mapping is deterministic: every level opens the same pages.
		if pt.Pages != p.PagesOpened || pt.Errors != 0 || pt.ChromiumPeakRSSMB <= 0 || pt.ProcessPeakRSSMB <= 0 || pt.PerPageToFloor <= 0 {
			t.Errorf("scaling point %+v: want %d pages, no errors, peak memory of both processes", pt, p.PagesOpened)
		}
	}
	for _, s := range res.Sites {
		if s.Error != "" {
			t.Errorf("%s: %s", s.Site, s.Error)
			continue
		}
		g, issues := shared.Read(s.Graph)
		if len(issues) > 0 {
			t.Fatalf("%s: recorded graph is invalid: %v", s.Site, issues)
		}
		rep := shared.GraphCompleteness(g)
		if rep.Actions != s.Actions || rep.Complete != s.Complete {
			t.Errorf("%s: recorded %d/%d actions complete, graph says %d/%d", s.Site, s.Complete, s.Actions, rep.Complete, rep.Actions)
		}
		onDisk, err := os.ReadFile(filepath.Join(out, s.Site, "graph.json"))
		if err != nil {
			t.Fatal(err)
		}
		if string(onDisk) != string(s.Graph) {
			t.Errorf("%s: out/graph.json differs from the graph in the results", s.Site)
		}
	}
	if s := res.Sites[1]; s.Complete != 0 {
		t.Errorf("brochure01 has no customer action, yet %d complete actions were mapped", s.Complete)
	}
}

// TestCommittedResultsValidate checks the committed benchmark/results.json:
// one entry per fixture site, and each recorded graph a valid Action Graph
// whose completeness matches the recorded counts.
func TestCommittedResultsValidate(t *testing.T) {
	data, err := os.ReadFile("results.json")
	if err != nil {
		t.Fatalf("benchmark/results.json missing: run `make run` to produce it: %v", err)
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	if diff := cmp.Diff(fixtures.Names(), siteNames(r.Sites)); diff != "" {
		t.Errorf("results.json sites differ from the fixture set (-want +got):\n%s", diff)
	}
	for _, s := range r.Sites {
		t.Run(s.Site, func(t *testing.T) {
			if s.Graph == nil {
				t.Fatalf("no graph recorded (error %q)", s.Error)
			}
			g, issues := shared.Read(s.Graph)
			if len(issues) > 0 {
				t.Fatalf("recorded graph is not a valid Action Graph: %v", issues)
			}
			rep := shared.GraphCompleteness(g)
			if rep.Actions != s.Actions || rep.Complete != s.Complete {
				t.Errorf("recorded %d/%d complete, graph says %d/%d", s.Complete, s.Actions, rep.Complete, rep.Actions)
			}
		})
	}
}

func siteNames(sites []SiteResult) []string {
	out := make([]string, len(sites))
	for i, s := range sites {
		out[i] = s.Site
	}
	return out
}

// TestScoreSiteOfAFailedSite: a site whose map failed or gave a graph that
// does not validate scores nothing: every action its SITE.md names is
// missed, so Missed stays Named - Found in the totals.
func TestScoreSiteOfAFailedSite(t *testing.T) {
	expected, err := fixtures.Expected("clinic01")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, e := range expected {
		named = append(named, describeExpected(e))
	}
	tests := []struct {
		name      string
		m         siteMap
		wantError string
	}{
		{"mapping failed", siteMap{err: errors.New("tab crashed")}, "tab crashed"},
		{"an invalid graph", siteMap{graph: &shared.ActionGraph{}}, "mapper produced an invalid graph"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr, g := scoreSite(siteJob{name: "clinic01", url: "http://127.0.0.1:1"}, tt.m, Floor{})
			if g != nil {
				t.Errorf("scoreSite returned a graph for a failed site")
			}
			if !strings.Contains(sr.Error, tt.wantError) {
				t.Errorf("Error %q, want it to say %q", sr.Error, tt.wantError)
			}
			got := struct{ Named, Found, Missed []string }{sr.Named, sr.Found, sr.Missed}
			want := struct{ Named, Found, Missed []string }{named, []string{}, named}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("agreement (-want +got):\n%s", diff)
			}
			r := &Results{MissingTally: map[string]int{}, BlockerTally: map[string]int{}}
			r.add(sr)
			if a := r.Agreement; a.Missed != a.Named-a.Found {
				t.Errorf("totals: missed %d, want named %d - found %d", a.Missed, a.Named, a.Found)
			}
		})
	}
}

// TestMeasureFloorNeedsTheLoadEvent: the floor is a navigation, the load
// event and one extraction; a page whose load event never comes is an
// error, not a floor inflated by the whole wait (which would shrink every
// ratio divided by it).
func TestMeasureFloorNeedsTheLoadEvent(t *testing.T) {
	page := hangingPage(t)
	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	f, err := measureFloor(t.Context(), b, []string{page})
	if err == nil {
		t.Fatalf("measureFloor = %+v, nil error; want an error for a page whose load event never came", f)
	}
	if !strings.Contains(err.Error(), "load event") {
		t.Errorf("error %q does not say the load event was missing", err)
	}
}

// TestMeasureFloorClosesItsTab: the floor's tab is closed however the floor
// ends — an error, or the run's context ending (the browser may be an
// embedder's, which goes on).
func TestMeasureFloorClosesItsTab(t *testing.T) {
	page := hangingPage(t)
	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before := openTabs(t, b)
	tests := []struct {
		name    string
		timeout time.Duration
	}{
		{"the page never loads", time.Minute},
		{"the run's context ends", time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), tt.timeout)
			defer cancel()
			if _, err := measureFloor(ctx, b, []string{page}); err == nil {
				t.Fatal("measureFloor: nil error for a page that never loads")
			}
			if after := openTabs(t, b); after != before {
				t.Errorf("%d tabs open after the floor, %d before: the floor's tab was left open", after, before)
			}
		})
	}
}

// hangingPage serves a page whose load event never comes (an image that
// never finishes) for the test's lifetime and returns its URL.
func hangingPage(t *testing.T) string {
	t.Helper()
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, `<!DOCTYPE html><title>slow</title><p>An image that never arrives.</p><img src="/hang" alt="">`)
		case "/hang":
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hang) }) // runs first: lets /hang return
	return srv.URL + "/"
}

// openTabs counts the browser's open pages.
func openTabs(t *testing.T, b *topology.Browser) int {
	t.Helper()
	targets, err := proto.TargetGetTargets{}.Call(b.Rod())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ti := range targets.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage {
			n++
		}
	}
	return n
}

// TestActionPages: the entry page and the pages actions live on, each page
// once — the entry is a bare origin, an action on the home page is at "/".
func TestActionPages(t *testing.T) {
	const origin = "http://127.0.0.1:41234"
	graph := func(urls ...string) *shared.ActionGraph {
		g := &shared.ActionGraph{}
		for i, u := range urls {
			g.Actions = append(g.Actions, shared.NewAction(strconv.Itoa(i), shared.KindContact, "a", u))
		}
		return g
	}
	tests := []struct {
		name  string
		entry string
		g     *shared.ActionGraph
		want  []string
	}{
		{"no action", origin, graph(), []string{origin}},
		{"an action on the home page", origin, graph(origin + "/"), []string{origin}},
		{"the entry with its slash", origin + "/", graph(origin + "/"), []string{origin + "/"}},
		{"home and an inner page", origin, graph(origin+"/", origin+"/callback/"), []string{origin, origin + "/callback/"}},
		{"two actions on one inner page", origin, graph(origin+"/quote/", origin+"/quote/"), []string{origin, origin + "/quote/"}},
		{"a fragment of the home page", origin, graph(origin + "/#book"), []string{origin}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, actionPages(tt.entry, tt.g)); diff != "" {
				t.Errorf("actionPages (-want +got):\n%s", diff)
			}
		})
	}
}
