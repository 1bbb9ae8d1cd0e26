package verifier

// The browser half of a sandbox run: open the door's page through
// topology's launcher, intercept every request from then on (Fetch
// domain), fill, click, and wait for what the browser sends.

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/frontlatch/frontlatch/topology/weborigin"
)

//go:embed sandbox.js
var sandboxSource string

// sandboxJS is the in-page half of a run: sandbox.js with topology's pierce
// helpers (package pagejs, shared with the executor) inlined, so that the
// shadow-including locators the mapper writes for a form inside an open
// shadow root resolve.
var sandboxJS = pagejs.MustInline(sandboxSource)

// observation is what the browser did during one run.
type observation struct {
	pageURL     string
	status      int // HTTP status of the door's page (0 when unknown)
	doorFound   bool
	doorCount   int  // the elements the door's locator names, or without one the forms of the page
	doorByForms bool // the door has no locator: the form holding the most of the inputs was used
	inputs      []inputResult
	submitFound bool
	submitHow   string // how the submit was triggered ("" when it was not)
	submitBy    string // "" by the recorded control, else the fill's submitBy (see submitHow)
	request     *interceptedRequest
	refused     bool // the request went to another origin and was failed
	invalid     []invalidField
	formFields  []shared.SubmittedField
	socketSends int // WebSocket messages the page tried to send (all dropped)
	// refusedConns are the connections to other origins the tab's proxy
	// refused (a WebSocket's among them).
	refusedConns []string
	others       []string // other requests sent after the submit (all stopped)
	timedOut     string   // what timed out ("" when nothing did)
	// stopped are the reads of static files stopped from the moment the
	// sandbox began filling the form (before the submit and after it);
	// stoppedSeen names the first of them.
	stopped     int
	stoppedSeen []string
	// early are the submission-like requests stopped before the submit
	// (answered, or failed when bound for another origin); earlySeen names
	// the first of them.
	early     int
	earlySeen []string
}

type inputResult struct {
	Name  string `json:"name"`
	Found bool   `json:"found"`
	Count int    `json:"count"`
	Value string `json:"value"`
	Note  string `json:"note"`
}

type invalidField struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// fillSpec is the argument of the in-page fill.
type fillSpec struct {
	Door   *shared.Locator `json:"door"`
	Inputs []fillInput     `json:"inputs"`
	Submit *shared.Locator `json:"submit"`
}

type fillInput struct {
	Name    string          `json:"name"`
	Kind    fillKind        `json:"kind"`
	Value   string          `json:"value"`
	Locator *shared.Locator `json:"locator"`
}

type fillReport struct {
	DoorFound     bool          `json:"doorFound"`
	DoorCount     int           `json:"doorCount"`
	Inputs        []inputResult `json:"inputs"`
	SubmitFound   bool          `json:"submitFound"`   // a control to press, or a form to submit
	SubmitBy      string        `json:"submitBy"`      // "" the recorded control, "default" the form's default button, "disabled" or "none": requestSubmit
	SubmitVisible bool          `json:"submitVisible"` // and not covered: the mouse can click it
	SubmitX       float64       `json:"submitX"`
	SubmitY       float64       `json:"submitY"`
}

// The sandbox's own answers. They say what they are, to a person who sees
// them in a screenshot or a log.
const (
	syntheticPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Frontlatch sandbox</title>` +
		`<p>Intercepted by the Frontlatch sandbox: nothing was sent to the business.</p></html>`
	syntheticJSON = `{"ok":true,"sandbox":"frontlatch","note":"intercepted: nothing was sent to the business"}`
)

// route is what the sandbox does with one paused request.
type route int

const (
	routePass   route = iota // a read of the page's own files: let it through
	routeBlock               // a read from elsewhere: fail it quietly
	routeAnswer              // a submission-like request: answer it ourselves
	routeRefuse              // a submission-like request to another origin: fail it and record it
)

// routeRequest decides the fate of a request. Submission-like means
// anything that is not a plain read of a static file: a document
// navigation, fetch/XHR, beacons, event sources, preflights, and any
// method but GET and HEAD. Those never reach the server; one bound for
// another origin than the graph's endpoint (endpointOrigin, or the page's
// when the graph states none) is failed rather than answered. Once the
// sandbox has begun filling the form (filling) not even a static read
// goes through: a tracking pixel's or an added script's query could carry
// what was typed, on an input or change event as much as after the submit.
func routeRequest(method, rawURL string, rt proto.NetworkResourceType, pageOrigin, endpointOrigin string, filling bool) route {
	for _, s := range []string{"data:", "blob:", "about:", "chrome-error:", "chrome-extension:"} {
		if strings.HasPrefix(rawURL, s) {
			return routePass
		}
	}
	origin := weborigin.OfString(rawURL)
	m := strings.ToUpper(method)
	static := m == "GET" || m == "HEAD"
	switch rt {
	case proto.NetworkResourceTypeDocument, proto.NetworkResourceTypeXHR, proto.NetworkResourceTypeFetch,
		proto.NetworkResourceTypePing, proto.NetworkResourceTypeEventSource, proto.NetworkResourceTypePreflight,
		proto.NetworkResourceTypeWebSocket, proto.NetworkResourceTypeOther, proto.NetworkResourceTypeCSPViolationReport:
		static = false
	}
	if static {
		if origin == pageOrigin && !filling {
			return routePass
		}
		return routeBlock
	}
	allowed := endpointOrigin
	if allowed == "" {
		allowed = pageOrigin
	}
	if origin != allowed {
		return routeRefuse
	}
	return routeAnswer
}

// phase is how far a run has got, which decides what its interception
// lets through.
type phase int

const (
	phaseLoad   phase = iota // the page is loaded: its own static reads go through
	phaseFill                // the form is being filled: nothing goes through
	phaseSubmit              // the form is submitted: nothing goes through, submission-like requests are collected
)

// interceptor answers paused requests and collects the submission-like
// ones sent after the submit.
//
// A request's fate is decided, and counted, when its Fetch.requestPaused
// event reaches the event loop (decide), by the phase at that moment; only
// the answer to the browser is sent from a goroutine of its own. The run
// moves the phase forward before the step that starts it (the fill's
// evaluation, the click), so a request the page makes in reaction to that
// step is paused after the step was sent and its event finds the new phase:
// what goes through never depends on when a goroutine gets to run. A
// request of the load whose event comes late is stopped too (the safe
// side). Which side of the submit a request fired by the fill falls on is
// not so sure (an image starts loading after the script that set its
// source has returned), so the reads stopped are counted together from the
// fill on.
type interceptor struct {
	page           *rod.Page
	step           time.Duration
	pageOrigin     string
	endpointOrigin string

	mu          sync.Mutex
	phase       phase
	early       int      // submission-like requests before the submit
	earlySeen   []string // the first of them
	stopped     int      // static reads stopped since filling began
	stoppedSeen []string // the first of them
	after       []paused // submission-like requests after the submit, in order
	first       chan struct{}
}

// maxCollected bounds the requests kept after the submit.
const maxCollected = 32

// maxSeen bounds the stopped requests named of each kind.
const maxSeen = 3

type paused struct {
	req     interceptedRequest
	refused bool
}

// beginFill is called before the form is filled: from then on not even a
// read of the page's own files goes through.
func (ic *interceptor) beginFill() { ic.moveTo(phaseFill) }

// arm is called before the submit: the submission-like requests are
// collected from then on.
func (ic *interceptor) arm() { ic.moveTo(phaseSubmit) }

func (ic *interceptor) moveTo(p phase) {
	ic.mu.Lock()
	ic.phase = max(ic.phase, p)
	ic.mu.Unlock()
}

// decide takes, by the phase now, the fate of a request just paused,
// records it, and returns the answer to send to the browser.
func (ic *interceptor) decide(e *proto.FetchRequestPaused) (reply func()) {
	p := ic.page.Timeout(ic.step)
	r := e.Request
	fail := func() {
		_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(p)
	}
	ic.mu.Lock()
	defer ic.mu.Unlock()
	ph := ic.phase
	switch routeRequest(r.Method, r.URL, e.ResourceType, ic.pageOrigin, ic.endpointOrigin, ph >= phaseFill) {
	case routePass:
		return func() { _ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(p) }
	case routeBlock:
		// A read from elsewhere as the page loads is not the business's;
		// every read once filling has begun is counted, its own included.
		if ph >= phaseFill {
			ic.stopped++
			ic.stoppedSeen = seen(ic.stoppedSeen, r.Method, r.URL)
		}
		return fail
	case routeRefuse:
		ic.record(e, true, ph)
		return fail
	}
	ic.record(e, false, ph)
	body, ct := syntheticJSON, "application/json"
	if e.ResourceType == proto.NetworkResourceTypeDocument {
		body, ct = syntheticPage, "text/html; charset=utf-8"
	}
	return func() {
		_ = proto.FetchFulfillRequest{
			RequestID:       e.RequestID,
			ResponseCode:    200,
			ResponseHeaders: []*proto.FetchHeaderEntry{{Name: "Content-Type", Value: ct}, {Name: "Cache-Control", Value: "no-store"}},
			Body:            []byte(body),
		}.Call(p)
	}
}

// seen appends a request's description to list, up to maxSeen.
func seen(list []string, method, url string) []string {
	if len(list) >= maxSeen {
		return list
	}
	return append(list, method+" "+shared.Clip(url, 120))
}

// closeSandboxTab ends a run's tab without letting any of its requests
// out. Disabling the Fetch domain would continue every request still
// paused, and a closing page still sends: a pagehide or unload handler's
// beacon or keepalive fetch (analytics send a form that way), which
// outlives the tab and its interception. So, while the interception still
// answers, the tab is sealed (topology.Seal: its scripts stopped, every
// URL blocked at the network layer), closed through the browser (which
// works even when the page is stuck) and its end awaited; only then does
// the event loop stop, leaving Fetch enabled on a session that is gone.
// (TestSandboxNothingLeaksAsTheTabCloses)
func closeSandboxTab(rb *rod.Browser, page *rod.Page, step time.Duration, stopHijack context.CancelFunc) {
	defer stopHijack()
	sctx, scancel := context.WithTimeout(context.Background(), min(step, topology.SealTimeout))
	_ = topology.Seal(sctx, page) // a tab that cannot be sealed is closed all the same
	scancel()
	ctx, cancel := context.WithTimeout(context.Background(), step)
	defer cancel()
	gone := rb.Context(ctx).WaitEvent(&proto.TargetTargetDestroyed{TargetID: page.TargetID})
	if _, err := (proto.TargetCloseTarget{TargetID: page.TargetID}).Call(rb.Context(ctx)); err == nil {
		gone()
	}
}

// record keeps a submission-like request paused after the submit (ph) and
// signals the first; one before it is counted. ic.mu is held.
func (ic *interceptor) record(e *proto.FetchRequestPaused, refused bool, ph phase) {
	if ph < phaseSubmit {
		ic.early++
		ic.earlySeen = seen(ic.earlySeen, e.Request.Method, e.Request.URL)
		return
	}
	if len(ic.after) >= maxCollected {
		return
	}
	ic.after = append(ic.after, paused{req: requestOf(e), refused: refused})
	if len(ic.after) == 1 {
		close(ic.first)
	}
}

// collected returns the requests kept after the submit.
func (ic *interceptor) collected() []paused {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	return append([]paused(nil), ic.after...)
}

func requestOf(e *proto.FetchRequestPaused) interceptedRequest {
	r := e.Request
	ir := interceptedRequest{Method: r.Method, URL: r.URL, ResourceType: string(e.ResourceType)}
	for k, v := range r.Headers {
		if strings.EqualFold(k, "content-type") {
			ir.ContentType = v.String()
		}
	}
	switch {
	case len(r.PostDataEntries) > 0:
		for _, pe := range r.PostDataEntries {
			ir.Body = append(ir.Body, pe.Bytes...)
		}
	case r.PostData != "":
		ir.Body = []byte(r.PostData)
	case r.HasPostData:
		ir.BodyMissing = true
	}
	return ir
}

// runInBrowser performs the run on b. It returns an error only for what is
// not a finding: the page could not be loaded, the browser broke, ctx ended.
func runInBrowser(ctx context.Context, b *topology.Browser, ac *shared.Access, fills []fill, inputs []shared.Input, mapped Door, o SandboxOptions) (*observation, error) {
	obs := &observation{pageURL: ac.URL}
	// The tab's connections go through a proxy that reaches the page's
	// origin and the endpoint's only, and it has no WebRTC
	// (topology.Confined): the interception below sees the page's
	// requests, not its WebSockets, whose handshake (its URL) went
	// wherever the page said.
	origins := []string{weborigin.OfString(ac.URL)}
	if eo := weborigin.OfString(mapped.Endpoint); eo != "" && eo != origins[0] {
		origins = append(origins, eo)
	}
	confined, err := b.Confine(ctx, origins...)
	if err != nil {
		return nil, fmt.Errorf("verifier: sandbox: open %s: %w", ac.URL, err)
	}
	defer confined.Close() // after the tab is closed (deferred below)
	page, err := confined.OpenPage(ctx, ac.URL, topology.PageOptions{
		ActionTimeout: o.StepTimeout, NavigationTimeout: o.NavigationTimeout,
	})
	switch {
	case errors.Is(err, topology.ErrNavigation), errors.Is(err, topology.ErrPageStuck):
		return nil, &SiteDownError{URL: ac.URL, Err: err}
	case err != nil:
		return nil, fmt.Errorf("verifier: sandbox: open %s: %w", ac.URL, err)
	}
	rb := b.Rod()
	if rb == nil { // closed since the page opened: the page went with it
		return nil, fmt.Errorf("verifier: sandbox: %w", topology.ErrBrowserClosed)
	}
	// The page's requests are never let go (see closeSandboxTab): Fetch is
	// enabled here, by the sandbox, so that the event loop below, when it
	// stops, does not disable it.
	hctx, stopHijack := context.WithCancel(context.Background())
	defer closeSandboxTab(rb, page, o.StepTimeout, stopHijack)

	eval := func(what string, args ...any) (string, error) {
		res, err := page.Context(ctx).Timeout(o.StepTimeout).Evaluate(rod.Eval(sandboxJS, args...).ByUser())
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				return "", fmt.Errorf("%s: %w (the page stopped responding for %s)", what, errTimedOut, o.StepTimeout)
			}
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return res.Value.Str(), nil
	}
	// evalInto runs a step whose answer is JSON and decodes it into v: an
	// answer that does not decode is sandbox.js out of step with this file,
	// reported as the step's failure, never read as zeros.
	evalInto := func(what string, v any, args ...any) error {
		out, err := eval(what, args...)
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(out), v); err != nil {
			return fmt.Errorf("%s: the page script's answer does not decode: %w", what, err)
		}
		return nil
	}
	var st struct {
		Status int    `json:"status"`
		URL    string `json:"url"`
	}
	if err := evalInto("read the page status", &st, "status", nil); err != nil {
		return stepFailed(ctx, obs, err)
	}
	obs.status = st.Status
	if st.Status >= 500 {
		return nil, &SiteDownError{URL: ac.URL, Status: st.Status}
	}
	if st.URL != "" {
		obs.pageURL = st.URL
	}

	// From here on every request that would leave the page is intercepted.
	ic := &interceptor{page: page, step: o.StepTimeout, pageOrigin: weborigin.OfString(obs.pageURL),
		endpointOrigin: weborigin.OfString(mapped.Endpoint), first: make(chan struct{})}
	// What was stopped before the submit goes into every observation this
	// run returns (before the tab is closed: deferred after it).
	defer ic.report(obs)
	if err := (proto.FetchEnable{}).Call(page.Context(ctx).Timeout(o.StepTimeout)); err != nil {
		return stepFailed(ctx, obs, fmt.Errorf("intercept the page's requests: %w", err))
	}
	wait := page.Context(hctx).EachEvent(func(e *proto.FetchRequestPaused) {
		// Decided here, as the event comes; answered on the side.
		reply := ic.decide(e)
		go reply()
	})
	go wait()
	// A service worker would see the page's requests first and could send
	// them on by itself, out of this tab's interception: bypass it, or do
	// not run at all.
	for _, call := range []func(proto.Client) error{
		proto.NetworkEnable{}.Call,
		proto.NetworkSetBypassServiceWorker{Bypass: true}.Call,
	} {
		if err := call(page.Context(ctx).Timeout(o.StepTimeout)); err != nil {
			return stepFailed(ctx, obs, fmt.Errorf("bypass the page's service workers: %w", err))
		}
	}

	// Without a locator the door is the form, in any open tree, holding the
	// most of the inputs (pagejs's doorOf, as the executor picks it).
	spec := fillSpec{Inputs: []fillInput{}, Door: ac.Locator}
	if ac.Submission != nil {
		spec.Submit = ac.Submission.SubmitControl
	}
	locators := map[string]*shared.Locator{}
	for i := range inputs {
		if _, ok := locators[inputs[i].Name]; !ok {
			locators[inputs[i].Name] = inputs[i].Locator
		}
	}
	for _, f := range fills {
		fi := fillInput{Name: f.Name, Kind: f.Kind, Value: f.Value, Locator: locators[f.Name]}
		spec.Inputs = append(spec.Inputs, fi)
	}
	// From the first fill on nothing reaches the site: the page's
	// handlers of input and change events may send what is typed.
	ic.beginFill()
	var rep fillReport
	if err := evalInto("fill the form", &rep, "fill", spec); err != nil {
		return stepFailed(ctx, obs, err)
	}
	obs.doorFound, obs.doorCount, obs.inputs, obs.submitFound = rep.DoorFound, rep.DoorCount, rep.Inputs, rep.SubmitFound
	obs.doorByForms = spec.Door == nil
	if !rep.DoorFound || !rep.SubmitFound {
		if rep.DoorFound {
			var vr struct {
				Fields []shared.SubmittedField `json:"fields"`
			}
			// What the form holds is a detail of this finding: a page that
			// does not say leaves it empty.
			if err := evalInto("read the form", &vr, "validity", nil); err == nil {
				obs.formFields = vr.Fields
			}
		}
		return obs, nil
	}

	ic.arm()
	obs.submitHow, obs.submitBy = submitHow(rep.SubmitBy, spec.Submit != nil), rep.SubmitBy
	clicked := false
	if rep.SubmitVisible {
		if err := topology.ClickAt(ctx, page, rep.SubmitX, rep.SubmitY, o.StepTimeout); err == nil {
			clicked = true
		} else if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			// The page stopped answering the mouse: its click handler
			// hangs. What follows records it as timed out.
			obs.timedOut = fmt.Sprintf("click the submit control: the page stopped responding for %s", o.StepTimeout)
			return obs, nil
		}
	}
	if !clicked && !ic.hasSubmission() {
		requestSubmit := rep.SubmitBy == "disabled" || rep.SubmitBy == "none"
		if !requestSubmit {
			obs.submitHow += " by script, as it is hidden or covered"
		}
		if _, err := eval("click the submit control", "click", map[string]bool{"requestSubmit": requestSubmit}); err != nil {
			return stepFailed(ctx, obs, err)
		}
	}
	values := filledValues(fills)
	if p, ok, err := waitForRequest(ctx, ic, o, values, func() (bool, error) {
		var r struct {
			Invalid int `json:"invalid"`
		}
		err := evalInto("watch for a refusal", &r, "refused", nil)
		return r.Invalid > 0, err
	}); err != nil {
		return stepFailed(ctx, obs, err)
	} else if ok {
		obs.request, obs.refused = &p.req, p.refused
		obs.others = ic.otherRequests(p)
	} else {
		var vr struct {
			Invalid []invalidField          `json:"invalid"`
			Fields  []shared.SubmittedField `json:"fields"`
		}
		if err := evalInto("read the form's validity", &vr, "validity", nil); err != nil {
			return stepFailed(ctx, obs, err)
		}
		obs.invalid, obs.formFields = vr.Invalid, vr.Fields
	}
	// The messages the page's WebSockets tried to send, all dropped by the
	// tab's guard.
	obs.socketSends = confined.SocketSends()
	obs.refusedConns = confined.Refused()
	return obs, nil
}

// submitHow says how a run submitted its door, from the fill's submitBy
// (the executor's rule: the recorded control, else the form's default
// button, else requestSubmit) and whether the graph records a control.
func submitHow(by string, recorded bool) string {
	missing := ""
	if recorded {
		missing = ": the submit control the graph records was not found"
	}
	switch by {
	case "default":
		return "pressed the form's default button" + missing
	case "disabled":
		return "submitted the form with requestSubmit, as its submit control is disabled"
	case "none":
		return "submitted the form with requestSubmit, as it has no submit control" + missing
	}
	return "clicked the submit control"
}

// refusalGrace is how long the run still waits for a request once the
// browser has refused a control: a page may report a field and send anyway.
const refusalGrace = 300 * time.Millisecond

// collectGrace is how long the run keeps collecting after the first
// request of the submit, so that an analytics beacon sent first is not
// taken for the form.
const collectGrace = 400 * time.Millisecond

// waitForRequest waits up to o.WaitRequest for the submission, then
// collectGrace more for the requests sent with it, and picks the one that
// carries the form (pickSubmission). refused is polled meanwhile; once it
// reports the form refused, the wait is cut to refusalGrace. ok is false
// when nothing was sent. A poll that times out is an error (the page
// stopped responding); one that fails otherwise (the page is navigating)
// is ignored.
func waitForRequest(ctx context.Context, ic *interceptor, o SandboxOptions, values []string, refused func() (bool, error)) (p paused, ok bool, err error) {
	deadline := time.NewTimer(o.WaitRequest)
	defer deadline.Stop()
	poll := time.NewTicker(150 * time.Millisecond)
	defer poll.Stop()
	cut := false
	for {
		select {
		case <-ic.first:
			select {
			case <-time.After(collectGrace):
			case <-ctx.Done():
				return paused{}, false, ctx.Err()
			}
			return pickSubmission(ic.collected(), values), true, nil
		case <-deadline.C:
			return paused{}, false, nil
		case <-ctx.Done():
			return paused{}, false, ctx.Err()
		case <-poll.C:
			if cut {
				continue
			}
			r, err := refused()
			if errors.Is(err, errTimedOut) {
				return paused{}, false, err
			}
			if r {
				cut = true
				deadline.Reset(refusalGrace)
			}
		}
	}
}

// hasSubmission reports whether a request has been seen since the submit,
// so that a mouse click that errored after it went through is not repeated.
func (ic *interceptor) hasSubmission() bool {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	return len(ic.after) > 0
}

// report puts into obs what the interception stopped other than the
// requests collected after the submit.
func (ic *interceptor) report(obs *observation) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	obs.early, obs.earlySeen = ic.early, append([]string(nil), ic.earlySeen...)
	obs.stopped, obs.stoppedSeen = ic.stopped, append([]string(nil), ic.stoppedSeen...)
}

// otherRequests describes the requests collected after the submit other
// than the submission, at most three of them.
func (ic *interceptor) otherRequests(sub paused) []string {
	var out []string
	for _, p := range ic.collected() {
		if p.req.URL == sub.req.URL && p.req.Method == sub.req.Method && string(p.req.Body) == string(sub.req.Body) {
			continue
		}
		out = append(out, p.req.Method+" "+shared.Clip(p.req.URL, 120))
	}
	return out
}

// pickSubmission chooses, among the requests sent after the submit, the one
// that carries the form: the first whose query or body holds a value the
// sandbox filled in, else the first that was not refused, else the first.
func pickSubmission(reqs []paused, values []string) paused {
	for _, p := range reqs {
		if carries(p.req, values) {
			return p
		}
	}
	for _, p := range reqs {
		if !p.refused {
			return p
		}
	}
	return reqs[0]
}

// carries reports whether a request's fields hold one of values.
func carries(r interceptedRequest, values []string) bool {
	fields, _ := r.fields()
	for _, f := range fields {
		for _, v := range values {
			if f.Value == v || (len(v) >= 6 && strings.Contains(f.Value, v)) {
				return true
			}
		}
	}
	return false
}

// filledValues are the values the sandbox typed, selected or attached.
func filledValues(fills []fill) []string {
	var out []string
	for _, f := range fills {
		if f.Value != "" && f.Kind != fillLeave {
			out = append(out, f.Value)
		}
	}
	return out
}

// stepFailed turns a failed browser step into a timed-out observation, or
// an error when ctx ended (with the observation so far) or the browser
// broke.
func stepFailed(ctx context.Context, obs *observation, err error) (*observation, error) {
	if ctx.Err() != nil {
		return obs, ctx.Err() // obs so far: the caller tells its own deadline from a cancellation
	}
	if errors.Is(err, errTimedOut) {
		obs.timedOut = err.Error()
		return obs, nil
	}
	return nil, fmt.Errorf("verifier: sandbox: %w", err)
}
