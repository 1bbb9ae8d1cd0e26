package portal

import (
	"strings"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
)

// confirmView is the confirmation page of one action: the disclosure
// exactly as it will be recorded, what is collected, where it goes, the
// sandbox runs, and the form.
type confirmView struct {
	Action     ActionReport
	Disclosure disclosureView
	Inputs     []inputView
	Runs       []runView
	// Subject is the canonical consent subject (with the limits not yet
	// set): the exact bytes whose digest the audit record will hold.
	Subject string
	Form    formView
	// Live describes the current confirmation of a verified action, else "".
	Live string
}

// disclosureView renders shared.DisclosureOf(action.SideEffects) — the
// very value the confirmation records — plus each effect's target.
type disclosureView struct {
	Summary           string
	Effects           []effectView
	HoldsInventory    bool
	Reversible        string
	CreatesObligation bool
	TransmitsPii      bool
	ChargesMoney      bool
}

type effectView struct {
	Kind   shared.EffectKind
	Words  string
	Target string
}

type inputView struct {
	Name     string
	Label    string
	Words    string
	Required bool
	Personal bool
	// Who fills it in: the customer through the agent, the page itself, or nobody.
	Who string
}

type runView struct {
	RunID    string
	At       string
	Outcome  string
	Passed   bool
	Endpoint string
	Status   int
	Fields   []shared.SubmittedField
	Note     string
}

// formView is the confirm form: the owner's entries (echoed back after a
// refusal) and the hidden anti-forgery fields.
type formView struct {
	Action  string // the form's action URL
	CSRF    string
	Nonce   string
	Shown   string // digest of what the page shows, limits not yet set
	Name    string
	Max     string
	Per     string
	Notify  string
	Periods []periodOption
	Errors  []string
}

type periodOption struct {
	Value, Words string
	Selected     bool
}

var reversibleWords = map[shared.Reversible]string{
	shared.ReversibleTrue:    "Yes",
	shared.ReversibleFalse:   "No",
	shared.ReversibleUnknown: "We could not tell, so assume it cannot be undone",
}

// disclosureViewOf renders what the owner is shown and confirms.
func disclosureViewOf(a *shared.Action) disclosureView {
	d := shared.DisclosureOf(a.SideEffects)
	v := disclosureView{
		Summary: d.Summary, HoldsInventory: d.HoldsInventory, Reversible: words(reversibleWords, d.Reversible),
		CreatesObligation: d.CreatesObligation, TransmitsPii: d.TransmitsPii, ChargesMoney: d.ChargesMoney,
	}
	for i, k := range d.Effects {
		ev := effectView{Kind: k, Words: words(effectWords, k)}
		if t := a.SideEffects.Effects[i].Target; t != nil {
			ev.Target = *t
		}
		v.Effects = append(v.Effects, ev)
	}
	return v
}

func inputsViewOf(a *shared.Action) []inputView {
	var out []inputView
	for _, in := range a.Inputs {
		f, ok := semanticWords[in.Semantic]
		if !ok {
			f = semanticWords[shared.SemanticUnknown]
		}
		iv := inputView{Name: in.Name, Words: f.Words, Required: in.Required, Personal: f.Personal}
		if in.Label != nil {
			iv.Label = *in.Label
		}
		switch {
		case in.Semantic == shared.SemanticHoneypot:
			iv.Who, iv.Personal = "nobody: left empty", false
		case in.Semantic == shared.SemanticSystemToken || !in.AgentFillable:
			iv.Who = "the page, by itself"
		default:
			iv.Who = "the customer, through the agent"
		}
		out = append(out, iv)
	}
	return out
}

func runsViewOf(a *shared.Action) []runView {
	var out []runView
	for _, r := range verifier.SandboxRunsOf(a.Verification) {
		rv := runView{RunID: r.RunID, At: string(r.At), Outcome: words(outcomeWords, r.Outcome), Passed: r.Outcome == shared.SandboxPassed, Fields: r.Fields}
		if r.Endpoint != nil {
			rv.Endpoint = *r.Endpoint
		}
		if r.ResponseStatus != nil {
			rv.Status = *r.ResponseStatus
		}
		if r.Note != nil {
			rv.Note = *r.Note
		}
		out = append(out, rv)
	}
	return out
}

// periodOptions lists every cap period an owner may choose (all but unknown).
func periodOptions(selected string) []periodOption {
	var out []periodOption
	for _, p := range shared.CapPeriodValues() {
		if p == shared.PerUnknown {
			continue
		}
		out = append(out, periodOption{Value: string(p), Words: "per " + words(periodWords, p), Selected: string(p) == selected})
	}
	return out
}

// emptyLimits is what ConsentSubjectOf gets before the owner sets limits:
// the subject of what the page shows.
var emptyLimits = shared.ConfirmationLimits{}

// shownSubject is the consent subject of a as shown: without limits.
func shownSubject(a *shared.Action) (shared.ConsentSubject, string, string, error) {
	s := shared.ConsentSubjectOf(a, emptyLimits)
	canon, err := shared.CanonicalConsent(s)
	if err != nil {
		return s, "", "", err
	}
	d, err := shared.ConsentDigest(s)
	return s, strings.TrimSpace(string(canon)), d, err
}
