package portal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/door"
)

// Report is the readiness report of one site: what an AI agent can do there
// today, in the owner's words. BuildReport makes it from a graph; it holds
// only plain values, so the HTML templates show it and tests compare it.
type Report struct {
	GraphID     string
	SiteName    string // the site's name, or its domain when it has none
	SiteURL     string
	GeneratedAt string

	Total      int
	Complete   int
	Incomplete int
	// Live counts the actions the owner confirmed (verified).
	Live int
	// Mappability is Complete/Total as a whole percentage, 0 with no actions.
	Mappability int

	Actions []ActionReport
	// Reconfirm lists the actions whose confirmation lapsed because they
	// changed (a note starting DriftPrefix), in graph order.
	Reconfirm []Reconfirm
	// NextSteps is the site's to-do list: each distinct step once, most
	// common first, with how many actions it helps.
	NextSteps []Step
	Chart     Chart
}

// ActionReport is one action in the report.
type ActionReport struct {
	ID       string
	Label    string
	Kind     string // plain words
	Summary  string
	Status   shared.VerificationStatus
	StatusIs string // plain words
	Doors    []DoorReport
	Complete bool
	// Reasons say, one plain sentence per completeness code, why the action
	// is not complete; empty when it is.
	Reasons []Reason
	// Blockers say what stands between an agent and sending it.
	Blockers []Reason
	// NextSteps are what the owner can do about this action.
	NextSteps []string
	// Drift is the reconciliation note when the action drifted, else "".
	Drift string
	// Revoked is the revocation's note when the owner withdrew their
	// confirmation, else "".
	Revoked string
	// Unconfirmed is why the audit store does not confirm the confirmation
	// the graph file states (shared.RefusedActions), else "": the action is
	// then not live, whatever the file says.
	Unconfirmed string
	// Limits describes the confirmed limits of a live action, else "".
	Limits string
	// LastRun is the latest sandbox run in words ("passed on …"), "" with
	// none; LastRunPassed says whether it passed.
	LastRun       string
	LastRunPassed bool
}

// DoorReport is one door of an action.
type DoorReport struct {
	Method   shared.AccessMethod
	Words    string
	URL      string
	Drivable bool
	// Sends says how a submission travels, "" without a submission.
	Sends string
	// Endpoint is where a submission goes, "" when none is recorded;
	// EndpointOrigin its scheme://host[:port], and Elsewhere is true when
	// that is not the site's own origin.
	Endpoint       string
	EndpointOrigin string
	Elsewhere      bool
	Vendor         string
	// ToolName is a WebMCP door's tool, "" otherwise.
	ToolName string
	// Fires is true for the action's door (door.Of): the one an agent's
	// call goes through. At most one door of an action has it.
	Fires bool
	// Tested is true when Fires is and the safe test can run that door
	// (door.Runnable: a form); an action whose door is a WebMCP tool or an
	// endpoint alone has no safe test to show.
	Tested bool
}

// Reason is one completeness code or blocker, with its sentence.
type Reason struct {
	Code     string // as shared.Completeness reports it, detail included
	Sentence string
}

// Reconfirm is an action that needs the owner's confirmation again.
type Reconfirm struct {
	ID, Label, Note string
}

// Step is one thing to do and how many actions it helps.
type Step struct {
	Text    string
	Actions int
}

// Chart is the complete-versus-incomplete bar chart, laid out in SVG user
// units so the template only prints numbers.
type Chart struct {
	Width, Height int
	Bars          []Bar
	Label         string // the chart's text alternative
}

// Bar is one bar of the chart.
type Bar struct {
	Name      string
	Count     int
	Class     string // CSS class of the bar's fill
	X, Y      int    // the bar's top left
	BarWidth  int    // the bar's length
	BarHeight int
	LabelY    int // baseline of the text
	CountX    int // where the count is written
}

// Steps said about an action's verification state.
const (
	stepConfirm   = "Review what it does and confirm it in the owner's portal (frontlatch verify serve), setting a limit on how often agents may use it."
	stepSandbox   = "Run a safe test of it first (frontlatch verify sandbox): nothing reaches you, and you see what an agent would send."
	stepReconfirm = "It changed since you confirmed it: review it again and confirm it as it is now."
	stepFailedRun = "Read why its latest safe test did not pass (on its confirmation page) before you confirm it."
	stepNothing   = "Give customers a way to get something done on your site (a contact, booking or quote form), then scan it again."
)

// BuildReport makes the readiness report of g. It is a pure function of the
// graph and unconfirmed: completeness comes from shared.GraphCompleteness,
// every sentence from the tables in words.go. A nil graph reports an empty
// site.
//
// unconfirmed is shared.RefusedActions' answer for g: why the audit store
// does not confirm an action the graph says is verified. Each such action
// is reported as not live, with that reason, and the step to confirm it
// again. Nil takes the graph's word (for a graph the caller wrote).
func BuildReport(g *shared.ActionGraph, unconfirmed map[string]string) Report {
	var r Report
	if g == nil {
		r.Chart = chartOf(0, 0)
		r.Actions, r.Reconfirm, r.NextSteps = []ActionReport{}, []Reconfirm{}, []Step{}
		return r
	}
	r.GraphID, r.SiteURL, r.GeneratedAt = g.GraphID, g.Site.URL, string(g.GeneratedAt)
	r.SiteName = g.Site.Domain
	if g.Site.Name != nil && strings.TrimSpace(*g.Site.Name) != "" {
		r.SiteName = *g.Site.Name
	}
	site := originOf(g.Site.URL)
	gr := shared.GraphCompleteness(g)
	r.Total, r.Complete = gr.Actions, gr.Complete
	r.Incomplete = r.Total - r.Complete
	if r.Total > 0 {
		r.Mappability = r.Complete * 100 / r.Total
	}
	r.Actions, r.Reconfirm, r.NextSteps = []ActionReport{}, []Reconfirm{}, []Step{}
	stepCount := map[string]int{}
	var stepOrder []string
	for i := range g.Actions {
		a := &g.Actions[i]
		ar := actionReport(a, gr.PerAction[i].Report, site, unconfirmed[a.ID])
		if ar.Status == shared.StatusVerified {
			r.Live++
		}
		if ar.Drift != "" {
			r.Reconfirm = append(r.Reconfirm, Reconfirm{ID: a.ID, Label: a.Label, Note: ar.Drift})
		}
		for _, s := range ar.NextSteps {
			if stepCount[s] == 0 {
				stepOrder = append(stepOrder, s)
			}
			stepCount[s]++
		}
		r.Actions = append(r.Actions, ar)
	}
	for _, s := range stepOrder {
		r.NextSteps = append(r.NextSteps, Step{Text: s, Actions: stepCount[s]})
	}
	// Most common first; ties keep first appearance (a stable sort).
	for i := 1; i < len(r.NextSteps); i++ {
		for j := i; j > 0 && r.NextSteps[j].Actions > r.NextSteps[j-1].Actions; j-- {
			r.NextSteps[j], r.NextSteps[j-1] = r.NextSteps[j-1], r.NextSteps[j]
		}
	}
	if r.Total == 0 {
		r.NextSteps = append(r.NextSteps, Step{Text: stepNothing})
	}
	r.Chart = chartOf(r.Complete, r.Incomplete)
	return r
}

// actionReport is a's part of the report; unconfirmed is why the audit
// store does not confirm it, when the graph says it is verified.
func actionReport(a *shared.Action, c shared.Report, site, unconfirmed string) ActionReport {
	ar := ActionReport{
		ID: a.ID, Label: a.Label, Kind: words(kindWords, a.Kind), Summary: a.SideEffects.Summary,
		Complete: c.Complete, Doors: doorsOf(a, site),
		Reasons: []Reason{}, Blockers: []Reason{}, NextSteps: []string{},
	}
	ar.Status = shared.StatusUnverified
	if a.Verification != nil {
		ar.Status = a.Verification.Status()
	}
	if ar.Status == shared.StatusVerified && unconfirmed != "" {
		ar.Status, ar.Unconfirmed = shared.StatusUnverified, unconfirmed
	}
	ar.StatusIs = words(statusWords, ar.Status)
	next := func(s string) {
		for _, x := range ar.NextSteps {
			if x == s {
				return
			}
		}
		ar.NextSteps = append(ar.NextSteps, s)
	}
	for _, m := range c.Missing {
		code, detail := shared.MissingCodeOf(m)
		pc := missingSentences[code]
		ar.Reasons = append(ar.Reasons, Reason{Code: m, Sentence: strings.ReplaceAll(pc.Why, "{detail}", detailWords(a, code, detail))})
		next(pc.Next)
	}
	for _, b := range c.Blockers {
		pc := blockerSentences[shared.BarrierKind(strings.TrimPrefix(b, "barrier."))]
		ar.Blockers = append(ar.Blockers, Reason{Code: b, Sentence: pc.Why})
		next(pc.Next)
	}
	if runs := verifier.SandboxRunsOf(a.Verification); len(runs) > 0 {
		last := runs[len(runs)-1]
		ar.LastRun = words(outcomeWords, last.Outcome) + " on " + string(last.At)
		ar.LastRunPassed = last.Outcome == shared.SandboxPassed
		if !ar.LastRunPassed && ar.Status != shared.StatusVerified {
			next(stepFailedRun)
		}
	}
	switch v := a.Verification.(type) {
	case shared.Unverified:
		// verifier.Reconcile and verifier.Revoke say why an action went back
		// to unverified in its note.
		note := ""
		if v.Note != nil {
			note = *v.Note
		}
		switch {
		case strings.HasPrefix(note, verifier.DriftedNotePrefix):
			ar.Drift = strings.TrimSpace(strings.TrimPrefix(note, verifier.DriftedNotePrefix))
			if ar.Drift == "" {
				ar.Drift = "something you confirmed changed"
			}
			next(stepReconfirm)
		case strings.HasPrefix(note, verifier.RevokedNotePrefix):
			ar.Revoked = strings.TrimSpace(strings.TrimPrefix(note, verifier.RevokedNotePrefix))
			if ar.Revoked == "" {
				ar.Revoked = "no reason given"
			}
		case c.Complete:
			next(stepSandbox)
			next(stepConfirm)
		}
	case shared.SandboxTested:
		if c.Complete {
			next(stepConfirm)
		}
	case shared.Verified:
		if ar.Unconfirmed != "" {
			next(stepConfirm)
			break
		}
		ar.Limits = limitsWords(v.Confirmation.Limits)
	}
	return ar
}

// detailWords puts a completeness code's detail suffix into words: the
// field a code names, or "the action itself".
func detailWords(a *shared.Action, code shared.MissingCode, detail string) string {
	switch code {
	case shared.MissingInputsRequiredSemanticUnknown:
		for _, in := range a.Inputs {
			if in.Name == detail {
				return fieldName(&in)
			}
		}
		return strconv.Quote(detail)
	case shared.MissingProvenanceMissing:
		if detail == "action" {
			return "the action itself"
		}
		if n, ok := strings.CutPrefix(detail, "inputs["); ok {
			if i, err := strconv.Atoi(strings.TrimSuffix(n, "]")); err == nil && i >= 0 && i < len(a.Inputs) {
				return "the field " + fieldName(&a.Inputs[i])
			}
		}
	}
	if detail == "" {
		return "part of the action"
	}
	return strconv.Quote(detail)
}

// fieldName names an input as the customer sees it: “Label” (name).
func fieldName(in *shared.Input) string {
	if in.Label != nil && strings.TrimSpace(*in.Label) != "" && *in.Label != in.Name {
		return "“" + *in.Label + "” (" + in.Name + ")"
	}
	return "“" + in.Name + "”"
}

func limitsWords(l shared.ConfirmationLimits) string {
	var parts []string
	if vc := l.VolumeCap; vc != nil {
		times := "times"
		if vc.Max == 1 {
			times = "time"
		}
		parts = append(parts, fmt.Sprintf("at most %d %s per %s", vc.Max, times, words(periodWords, vc.Per)))
	}
	if l.Notify != nil && *l.Notify != "" {
		parts = append(parts, "you are told at "+*l.Notify)
	}
	return strings.Join(parts, "; ")
}

func doorsOf(a *shared.Action, site string) []DoorReport {
	out := []DoorReport{}
	_, fires := door.Of(a)
	for i := range a.Access {
		d := &a.Access[i]
		dr := DoorReport{Method: d.Method, Words: words(doorWords, d.Method), URL: d.URL, Drivable: drivable(*d), Fires: i == fires}
		dr.Tested = dr.Fires && door.Runnable(d)
		if d.Vendor != nil {
			dr.Vendor = *d.Vendor
		}
		if d.ToolName != nil {
			dr.ToolName = *d.ToolName
		}
		if s := d.Submission; s != nil {
			dr.Sends = words(transportWords, s.Transport)
			if s.Endpoint != nil {
				dr.Endpoint = *s.Endpoint
				dr.EndpointOrigin = originOf(*s.Endpoint)
				dr.Elsewhere = dr.EndpointOrigin != site
			}
		}
		out = append(out, dr)
	}
	return out
}

// drivable asks the contract's own first completeness condition about one
// door, by checking an action that has only that door, so the report and
// shared.Completeness cannot disagree about which doors an agent can drive.
func drivable(d shared.Access) bool {
	r := shared.Completeness(shared.Action{Access: []shared.Access{d}})
	for _, m := range r.Missing {
		if code, _ := shared.MissingCodeOf(m); code == shared.MissingAccessNoDrivableDoor {
			return false
		}
	}
	return true
}

// originOf returns the origin of an absolute URL (weborigin.OfString), or
// the URL itself when it has none (a relative or opaque one).
func originOf(raw string) string {
	if o := weborigin.OfString(raw); o != "" && o != "file://" {
		return o
	}
	return raw
}

// Chart geometry, in SVG user units.
const (
	chartWidth  = 480
	chartLabelW = 130 // room for the bar names
	chartCountW = 40  // room for the count after the longest bar
	chartBarH   = 28
	chartGap    = 14
)

func chartOf(complete, incomplete int) Chart {
	c := Chart{Width: chartWidth}
	most := max(complete, incomplete, 1)
	span := chartWidth - chartLabelW - chartCountW
	for i, b := range []struct {
		name  string
		n     int
		class string
	}{{"Complete", complete, "bar-complete"}, {"Incomplete", incomplete, "bar-incomplete"}} {
		y := chartGap + i*(chartBarH+chartGap)
		w := b.n * span / most
		c.Bars = append(c.Bars, Bar{
			Name: b.name, Count: b.n, Class: b.class, X: chartLabelW, Y: y, BarWidth: w, BarHeight: chartBarH,
			LabelY: y + chartBarH/2 + 5, CountX: chartLabelW + w + 8,
		})
	}
	c.Height = chartGap + 2*(chartBarH+chartGap)
	c.Label = fmt.Sprintf("%d of %d actions complete, %d incomplete", complete, complete+incomplete, incomplete)
	return c
}
