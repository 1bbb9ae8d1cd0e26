package topology

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// runGraph scans or explores path on the shared browser and checks the
// artifact against the schema and its own summary.
func runGraph(t *testing.T, mode Mode, path string, edit func(*settings)) *Graph {
	t.Helper()
	b := browserForTest(t)
	o := testOptions()
	if edit != nil {
		edit(&o)
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = siteURL(path)
	}
	var g *Graph
	var err error
	if mode == ModeExplore {
		g, err = b.Explore(context.Background(), u, o.PageOptions, o.ExploreOptions)
	} else {
		g, err = b.Scan(context.Background(), u, o.PageOptions, o.ScanOptions)
	}
	if err != nil {
		t.Fatalf("%s %s: %v", mode, path, err)
	}
	validateGraph(t, g)
	checkSummary(t, g)
	return g
}

func checkSummary(t *testing.T, g *Graph) {
	t.Helper()
	s := g.Summary
	if s.States != len(g.States) || s.Elements != len(g.Elements) || s.Edges != len(g.Edges) ||
		s.SkippedActions != len(g.SkippedActions) || s.FailedObservations != len(g.FailedObservations) {
		t.Errorf("summary counts %+v disagree with the graph", s)
	}
	n := 0
	for _, c := range s.FailedObservationsByReason {
		n += c
	}
	if n != len(g.FailedObservations) {
		t.Errorf("failedObservationsByReason sums to %d, want %d", n, len(g.FailedObservations))
	}
	ids := map[string]bool{}
	for _, e := range g.Elements {
		if ids[e.ElementID] {
			t.Errorf("duplicate elementId %s", e.ElementID)
		}
		ids[e.ElementID] = true
		for _, l := range e.Locators {
			if l.ElementID != e.ElementID {
				t.Errorf("locator %s has elementId %s, want %s", l.LocatorID, l.ElementID, e.ElementID)
			}
		}
	}
}

// element finds the element of a state by accessible name.
func element(t *testing.T, g *Graph, stateID, name string) *ActionableElement {
	t.Helper()
	for i := range g.Elements {
		e := &g.Elements[i]
		if e.StateID == stateID && e.AccessibleName == name {
			return e
		}
	}
	t.Fatalf("no element named %q in state %s", name, stateID)
	return nil
}

func failures(g *Graph, reason FailReason) []FailedObservation {
	var out []FailedObservation
	for _, f := range g.FailedObservations {
		if f.Reason == reason {
			out = append(out, f)
		}
	}
	return out
}

func hasFailureFor(g *Graph, reason FailReason, elementID string) bool {
	for _, f := range failures(g, reason) {
		if f.ElementID != nil && *f.ElementID == elementID {
			return true
		}
	}
	return false
}

func TestScanModalPage(t *testing.T) {
	g := runGraph(t, ModeScan, "/modal.html", nil)
	if len(g.States) != 1 || len(g.Edges) != 0 {
		t.Fatalf("scan: %d states, %d edges; want 1 state, 0 edges", len(g.States), len(g.Edges))
	}
	st := g.States[0]
	entry := st.StateID

	t.Run("metadata", func(t *testing.T) {
		m := g.Metadata
		got := []string{g.SchemaVersion, m.ArtifactVersion, m.RiskPolicyVersion, m.NormalizationRuleVersion, m.LocatorScoringVersion, string(m.Mode), m.InputFingerprint}
		want := []string{"0.2", "topology-graph-v0.2", "risk-policy-v0.2", "normalization-v0.2", "locator-scoring-v0.2", "scan", InputFingerprint(m.InputURL, ModeScan)}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("metadata field %d = %q, want %q", i, got[i], want[i])
			}
		}
		if !strings.HasPrefix(m.CrawlSessionID, "crawl-") || m.RuntimeContext.BrowserEngine != "chromium" {
			t.Errorf("crawlSessionId %q, engine %q", m.CrawlSessionID, m.RuntimeContext.BrowserEngine)
		}
	})
	t.Run("state", func(t *testing.T) {
		if st.Title != "Smile Dental" || st.Language != "en" || st.Route != "/modal.html" {
			t.Errorf("title %q language %q route %q", st.Title, st.Language, st.Route)
		}
		for _, h := range []string{st.StateHash, st.DOMHash, st.VisibleTextHash, st.ActionableSignatureHash} {
			if len(h) != 16 {
				t.Errorf("hash %q: want 16 hex digits", h)
			}
		}
		if len(st.ModalStack) != 0 || st.OpenedByEdgeID != nil {
			t.Errorf("entry state: modal stack %v, openedBy %v", st.ModalStack, st.OpenedByEdgeID)
		}
	})
	t.Run("locators", func(t *testing.T) {
		tests := []struct {
			name     string
			strategy LocatorStrategy
			expr     string
		}{
			{"Book now", StrategyRole, "getByRole('button', { name: 'Book now', exact: true })"},
			{"Delete account", StrategyTestID, "getByTestId('delete-account')"},
			{"About us", StrategyRole, "getByRole('link', { name: 'About us', exact: true })"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				e := element(t, g, entry, tc.name)
				best := e.Locators[0]
				if best.Strategy != tc.strategy || best.Expression != tc.expr || !best.Verified || best.MatchCount != 1 {
					t.Errorf("best locator = %s %q verified=%v matchCount=%d; want %s %q verified, 1 match",
						best.Strategy, best.Expression, best.Verified, best.MatchCount, tc.strategy, tc.expr)
				}
				for i := 1; i < len(e.Locators); i++ {
					a, b := e.Locators[i-1], e.Locators[i]
					if a.Verified == b.Verified && a.Score > b.Score {
						t.Errorf("locators not ranked: %s (%v) before %s (%v)", a.Strategy, a.Score, b.Strategy, b.Score)
					}
				}
			})
		}
	})
	t.Run("parameter surface and context", func(t *testing.T) {
		name := element(t, g, entry, "Your name")
		ps := name.ParameterSurface
		if ps == nil || !ps.Required || ps.MaxLength == nil || *ps.MaxLength != 80 || ps.Autocomplete == nil || *ps.Autocomplete != "name" {
			t.Fatalf("Your name parameter surface = %+v", ps)
		}
		if name.Label == nil || *name.Label != "Your name" {
			t.Errorf("label = %v", name.Label)
		}
		if name.Context.Dialog == nil || name.Context.Dialog.Name != "Book an appointment" || name.Context.Form == nil || name.Context.Form.Selector != "#booking-form" {
			t.Errorf("context = dialog %+v form %+v", name.Context.Dialog, name.Context.Form)
		}
		day := element(t, g, entry, "Preferred day")
		if day.ParameterSurface == nil || len(day.ParameterSurface.Options) != 3 || day.ParameterSurface.Options[1].Label != "Monday" {
			t.Errorf("select options = %+v", day.ParameterSurface)
		}
		home := element(t, g, entry, "Home")
		if home.Context.Landmark == nil || home.Context.Landmark.Role != "navigation" || home.Context.Landmark.Name != "Main" {
			t.Errorf("Home landmark = %+v", home.Context.Landmark)
		}
	})
	t.Run("failed observations", func(t *testing.T) {
		upgrade := element(t, g, entry, "Upgrade plan")
		if !hasFailureFor(g, FailDisabled, upgrade.ElementID) || upgrade.Interactability.Enabled {
			t.Errorf("disabled Upgrade plan: no disabled failure (enabled=%v)", upgrade.Interactability.Enabled)
		}
		name := element(t, g, entry, "Your name")
		if !hasFailureFor(g, FailHidden, name.ElementID) || name.Interactability.Visible {
			t.Errorf("input in the closed modal: no hidden failure")
		}
	})
}

func TestExploreModalPage(t *testing.T) {
	g := runGraph(t, ModeExplore, "/modal.html", nil)
	entry := g.States[0]
	if entry.Lifecycle != LifecycleVerified {
		t.Errorf("entry lifecycle %s, want verified after matching resets", entry.Lifecycle)
	}
	var modal *StateNode
	for i := range g.States {
		if len(g.States[i].ModalStack) == 1 {
			modal = &g.States[i]
		}
	}
	if modal == nil {
		t.Fatalf("no state with the booking modal open among %d states", len(g.States))
	}
	if m := modal.ModalStack[0]; m.Role != "dialog" || m.AccessibleName != "Book an appointment" || !m.AriaModal {
		t.Errorf("modal stack = %+v", m)
	}
	book := element(t, g, entry.StateID, "Book now")
	var opened *ActionEdge
	for i := range g.Edges {
		if g.Edges[i].ElementID == book.ElementID {
			opened = &g.Edges[i]
		}
	}
	if opened == nil || opened.ToStateID == nil || *opened.ToStateID != modal.StateID || modal.OpenedByEdgeID == nil || *modal.OpenedByEdgeID != opened.EdgeID {
		t.Fatalf("Book now edge = %+v; want it to open state %s", opened, modal.StateID)
	}
	if opened.RiskCategory != RiskDisclosure || opened.RiskLevel != RiskLow {
		t.Errorf("Book now risk = %s/%s, want disclosure/low", opened.RiskCategory, opened.RiskLevel)
	}
	kinds := map[EffectType]bool{}
	for _, e := range opened.Effects {
		kinds[e.Type] = true
	}
	if !kinds[EffectActionableInventory] || !kinds[EffectVisibleText] || kinds[EffectURL] {
		t.Errorf("Book now effects = %+v; want inventory and text changes, no URL change", opened.Effects)
	}
	// Inside the open modal the submit button is now visible and refused.
	req := element(t, g, modal.StateID, "Request booking")
	skipped := map[string]string{}
	for _, s := range g.SkippedActions {
		skipped[s.ElementID] = s.Reason
	}
	tests := []struct {
		state, name, reason string
	}{
		{entry.StateID, "Delete account", "blocked:destructive"},
		{entry.StateID, "Log in", "blocked:auth"},
		{entry.StateID, "Partner site", "blocked:external"},
		{entry.StateID, "Call 02 9123 4567", "blocked:external"},
		{modal.StateID, "Request booking", "blocked:submit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := element(t, g, tc.state, tc.name)
			if got := skipped[e.ElementID]; got != tc.reason {
				t.Errorf("skip reason = %q, want %q", got, tc.reason)
			}
			for _, ed := range g.Edges {
				if ed.ElementID == e.ElementID {
					t.Errorf("refused element %q was clicked (edge %s)", tc.name, ed.EdgeID)
				}
			}
		})
	}
	if req.Context.Dialog == nil {
		t.Errorf("Request booking has no dialog anchor")
	}
	if g.Summary.SkippedActionsByRiskCategory["destructive"] != 1 {
		t.Errorf("skippedActionsByRiskCategory = %v", g.Summary.SkippedActionsByRiskCategory)
	}
}

func TestScanFormInjectedByScript(t *testing.T) {
	g := runGraph(t, ModeScan, "/injected.html", nil)
	entry := g.States[0].StateID
	phone := element(t, g, entry, "Phone")
	ps := phone.ParameterSurface
	if ps == nil || ps.Type != "tel" || !ps.Required || ps.Pattern == nil || *ps.Pattern != "[0-9 +]{8,}" {
		t.Fatalf("Phone surface = %+v", ps)
	}
	jobs := element(t, g, entry, "Jobs")
	if p := jobs.ParameterSurface; p == nil || p.Min == nil || *p.Min != "1" || p.Max == nil || *p.Max != "9" || p.Type != "number" {
		t.Errorf("Jobs surface = %+v", p)
	}
	if f := phone.Context.Form; f == nil || f.Name != "Quote request" {
		t.Errorf("Phone form anchor = %+v", f)
	}
}

func TestScanDuplicateForms(t *testing.T) {
	g := runGraph(t, ModeScan, "/duplicate.html", nil)
	entry := g.States[0].StateID
	var emails []ActionableElement
	for _, e := range g.Elements {
		if e.StateID == entry && e.AccessibleName == "Email" {
			emails = append(emails, e)
		}
	}
	if len(emails) != 2 {
		t.Fatalf("%d Email inputs, want 2", len(emails))
	}
	for _, e := range emails {
		if !hasFailureFor(g, FailAmbiguous, e.ElementID) {
			t.Errorf("%s: no ambiguous failure for a label shared by two forms", e.ElementID)
		}
		best := e.Locators[0]
		if best.Strategy != StrategyScoped || !best.Verified || best.MatchCount != 1 || len(best.Scopes) != 1 || best.Scopes[0].Kind != "form" {
			t.Errorf("%s best locator = %s %q (verified %v, %d matches); want a verified form-scoped locator",
				e.ElementID, best.Strategy, best.Expression, best.Verified, best.MatchCount)
		}
		for _, l := range e.Locators {
			if l.Strategy == StrategyRole && (l.Verified || l.MatchCount != 2) {
				t.Errorf("unscoped role locator: verified %v, %d matches; want unverified, 2", l.Verified, l.MatchCount)
			}
		}
	}
	if emails[0].ElementID == emails[1].ElementID {
		t.Errorf("duplicate forms share element id %s", emails[0].ElementID)
	}
}

func TestScanCoveredButton(t *testing.T) {
	g := runGraph(t, ModeScan, "/covered.html", nil)
	b := element(t, g, g.States[0].StateID, "Show offers")
	if b.Interactability.ReceivesEvents || b.Interactability.ObscuredBy == nil || *b.Interactability.ObscuredBy != "#wall" {
		t.Errorf("interactability = %+v; want covered by #wall", b.Interactability)
	}
	if !hasFailureFor(g, FailCovered, b.ElementID) {
		t.Errorf("no covered failure for %s", b.ElementID)
	}
}

func TestOnStateInitScriptsAndOpenPage(t *testing.T) {
	b := browserForTest(t)
	var seen []string
	g := runGraph(t, ModeExplore, "/modal.html", func(o *settings) {
		o.InitScripts = []string{`window.__frontlatch = 'init-ran';`}
		o.OnState = func(ctx context.Context, p *rod.Page, st *StateNode) error {
			res, err := p.Context(ctx).Timeout(5 * time.Second).Eval(`() => window.__frontlatch + '|' + document.querySelectorAll('[role=dialog].open').length`)
			if err != nil {
				return err
			}
			seen = append(seen, st.StateID+"="+res.Value.Str())
			return nil
		}
	})
	if len(seen) != len(g.States) {
		t.Fatalf("OnState ran %d times for %d states: %v", len(seen), len(g.States), seen)
	}
	for i, st := range g.States {
		want := st.StateID + "=init-ran|" + map[bool]string{true: "1", false: "0"}[len(st.ModalStack) > 0]
		if seen[i] != want {
			t.Errorf("OnState %d saw %q, want %q (page must still be in the state)", i, seen[i], want)
		}
	}

	t.Run("error aborts", func(t *testing.T) {
		boom := errors.New("boom")
		o := testOptions()
		o.OnState = func(context.Context, *rod.Page, *StateNode) error { return boom }
		_, err := b.Scan(context.Background(), siteURL("/plain.html"), o.PageOptions, o.ScanOptions)
		if !errors.Is(err, boom) || !errors.Is(err, ErrOnState) {
			t.Errorf("err = %v, want ErrOnState wrapping boom", err)
		}
	})
	t.Run("OpenPage", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p, err := b.OpenPage(ctx, siteURL("/dialogs.html"), testOptions().PageOptions)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Timeout(5 * time.Second).Close()
		res, err := p.Timeout(5 * time.Second).Eval(`() => document.title`)
		if err != nil || res.Value.Str() != "Dialogs" {
			t.Errorf("title = %v, %v; want Dialogs (alerts must not block)", res, err)
		}
		o := testOptions()
		o.NavigationTimeout = 2 * time.Second
		_, err = b.OpenPage(ctx, siteURL("/never-answers"), o.PageOptions)
		var ne *NavigationError
		if !errors.Is(err, ErrNavigation) || !errors.As(err, &ne) || !ne.Timeout {
			t.Errorf("OpenPage(never-answers) err = %v, want a timeout NavigationError", err)
		}
	})
}

// TestBadInput: every public entry point turns bad input into a typed error
// (errors.Is) instead of a panic or a hang.
func TestBadInput(t *testing.T) {
	nb := Attach(nil) // URL and option checks come before the browser is used
	for _, u := range []string{"ftp://example.com/", "not a url", "/relative/path", "http://", "", "http://exa mple.com/"} {
		t.Run("url "+u, func(t *testing.T) {
			for name, call := range map[string]func() error{
				"Scan": func() error { _, err := nb.Scan(context.Background(), u, PageOptions{}, ScanOptions{}); return err },
				"Explore": func() error {
					_, err := nb.Explore(context.Background(), u, PageOptions{}, ExploreOptions{})
					return err
				},
				"OpenPage": func() error { _, err := nb.OpenPage(context.Background(), u, PageOptions{}); return err },
			} {
				if err := call(); !errors.Is(err, ErrInvalidURL) {
					t.Errorf("%s(%q) err = %v, want ErrInvalidURL", name, u, err)
				}
			}
		})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	const site = "http://127.0.0.1:1/"
	var nilBrowser *Browser
	tests := []struct {
		name    string
		call    func() error
		want    error
		browser bool // needs the shared Chromium
	}{
		{"Scan on Attach(nil)", func() error { _, err := nb.Scan(context.Background(), site, PageOptions{}, ScanOptions{}); return err }, ErrNilBrowser, false},
		{"Explore on a nil *Browser", func() error {
			_, err := nilBrowser.Explore(context.Background(), site, PageOptions{}, ExploreOptions{})
			return err
		}, ErrNilBrowser, false},
		{"OpenPage on Attach(nil)", func() error { _, err := nb.OpenPage(context.Background(), site, PageOptions{}); return err }, ErrNilBrowser, false},
		{"NewSession on Attach(nil)", func() error { _, err := nb.NewSession(context.Background(), PageOptions{}); return err }, ErrNilBrowser, false},
		{"OpenPage invalid URL", func() error { _, err := nb.OpenPage(context.Background(), "mailto:a@b.c", PageOptions{}); return err }, ErrInvalidURL, false},
		{"NewBrowser cancelled", func() error { _, err := NewBrowser(cancelled, BrowserOptions{}); return err }, context.Canceled, false},
		{"NewBrowser missing binary", func() error {
			_, err := NewBrowser(context.Background(), BrowserOptions{Bin: "/nonexistent/chromium"})
			return err
		}, ErrChromiumNotFound, false},
		{"NewBrowser dead control URL", func() error {
			_, err := NewBrowser(context.Background(), BrowserOptions{ControlURL: "ws://127.0.0.1:1/devtools/browser/x", LaunchTimeout: 5 * time.Second})
			return err
		}, ErrLaunch, false},
		{"Scan cancelled", func() error {
			_, err := testBrowser.Scan(cancelled, site, PageOptions{}, ScanOptions{})
			return err
		}, context.Canceled, true},
		{"Explore cancelled", func() error {
			_, err := testBrowser.Explore(cancelled, site, PageOptions{}, ExploreOptions{})
			return err
		}, context.Canceled, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.browser {
				browserForTest(t)
			}
			if err := tt.call(); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want errors.Is %v", err, tt.want)
			}
		})
	}
}

// TestOptionsRefused: a value no default stands for is an *OptionsError
// naming the field, from every entry point that takes it, before any
// browser is touched; zero values are the documented defaults.
func TestOptionsRefused(t *testing.T) {
	nb := Attach(nil) // an ErrNilBrowser would mean the options were not checked first
	const site = "http://127.0.0.1:1/"
	ctx := context.Background()
	tests := []struct {
		field string
		call  func() error
	}{
		{"PageOptions.ActionTimeout", func() error {
			_, err := nb.OpenPage(ctx, site, PageOptions{ActionTimeout: -time.Second})
			return err
		}},
		{"PageOptions.NavigationTimeout", func() error {
			_, err := nb.Scan(ctx, site, PageOptions{NavigationTimeout: -1}, ScanOptions{})
			return err
		}},
		{"PageOptions.LoadTimeout", func() error {
			_, err := nb.NewSession(ctx, PageOptions{LoadTimeout: -time.Second})
			return err
		}},
		{"PageOptions.Settle", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{Settle: -time.Millisecond}, ExploreOptions{})
			return err
		}},
		{"PageOptions.Viewport", func() error {
			_, err := nb.OpenPage(ctx, site, PageOptions{Viewport: Viewport{Width: 800}})
			return err
		}},
		{"ScanOptions.RunTimeout", func() error {
			_, err := nb.Scan(ctx, site, PageOptions{}, ScanOptions{RunTimeout: -time.Second})
			return err
		}},
		{"ScanOptions.MaxElements", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{}, ExploreOptions{ScanOptions: ScanOptions{MaxElements: -1}})
			return err
		}},
		{"ExploreOptions.MaxStates", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{}, ExploreOptions{MaxStates: -1})
			return err
		}},
		{"ExploreOptions.MaxEdges", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{}, ExploreOptions{MaxEdges: -5})
			return err
		}},
		{"ExploreOptions.MaxDepth", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{}, ExploreOptions{MaxDepth: -1})
			return err
		}},
		{"ExploreOptions.ExploreOnly", func() error {
			_, err := nb.Explore(ctx, site, PageOptions{}, ExploreOptions{ExploreOnly: []RiskCategory{RiskDisclosure, "clicky"}})
			return err
		}},
		{"BrowserOptions.LaunchTimeout", func() error {
			_, err := NewBrowser(ctx, BrowserOptions{LaunchTimeout: -time.Second})
			return err
		}},
		{"BrowserOptions.ControlURL", func() error {
			_, err := NewBrowser(ctx, BrowserOptions{ControlURL: "127.0.0.1:9222"})
			return err
		}},
		{"BrowserOptions.Bin", func() error {
			_, err := NewBrowser(ctx, BrowserOptions{ControlURL: "ws://127.0.0.1:9222/devtools/browser/x", Bin: DefaultChromium})
			return err
		}},
		{"BrowserOptions.Offline", func() error {
			_, err := NewBrowser(ctx, BrowserOptions{ControlURL: "ws://127.0.0.1:9222/devtools/browser/x", Offline: true})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			err := tt.call()
			var oe *OptionsError
			if !errors.Is(err, ErrInvalidOptions) || !errors.As(err, &oe) {
				t.Fatalf("err = %v, want an *OptionsError", err)
			}
			if oe.Field != tt.field {
				t.Errorf("OptionsError.Field = %q, want %q (%v)", oe.Field, tt.field, err)
			}
		})
	}
	t.Run("zero values are the defaults", func(t *testing.T) {
		got := settings{}.withDefaults()
		want := settings{
			PageOptions: PageOptions{ActionTimeout: 5 * time.Second, NavigationTimeout: 15 * time.Second, LoadTimeout: 5 * time.Second,
				Settle: 50 * time.Millisecond, Viewport: Viewport{Width: 1280, Height: 800}, Locale: "en-US", Timezone: "UTC"},
			ExploreOptions: ExploreOptions{ScanOptions: ScanOptions{MaxElements: 1500, RunTimeout: 2 * time.Minute}, MaxStates: 50, MaxEdges: 200, MaxDepth: 2},
		}
		if got.PageOptions.Validate() != nil || got.ExploreOptions.Validate() != nil {
			t.Errorf("the defaults do not validate")
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(ScanOptions{}, "OnState")); diff != "" {
			t.Errorf("defaults (-want +got):\n%s", diff)
		}
	})
}

// TestControlURL: a Chromium another program runs, reached by its DevTools
// WebSocket URL or its http://host:port, runs scans; closing the connection
// leaves it running.
func TestControlURL(t *testing.T) {
	own := browserForTest(t)
	ws, err := url.Parse(own.wsURL)
	if err != nil || ws.Host == "" {
		t.Fatalf("the launched browser's DevTools URL %q: %v", own.wsURL, err)
	}
	for _, control := range []string{own.wsURL, "http://" + ws.Host} {
		t.Run(control, func(t *testing.T) {
			ctx := context.Background()
			b, err := NewBrowser(ctx, BrowserOptions{ControlURL: control, LaunchTimeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if b.PID() != 0 {
				t.Errorf("PID of a connected browser = %d, want 0", b.PID())
			}
			o := testOptions()
			g, err := b.Scan(ctx, siteURL("/plain.html"), o.PageOptions, o.ScanOptions)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.States) != 1 || len(g.Elements) == 0 {
				t.Errorf("%d states, %d elements; want 1 state with elements", len(g.States), len(g.Elements))
			}
			if err := b.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if _, err := (proto.BrowserGetVersion{}).Call(own.Rod().Timeout(5 * time.Second)); err != nil {
				t.Errorf("the running browser did not survive closing the connection: %v", err)
			}
		})
	}
	t.Run("http URL that is no browser", func(t *testing.T) {
		_, err := NewBrowser(context.Background(), BrowserOptions{ControlURL: testSite.URL, LaunchTimeout: 5 * time.Second})
		if !errors.Is(err, ErrLaunch) {
			t.Errorf("err = %v, want ErrLaunch", err)
		}
	})
}

// TestAttach: a browser the caller runs, wrapped by Attach, runs scans
// like one NewBrowser launched; closing the wrapper leaves it running.
func TestAttach(t *testing.T) {
	own := browserForTest(t).Rod()
	b := Attach(own)
	if b.PID() != 0 {
		t.Errorf("PID of an attached browser = %d, want 0 (it was not launched here)", b.PID())
	}
	o := testOptions()
	g, err := b.Scan(context.Background(), siteURL("/plain.html"), o.PageOptions, o.ScanOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.States) != 1 || len(g.Elements) == 0 {
		t.Errorf("scan on the attached browser: %d states, %d elements; want 1 state with elements", len(g.States), len(g.Elements))
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := b.Scan(context.Background(), siteURL("/plain.html"), o.PageOptions, o.ScanOptions); !errors.Is(err, ErrBrowserClosed) {
		t.Errorf("Scan after Close: %v, want ErrBrowserClosed", err)
	}
	if b.Rod() != nil {
		t.Errorf("Rod() after Close is not nil")
	}
	if _, err := (proto.BrowserGetVersion{}).Call(own.Timeout(5 * time.Second)); err != nil {
		t.Errorf("the caller's browser did not survive closing its wrapper: %v", err)
	}
}

func TestExploreOnlyNarrows(t *testing.T) {
	g := runGraph(t, ModeExplore, "/modal.html", func(o *settings) {
		o.ExploreOnly = []RiskCategory{RiskDisclosure, RiskDestructive}
	})
	for _, e := range g.Edges {
		if e.RiskCategory != RiskDisclosure {
			t.Errorf("edge %s has category %s; only disclosure was asked for", e.EdgeID, e.RiskCategory)
		}
	}
	reasons := map[string]string{}
	for _, s := range g.SkippedActions {
		reasons[s.ElementID] = s.Reason
	}
	entry := g.States[0].StateID
	if got := reasons[element(t, g, entry, "About us").ElementID]; got != "excluded:navigation" {
		t.Errorf("About us skip reason = %q, want excluded:navigation", got)
	}
	// ExploreOnly cannot widen the policy.
	if got := reasons[element(t, g, entry, "Delete account").ElementID]; got != "blocked:destructive" {
		t.Errorf("Delete account skip reason = %q, want blocked:destructive", got)
	}
}
