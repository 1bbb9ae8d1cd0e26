package verifier

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/frontlatch/frontlatch/verifier/door"
)

// sandboxBy is who a run is by unless SandboxOptions.By says otherwise.
const sandboxBy = "verifier@0.1.0"

// SandboxOptions configures Sandbox. The zero value is ready to use.
type SandboxOptions struct {
	// Browser is a running Chromium to use (topology.NewBrowser, or
	// topology.Attach for a *rod.Browser of your own), so that many runs
	// share one process; each run opens its own tab and closes it. Nil launches a Chromium for
	// this run (resolving only loopback hosts, so no page can reach the
	// network through it) and closes it afterwards.
	Browser *topology.Browser
	// By is recorded as the run's author (SandboxRun.by). Default
	// "verifier@0.1.0".
	By string
	// Now is the clock: the run's time, and the day synthetic dates count
	// from (two weeks later). Default time.Now.
	Now func() time.Time
	// RunID returns the run's id. Default "sbx-" and 16 random hex digits.
	RunID func() string
	// Timeout bounds the whole run, a browser launch included. Default 90s.
	Timeout time.Duration
	// StepTimeout bounds every single browser call: an evaluation, a click,
	// a protocol command. Default 10s.
	StepTimeout time.Duration
	// NavigationTimeout bounds loading the door's page. Default 15s.
	NavigationTimeout time.Duration
	// WaitRequest is how long the sandbox waits, after the submit, for the
	// browser to send something. Default 5s.
	WaitRequest time.Duration
}

func (o SandboxOptions) withDefaults() SandboxOptions {
	if o.By == "" {
		o.By = sandboxBy
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RunID == nil {
		o.RunID = randomRunID
	}
	set := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	set(&o.Timeout, 90*time.Second)
	set(&o.StepTimeout, 10*time.Second)
	set(&o.NavigationTimeout, 15*time.Second)
	set(&o.WaitRequest, 5*time.Second)
	return o
}

func randomRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return "sbx-" + hex.EncodeToString(b[:])
}

// SandboxResult is what one sandbox run found.
type SandboxResult struct {
	// Run is the record appended to the action's verification state.
	Run shared.SandboxRun
	// Action is the action with Run appended: moved to sandbox-tested, or
	// still verified (see Sandbox).
	Action shared.Action
	// Graph is a copy of the graph given to Sandbox with Action in place;
	// the graph given is never modified.
	Graph *shared.ActionGraph
	// Door is the index in Action.Access of the door that was run: the
	// action's door (door.Of), the one the executor fires.
	Door int
	// Mapped is the door as the graph maps it.
	Mapped Door
	// Observed is what the browser sent, nil when it sent nothing.
	Observed *Door
	// Mismatch is non-nil when the browser did not do what the graph says;
	// Sandbox then also returns it as its error.
	Mismatch *MismatchError
}

// Sandbox runs one action of graph in real Chromium without letting
// anything reach the business: it opens the page of the action's door
// (door.Of: its first non-opaque html-form door, the door the executor
// fires), fills the inputs an agent may fill with
// synthetic data that meets every rule the graph states (value spaces and
// declared validations; honeypots stay empty, system tokens stay as the
// page serves them, optional checkboxes stay unticked), submits through the
// recorded submit control and intercepts, at the network layer (the Fetch
// domain), every request that would leave the page from then on. The
// submission is answered by the sandbox itself with a synthetic 200; a
// request to another origin than the graph's endpoint is failed instead.
// Until the sandbox begins filling the form, reads of the page's own static
// files (scripts, styles, images) are let through, so that the page
// renders; from the first fill on nothing is, not even such a read (a
// tracking pixel or an added script fired on an input or change event
// carries what was typed in its query): it is failed, and the note counts
// and names the reads and requests stopped before the submit.
//
// The run is recorded as a shared.SandboxRun with the outcome in the
// contract's vocabulary and a note saying what happened: intercepted,
// refused by client-side validation, blocked by a barrier the graph lists,
// refused (another origin), no request, timed out. The action comes back
// moved to sandbox-tested with the run appended. An action that is already
// verified stays verified, with the run appended to its runs: a test run is
// evidence, not the owner's word, and only the owner (revocation) or a
// changed action (Reconcile) takes a confirmation away; a failed run on a
// verified action is reported through the result and, for a mismatch, the
// error, so the caller can bring it to the owner.
//
// When the browser does not send what the graph says (another transport or
// endpoint, for example a page whose script posts JSON elsewhere, or a form
// that is not on the page) the run records what was observed
// ("observed-runtime" in its note) and Sandbox returns the result together
// with a *MismatchError (errors.Is ErrMismatch): an owner must never
// confirm a door that does not exist as mapped.
//
// Bad input changes nothing and returns no result: a nil or invalid graph
// (errors.Is ErrInvalidGraph), an unknown action id (*ActionError, errors.Is
// ErrUnknownAction), an action without a non-opaque html-form door
// (*NoFormDoorError), a page that cannot be loaded or answers with a
// server error (*SiteDownError), a browser that cannot start (topology's
// ErrChromiumNotFound / ErrLaunch), or ctx ending.
func Sandbox(ctx context.Context, graph *shared.ActionGraph, actionID string, opts SandboxOptions) (*SandboxResult, error) {
	if graph == nil {
		return nil, fmt.Errorf("verifier: sandbox: nil graph: %w", shared.ErrInvalidGraph)
	}
	// Validate, and work on a copy: the caller's graph is never touched.
	g, err := cloneGraph(graph)
	if err != nil {
		return nil, fmt.Errorf("verifier: sandbox: %w", err)
	}
	action := findAction(g, actionID)
	if action == nil {
		return nil, &ActionError{ActionID: actionID, Err: ErrUnknownAction}
	}
	access, doorIndex, err := formDoor(action)
	if err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verifier: sandbox: %w", err)
	}
	rctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	b := o.Browser
	if b == nil {
		own, err := topology.NewBrowser(rctx, topology.BrowserOptions{Offline: true, LaunchTimeout: o.NavigationTimeout + o.StepTimeout})
		if err != nil {
			return nil, fmt.Errorf("verifier: sandbox: %w", err)
		}
		defer own.Close()
		b = own
	}
	now := o.Now()
	fills := plan(action, now)
	mapped := mappedDoor(access)
	obs, err := runInBrowser(rctx, b, access, fills, action.Inputs, mapped, o)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, fmt.Errorf("verifier: sandbox: %w", ctx.Err())
	case obs != nil && rctx.Err() != nil && !errors.Is(err, ErrSiteDown):
		// The run's own Timeout, not the caller's: a finding.
		obs.timedOut = fmt.Sprintf("the run took longer than its Timeout of %s", o.Timeout)
	default:
		return nil, err
	}
	j := judge(action, mapped, fills, obs, o.WaitRequest)
	run := shared.SandboxRun{
		RunID:    o.RunID(),
		At:       shared.TimestampOf(now),
		By:       o.By,
		Outcome:  j.outcome,
		Endpoint: j.endpoint,
		Fields:   j.fields,
		Note:     &j.note,
	}
	action.Verification = withRun(action.Verification, run)
	if _, err := shared.Write(g); err != nil {
		// Our bug: a run that does not validate (an empty run id from a
		// caller's RunID, say) must not be handed back as if it did.
		return nil, fmt.Errorf("verifier: sandbox: the recorded run does not validate: %w", err)
	}
	res := &SandboxResult{Run: run, Action: *action, Graph: g, Door: doorIndex, Mapped: mapped, Mismatch: j.mismatch}
	if obs.request != nil {
		d := obs.request.door()
		res.Observed = &d
	}
	if j.mismatch != nil {
		j.mismatch.ActionID = action.ID
		return res, j.mismatch
	}
	return res, nil
}

// formDoor returns the action's door (door.Of), the one the executor
// fires, and its index, when the sandbox can run it: an html-form door that
// is not opaque.
func formDoor(a *shared.Action) (*shared.Access, int, error) {
	if ac, i := door.Of(a); door.Runnable(ac) {
		return ac, i, nil
	}
	var doors []string
	for i := range a.Access {
		ac := &a.Access[i]
		d := string(ac.Method)
		if ac.Opaque {
			d += " (opaque)"
		}
		doors = append(doors, d)
	}
	return nil, -1, &NoFormDoorError{ActionID: a.ID, Doors: doors}
}

// mappedDoor is the door as the graph states it.
func mappedDoor(ac *shared.Access) Door {
	d := Door{Transport: shared.TransportUnknown, Endpoint: ""}
	s := ac.Submission
	if s == nil {
		return d
	}
	d.Transport = s.Transport
	d.Endpoint = deref(s.Endpoint, "")
	d.ContentType = strings.ToLower(deref(s.Enctype, ""))
	switch s.Transport {
	case shared.TransportFormGet:
		d.Method, d.ContentType = "GET", ""
	case shared.TransportFormPost:
		d.Method = "POST"
		if d.ContentType == "" {
			d.ContentType = "application/x-www-form-urlencoded"
		}
	case shared.TransportJSONEndpoint:
		d.Method = "POST"
		if d.ContentType == "" {
			d.ContentType = "application/json"
		}
	}
	return d
}

// withRun appends run to a verification state: unverified (its note kept)
// and sandbox-tested become sandbox-tested; verified stays verified.
func withRun(v shared.VerificationState, run shared.SandboxRun) shared.VerificationState {
	switch s := v.(type) {
	case shared.Verified:
		s.SandboxRuns = append(append([]shared.SandboxRun{}, s.SandboxRuns...), run)
		return s
	case shared.SandboxTested:
		return shared.SandboxTested{SandboxRuns: append(append([]shared.SandboxRun{}, s.SandboxRuns...), run), Note: s.Note}
	case shared.Unverified:
		return shared.SandboxTested{SandboxRuns: []shared.SandboxRun{run}, Note: s.Note}
	}
	return shared.SandboxTested{SandboxRuns: []shared.SandboxRun{run}}
}

// verdict is what judge makes of an observation.
type verdict struct {
	outcome  shared.SandboxOutcome
	note     string
	endpoint *string
	fields   []shared.SubmittedField
	mismatch *MismatchError
}

// judge turns what the browser did into the run's outcome, note and fields.
// It is pure, so every branch is tested without a browser.
func judge(a *shared.Action, mapped Door, fills []fill, obs *observation, wait time.Duration) verdict {
	v := verdict{outcome: shared.SandboxPassed, fields: []shared.SubmittedField{}}
	var notes []string
	fail := func(o shared.SandboxOutcome) {
		// unknown never overrides failed: a failure is a finding.
		if v.outcome != shared.SandboxFailed {
			v.outcome = o
		}
	}
	mm := &MismatchError{Graph: mapped}
	if len(a.Barriers) > 0 {
		var bs []string
		for _, b := range a.Barriers {
			s := string(b.Kind)
			if b.Detail != nil && *b.Detail != "" {
				s += " (" + *b.Detail + ")"
			}
			bs = append(bs, s)
		}
		notes = append(notes, "blocked by a barrier the graph lists: "+strings.Join(bs, ", ")+"; an agent cannot pass it, so the business would refuse the submission")
		fail(shared.SandboxFailed)
	}
	if obs.status >= 400 {
		notes = append(notes, fmt.Sprintf("the door's page %s answered HTTP %d", obs.pageURL, obs.status))
		fail(shared.SandboxFailed)
	}
	switch {
	case !obs.doorFound:
		notes = append(notes, "the form was not found on the page "+obs.pageURL)
		mm.Differences = append(mm.Differences, "the form the graph maps is not on "+obs.pageURL)
		fail(shared.SandboxFailed)
	case obs.doorByForms:
		notes = append(notes, fmt.Sprintf("the graph gives the form no locator; of the page's %d forms, the one holding the most of the inputs was used", obs.doorCount))
	case obs.doorCount > 1:
		notes = append(notes, fmt.Sprintf("the form's locator matches %d elements; the first visible one was used", obs.doorCount))
	}
	if obs.submitBy != "" { // submitted without the recorded control, as the executor would
		notes = append(notes, "the run "+obs.submitHow)
	}
	var missing, unable []string
	required := map[string]bool{}
	for _, in := range a.Inputs {
		if in.Required && in.AgentFillable {
			required[in.Name] = true
		}
	}
	for _, f := range fills {
		if f.Kind == fillUnable {
			unable = append(unable, f.Name+" ("+f.Why+")")
		}
	}
	for _, r := range obs.inputs {
		if !r.Found && obs.doorFound {
			missing = append(missing, r.Name)
			if required[r.Name] {
				mm.Differences = append(mm.Differences, "the required input "+r.Name+" is not on the page")
			}
		}
	}
	if len(missing) > 0 {
		notes = append(notes, "inputs not found on the page: "+strings.Join(missing, ", "))
	}
	for _, r := range obs.inputs {
		if r.Note != "" {
			notes = append(notes, shared.Clip(r.Name, 100)+": "+shared.Clip(r.Note, 200))
		}
	}
	if len(unable) > 0 {
		notes = append(notes, "no value meets every declared rule of "+strings.Join(unable, "; "))
		fail(shared.SandboxUnknown)
	}
	switch {
	case obs.timedOut != "":
		notes = append(notes, "timed out: "+obs.timedOut)
		fail(shared.SandboxUnknown)
	case obs.request != nil:
		req := obs.request
		got := req.door()
		mm.Observed = got
		ep := boundedEndpoint(got.Endpoint)
		v.endpoint = &ep
		// The notes and differences name the endpoint shorter still, so
		// that what follows it in the note is not clipped away.
		shown := got
		shown.Endpoint = shared.Clip(ep, maxShownEndpoint)
		fields, err := req.fields()
		v.fields = fields
		if err != nil {
			notes = append(notes, "the request body could not be read field by field: "+err.Error())
		}
		if got.Transport != mapped.Transport {
			mm.Differences = append(mm.Differences, fmt.Sprintf("transport: the graph says %s, the browser sent %s", mapped.Transport, got.Transport))
		}
		if mapped.Endpoint == "" || !sameEndpoint(mapped.Endpoint, got.Endpoint, got.Transport) {
			mm.Differences = append(mm.Differences, fmt.Sprintf("endpoint: the graph says %s, the browser sent to %s", orNone(mapped.Endpoint), shown.Endpoint))
		}
		if mapped.Method != "" && got.Method != mapped.Method {
			mm.Differences = append(mm.Differences, fmt.Sprintf("method: the graph implies %s, the browser used %s", mapped.Method, got.Method))
		}
		if mapped.ContentType != "" && got.ContentType != "" && got.ContentType != mapped.ContentType && got.Method != "GET" {
			mm.Differences = append(mm.Differences, fmt.Sprintf("encoding: the graph says %s, the browser sent %s", mapped.ContentType, got.ContentType))
		}
		how := "the browser's form submission"
		if got.ByScript {
			how = "the page's script (fetch/XHR)"
		}
		if obs.refused {
			mm.Refused = true
			mm.Differences = append(mm.Differences, fmt.Sprintf("origin: the request would reach %s, not the graph's endpoint origin %s", weborigin.OfString(got.Endpoint), orNone(weborigin.OfString(mapped.Endpoint))))
			notes = append(notes, fmt.Sprintf("refused: %s would have sent %s %s to another origin (%s) than the graph's endpoint (%s); the sandbox failed the request and nothing was forwarded",
				how, got.Method, shown.Endpoint, weborigin.OfString(got.Endpoint), orNone(mapped.Endpoint)))
			fail(shared.SandboxFailed)
		} else {
			notes = append(notes, fmt.Sprintf("intercepted: %s sent %s %s%s; the sandbox answered it with a synthetic 200 and nothing reached the business",
				how, got.Method, shown.Endpoint, inParens(got.ContentType)))
		}
		if strings.Contains(obs.submitHow, "by script") {
			notes = append(notes, "the submit control is hidden or covered (a person may first have to open or close something), so the sandbox clicked it by script")
		}
		if got.ByScript || len(mm.Differences) > 0 {
			notes = append(notes, "observed-runtime: "+shown.String())
		}
		if extra := unmappedFields(a, fields); len(extra) > 0 {
			notes = append(notes, "sent but not in the graph: "+strings.Join(extra, ", "))
		}
	case len(obs.invalid) > 0:
		var parts []string
		for _, f := range obs.invalid {
			if len(parts) == 10 {
				parts = append(parts, fmt.Sprintf("and %d more", len(obs.invalid)-10))
				break
			}
			parts = append(parts, shared.Clip(f.Name, 100)+": "+shared.Clip(f.Message, 200))
		}
		notes = append(notes, "refused by client-side validation, nothing was sent: "+strings.Join(parts, "; "))
		v.fields = bounded(obs.formFields)
		fail(shared.SandboxFailed)
	case obs.doorFound && !obs.submitFound && obs.submitHow == "":
		notes = append(notes, "the submit control the graph records was not found, so nothing was submitted")
		v.fields = bounded(obs.formFields)
		fail(shared.SandboxFailed)
	case obs.doorFound:
		notes = append(notes, fmt.Sprintf("no request: the form was submitted (%s) and the browser sent nothing within %s", obs.submitHow, wait))
		v.fields = bounded(obs.formFields)
		fail(shared.SandboxFailed)
	}
	if len(obs.others) > 0 {
		notes = append(notes, fmt.Sprintf("%d other request(s) sent with it were stopped too: %s", len(obs.others), strings.Join(obs.others[:min(3, len(obs.others))], ", ")))
	}
	if obs.stopped > 0 {
		notes = append(notes, fmt.Sprintf("%d read(s) of files the page made once the sandbox began filling the form were stopped, none let through: %s", obs.stopped, strings.Join(obs.stoppedSeen, ", ")))
	}
	if obs.socketSends > 0 {
		notes = append(notes, fmt.Sprintf("the page tried to send %d message(s) over a WebSocket; the sandbox dropped them, as it cannot intercept a socket", obs.socketSends))
	}
	if len(obs.refusedConns) > 0 {
		notes = append(notes, fmt.Sprintf("the page tried to connect to %d other address(es); the sandbox refused them: %s", len(obs.refusedConns), strings.Join(obs.refusedConns[:min(3, len(obs.refusedConns))], ", ")))
	}
	if obs.early > 0 {
		notes = append(notes, fmt.Sprintf("%d request(s) the page sent before the submit were stopped too (answered by the sandbox, or failed when bound for another origin): %s", obs.early, strings.Join(obs.earlySeen, ", ")))
	}
	if len(mm.Differences) > 0 {
		fail(shared.SandboxFailed)
		v.mismatch = mm
	}
	if v.fields == nil {
		v.fields = []shared.SubmittedField{}
	}
	for i := range notes {
		notes[i] = strings.TrimRight(notes[i], ". ") // a browser's message may end its own sentence
	}
	// Everything in a note that came from the site is bounded above; the
	// whole note is too.
	v.note = shared.Clip(strings.Join(notes, ". ")+".", maxNote)
	return v
}

// maxNote bounds a run's note.
const maxNote = 4000

// unmappedFields lists the names sent that the action's inputs do not have.
func unmappedFields(a *shared.Action, fields []shared.SubmittedField) []string {
	known := map[string]bool{}
	for _, in := range a.Inputs {
		known[in.Name] = true
	}
	var out []string
	for _, f := range fields {
		if !known[f.Name] && !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func inParens(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// errTimedOut marks a browser step that ran out of time.
var errTimedOut = errors.New("timed out")
