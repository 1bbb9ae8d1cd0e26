package portal

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// pageDigests fingerprint what an action's page shows beyond its consent
// subject, so that a confirmation binds the page the owner read: the fields
// it collects (as the page lists them), its safe test runs, and the action's
// bytes with the site's address (its name, the details of its doors and
// fields, which door is on another website). The subject's digest, which
// the audit record keeps, leaves these out (docs/decisions/0003); the page
// must not, or a graph edited between the page and the click — a field
// added, a failed run recorded — would be confirmed on the old page.
//
// The action's bytes are taken without its verification state, whose runs
// are bound by Runs: a confirmation of the same action sent meanwhile (from
// another tab) changes only that state, and the next one replaces it.
type pageDigests struct {
	Inputs, Runs, Action string
}

// pageDigestsOf fingerprints the page of g.Actions[i].
func pageDigestsOf(g *shared.ActionGraph, i int) (pageDigests, error) {
	a := &g.Actions[i]
	bare := *a
	bare.Verification = shared.Unverified{}
	data, err := shared.WriteAction(&bare)
	if err != nil {
		return pageDigests{}, err
	}
	inputs, err := json.Marshal(inputsViewOf(a))
	if err != nil {
		return pageDigests{}, err
	}
	runs, err := json.Marshal(runsViewOf(a))
	if err != nil {
		return pageDigests{}, err
	}
	return pageDigests{Inputs: digestOf(inputs), Runs: digestOf(runs), Action: digestOf(append(append(data, 0), g.Site.URL...))}, nil
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// changes says, for the owner, what of the page shown (p) differs from the
// page the action would have now; explained is true when the consent
// subject's changes are listed already, which then account for a change of
// the action's bytes that neither its fields nor its runs show.
func (p pageDigests) changes(now pageDigests, explained bool) []string {
	var out []string
	if p.Inputs != now.Inputs {
		out = append(out, "the fields it collects changed since the page was shown (a field added, removed, renamed or relabelled, or who fills it in)")
	}
	if p.Runs != now.Runs {
		out = append(out, "its safe test runs changed since the page was shown (a run was recorded or removed)")
	}
	if p.Action != now.Action && len(out) == 0 && !explained {
		out = append(out, "what the page showed of this action changed since: its name, or details of its doors or fields")
	}
	return out
}
