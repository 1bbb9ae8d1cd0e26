package executor

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/frontlatch/frontlatch/verifier/audit"
	doors "github.com/frontlatch/frontlatch/verifier/door"
)

const userAgent = "Frontlatch-Executor/0.1 (+https://frontlatch.dev/executor)"

// defaultMaxBody bounds what is read back from the site.
const defaultMaxBody = 64 << 10

// defaultTimeout bounds each request to a site, when Options.HTTPClient
// sets no Timeout.
const defaultTimeout = 30 * time.Second

// Options configures an Executor.
type Options struct {
	// Store is the verifier's audit store: the gate's lookup, the volume
	// caps, the attempts. Required.
	Store *audit.Store
	// HTTPClient is used for every request to a site. Optional; its
	// redirect policy is replaced: a redirect to another origin is never
	// followed. A Timeout of zero (http.DefaultClient's) is 30 s, as
	// without one: no request to a site goes unbounded. Without a Jar,
	// each call's requests (the page read, the submission) share a cookie
	// jar of their own, as a browser's do.
	HTTPClient *http.Client
	// Browser is needed for javascript-only and webmcp-execute doors.
	Browser *topology.Browser
	// Instance is this process's id in the audit log (default: random).
	Instance string
	// Notify configures webhook notifications.
	Notify NotifyOptions
	// Now is the clock, for tests (default time.Now).
	Now func() time.Time
	// MaxBody bounds what is read back from the site (default 64 KiB).
	MaxBody int64
	// MaxUploadBytes bounds the file bytes one call uploads, all its files
	// together, decoded (default DefaultMaxUploadBytes, 10 MiB). A call
	// over it is refused before anything is sent.
	MaxUploadBytes int64
	// Logger receives what fails where no caller is waiting: a webhook
	// try, or a "not sent", that the audit store did not take, a heartbeat
	// that was not recorded; and the attempts of instances that died that
	// this one marked outcome unknown while it runs (default
	// slog.Default()). Everything a call decides is returned to its caller.
	Logger *slog.Logger
	// Heartbeat is how often this instance renews its lease in the audit
	// store while it has attempts in flight, and how often it marks
	// outcome unknown the attempts of instances whose leases ran out since
	// (default DefaultHeartbeat, 10 s). A lease lasts 3×Heartbeat: other
	// executors sharing the store leave this one's attempts alone until it
	// has not renewed its lease for that long. New starts the ticker and
	// Close stops it (so does the garbage collector, for an executor
	// dropped without Close). See RecoverAbandoned.
	Heartbeat time.Duration
}

// Executor fires verified actions. It is safe for concurrent use.
type Executor struct {
	store    *audit.Store
	client   *http.Client
	browser  *topology.Browser
	instance string
	now      func() time.Time
	maxBody  int64
	// maxUpload bounds the file bytes of one call.
	maxUpload int64
	notify    *notifier
	log       *slog.Logger
	live      liveness

	mu     sync.Mutex
	closed bool
	active sync.WaitGroup // calls in flight, waited for by Close
}

// New returns an Executor over opts.Store.
func New(opts Options) (*Executor, error) {
	if opts.Store == nil {
		return nil, errors.New("executor: Options.Store is required (the verifier's audit store)")
	}
	e := &Executor{store: opts.Store, browser: opts.Browser, instance: opts.Instance, now: opts.Now, maxBody: opts.MaxBody, maxUpload: opts.MaxUploadBytes}
	if e.instance == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		e.instance = "exec_" + hex.EncodeToString(b[:])
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.maxBody <= 0 {
		e.maxBody = defaultMaxBody
	}
	if e.maxUpload <= 0 {
		e.maxUpload = DefaultMaxUploadBytes
	}
	base := opts.HTTPClient
	if base == nil {
		base = &http.Client{}
	}
	c := *base
	c.CheckRedirect = sameOriginRedirects
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	e.client = &c
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	e.log = logger
	e.notify = newNotifier(opts.Notify, e.store, e.now, logger)
	e.startLiveness(opts.Heartbeat)
	return e, nil
}

// Instance is this executor's id in the audit log.
func (e *Executor) Instance() string { return e.instance }

// Close waits for the calls in flight, stops the heartbeat ticker and then
// waits for pending notifications. Execute after Close returns ErrClosed.
// It is safe to call more than once.
func (e *Executor) Close() error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.active.Wait()
	e.stopLiveness()
	e.notify.wait()
	return nil
}

// RecoverAbandoned marks as outcome unknown the attempts that instances no
// longer alive began and never completed — instances whose heartbeat
// leases have all run out, or that never recorded one (an older binary) —
// and those this instance began before `before` (zero: none; for a process
// restarted under the same Options.Instance). They keep counting against
// the cap, and are never re-sent. Run it when a process starts: the
// attempts in flight of executors still running beside this one on the
// same store are left alone, since their leases last. A killed process's
// attempts are marked once its lease has run out (3×Heartbeat after its
// last renewal, by its Options); until then they are pending, and this
// executor's ticker marks them once the lease has run out, as it does
// every Heartbeat for any instance that dies while this one runs.
func (e *Executor) RecoverAbandoned(ctx context.Context, before time.Time) (int, error) {
	n, err := e.store.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: e.instance, Before: before, At: e.now().UTC()})
	if err != nil {
		return n, fmt.Errorf("executor: recover abandoned attempts: %w", err)
	}
	return n, nil
}

// Call is one request to fire an action.
type Call struct {
	// Action is the raw bytes of ONE action, as read from the graph file
	// (ActionBytes): the gate reads exactly these.
	Action []byte
	// Input is the agent's arguments, JSON-decoded.
	Input map[string]any
	// IdempotencyKey, when set, makes a repeated call return the first
	// call's result and fire nothing.
	IdempotencyKey string
}

// Result is what a call did.
type Result struct {
	AttemptID string
	// Sent is exactly what was sent, field by field, but for files: empty
	// when the attempt failed (nothing was sent).
	Sent []shared.SubmittedField
	// Files are the files sent (multipart file parts), in order: their
	// names, media types, sizes and SHA-256 digests.
	Files []SentFile
	// Endpoint is where the submission went: the door's endpoint or, for a
	// browser door that records none (a WebMCP tool's), the URL the page
	// sent to. A browser door that records one lets the page send nowhere
	// else on the origin.
	Endpoint string
	// Status is what the site answered (0 when it did not answer).
	Status int
	// Response is a bounded excerpt of the site's answer.
	Response string
	// Warnings are inferred validations that did not hold and rules that
	// could not be checked; they never refuse.
	Warnings []string
	// Duplicate: the idempotency key was seen before; this is the first
	// result and nothing was fired.
	Duplicate bool
}

// request is what the audit log keeps of what will be sent.
type request struct {
	Transport string                  `json:"transport"`
	Endpoint  string                  `json:"endpoint"`
	Enctype   string                  `json:"enctype,omitempty"`
	ToolName  string                  `json:"toolName,omitempty"`
	Fields    []shared.SubmittedField `json:"fields"`
	// Files: what identifies each file, never its bytes, so the record
	// stays small whatever is uploaded.
	Files []SentFile `json:"files,omitempty"`
}

// MaxUploadBytes is the most bytes of files one call may upload, all its
// files together, decoded: Options.MaxUploadBytes, or its default.
func (e *Executor) MaxUploadBytes() int64 { return e.maxUpload }

// Execute fires one action: the gate on c.Action first, then the agent's
// input against the declared rules, the door as confirmed, the cap and the
// audit record, the submission, its completion and the notification. Any
// refusal is a *RefusedError with every reason; nothing is fired then.
func (e *Executor) Execute(ctx context.Context, c Call) (*Result, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, ErrClosed
	}
	e.active.Add(1)
	e.mu.Unlock()
	defer e.active.Done()
	if ctx == nil {
		ctx = context.Background()
	}
	// The key and the document's size, before anything reads the action.
	// A key the store cannot keep is not audited with the refusal (which
	// the store would refuse whole).
	var early []Reason
	key := c.IdempotencyKey
	if !storableKey(key) {
		early = append(early, Reason{Code: ReasonInvalidInput, Field: "idempotencyKey", Rule: "size",
			Detail: "the idempotency key must be valid UTF-8 text of at most 256 bytes", Err: ErrInvalidInput})
		key = ""
	}
	if len(c.Action) > MaxActionBytes {
		early = append(early, Reason{Code: ReasonActionTooLarge, Rule: "size",
			Detail: fmt.Sprintf("the action document is %d bytes; at most %d are read", len(c.Action), MaxActionBytes), Err: ErrInvalidInput})
	}
	if len(early) > 0 {
		return nil, e.refuse(ctx, "", key, early)
	}

	// 1. The gate, on the raw bytes, every time.
	var reasons []Reason
	actionID := ""
	act, gateErr := shared.ReadAllowedAction(ctx, c.Action, e.store)
	if err := gateErr; err != nil {
		var ue *shared.UnverifiedActionError
		if !errors.As(err, &ue) {
			return nil, e.refuse(ctx, "", c.IdempotencyKey, []Reason{{Code: string(shared.RefuseGateInternalError), Detail: err.Error(), Err: err}})
		}
		actionID = ue.ActionID
		for _, r := range ue.Reasons {
			reasons = append(reasons, Reason{Code: string(r.Reason), Field: r.Key, Detail: r.Detail, Err: ue})
		}
	}
	if gateErr != nil {
		// Refused: read the action anyway (off the hot path) so the refusal
		// names every other reason too.
		var issues []shared.Issue
		if act, issues = shared.ReadAction(c.Action); len(issues) > 0 {
			act = nil
		}
	}
	if act == nil {
		if len(reasons) == 0 { // the gate accepted what the reader refuses: impossible, refuse anyway
			reasons = append(reasons, Reason{Code: string(shared.RefuseActionInvalid), Detail: "the action does not read", Err: shared.ErrInvalidGraph})
		}
		return nil, e.refuse(ctx, actionID, c.IdempotencyKey, reasons)
	}
	actionID = act.ID

	// 2. Barriers, the door, the input: every reason, before any network.
	reasons = append(reasons, barrierReasons(act)...)
	d, doorReasons := e.chooseDoor(act)
	reasons = append(reasons, doorReasons...)
	fields, warnings, inputReasons := plan(act, c.Input, e.maxUpload)
	reasons = append(reasons, inputReasons...)
	if len(doorReasons) == 0 {
		reasons = append(reasons, fileDoorReasons(d, fields)...)
	}
	if len(reasons) > 0 {
		return nil, e.refuse(ctx, actionID, c.IdempotencyKey, reasons)
	}
	conf := confirmationOf(act)
	if conf == nil || conf.AuditRecord == nil || conf.Limits.VolumeCap == nil { // the gate guarantees all three
		return nil, e.refuse(ctx, actionID, c.IdempotencyKey, []Reason{{Code: string(shared.RefuseGateInternalError),
			Detail: "the gate passed an action without a confirmation, audit record or cap; report this as a bug", Err: ErrRefused}})
	}

	// One call's requests to the site share the cookies it sets, as a
	// browser's do: a token read from the page (Django's, Laravel's) is
	// often bound to the session cookie that page sets.
	client := e.callClient()

	// 3. Fresh system tokens from the live page (a read: nothing is sent).
	// A call the cap already refuses costs no page fetch: the store is asked
	// first (a read; BeginAttempt still decides, atomically). With an
	// idempotency key the fetch goes ahead, since a repeated key must get
	// the first result, not a refusal.
	if needsPage(fields) && !d.browser {
		if c.IdempotencyKey == "" {
			if err := e.capFull(ctx, actionID, conf); err != nil {
				return nil, err
			}
		}
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = f.name
		}
		page, err := e.fetchPage(ctx, client, d.access.URL, d.endpoint, names)
		if err != nil {
			code := ReasonPage
			sentinel := ErrPage
			if errors.Is(err, ErrOffOrigin) {
				code, sentinel = ReasonOffOrigin, ErrOffOrigin
			}
			return nil, e.refuse(ctx, actionID, c.IdempotencyKey, []Reason{{Code: code, Detail: err.Error(), Err: sentinel}})
		}
		var missing []Reason
		for i := range fields {
			f := &fields[i]
			switch f.from {
			case fromPage:
				if _, ok := page.values[f.name]; !ok {
					missing = append(missing, Reason{Code: ReasonTokenMissing, Field: f.name,
						Detail: fmt.Sprintf("the live page %s no longer carries %q; the site changed: re-map it and have the owner confirm again", d.access.URL, f.name), Err: ErrPage})
				}
				// As the page has it: a checkbox or radio group the page
				// leaves unchecked is not sent, as a browser sends none.
				v, on := page.sent[f.name]
				f.value, f.none = v, !on
			case fromCheckbox:
				if v, ok := page.boxes[f.name]; ok {
					f.value = v
				} else {
					f.value = "on"
				}
			}
		}
		if len(missing) > 0 {
			return nil, e.refuse(ctx, actionID, c.IdempotencyKey, missing)
		}
	}
	onWire := wire(fields)
	sent := make([]shared.SubmittedField, 0, len(onWire))
	var sentFiles []SentFile
	for _, f := range onWire {
		if f.file != nil {
			sentFiles = append(sentFiles, f.file.record(f.name))
			continue
		}
		sent = append(sent, shared.SubmittedField{Name: f.name, Value: f.value})
	}
	req := request{Transport: string(d.transport), Endpoint: d.endpoint, Enctype: d.enctype, ToolName: d.toolName, Fields: sent, Files: sentFiles}
	reqJSON, err := encodeRequest(req)
	if err != nil {
		return nil, fmt.Errorf("executor: encode the request: %w", err)
	}
	if len(reqJSON) > audit.MaxRequest {
		// The store would refuse to begin the attempt (with a plain error,
		// not audited): refuse it here, audited, before anything is sent.
		return nil, e.refuse(ctx, actionID, c.IdempotencyKey, []Reason{{Code: ReasonInvalidInput, Rule: "size", Err: ErrInvalidInput,
			Detail: fmt.Sprintf("the request is %d bytes as the audit log records it (JSON); the audit store keeps at most %d (audit.MaxRequest), so nothing was sent: send shorter values", len(reqJSON), audit.MaxRequest)}})
	}

	// 4. The attempt, before the network call: the cap, the idempotency key
	// and the audit record's revocation are decided here, atomically, by
	// the store. This instance's lease is renewed first when it is old,
	// so that no other instance takes the attempt for abandoned while it
	// is in flight.
	e.live.inflight.Add(1)
	defer e.live.inflight.Add(-1)
	e.renewLease(ctx)
	att, err := e.store.BeginAttempt(ctx, audit.Begin{
		ActionID: actionID, AuditRef: *conf.AuditRecord, IdempotencyKey: c.IdempotencyKey,
		Cap: *conf.Limits.VolumeCap, Request: reqJSON, At: e.now().UTC(), Instance: e.instance,
	})
	switch {
	case errors.Is(err, audit.ErrDuplicate):
		if differ := agentInputDiffers(act, att.Request, req); differ != "" {
			return nil, e.refuse(ctx, actionID, c.IdempotencyKey, []Reason{{Code: ReasonIdempotency, Err: ErrIdempotencyConflict,
				Detail: fmt.Sprintf("the idempotency key was first used for this action with other input (%s; attempt %s), and nothing was sent now: a key names one call, so give a new key for a new call", differ, att.ID)}})
		}
		return duplicateResult(att)
	case errors.Is(err, audit.ErrCapReached):
		return nil, capRefusal(actionID, conf.Limits.VolumeCap)
	case errors.Is(err, audit.ErrRevoked):
		// Revoked after the gate's check (while the page was fetched, say):
		// the store refused and audited it in the attempt's transaction.
		r := shared.Refusal{Reason: shared.RefuseConfirmationRevoked, Err: err,
			Detail: fmt.Sprintf("the owner revoked the confirmation recorded as %q while this call was prepared; nothing was sent", *conf.AuditRecord)}
		return nil, &RefusedError{ActionID: actionID, Reasons: []Reason{{Code: string(r.Reason), Detail: r.Detail,
			Err: &shared.UnverifiedActionError{ActionID: actionID, Reasons: []shared.Refusal{r}}}}}
	case err != nil:
		return nil, fmt.Errorf("executor: begin the attempt (nothing was sent): %w", err)
	}
	// A call that ends between here and its completion record without
	// returning — a panic in the submission (a caller's HTTP transport, a
	// page that trips the executor up), which goes on to the caller — still
	// completes its attempt, outcome unknown, rather than leaving it
	// pending while the process lives.
	completing := false
	defer func() {
		if completing {
			return
		}
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := e.store.CompleteAttempt(actx, att.ID, audit.Completion{Outcome: outcomeUnknown, At: e.now().UTC(),
			Error: "the call ended before its outcome was known (a panic mid-call): the submission may have been sent"}); err != nil {
			e.log.Error("executor: an attempt cut short mid-call was not completed in the audit store; RecoverAbandoned will mark it outcome unknown",
				"attempt", att.ID, "err", err)
		}
	}()

	// 5. The submission.
	res := &Result{AttemptID: att.ID, Sent: sent, Files: sentFiles, Endpoint: d.endpoint, Warnings: warnings}
	var out outcome
	if d.browser {
		out = e.fireBrowser(ctx, d, fields)
	} else {
		out = e.fireHTTP(ctx, client, d, onWire)
	}
	res.Status, res.Response = out.status, out.response
	if out.sent != nil {
		res.Sent, res.Files = out.sent, out.files
	}
	if out.endpoint != "" {
		res.Endpoint = out.endpoint
	}
	if out.outcome == outcomeFailed { // failed: nothing left for the site
		res.Sent, res.Files = []shared.SubmittedField{}, nil
	}
	res.Warnings = append(res.Warnings, out.warnings...)

	// 6. Its completion, whatever the caller's context does now.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	comp := audit.Completion{Outcome: out.outcome, Status: out.status, Response: []byte(out.response), At: e.now().UTC()}
	if out.err != nil {
		comp.Error = out.err.Error()
	}
	if out.sent != nil && out.outcome != outcomeFailed {
		// The page itself sent it (a browser door): what it really sent —
		// its own tokens, fields the action does not record — is known only
		// now, and the audit keeps it beside the plan recorded at begin.
		got := request{Transport: req.Transport, Endpoint: res.Endpoint, Enctype: req.Enctype, ToolName: req.ToolName, Fields: res.Sent, Files: res.Files}
		if b, err := encodeRequest(got); err == nil {
			comp.Sent = b
		}
	}
	// A target that is not sent to (an email address, no signing secret)
	// is recorded with the completion; a webhook goes out after it.
	notSent := ""
	if out.outcome == outcomeFired {
		notSent = e.notify.notSent(conf.Limits.Notify)
		if notSent != "" {
			comp.Notifications = []audit.Notification{{Try: 1, Error: notSent, At: comp.At}}
		}
	}
	completing = true
	if err := e.store.CompleteAttempt(cctx, att.ID, comp); err != nil {
		return res, fmt.Errorf("executor: attempt %s was %s but its completion was not recorded (RecoverAbandoned will mark it unknown): %w", att.ID, out.outcome, err)
	}
	if out.outcome == outcomeFired && notSent == "" {
		e.notify.send(att.ID, actionID, conf.Limits.Notify, res)
	}
	if out.err != nil {
		return res, fmt.Errorf("executor: attempt %s %s: %w", att.ID, out.outcome, out.err)
	}
	return res, nil
}

// encodeRequest encodes what the audit log keeps of a request as JSON,
// without HTML escaping: encoding/json's default writes each <, > and & as
// six bytes (\u003c), so that input within the bounds (MaxValueBytes per
// value) could make the record six times its size and over
// audit.MaxRequest.
func encodeRequest(req request) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func capRefusal(actionID string, vc *shared.VolumeCap) *RefusedError {
	return &RefusedError{ActionID: actionID, Reasons: []Reason{{Code: ReasonCapReached,
		Detail: fmt.Sprintf("the owner's cap of %d per %s is used up for this %s", vc.Max, vc.Per, vc.Per), Err: ErrCapReached}}}
}

// capFull refuses, before the page fetch, a call whose cap window is
// already full, auditing it as the store's cap refusals are. A store that
// cannot tell refuses nothing here: BeginAttempt decides.
func (e *Executor) capFull(ctx context.Context, actionID string, conf *shared.OwnerConfirmation) error {
	at := e.now().UTC()
	full, err := e.store.CapReached(ctx, actionID, *conf.Limits.VolumeCap, at)
	if err != nil || !full {
		return nil
	}
	vc := conf.Limits.VolumeCap
	re := capRefusal(actionID, vc)
	reason := fmt.Sprintf("cap.reached: %d of %d per %s begun in this window (refused before the page fetch)", vc.Max, vc.Max, vc.Per)
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := e.store.RecordCapRefusal(actx, actionID, "", reason, at); err != nil {
		return errors.Join(re, fmt.Errorf("executor: the refusal could not be audited: %w", err))
	}
	return re
}

// UnreadableActionID is the action id a refusal is audited under when the
// action document could not be read far enough to name its id.
const UnreadableActionID = "(unreadable action)"

// storableKey reports whether an idempotency key is one the audit store
// keeps: valid UTF-8 without a NUL byte, at most 256 bytes.
func storableKey(key string) bool {
	return len(key) <= 256 && utf8.ValidString(key) && !strings.ContainsRune(key, 0)
}

// refuse audits a refusal and returns it (joined with the audit's error
// when the store did not take it).
func (e *Executor) refuse(ctx context.Context, actionID, key string, reasons []Reason) error {
	re, err := e.audited(ctx, actionID, key, reasons)
	if err != nil {
		return errors.Join(re, err)
	}
	return re
}

// audited audits a refusal and returns it, with the audit's error when the
// store did not take it. Every text of its reasons is made storable first
// (Reason.storable), so what is returned is what is audited, and the store
// takes it.
func (e *Executor) audited(ctx context.Context, actionID, key string, reasons []Reason) (*RefusedError, error) {
	safe := make([]Reason, len(reasons))
	for i, r := range reasons {
		safe[i] = r.storable()
	}
	re := &RefusedError{ActionID: actionID, Reasons: safe}
	if actionID == "" {
		actionID = UnreadableActionID
	}
	filed := filedActionID(actionID)
	if filed != escapeStorable(actionID) {
		re.ActionID = filed // the name it is filed under, not 64 KiB and more of id
	}
	actionID = filed
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := e.store.RecordRefusal(actx, actionID, key, re.strings(), e.now().UTC()); err != nil {
		return re, fmt.Errorf("executor: the refusal could not be audited: %w", err)
	}
	return re, nil
}

// filedActionID is the action id a refusal is filed under: the id, made
// storable, never cut — or, for one longer than the audit store keeps a
// text (audit.MaxText), which it could not file at all, its first KiB and
// the SHA-256 of the whole id.
func filedActionID(id string) string {
	s := escapeStorable(id)
	if len(s) <= audit.MaxText {
		return s
	}
	sum := sha256.Sum256([]byte(id))
	return shared.Clip(s, 1<<10) + " (sha256 " + hex.EncodeToString(sum[:]) + ")"
}

// Refuse audits a refusal decided in front of the executor, before Execute
// is called — the MCP server's check of a tool call's arguments against the
// tool's schema, say — as Execute audits its own: under actionID (or
// UnreadableActionID when it is ""), with the idempotency key when the
// store can keep it, every text made storable. It returns the refusal as
// audited (and as it is to be shown), and the audit's error when the store
// did not take it. Nothing is sent. A refusal needs a reason: with none,
// one saying so is given.
func (e *Executor) Refuse(ctx context.Context, actionID, idempotencyKey string, reasons []Reason) (*RefusedError, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !storableKey(idempotencyKey) {
		idempotencyKey = ""
	}
	if len(reasons) == 0 {
		reasons = []Reason{{Code: string(shared.RefuseGateInternalError), Detail: "refused without a reason given; report this as a bug", Err: ErrRefused}}
	}
	return e.audited(ctx, actionID, idempotencyKey, reasons)
}

// agentInputDiffers says how what the agent gave this call (req) differs
// from what it gave the first call made under the same idempotency key
// (first, that attempt's recorded request), or "" when it does not: each
// agent-fillable input whose values or files differ, by name — never by
// value, since the detail is audited and shown. What the live page
// supplied (tokens) may differ between the two and is not compared. A
// first request that does not decode differs.
func agentInputDiffers(act *shared.Action, first []byte, req request) string {
	var prev request
	if err := json.Unmarshal(first, &prev); err != nil {
		return "the first call's request cannot be read"
	}
	type given struct {
		values []string
		files  []SentFile
	}
	pick := func(r request) map[string]*given {
		out := map[string]*given{}
		at := func(name string) *given {
			if out[name] == nil {
				out[name] = &given{}
			}
			return out[name]
		}
		for _, f := range r.Fields {
			at(f.Name).values = append(at(f.Name).values, f.Value)
		}
		for _, f := range r.Files {
			at(f.Field).files = append(at(f.Field).files, f)
		}
		return out
	}
	was, now := pick(prev), pick(req)
	var differ []string
	seen := map[string]bool{}
	for _, in := range act.Inputs {
		if !in.AgentFillable || seen[in.Name] {
			continue
		}
		seen[in.Name] = true
		a, b := was[in.Name], now[in.Name]
		if a == nil {
			a = &given{}
		}
		if b == nil {
			b = &given{}
		}
		if !slices.Equal(a.values, b.values) || !slices.Equal(a.files, b.files) {
			differ = append(differ, fmt.Sprintf("%q", in.Name))
		}
	}
	switch len(differ) {
	case 0:
		return ""
	case 1:
		return "input " + differ[0] + " differs"
	}
	return "inputs " + strings.Join(differ, ", ") + " differ"
}

// duplicateResult is the first attempt's result for a repeated idempotency
// key: what it sent (what the page really sent, for a browser door, once
// completed; the request recorded at begin otherwise; nothing when it
// failed) and what the site answered, once it has. A first attempt that
// did not fire — failed, of unknown outcome, or still in flight — comes
// with a *FirstCallError, as the first call itself came with an error: a
// repeat is never passed off as a firing that did not happen.
func duplicateResult(att audit.Attempt) (*Result, error) {
	res := &Result{AttemptID: att.ID, Duplicate: true, Sent: []shared.SubmittedField{}}
	sent := att.Request
	if c := att.Completed; c != nil && c.Sent != nil {
		sent = c.Sent
	}
	var req request
	if json.Unmarshal(sent, &req) == nil {
		res.Endpoint = req.Endpoint
		if req.Fields != nil {
			res.Sent = req.Fields
		}
		res.Files = req.Files
	}
	c := att.Completed
	if c != nil {
		res.Status, res.Response = c.Status, string(c.Response)
	}
	switch {
	case c == nil && att.Unknown:
		return res, &FirstCallError{AttemptID: att.ID, Outcome: outcomeUnknown}
	case c == nil:
		return res, &FirstCallError{AttemptID: att.ID, Outcome: outcomePending}
	case c.Outcome == outcomeFailed: // nothing was sent, as the first call's Result said
		res.Sent, res.Files = []shared.SubmittedField{}, nil
		return res, &FirstCallError{AttemptID: att.ID, Outcome: c.Outcome, Detail: c.Error}
	case c.Outcome != outcomeFired:
		return res, &FirstCallError{AttemptID: att.ID, Outcome: c.Outcome, Detail: c.Error}
	}
	return res, nil
}

// confirmationOf returns the owner confirmation of an action the gate passed.
func confirmationOf(a *shared.Action) *shared.OwnerConfirmation {
	switch v := a.Verification.(type) {
	case shared.Verified:
		return &v.Confirmation
	case *shared.Verified:
		return &v.Confirmation
	}
	return nil
}

// barrierReasons refuses every barrier: the executor never solves a CAPTCHA,
// never signs in, never pays, never passes a bot challenge.
func barrierReasons(a *shared.Action) []Reason {
	var out []Reason
	for _, b := range a.Barriers {
		what := map[shared.BarrierKind]string{
			shared.BarrierCaptcha:      "a CAPTCHA; the executor never solves one",
			shared.BarrierLogin:        "a login; the executor never signs in",
			shared.BarrierBotChallenge: "a bot challenge; the executor never passes one",
			shared.BarrierPaymentWall:  "a payment wall; the executor never pays",
		}[b.Kind]
		if what == "" {
			what = "a barrier of unknown kind; the executor passes none"
		}
		detail := "the action is behind " + what
		if b.Detail != nil && *b.Detail != "" {
			detail += " (" + shared.Clip(*b.Detail, 200) + ")"
		}
		out = append(out, Reason{Code: ReasonBarrier, Field: string(b.Kind), Detail: detail, Err: ErrBarrier})
	}
	return out
}

// door is the door a call goes through.
type door struct {
	access    *shared.Access
	transport shared.Transport
	endpoint  string
	enctype   string
	toolName  string
	browser   bool
}

// recordsEndpoint reports whether the door's submission records its
// endpoint (the consent digest binds it): a browser door then lets the
// page send nowhere else. A browser door without one is sent to its page's
// URL, which endpoint holds then, so endpoint alone cannot say.
func (d door) recordsEndpoint() bool {
	return d.access != nil && d.access.Submission != nil && deref(d.access.Submission.Endpoint) != ""
}

// chooseDoor takes the action's door — door.Of, the one rule the
// verifier's sandbox follows too, so the door that fires is the door the
// owner was shown a run of — and checks that it can be fired as recorded
// and stays on the confirmed origin. It never falls back to another door.
func (e *Executor) chooseDoor(a *shared.Action) (door, []Reason) {
	acc, i := doors.Of(a)
	if acc == nil {
		detail := "the action has no door with a submission"
		var seen []string
		for j := range a.Access {
			d := &a.Access[j]
			what := string(d.Method)
			switch {
			case d.Opaque:
				what += " (opaque)"
			case d.Submission != nil:
				what += " (" + string(d.Submission.Transport) + ")"
			}
			seen = append(seen, what)
		}
		if len(seen) > 0 {
			detail = fmt.Sprintf("no door has a submission the executor can make (it has %s)", strings.Join(seen, ", "))
		}
		return door{}, []Reason{{Code: ReasonNoDoor, Detail: detail, Err: ErrNoDoor}}
	}
	if !doors.Sendable(acc) {
		what := "no submission"
		if sub := acc.Submission; sub != nil {
			what = "transport " + string(sub.Transport)
			if ep := deref(sub.Endpoint); ep == "" {
				what += " and no endpoint"
			} else {
				what += " to " + shared.Clip(ep, 200)
			}
		}
		return door{}, []Reason{{Code: ReasonNoDoor, Detail: fmt.Sprintf("the action's door, access[%d] (%s, the one the sandbox runs), records %s, which the executor cannot send; it fires no other door: re-map the site and have the owner confirm again", i, acc.Method, what), Err: ErrNoDoor}}
	}
	sub := acc.Submission
	chosen := &door{access: acc, transport: sub.Transport, endpoint: deref(sub.Endpoint), enctype: deref(sub.Enctype), toolName: deref(acc.ToolName)}
	if sub.Transport == shared.TransportJavascriptOnly || sub.Transport == shared.TransportWebMCPExecute {
		chosen.browser = true
		if chosen.endpoint == "" {
			chosen.endpoint = acc.URL
		}
	}
	if chosen.browser && e.browser == nil {
		return door{}, []Reason{{Code: ReasonNoDoor, Detail: fmt.Sprintf("the door is %s and needs a browser: give Options.Browser", chosen.transport), Err: ErrNoDoor}}
	}
	// Only where the owner confirmed: the digest binds the door's url and
	// endpoint; both must be on one http(s) origin.
	page, perr := url.Parse(chosen.access.URL)
	ep, eerr := url.Parse(chosen.endpoint)
	switch {
	case perr != nil || eerr != nil || (page.Scheme != "http" && page.Scheme != "https") || page.Host == "":
		return door{}, []Reason{{Code: ReasonOffOrigin, Detail: fmt.Sprintf("the door's page %q is not an http(s) URL", shared.Clip(chosen.access.URL, 200)), Err: ErrOffOrigin}}
	case weborigin.Of(page) != weborigin.Of(ep):
		return door{}, []Reason{{Code: ReasonOffOrigin, Detail: fmt.Sprintf("the endpoint %s is not on the page's origin %s; the executor submits only on the confirmed origin", shared.Clip(chosen.endpoint, 200), weborigin.Of(page)), Err: ErrOffOrigin}}
	}
	return *chosen, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// sameOriginRedirects follows a redirect only on the origin of the request
// that was redirected, at most five times; otherwise the redirect itself
// is the answer.
func sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 || weborigin.Of(req.URL) != weborigin.Of(via[0].URL) {
		return http.ErrUseLastResponse
	}
	return nil
}

func needsPage(fields []planned) bool {
	for _, f := range fields {
		if f.from == fromPage || f.from == fromCheckbox {
			return true
		}
	}
	return false
}

// Outcomes recorded in the audit log.
const (
	outcomeFired   = "fired"
	outcomeFailed  = "failed"
	outcomeUnknown = "unknown"
	// outcomePending is not recorded: an attempt begun and not yet
	// completed (FirstCallError.Outcome).
	outcomePending = "pending"
)

type outcome struct {
	outcome  string
	status   int
	response string
	err      error
	warnings []string
	endpoint string                  // where a browser page's submission went ("" for an HTTP door)
	sent     []shared.SubmittedField // what a browser page actually sent, when it differs from the plan
	files    []SentFile              // the files it sent, with sent
}

// callClient is the client of one call's requests to the site: the
// executor's, with a cookie jar of the call's own when Options.HTTPClient
// brings none, so the submission carries the cookies the page read for
// its tokens set (and no other call's).
func (e *Executor) callClient() *http.Client {
	if e.client.Jar != nil {
		return e.client
	}
	c := *e.client
	c.Jar, _ = cookiejar.New(nil) // never fails without options
	return &c
}

// fireHTTP sends the submission as its door records it, with client.
func (e *Executor) fireHTTP(ctx context.Context, client *http.Client, d door, fields []planned) outcome {
	var (
		body        io.Reader
		contentType string
		method      = http.MethodPost
		target      = d.endpoint
	)
	switch d.transport {
	case shared.TransportFormGet:
		method = http.MethodGet
		u, err := url.Parse(d.endpoint)
		if err != nil {
			return outcome{outcome: outcomeFailed, err: err}
		}
		u.RawQuery = urlencode(fields) // a GET form replaces the action's query
		target = u.String()
	case shared.TransportJSONEndpoint:
		body, contentType = bytes.NewReader(jsonBody(fields)), "application/json"
	default: // form-post
		if isMultipart(d.enctype) {
			b, ct, err := multipartBody(fields)
			if err != nil {
				return outcome{outcome: outcomeFailed, err: err}
			}
			body, contentType = b, ct
		} else {
			body, contentType = strings.NewReader(urlencode(fields)), "application/x-www-form-urlencoded"
		}
	}
	wrote := false
	var mu sync.Mutex
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) {
		mu.Lock()
		wrote = true
		mu.Unlock()
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), method, target, body)
	if err != nil {
		return outcome{outcome: outcomeFailed, err: err}
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("User-Agent", userAgent)
	if p, err := url.Parse(d.access.URL); err == nil {
		req.Header.Set("Origin", weborigin.Of(p))
		req.Header.Set("Referer", d.access.URL)
	}
	resp, err := client.Do(req)
	if err != nil {
		mu.Lock()
		w := wrote
		mu.Unlock()
		if w {
			return outcome{outcome: outcomeUnknown, err: fmt.Errorf("the request was sent but no answer came: %w", err)}
		}
		return outcome{outcome: outcomeFailed, err: fmt.Errorf("the request was not sent: %w", err)}
	}
	defer resp.Body.Close()
	excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, e.maxBody))
	out := outcome{outcome: outcomeFired, status: resp.StatusCode, response: strings.ToValidUTF8(string(excerpt), "\uFFFD")}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		loc := shared.Clip(resp.Header.Get("Location"), 200)
		if redirectOffOrigin(resp) {
			out.warnings = append(out.warnings, fmt.Sprintf("the site redirected to %q, another origin, which was not followed", loc))
		} else {
			out.warnings = append(out.warnings, fmt.Sprintf("the site's redirect (%d) to %q was not followed: %s", resp.StatusCode, loc, redirectsOnOrigin))
		}
	}
	return out
}

// redirectsOnOrigin says why a redirect on a request's own origin was not
// followed.
const redirectsOnOrigin = "at most five redirects on the request's own origin are followed, and only with a Location"

// redirectOffOrigin reports whether resp, a redirect the client did not
// follow, points to another origin than the request it answers. One on
// the same origin was not followed because it came past the fifth
// (sameOriginRedirects) or has no Location to follow.
func redirectOffOrigin(resp *http.Response) bool {
	loc, err := resp.Location()
	return err == nil && resp.Request != nil && weborigin.Of(loc) != weborigin.Of(resp.Request.URL)
}

// jsonBody encodes fields as one JSON object in order; the values of a
// multi-valued input are one array, where its first value stands.
func jsonBody(fields []planned) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	done := map[string]bool{}
	for _, f := range fields {
		if done[f.name] {
			continue
		}
		done[f.name] = true
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		var v []byte
		if f.multi {
			v, _ = json.Marshal(multiValues(fields, f.name))
		} else {
			v, _ = json.Marshal(f.value)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// multiValues returns the values planned under name, in order ([] for a
// multi-valued input with nothing chosen).
func multiValues(fields []planned, name string) []string {
	out := []string{}
	for _, f := range fields {
		if f.name == name && !f.none {
			out = append(out, f.value)
		}
	}
	return out
}

// urlencode encodes fields in order, as a browser does.
func urlencode(fields []planned) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(f.name))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(f.value))
	}
	return b.String()
}
