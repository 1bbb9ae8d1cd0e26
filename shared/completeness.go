package shared

import (
	"fmt"
	"strings"
)

// Completeness and executability are different questions. Complete is a
// property of our knowledge — do we hold a full, faithful map of an action?
// Executable is a property of the owner's consent (AssertLiveExecutionAllowed).
// A perfectly mapped action on a site whose owner has never heard of us is
// complete and not executable.
//
// The definition below is governed: docs/decisions/0001-completeness.md
// records it, and changing it needs a new decision, because the mappability
// figure decides whether the product continues.

// Report says whether one action is completely mapped and, if not, why.
type Report struct {
	// Complete is true exactly when Missing is empty.
	Complete bool `json:"complete"`
	// Missing lists every unmet condition as a MissingCode, some with a
	// ":<detail>" suffix (inputs.required_semantic_unknown:<input name>,
	// provenance.missing:action or provenance.missing:inputs[<index>]).
	// It is never nil.
	Missing []string `json:"missing"`
	// Blockers lists "barrier.<kind>" once per barrier kind present, in
	// order of first appearance. Blockers do not affect completeness. It is
	// never nil.
	Blockers []string `json:"blockers"`
	// Score is the number of the seven conditions that are unmet: 0 means
	// complete, 7 means nothing holds. Several codes of one condition (two
	// inputs without provenance) count once.
	Score int `json:"score"`
}

// ActionReport is one action's Report within a GraphReport.
type ActionReport struct {
	ID     string `json:"id"`
	Report Report `json:"report"`
}

// GraphReport rolls completeness up for one site.
type GraphReport struct {
	// Actions is the number of actions in the graph; Complete how many of
	// them are complete.
	Actions  int `json:"actions"`
	Complete int `json:"complete"`
	// Mappability is Complete/Actions, and 0 for a graph with no actions:
	// a site where nothing was found is not a fully mapped site.
	Mappability float64 `json:"mappability"`
	// PerAction holds every action's report, in graph order.
	PerAction []ActionReport `json:"perAction"`
	// MissingTally counts, per MissingCode without its detail suffix, the
	// actions that miss it: an action with three inputs lacking provenance
	// counts once under "provenance.missing". This is the roadmap figure.
	MissingTally map[string]int `json:"missingTally"`
	// MissingDetailTally counts the actions per full code, suffix included
	// ("provenance.missing:inputs[2]").
	MissingDetailTally map[string]int `json:"missingDetailTally"`
	// BlockerTally counts the actions per blocker ("barrier.captcha").
	BlockerTally map[string]int `json:"blockerTally"`
}

// MissingCodeOf splits a Report.Missing entry into its code and its detail
// suffix (empty when there is none).
func MissingCodeOf(missing string) (code MissingCode, detail string) {
	c, d, _ := strings.Cut(missing, ":")
	return MissingCode(c), d
}

// completenessConditions are the seven conditions, in the seed's order.
// Each returns the codes of its failures; no codes means the condition holds.
var completenessConditions = [...]func(a *Action) []string{
	condDrivableDoor,
	condUsableSubmission,
	condAgentFillableInput,
	condRequiredSemanticsKnown,
	condContactChannel,
	condEffectsStated,
	condProvenance,
}

// Completeness reports whether our map of a is complete, per the seven
// conditions of the contract, returning every reason rather than a bool:
//
//  1. A door we can drive: a door that is not opaque and whose method is
//     html-form, webmcp-tool or documented-endpoint. tel-link,
//     mailto-link, scheduler-widget, link-to-page and unknown doors are
//     not drivable; a phone link alone does not make an action complete.
//     Missing: access.no_drivable_door.
//  2. A usable way to send it, through at least one drivable door (checked
//     only when condition 1 holds): a submission is recorded
//     (submission.unknown otherwise); its transport is not javascript-only
//     (submission.javascript_only) nor none, unknown or one that does not
//     fit the door (submission.unknown); an html-form posted as form-post
//     or form-get has a submit control (submission.no_submit_control); a
//     json-endpoint transport or a documented-endpoint door names its
//     endpoint, and a webmcp-tool door names its tool (submission.unknown).
//     When no drivable door is usable, the codes of all of them are listed.
//  3. At least one input an agent may fill: agentFillable and not a
//     honeypot or system token (inputs.none_agent_fillable).
//  4. No required input whose semantic type is unknown
//     (inputs.required_semantic_unknown:<input name>, one per input).
//  5. A way to reach the customer back: an agent-fillable input whose
//     semantic type is email or phone (inputs.no_contact_channel).
//  6. Consequences stated: at least one effect and no effect of kind
//     unknown (effects.unknown). reversible: "unknown" does not count
//     against completeness; it is part of what the owner confirms.
//  7. Provenance on the action and on every input
//     (provenance.missing:action, provenance.missing:inputs[<index>]).
//
// A value outside its vocabulary counts as unknown. Barriers are reported
// apart as Blockers and do not affect Complete or Score.
func Completeness(a Action) Report {
	r := Report{Missing: []string{}, Blockers: []string{}}
	for _, cond := range completenessConditions {
		if codes := cond(&a); len(codes) > 0 {
			r.Missing = append(r.Missing, codes...)
			r.Score++
		}
	}
	seen := map[string]bool{}
	for _, b := range a.Barriers {
		kind := b.Kind
		if !kind.Valid() {
			kind = BarrierUnknown
		}
		code := "barrier." + string(kind)
		if !seen[code] {
			seen[code] = true
			r.Blockers = append(r.Blockers, code)
		}
	}
	r.Complete = len(r.Missing) == 0
	return r
}

// GraphCompleteness runs Completeness over every action of g and rolls the
// reports up: counts, Mappability (0 for no actions) and tallies. A nil
// graph reports like a graph with no actions.
func GraphCompleteness(g *ActionGraph) GraphReport {
	gr := GraphReport{
		PerAction:          []ActionReport{},
		MissingTally:       map[string]int{},
		MissingDetailTally: map[string]int{},
		BlockerTally:       map[string]int{},
	}
	if g == nil {
		return gr
	}
	for _, a := range g.Actions {
		r := Completeness(a)
		gr.PerAction = append(gr.PerAction, ActionReport{ID: a.ID, Report: r})
		gr.Actions++
		if r.Complete {
			gr.Complete++
		}
		bare := map[string]bool{}
		full := map[string]bool{}
		for _, m := range r.Missing {
			code, _ := MissingCodeOf(m)
			bare[string(code)] = true
			full[m] = true
		}
		for c := range bare {
			gr.MissingTally[c]++
		}
		for c := range full {
			gr.MissingDetailTally[c]++
		}
		for _, b := range r.Blockers {
			gr.BlockerTally[b]++
		}
	}
	if gr.Actions > 0 {
		gr.Mappability = float64(gr.Complete) / float64(gr.Actions)
	}
	return gr
}

// drivableDoor reports whether condition 1 counts d as a door we can drive.
func drivableDoor(d *Access) bool {
	if d.Opaque {
		return false
	}
	switch d.Method {
	case AccessHTMLForm, AccessWebMCPTool, AccessDocumentedEndpoint:
		return true
	}
	return false
}

func condDrivableDoor(a *Action) []string {
	for i := range a.Access {
		if drivableDoor(&a.Access[i]) {
			return nil
		}
	}
	return []string{string(MissingAccessNoDrivableDoor)}
}

func condUsableSubmission(a *Action) []string {
	var codes []string
	drivable := false
	for i := range a.Access {
		d := &a.Access[i]
		if !drivableDoor(d) {
			continue
		}
		drivable = true
		code := submissionProblem(d)
		if code == "" {
			return nil
		}
		codes = appendOnce(codes, string(code))
	}
	if !drivable {
		return nil // condition 1 already says why; nothing to send through
	}
	return codes
}

// submissionProblem returns why a drivable door's submission is not usable,
// or "" when it is.
func submissionProblem(d *Access) MissingCode {
	s := d.Submission
	if s == nil {
		return MissingSubmissionUnknown
	}
	switch s.Transport {
	case TransportJavascriptOnly:
		return MissingSubmissionJavascriptOnly
	case TransportFormPost, TransportFormGet:
		switch d.Method {
		case AccessHTMLForm:
			if s.SubmitControl == nil || blank(s.SubmitControl.Value) {
				return MissingSubmissionNoSubmitControl
			}
			return ""
		case AccessDocumentedEndpoint:
			return requireText(s.Endpoint)
		}
	case TransportJSONEndpoint:
		if d.Method == AccessHTMLForm || d.Method == AccessDocumentedEndpoint {
			return requireText(s.Endpoint)
		}
	case TransportWebMCPExecute:
		if d.Method == AccessWebMCPTool {
			return requireText(d.ToolName)
		}
	}
	// none, unknown, a value outside the vocabulary, or a transport that
	// does not fit the door: we do not know how to send it.
	return MissingSubmissionUnknown
}

func requireText(s *string) MissingCode {
	if s == nil || blank(*s) {
		return MissingSubmissionUnknown
	}
	return ""
}

// agentInput reports whether an agent may be offered in.
func agentInput(in *Input) bool {
	return in.AgentFillable && in.Semantic != SemanticHoneypot && in.Semantic != SemanticSystemToken
}

func condAgentFillableInput(a *Action) []string {
	for i := range a.Inputs {
		if agentInput(&a.Inputs[i]) {
			return nil
		}
	}
	return []string{string(MissingInputsNoneAgentFillable)}
}

func condRequiredSemanticsKnown(a *Action) []string {
	var codes []string
	for _, in := range a.Inputs {
		if in.Required && (in.Semantic == SemanticUnknown || !in.Semantic.Valid()) {
			codes = appendOnce(codes, string(MissingInputsRequiredSemanticUnknown)+":"+in.Name)
		}
	}
	return codes
}

func condContactChannel(a *Action) []string {
	for i := range a.Inputs {
		in := &a.Inputs[i]
		if agentInput(in) && (in.Semantic == SemanticEmail || in.Semantic == SemanticPhone) {
			return nil
		}
	}
	return []string{string(MissingInputsNoContactChannel)}
}

func condEffectsStated(a *Action) []string {
	if len(a.SideEffects.Effects) == 0 {
		return []string{string(MissingEffectsUnknown)}
	}
	for _, e := range a.SideEffects.Effects {
		if e.Kind == EffectUnknown || !e.Kind.Valid() {
			return []string{string(MissingEffectsUnknown)}
		}
	}
	return nil
}

func condProvenance(a *Action) []string {
	var codes []string
	if !hasProvenance(a.Provenance) {
		codes = append(codes, string(MissingProvenanceMissing)+":action")
	}
	for i := range a.Inputs {
		if !hasProvenance(a.Inputs[i].Provenance) {
			codes = append(codes, fmt.Sprintf("%s:inputs[%d]", MissingProvenanceMissing, i))
		}
	}
	return codes
}

// hasProvenance treats a provenance without a valid method as absent: it
// says nothing about how the belief was formed.
func hasProvenance(p *Provenance) bool {
	return p != nil && p.Method.Valid()
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
