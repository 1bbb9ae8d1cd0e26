package mapper

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// actionSummary is the part of an action the door tests compare: what it
// is, its doors, the inputs an agent fills, its effects and barriers.
type actionSummary struct {
	Kind     shared.ActionKind
	Doors    []doorSummary
	Fillable []string // "name:semantic", required ones marked "!"
	Effects  []shared.EffectKind
	Barriers []shared.BarrierKind
}

type doorSummary struct {
	Method      shared.AccessMethod
	Transport   shared.Transport // "" when the door has no submission
	Endpoint    string           // path of the endpoint, "" when none
	Vendor      string
	Tool        string
	Opaque      bool
	Occurrences int
}

func summaryOf(g *shared.ActionGraph) []actionSummary {
	var out []actionSummary
	for _, a := range g.Actions {
		s := actionSummary{Kind: a.Kind}
		for _, d := range a.Access {
			ds := doorSummary{Method: d.Method, Opaque: d.Opaque, Occurrences: d.Occurrences}
			if d.Submission != nil {
				ds.Transport = d.Submission.Transport
				if d.Submission.Endpoint != nil {
					ds.Endpoint = pathOf(*d.Submission.Endpoint)
				}
			}
			if d.Vendor != nil {
				ds.Vendor = *d.Vendor
			}
			if d.ToolName != nil {
				ds.Tool = *d.ToolName
			}
			s.Doors = append(s.Doors, ds)
		}
		for _, in := range a.Inputs {
			if !in.AgentFillable {
				continue
			}
			n := in.Name + ":" + string(in.Semantic)
			if in.Required {
				n += "!"
			}
			s.Fillable = append(s.Fillable, n)
		}
		for _, e := range a.SideEffects.Effects {
			s.Effects = append(s.Effects, e.Kind)
		}
		sort.Slice(s.Effects, func(i, j int) bool { return s.Effects[i] < s.Effects[j] })
		for _, b := range a.Barriers {
			s.Barriers = append(s.Barriers, b.Kind)
		}
		out = append(out, s)
	}
	return out
}

// mapSite serves s and crawls it from its home page without a browser:
// every page is read from its plain-HTTP response as static markup, and
// the graph is built from those pages as Map builds it from a browser's.
func mapSite(t *testing.T, s site, mod func(*Options)) *shared.ActionGraph {
	t.Helper()
	srv := serveSite(t, s)
	return mapStatic(t, srv.URL+"/", func(o *Options) {
		o.NoExplore = true
		if mod != nil {
			mod(o)
		}
	})
}

// sprintf is fmt.Sprintf for page templates.
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
