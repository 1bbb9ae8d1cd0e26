package executor

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/frontlatch/frontlatch/topology/weborigin"
	doors "github.com/frontlatch/frontlatch/verifier/door"
)

// browserTimeout bounds one browser submission, page load included.
const browserTimeout = 60 * time.Second

// failedFillGrace is how long a call whose form could not be filled waits
// for a submission all the same.
const failedFillGrace = 2 * time.Second

//go:embed webmcp_exec.js
var execSource string

// execInit is added to every page before the page's scripts run: it keeps
// the tools a page registers through document.modelContext (or the legacy
// navigator.modelContext) so the executor can call one's execute function.
// It is webmcp_exec.js with topology's hookRegisterTool (package pagejs,
// shared with the mapper's WebMCP recorder) inlined.
var execInit = pagejs.MustInline(execSource)

// captured is the submission a page made, as it left through the executor's
// own HTTP client.
type captured struct {
	mu       sync.Mutex
	done     bool
	method   string
	url      string
	ctype    string
	body     string
	status   int
	response string
	err      error
	blocked  []string
	// strayed are the page's sends on the confirmed origin to another address
	// than the endpoint the owner confirmed, each blocked; stray is closed
	// at the first.
	strayed []string
	stray   chan struct{}
	// early are the sends the page made before it was pressed (as it
	// loaded: analytics, a nonce request), each blocked: none is the
	// submission, as the sandbox takes only what is sent after the submit.
	early  []string
	signal chan struct{}
	// started: a submission has begun (under mu, set with begun closed),
	// so a second one is refused even while the first awaits its answer.
	started bool
	begun   chan struct{}
	// pressed: the page has been filled and its submit control is being
	// pressed, or its WebMCP tool called (under mu; set just before the
	// click or the call, after the fill): a send from then on may be the
	// submission, one before it is early. A navigation of a document with
	// a query string after it, before any submission, is the browser
	// sending the form itself by GET.
	pressed bool
	// leftTo is the address the page's main frame went to, after it was
	// pressed and before any submission, without sending the form; left
	// is closed then.
	leftTo string
	left   chan struct{}
	// files are the files the page was given, by field, in order: their
	// bytes go into the file parts of the submission (Chromium hands an
	// intercepted request's file parts over empty).
	files    map[string][]*upload
	warnings []string
}

// fireBrowser submits through real Chromium: the page's registered WebMCP
// tool for webmcp-execute (the form carrying toolname for a declarative
// tool), the form itself for javascript-only. Every request of the page
// off the confirmed origin is blocked; the submission itself is sent by the
// executor's client (same-origin redirects only) so its answer is known.
func (e *Executor) fireBrowser(ctx context.Context, d door, fields []planned) outcome {
	// bound is what ends the wait: the door's timeout, or the caller's
	// deadline when that comes first.
	bound := fmt.Sprintf("the timeout (%s)", browserTimeout)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < browserTimeout {
		bound = fmt.Sprintf("the call's deadline (%s)", time.Until(dl).Round(time.Second))
	}
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	pageURL, _ := url.Parse(d.access.URL)
	allowed := weborigin.Of(pageURL)
	endpoint, _ := url.Parse(d.endpoint)

	cap := &captured{signal: make(chan struct{}), begun: make(chan struct{}), stray: make(chan struct{}), left: make(chan struct{}), files: map[string][]*upload{}}
	var ups []pageFile
	for _, f := range fields {
		if f.file != nil {
			cap.files[f.name] = append(cap.files[f.name], f.file)
			ups = append(ups, pageFile{field: f.name, upload: f.file})
		}
	}
	if len(ups) > 0 {
		// The files are on disk only for the call: a private folder (0700),
		// removed when the call is over, after the page is closed (the
		// deferred close below runs first).
		dir, err := os.MkdirTemp("", "frontlatch-upload-")
		if err != nil {
			return outcome{outcome: outcomeFailed, err: fmt.Errorf("stage the files: %w", err)}
		}
		defer os.RemoveAll(dir)
		for i := range ups {
			if ups[i].path, err = stageFile(dir, i, ups[i].upload); err != nil {
				return outcome{outcome: outcomeFailed, err: fmt.Errorf("stage the files: %w", err)}
			}
		}
	}
	// The page's connections go through a proxy that reaches the confirmed
	// origin only, and it has no WebRTC (topology.Confined): the
	// interception below sees its requests, not its WebSockets, and a page
	// that put the form in a socket to another origin sent it there.
	confined, err := e.browser.Confine(ctx, allowed)
	if err != nil {
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("open a page: %w", err)}
	}
	page, err := confined.NewPage(ctx)
	if err != nil {
		_ = confined.Close()
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("open a page: %w", err)}
	}
	closePage := func() {
		_ = page.Context(context.Background()).Timeout(5 * time.Second).Close()
		_ = confined.Close()
	}

	router := page.HijackRequests()
	if err := router.Add("*", "", func(h *rod.Hijack) { e.route(h, cap, allowed, d, endpoint) }); err != nil {
		closePage()
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("intercept the page's requests: %w", err)}
	}
	go router.Run()
	// The page is sealed and closed while its requests are still
	// intercepted: stopping the router first (Fetch.disable) would let every
	// request still paused — a script's send to another origin racing the
	// submission — go out, and a closing page still sends (a pagehide
	// beacon or keepalive fetch of the form, which outlives the tab's
	// interception: topology.Seal).
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), topology.SealTimeout)
		_ = topology.Seal(sctx, page) // a page that cannot be sealed is closed all the same
		cancel()
		closePage()
		_ = router.Stop()
	}()

	if _, err := page.EvalOnNewDocument(execInit); err != nil {
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("prepare the page: %w", err)}
	}
	if err := page.Navigate(d.access.URL); err != nil {
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("open %s: %w", d.access.URL, err)}
	}
	if err := page.WaitLoad(); err != nil {
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("load %s: %w", d.access.URL, err)}
	}

	values := map[string]any{}
	var order []string
	for _, f := range fields {
		if f.file != nil {
			continue // set on the input itself (ups)
		}
		if f.multi {
			if _, seen := values[f.name]; !seen {
				values[f.name] = multiValues(fields, f.name)
				order = append(order, f.name)
			}
			continue
		}
		if f.from == fromHoneypot { // cleared, a checkbox or radio honeypot too
			values[f.name] = f.value
			order = append(order, f.name)
			continue
		}
		if f.none {
			continue // an unchecked checkbox: left as the page has it
		}
		if f.from == fromAgent {
			values[f.name] = f.value
			order = append(order, f.name)
		}
		if f.from == fromCheckbox {
			values[f.name] = true
			order = append(order, f.name)
		}
	}
	// A page that goes to another document once it is pressed, or to
	// another address of the same one (a single-page app's route, by
	// history.pushState or a fragment), without sending the form (its
	// script moved on, a link took the click), is told from one that takes
	// its time: the call does not wait out its timeout for a send that
	// cannot come, only a moment's grace. (EachEvent subscribes before it
	// returns; its wait runs until the call's page is done.)
	left := func(to string) {
		cap.mu.Lock()
		defer cap.mu.Unlock()
		if cap.pressed && !cap.started && cap.leftTo == "" {
			cap.leftTo = to
			close(cap.left)
		}
	}
	leaving := page.EachEvent(func(e *proto.PageFrameNavigated) {
		if e.Frame != nil && e.Frame.ParentID == "" {
			left(e.Frame.URL)
		}
	}, func(e *proto.PageNavigatedWithinDocument) {
		if e.FrameID == page.FrameID {
			left(e.URL)
		}
	})
	go leaving()
	// Pressed after the fill, as the sandbox arms its interception after
	// it: a send the page makes while it is filled (an autosave, a
	// partial-entry plugin posting each field) is early, not the
	// submission. Set before the click or call is sent, so the submission,
	// which only they cause, is never taken for early.
	press := func() {
		cap.mu.Lock()
		cap.pressed = true
		cap.mu.Unlock()
	}
	var toolText string
	var runErr error
	if d.transport == shared.TransportWebMCPExecute {
		toolText, runErr = callTool(page, d.toolName, toolArgs(fields), press)
		if errors.Is(runErr, errNoImperativeTool) {
			runErr = fillAndSubmit(page, formDoor{toolForm: `form[toolname="` + cssString(d.toolName) + `"]`}, values, order, nil, press)
		}
	} else {
		fd := formDoor{door: d.access.Locator}
		if sub := d.access.Submission; sub != nil {
			fd.submit = sub.SubmitControl
		}
		runErr = fillAndSubmit(page, fd, values, order, ups, press)
	}

	cap.await(ctx, runErr != nil)
	// The messages the page's WebSockets tried to send, all dropped by the
	// tab's guard.
	socketSends := confined.SocketSends()
	cap.mu.Lock()
	defer cap.mu.Unlock()
	out := outcome{}
	if socketSends > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("dropped %d message(s) the page tried to send over a WebSocket", socketSends))
	}
	for _, b := range cap.blocked {
		out.warnings = append(out.warnings, "blocked a request off the confirmed origin: "+shared.Clip(b, 200))
	}
	for _, b := range cap.early {
		out.warnings = append(out.warnings, "blocked a send the page made before it was filled and submitted: "+shared.Clip(b, 200))
	}
	for _, b := range cap.strayed {
		out.warnings = append(out.warnings, "blocked a send to another address than the confirmed endpoint: "+shared.Clip(b, 200))
	}
	for _, r := range confined.Refused() {
		out.warnings = append(out.warnings, "stopped a connection off the confirmed origin: "+shared.Clip(r, 200))
	}
	out.warnings = append(out.warnings, cap.warnings...)
	switch {
	case !cap.done && cap.started:
		out.outcome, out.err = outcomeUnknown, fmt.Errorf("the submission was sent but no answer came before %s", bound)
		return out
	case !cap.done && len(cap.strayed) > 0:
		out.outcome, out.err = outcomeFailed, fmt.Errorf("nothing was submitted: the page sent to %s, not to the endpoint the owner confirmed (%s), and that was blocked; the site changed: re-map it and have the owner confirm again",
			shared.Clip(strings.Join(cap.strayed, ", "), 400), shared.Clip(d.endpoint, 200))
		return out
	case !cap.done && cap.leftTo != "":
		out.outcome, out.err = outcomeFailed, fmt.Errorf("nothing was submitted: once its submit control was pressed the page went to %s without sending the form; the site changed: re-map it and have the owner confirm again",
			shared.Clip(cap.leftTo, 400))
		return out
	case !cap.done && runErr != nil:
		out.outcome, out.err = outcomeFailed, fmt.Errorf("nothing was submitted: %w", runErr)
		return out
	case !cap.done:
		out.outcome, out.err = outcomeFailed, fmt.Errorf("the page submitted nothing before %s", bound)
		return out
	case cap.err != nil && cap.status == 0:
		out.outcome, out.err = outcomeUnknown, fmt.Errorf("the submission may have been sent but no answer came: %w", cap.err)
		return out
	}
	out.outcome, out.status, out.endpoint = outcomeFired, cap.status, cap.url
	out.sent, out.files = sentFields(cap.ctype, cap.body, cap.url)
	for _, u := range ups {
		if !slices.ContainsFunc(out.files, func(f SentFile) bool { return f.Field == u.field }) {
			out.warnings = append(out.warnings, fmt.Sprintf("the page sent no file part for %q: the site did not receive the file", u.field))
		}
	}
	out.response = cap.response
	if toolText != "" {
		out.response = shared.Clip(toolText, int(e.maxBody))
	}
	return out
}

// await waits for the page's submission to have been answered. When
// filling failed (a field or file input missing: the form was not
// submitted), the page's first send went to another address than the
// confirmed endpoint (and was blocked), or the page went to another
// document without sending, only a moment, for the submission
// the page may still make, not the whole timeout. A submission that has
// begun is waited for to the end.
func (cap *captured) await(ctx context.Context, fillFailed bool) {
	grace := func() {
		g, stop := context.WithTimeout(ctx, failedFillGrace)
		defer stop()
		select {
		case <-cap.signal:
			return
		case <-g.Done():
		}
		select {
		case <-cap.begun:
			select {
			case <-cap.signal:
			case <-ctx.Done():
			}
		default:
		}
	}
	if fillFailed {
		grace()
		return
	}
	select {
	case <-cap.signal:
	case <-cap.stray:
		grace()
	case <-cap.left:
		grace()
	case <-ctx.Done():
	}
}

// route lets the page load what it needs from the confirmed origin, blocks
// everything else — and, when the door records its endpoint, every send to
// another address of the origin (doors.SameEndpoint, the rule the sandbox
// reports by), which the owner did not confirm — and sends the submission
// through the executor's client.
func (e *Executor) route(h *rod.Hijack, cap *captured, allowed string, d door, endpoint *url.URL) {
	u := h.Request.URL()
	if u == nil || weborigin.Of(u) != allowed {
		cap.mu.Lock()
		if u != nil {
			cap.blocked = append(cap.blocked, u.String())
		}
		cap.mu.Unlock()
		h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
		return
	}
	method := h.Request.Method()
	isSubmission := method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
	cap.mu.Lock()
	pressed := cap.pressed
	first := pressed && !cap.started
	cap.mu.Unlock()
	switch {
	case method != http.MethodGet || u.RawQuery == "":
	case d.transport != shared.TransportWebMCPExecute:
		// A GET form's submission, its query the fields: to the endpoint,
		// or the browser's own navigation once the form is pressed and
		// before anything was sent — elsewhere, a send like any other,
		// blocked below (the code before let it reach the site, and waited
		// out the call's timeout). Before the press, a read of the page's.
		isSubmission = pressed && ((endpoint != nil && doors.SameEndpoint(u, endpoint, true)) || (first && h.Request.IsNavigation()))
	default:
		// A WebMCP tool's fetches with a query are its reads; but the main
		// document going to a URL with a query once the tool is called,
		// before anything was sent, is a declarative tool's GET form
		// submitted (before, it went to the site unseen, and the call was
		// recorded failed: "went to … without sending the form").
		isSubmission = first && h.Request.IsNavigation()
	}
	if isSubmission && !pressed {
		// A send of the page as it loads, before the executor has filled
		// and pressed it, carries nothing of the call: not the submission
		// (the code before took it for one, sent it, and blocked the
		// form's own as a second), nor a stray one. It is blocked.
		cap.mu.Lock()
		cap.early = append(cap.early, method+" "+u.String())
		cap.mu.Unlock()
		h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
		return
	}
	if isSubmission && d.recordsEndpoint() && endpoint != nil && !doors.SameEndpoint(u, endpoint, method == http.MethodGet) {
		cap.mu.Lock()
		cap.strayed = append(cap.strayed, method+" "+u.String())
		if len(cap.strayed) == 1 {
			close(cap.stray)
		}
		cap.mu.Unlock()
		h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
		return
	}
	cap.mu.Lock()
	already := cap.started
	if isSubmission && !already {
		cap.started = true
		close(cap.begun)
	}
	cap.mu.Unlock()
	if !isSubmission || already {
		if already && isSubmission {
			h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) // one call fires once
			return
		}
		h.ContinueRequest(&proto.FetchContinueRequest{})
		return
	}
	req := h.Request.Req()
	body, ctype := h.Request.Body(), h.Request.Header("Content-Type")
	var fileWarnings []string
	if len(cap.files) > 0 {
		if filled, warns, ok := fillFileParts(ctype, body, cap.files); ok {
			body, fileWarnings = filled, warns
			req.Body = io.NopCloser(strings.NewReader(body))
			req.ContentLength = int64(len(body))
			req.Header.Del("Content-Length")
		}
	}
	resp, err := e.client.Do(req)
	cap.mu.Lock()
	defer cap.mu.Unlock()
	cap.done = true
	defer close(cap.signal)
	cap.method, cap.url, cap.ctype, cap.body = method, u.String(), ctype, body
	cap.warnings = append(cap.warnings, fileWarnings...)
	if err != nil {
		cap.err = err
		h.Response.Fail(proto.NetworkErrorReasonFailed)
		return
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, e.maxBody))
	cap.status, cap.response = resp.StatusCode, strings.ToValidUTF8(string(answer), "\uFFFD")
	p := h.Response.Payload()
	p.ResponseCode = resp.StatusCode
	for k, vs := range resp.Header {
		if strings.EqualFold(k, "Content-Length") {
			continue
		}
		for _, v := range vs {
			h.Response.SetHeader(k, v)
		}
	}
	p.Body = answer
}

var errNoImperativeTool = errors.New("no imperative tool of that name")

// toolArgs are a WebMCP tool call's arguments: the agent's, typed as the
// tool's inputSchema declares them (the mapper reads a schema boolean as a
// checkbox, a number or integer as a number input, an array of options as
// a multi-valued input), not as a form's strings — true or false for a
// checkbox the agent set, a JSON number for a number, a list for a
// multi-valued input. Empty optional values are left out, as are the
// page's tokens and honeypots. callTool then types them against the
// registered tool's own inputSchema, which the action does not record
// (an integer enum, say).
func toolArgs(fields []planned) map[string]any {
	args := map[string]any{}
	for _, f := range fields {
		switch {
		case f.multi:
			args[f.name] = multiValues(fields, f.name)
		case f.from == fromCheckbox:
			args[f.name] = true
		case f.unchecked:
			args[f.name] = false
		case f.from == fromAgent && f.file == nil && f.value != "":
			if f.number && jsonNumberRE.MatchString(f.value) {
				args[f.name] = json.Number(f.value)
			} else {
				args[f.name] = f.value
			}
		}
	}
	return args
}

// jsonNumberRE is a JSON number literal (RFC 8259).
var jsonNumberRE = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// callTool calls the execute function of the page's registered WebMCP tool
// with input, each argument typed first as the tool's own inputSchema
// declares it (a string of digits for a number or integer, "true"/"false"
// for a boolean, a list for an array): the schema the page registered,
// which the action does not record whole. press is called just before the
// call, once the tool is known to be registered (errNoImperativeTool
// when it is not: press is not called).
func callTool(page *rod.Page, name string, input map[string]any, press func()) (string, error) {
	in, err := json.Marshal(input)
	if err != nil {
		return "", err
	}
	has, err := page.Timeout(browserTimeout).Eval(`(name) => { const reg = window.__frontlatchExec; return !!(reg && reg.get(name)); }`, name)
	if err != nil {
		return "", fmt.Errorf("look for the tool %q: %w", name, err)
	}
	if !has.Value.Bool() {
		return "", errNoImperativeTool
	}
	press()
	res, err := page.Timeout(browserTimeout).Eval(`async (name, input) => {
		const reg = window.__frontlatchExec;
		const tool = reg && reg.get(name);
		if (!tool) return JSON.stringify({missing: true});
		const args = JSON.parse(input);
		// Each argument typed as the tool's own inputSchema declares it.
		let props = null;
		try {
			let s = tool.inputSchema;
			if (typeof s === "string") s = JSON.parse(s);
			if (s && typeof s === "object" && s.properties && typeof s.properties === "object") props = s.properties;
		} catch (e) {}
		const typeOf = (p) => {
			if (!p || typeof p !== "object") return "";
			const t = Array.isArray(p.type) ? p.type.find((x) => x !== "null") : p.type;
			return typeof t === "string" ? t : "";
		};
		const coerce = (v, p) => {
			const t = typeOf(p);
			if ((t === "number" || t === "integer") && typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
			if (t === "boolean" && (v === "true" || v === "false")) return v === "true";
			if (t === "string" && (typeof v === "number" || typeof v === "boolean")) return String(v);
			if (t === "array") return (Array.isArray(v) ? v : [v]).map((x) => coerce(x, p.items));
			return v;
		};
		if (props) {
			for (const k of Object.keys(args)) {
				if (Object.prototype.hasOwnProperty.call(props, k)) args[k] = coerce(args[k], props[k]);
			}
		}
		const out = await tool.execute(args);
		return JSON.stringify({result: out === undefined ? null : out});
	}`, name, string(in))
	if err != nil {
		return "", fmt.Errorf("the tool %q failed: %w", name, err)
	}
	var r struct {
		Missing bool            `json:"missing"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &r); err != nil {
		return "", fmt.Errorf("the tool %q returned something unreadable: %w", name, err)
	}
	if r.Missing {
		return "", errNoImperativeTool
	}
	return toolText(r.Result), nil
}

// toolText is the text content of an MCP-style tool result, or its JSON.
func toolText(raw json.RawMessage) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &r) == nil && len(r.Content) > 0 {
		var parts []string
		for _, c := range r.Content {
			if c.Type == "text" {
				parts = append(parts, c.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return string(raw)
}

// fillAndSubmit fills the form (found through its submit control's CSS
// selector, formSel, or as the form holding most of the fields) and submits it
// as a person would.
// formDoor says which form of the page fillAndSubmit fills.
type formDoor struct {
	// toolForm, for a declarative WebMCP tool, is the selector of the form
	// carrying its toolname, looked for in every open tree.
	toolForm string
	// door is the door's locator (nil: none): the form is found by
	// pagejs's doorOf, the rule the verifier's sandbox runs the door by
	// (the first visible element the locator names; without a locator,
	// the form of any open tree holding the most of the fields).
	door *shared.Locator
	// submit is the submit control's locator (nil: none), any strategy:
	// the form's first visible control it names.
	submit *shared.Locator
}

// fillAndSubmit calls press once the form is filled, just before its
// submit control is pressed.
func fillAndSubmit(page *rod.Page, fd formDoor, values map[string]any, order []string, files []pageFile, press func()) error {
	in, err := json.Marshal(values)
	if err != nil {
		return err
	}
	names, _ := json.Marshal(order)
	door, _ := json.Marshal(fd.door)
	submit, _ := json.Marshal(fd.submit)
	fileNames := []string{}
	for _, f := range files {
		fileNames = append(fileNames, f.field)
	}
	fileJSON, _ := json.Marshal(fileNames)
	if len(files) > 0 {
		// First the form is found and marked, and the files set on its
		// inputs; then the rest is filled and the form submitted.
		res, err := page.Timeout(browserTimeout).Eval(fillScript, fd.toolForm, string(door), string(submit), string(in), string(names), string(fileJSON), "mark")
		if err != nil {
			return fmt.Errorf("find the form: %w", err)
		}
		if _, err := fillAnswer(res.Value.Str()); err != nil {
			return err
		}
		for _, f := range files {
			el, err := page.Timeout(fileInputTimeout).ElementByJS(rod.Eval(fileInputScript, f.field))
			if err != nil {
				return fmt.Errorf("find the file input %q: %w", f.field, err)
			}
			if err := el.Timeout(fileInputTimeout).SetFiles([]string{f.path}); err != nil {
				return fmt.Errorf("set the file of %q: %w", f.field, err)
			}
		}
	}
	res, err := page.Timeout(browserTimeout).Eval(fillScript, fd.toolForm, string(door), string(submit), string(in), string(names), string(fileJSON), "submit")
	if err != nil {
		return fmt.Errorf("fill the form: %w", err)
	}
	r, err := fillAnswer(res.Value.Str())
	if err != nil {
		return err
	}
	press()
	if r.Press == nil {
		// By a script's click (or requestSubmit), in an evaluation of its
		// own, sent after press.
		res, err := page.Timeout(browserTimeout).Eval(fillScript, fd.toolForm, string(door), string(submit), string(in), string(names), string(fileJSON), "press")
		if err != nil {
			return fmt.Errorf("press the submit control: %w", err)
		}
		_, err = fillAnswer(res.Value.Str())
		return err
	}
	if err := topology.ClickAt(page.GetContext(), page, r.Press.X, r.Press.Y, pressTimeout); err != nil {
		return fmt.Errorf("press the submit control: %w", err)
	}
	return nil
}

// pressTimeout bounds each mouse event of pressing the submit control.
const pressTimeout = 5 * time.Second

// filled is fillScript's answer: the error that stopped it, or the point
// of the viewport at which to press the submit control (none when it is
// to be pressed by a script, in the phase "press").
type filled struct {
	Error string `json:"error"`
	Press *struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	} `json:"press"`
}

// fillAnswer reads fillScript's answer; its error is a failed fill's.
func fillAnswer(raw string) (filled, error) {
	var r filled
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return r, fmt.Errorf("read the fill's answer %q: %w", shared.Clip(raw, 200), err)
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, nil
}

// fillScript finds the door's scope — a form, or the container of a
// formless group —, checks its fields, and then marks it (phase "mark",
// before files are set on its inputs), fills it (phase "submit") or, in an
// evaluation of its own once the caller has called press, submits it by a
// script (phase "press"). The scope is the marked one (after "mark"), else the declarative tool's form (toolForm, looked for in the
// document and every open shadow root), else the door's: pagejs's doorOf
// — the rule the verifier's sandbox runs the door by, so the form the
// owner was shown a run of is the form that fires — on the door's locator
// (shadow-including, as the mapper writes it) or, without one, on the
// fields. A door that names nothing fails the call: no other form is
// taken for it. A form's fields are its elements; a group's, the named
// controls in it and the open shadow roots under it (as the sandbox reads
// them). The submit control is the scope's first visible control the
// submit locator names, else a form's default button; it is pressed as
// the sandbox presses it, with the mouse where it is in the open (the
// script answers pagejs's pressPoint and fillAndSubmit clicks there with
// topology.ClickAt), else by a script's click (a form with none, or whose
// control is disabled, is submitted with requestSubmit); a group must
// have one. The script answers JSON: {error} when it stopped, {press:
// {x, y}} when the caller is to press there, {} otherwise (after "submit":
// the caller is to run "press"). Each control is set
// as a person sets it (pagejs's control: the prototype's setter, a click),
// so that a page keeping its own state of its controls, as React does,
// sends what was filled. pierce, norm, labels, accname, locate, control and press are
// topology's (package pagejs), shared with the sandbox.
var fillScript = pagejs.MustInline(`(toolForm, doorJSON, submitJSON, valuesJSON, namesJSON, filesJSON, phase) => {
		//pagejs:include pierce
		//pagejs:include norm
		//pagejs:include labels
		//pagejs:include accname
		//pagejs:include locate
		//pagejs:include control
		//pagejs:include press
		` + scopeJS + `
		const fail = (msg) => JSON.stringify({ error: msg });
		const values = JSON.parse(valuesJSON), names = JSON.parse(namesJSON), files = JSON.parse(filesJSON);
		const door = JSON.parse(doorJSON), submitLoc = JSON.parse(submitJSON);
		const named = door ? " (" + door.strategy + " " + JSON.stringify(door.value) + ")" : "";
		let scope = markedScope(locateTrees);
		if (!scope && toolForm) scope = queryAllIn(locateTrees(), toolForm)[0] || null;
		if (!scope) {
			scope = doorOf(door, names.concat(files)).el;
			if (!scope) return fail(door ? "the door's form" + named + " is not on the page" : "the page has no form");
		}
		const isForm = scope.tagName === "FORM";
		// What submits the door is pagejs's submitOf, the sandbox's rule: a
		// group without its control is refused before anything is filled;
		// the control to press is chosen once the form is filled (below).
		if (!isForm && !submitOf(scope, submitLoc).el) return fail("the door" + named + " is a group of controls outside any form and its submit control" +
			(submitLoc ? " (" + submitLoc.strategy + " " + JSON.stringify(submitLoc.value) + ") is not in it" : " is not recorded") + ": there is nothing to click");
		for (const name of files) {
			if (!fieldsOf(scope, name).some(x => x.type === "file")) return fail("the form has no file input " + JSON.stringify(name));
		}
		if (phase === "mark") { scope.setAttribute("data-frontlatch-exec", ""); return "{}"; }
		if (phase === "submit") for (const name of names) {
			const list = fieldsOf(scope, name);
			if (!list.length) return fail("the form has no field " + JSON.stringify(name));
			const v = values[name];
			for (const one of list) {
				if (Array.isArray(v)) { // a multi-valued input: the boxes or options whose values are listed
					if (one.type === "checkbox") setChecked(one, v.includes(one.value));
					else if (one.options) setSelected(one, v);
				}
				else if (one.type === "checkbox") setChecked(one, v === true);
				else if (one.type === "radio") setChecked(one, one.value === v);
				else if (one.value !== String(v)) setValue(one, v); // a control that holds it already is not touched, as a person leaves it
			}
		}
		// Pressed as a person presses it, as the sandbox presses it: by the
		// mouse where the control is in the open (press: the caller clicks
		// there, and the page sees a trusted click), else by a script's
		// click. Its click handlers run (a page that sends the form from
		// one, calling preventDefault, sends nothing on a bare submit) and a
		// submit button submits its form with itself as the submitter.
		// Later, so that the page has re-rendered what the fill changed (a
		// button enabled once the form is valid) and a send that leaves the
		// page does not take this evaluation with it. A form without a
		// control to press, or whose control stays disabled, is submitted.
		const { el: submit, control: submitter } = submitOf(scope, submitLoc); // a button disabled until the form is valid is enabled now
		if (phase === "submit") {
			const at = submit ? pressPoint(submit) : null;
			return at ? JSON.stringify({ press: at }) : "{}"; // else pressed by script, in the phase "press"
		}
		setTimeout(() => {
			if (submit) submit.click();
			else if (typeof scope.requestSubmit === "function") scope.requestSubmit(submitter && submitter.form === scope ? submitter : undefined);
			else scope.submit();
		}, 0);
		return "{}";
	}`)

// fileInputScript finds the marked scope's file input of a field.
var fileInputScript = pagejs.MustInline(`(name) => {
		//pagejs:include pierce
		` + scopeJS + `
		const scope = markedScope(openTrees);
		return (scope && fieldsOf(scope, name).find(x => x.type === "file")) || null;
	}`)

// scopeJS declares markedScope(trees), the form or group fillAndSubmit
// marked, in the document or, when not there, an open shadow root (trees()
// lists the document and those roots: walked only when the document has
// none); and fieldsOf(scope, name), the controls of that name a form holds
// (its elements) or a group does (in it and the open shadow roots under
// it, as the sandbox reads a group).
const scopeJS = `const markedScope = (trees) =>
			document.querySelector("[data-frontlatch-exec]") || queryAllIn(trees(), "[data-frontlatch-exec]")[0] || null;
		const fieldsOf = (scope, name) => {
			if (scope.tagName !== "FORM") return queryAllIn(openTrees(scope), "[name]").filter((e) => e.getAttribute("name") === name);
			const el = scope.elements.namedItem(name);
			return !el ? [] : (typeof RadioNodeList !== "undefined" && el instanceof RadioNodeList) ? Array.from(el) : [el];
		};`

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\a `).Replace(s)
}

// sentFields decodes what a page actually sent, for Result.Sent.
func sentFields(ctype, body, rawURL string) ([]shared.SubmittedField, []SentFile) {
	var out []shared.SubmittedField
	var files []SentFile
	mt, params, _ := mime.ParseMediaType(ctype)
	switch {
	case mt == "application/x-www-form-urlencoded":
		for _, kv := range strings.Split(body, "&") {
			if kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			k, _ = url.QueryUnescape(k)
			v, _ = url.QueryUnescape(v)
			out = append(out, shared.SubmittedField{Name: k, Value: v})
		}
	case mt == "multipart/form-data":
		r := multipart.NewReader(strings.NewReader(body), params["boundary"])
		for {
			p, err := r.NextPart()
			if err != nil {
				break
			}
			if name, isFile := partFileName(p.Header); isFile {
				// A file part: what identifies it, not its bytes.
				h := sha256.New()
				n, _ := io.Copy(h, p)
				if name == "" && n == 0 {
					continue // an empty file input, as a browser sends it
				}
				files = append(files, SentFile{Field: p.FormName(), Name: name, MediaType: p.Header.Get("Content-Type"), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
				continue
			}
			b, _ := io.ReadAll(io.LimitReader(p, MaxValueBytes))
			out = append(out, shared.SubmittedField{Name: p.FormName(), Value: string(b)})
		}
	case strings.HasSuffix(mt, "json"):
		dec := json.NewDecoder(strings.NewReader(body))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) == nil {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				v := m[k]
				s, ok := scalar(v)
				if !ok {
					b, _ := json.Marshal(v)
					s = string(b)
				}
				out = append(out, shared.SubmittedField{Name: k, Value: s})
			}
		}
	default:
		if u, err := url.Parse(rawURL); err == nil {
			for k, vs := range u.Query() {
				for _, v := range vs {
					out = append(out, shared.SubmittedField{Name: k, Value: v})
				}
			}
		}
	}
	return out, files
}
