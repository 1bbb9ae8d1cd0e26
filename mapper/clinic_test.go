package mapper

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// confTolerance is how far a confidence may drift from the committed graph
// and still be the same reading.
const confTolerance = 0.15

// TestClinic01Substance maps the clinic01 fixture site (the seed's dental
// practice) with default options — crawl, safe exploration of the "Book
// now" modal — and checks that the graph is equal in substance to the
// committed fixtures/graphs/clinic01.json and to its SITE.md table.
//
// "Equal in substance" (docs/mapper.md):
//  1. SITE.md: the mapped actions, as (kind, door methods, required
//     agent-fillable semantics), are exactly the table's rows.
//  2. clinic01.json: every committed action has a mapped action of the same
//     id and kind with, for each committed door, a door of the same method,
//     occurrences, locator, transport, endpoint path, enctype and submit
//     control; the same agent-fillable inputs (name, semantic, type,
//     required, value spaces) in order; the same effect kinds; the same
//     barrier kinds; and action, door and input confidences within
//     confTolerance. Origin and domain, timestamps, labels, evidence texts
//     and system-token inputs are ignored. Doors and actions beyond the
//     committed ones must be rows of SITE.md (check 1).
func TestClinic01Substance(t *testing.T) {
	srv, err := fixtures.ServeSite("clinic01")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	origin, err := srv.URL("clinic01")
	if err != nil {
		t.Fatal(err)
	}
	o := browserOptions(t)
	o.SiteSlug = "clinic01"
	g, err := Map(context.Background(), origin+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, g)

	t.Run("SITE.md", func(t *testing.T) {
		exp, err := fixtures.Expected("clinic01")
		if err != nil {
			t.Fatal(err)
		}
		var want, got []expectedRow
		for _, e := range exp {
			want = append(want, expectedRow{e.Kind, sortedMethods(e.Doors), sortedSemantics(e.Required)})
		}
		for _, a := range g.Actions {
			got = append(got, rowOf(a))
		}
		sortRows(want)
		sortRows(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
	})

	t.Run("clinic01.json", func(t *testing.T) {
		raw, err := os.ReadFile(filepath.Join("..", "fixtures", "graphs", "clinic01.json"))
		if err != nil {
			t.Fatal(err)
		}
		want, issues := shared.Read(raw)
		if len(issues) > 0 {
			t.Fatalf("committed graph does not read: %v", issues)
		}
		for _, wa := range want.Actions {
			ga, ok := actionByID(g, wa.ID)
			if !ok {
				t.Errorf("no action %s in %+v", wa.ID, summaryOf(g))
				continue
			}
			compareAction(t, wa, ga)
		}
	})

	t.Run("completeness", func(t *testing.T) {
		a, _ := actionByID(g, "clinic01:booking:appointment")
		r := shared.Completeness(a)
		if !r.Complete || !cmp.Equal(r.Blockers, []string{"barrier.captcha"}) {
			t.Errorf("booking completeness %+v, want complete with a captcha blocker", r)
		}
	})
}

type expectedRow struct {
	Kind     shared.ActionKind
	Doors    []shared.AccessMethod
	Required []shared.SemanticType
}

func rowOf(a shared.Action) expectedRow {
	r := expectedRow{Kind: a.Kind}
	seen := map[shared.AccessMethod]bool{}
	var doors []shared.AccessMethod
	for _, d := range a.Access {
		if !seen[d.Method] {
			seen[d.Method] = true
			doors = append(doors, d.Method)
		}
	}
	r.Doors = sortedMethods(doors)
	var req []shared.SemanticType
	for _, in := range a.Inputs {
		if in.Required && in.AgentFillable {
			req = append(req, in.Semantic)
		}
	}
	r.Required = sortedSemantics(req)
	return r
}

func sortedMethods(m []shared.AccessMethod) []shared.AccessMethod {
	out := append([]shared.AccessMethod(nil), m...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sortedSemantics(s []shared.SemanticType) []shared.SemanticType {
	out := append([]shared.SemanticType(nil), s...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sortRows(r []expectedRow) {
	sort.Slice(r, func(i, j int) bool { return r[i].Kind < r[j].Kind })
}

func actionByID(g *shared.ActionGraph, id string) (shared.Action, bool) {
	for _, a := range g.Actions {
		if a.ID == id {
			return a, true
		}
	}
	return shared.Action{}, false
}

// doorSubstance is what check 2 compares of a door.
type doorSubstance struct {
	Method        shared.AccessMethod
	Occurrences   int
	Locator       *shared.Locator
	Transport     shared.Transport
	EndpointPath  string
	Enctype       *string
	SubmitControl *shared.Locator
}

func doorOf(d shared.Access) doorSubstance {
	s := doorSubstance{Method: d.Method, Occurrences: d.Occurrences, Locator: d.Locator}
	if d.Submission != nil {
		s.Transport = d.Submission.Transport
		if d.Submission.Endpoint != nil {
			s.EndpointPath = pathOf(*d.Submission.Endpoint)
		}
		s.Enctype = d.Submission.Enctype
		s.SubmitControl = d.Submission.SubmitControl
	}
	return s
}

// inputSubstance is what check 2 compares of an agent-fillable input.
type inputSubstance struct {
	Name       string
	Semantic   shared.SemanticType
	Type       string
	Required   bool
	ValueSpace []shared.ValueSpace
}

func fillable(a shared.Action) []inputSubstance {
	var out []inputSubstance
	for _, in := range a.Inputs {
		if in.AgentFillable {
			out = append(out, inputSubstance{in.Name, in.Semantic, in.Type, in.Required, in.ValueSpace})
		}
	}
	return out
}

func effectKinds(a shared.Action) []shared.EffectKind {
	var out []shared.EffectKind
	for _, e := range a.SideEffects.Effects {
		out = append(out, e.Kind)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func barrierKinds(a shared.Action) []shared.BarrierKind {
	var out []shared.BarrierKind
	for _, b := range a.Barriers {
		out = append(out, b.Kind)
	}
	return out
}

func compareAction(t *testing.T, want, got shared.Action) {
	t.Helper()
	if want.Kind != got.Kind {
		t.Errorf("%s: kind %s, want %s", want.ID, got.Kind, want.Kind)
	}
	for _, wd := range want.Access {
		found := false
		for _, gd := range got.Access {
			if gd.Method != wd.Method {
				continue
			}
			found = true
			if diff := cmp.Diff(doorOf(wd), doorOf(gd)); diff != "" {
				t.Errorf("%s %s door (-want +got):\n%s", want.ID, wd.Method, diff)
			}
			closeConf(t, want.ID+" door", wd.Provenance.Confidence, gd.Provenance.Confidence)
		}
		if !found {
			t.Errorf("%s: no %s door", want.ID, wd.Method)
		}
	}
	if diff := cmp.Diff(fillable(want), fillable(got)); diff != "" {
		t.Errorf("%s inputs (-want +got):\n%s", want.ID, diff)
	}
	for _, wi := range want.Inputs {
		for _, gi := range got.Inputs {
			if wi.Name == gi.Name && wi.Provenance != nil && gi.Provenance != nil {
				closeConf(t, want.ID+" input "+wi.Name, wi.Provenance.Confidence, gi.Provenance.Confidence)
			}
		}
	}
	if diff := cmp.Diff(effectKinds(want), effectKinds(got)); diff != "" {
		t.Errorf("%s effects (-want +got):\n%s", want.ID, diff)
	}
	if diff := cmp.Diff(barrierKinds(want), barrierKinds(got)); diff != "" {
		t.Errorf("%s barriers (-want +got):\n%s", want.ID, diff)
	}
	if want.Provenance != nil && got.Provenance != nil {
		closeConf(t, want.ID+" action", want.Provenance.Confidence, got.Provenance.Confidence)
	}
}

func closeConf(t *testing.T, what string, want, got float64) {
	t.Helper()
	if math.Abs(want-got) > confTolerance {
		t.Errorf("%s confidence %.2f, want %.2f ± %.2f", what, got, want, confTolerance)
	}
}
