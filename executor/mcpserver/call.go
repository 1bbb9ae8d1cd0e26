package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MetaIdempotencyKey is the tools/call _meta key under which a client may
// pass an idempotency key: a repeated key returns the first result and
// fires nothing.
const MetaIdempotencyKey = "dev.frontlatch/idempotencyKey"

// Reason codes this package gives, besides the gate's (shared.RefusalReason
// values such as "confirmation.revoked") and the executor's (executor.Reason*).
const (
	// ReasonToolUnknown: the graph no longer defines the tool, or cannot be
	// read.
	ReasonToolUnknown = "tool.unknown"
	// ReasonRefused: the executor refused without a more precise reason.
	ReasonRefused = "executor.refused"
	// ReasonFailed: the executor could not tell whether the action fired
	// (the store or the site failed mid-way); the audit log has the attempt.
	ReasonFailed = "executor.failed"
)

// Output is the structured content of a tool call the executor carried
// out: exactly what was sent, where, and what the site answered.
type Output struct {
	Tool      string                  `json:"tool"`
	ActionID  string                  `json:"actionId"`
	AttemptID string                  `json:"attemptId"`
	Endpoint  string                  `json:"endpoint"`
	Sent      []shared.SubmittedField `json:"sent"`
	// Files are the files sent: name, media type, size and SHA-256, never
	// their bytes.
	Files    []executor.SentFile `json:"files,omitempty"`
	Status   int                 `json:"status"`
	Response string              `json:"response"`
	Warnings []string            `json:"warnings"`
	// Duplicate: the idempotency key was seen before; this is the first
	// call's result and nothing fired now.
	Duplicate bool `json:"duplicate"`
}

// Refusal is the structured content of a tool error: the call fired
// nothing (Outcome "refused"), or the executor could not tell (Outcome
// "failed"; see the audit log).
type Refusal struct {
	Tool     string            `json:"tool"`
	ActionID string            `json:"actionId,omitempty"`
	Outcome  string            `json:"outcome"`
	Error    string            `json:"error"`
	Reasons  []executor.Reason `json:"reasons"`
	// Attempt is what was sent, when the executor sent something and then
	// failed (Outcome "failed").
	Attempt *Output `json:"attempt,omitempty"`
}

// handler serves the tool name, which the graph defined for the action
// actionID when it was added.
func (s *Server) handler(name, actionID string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.call(ctx, name, actionID, req), nil
	}
}

// call checks and fires one tool call to the tool name, defined for the
// action actionID when it was added. Every failure is a tool error, and
// every refusal is audited: one of a tool the graph no longer defines, or
// cannot say (it cannot be read), under actionID.
func (s *Server) call(ctx context.Context, name, actionID string, req *mcp.CallToolRequest) *mcp.CallToolResult {
	key, keyReason := idempotencyKey(req)
	snap, err := s.current(ctx)
	if err != nil {
		return s.refuse(ctx, name, actionID, key, err, []executor.Reason{{Code: ReasonToolUnknown, Detail: err.Error()}})
	}
	def := snap.tools[name]
	if def == nil {
		err := fmt.Errorf("mcpserver: the graph no longer defines tool %q", name)
		return s.refuse(ctx, name, actionID, key, err, []executor.Reason{{Code: ReasonToolUnknown, Detail: err.Error()}})
	}
	var raw json.RawMessage
	if req.Params != nil {
		raw = req.Params.Arguments
	}
	args, reasons := def.checkArguments(raw)
	switch {
	case len(reasons) > 0:
		if keyReason != nil {
			reasons = append(reasons, *keyReason)
		}
		return s.refuse(ctx, name, def.actionID, key, errors.New("mcpserver: the arguments do not match the tool's input schema; nothing was sent"), reasons)
	case keyReason != nil:
		return s.refuse(ctx, name, def.actionID, key, errors.New("mcpserver: the idempotency key is not a string; nothing was sent"), []executor.Reason{*keyReason})
	}
	action, err := snap.action(def.actionID)
	if err != nil {
		return s.refuse(ctx, name, def.actionID, key, err, []executor.Reason{{Code: ReasonToolUnknown, Detail: err.Error()}})
	}
	res, err := s.exec.Execute(ctx, executor.Call{Action: action, Input: args, IdempotencyKey: key})
	if err != nil {
		outcome := "failed"
		if errors.Is(err, executor.ErrRefused) || errors.Is(err, executor.ErrClosed) { // closed: nothing begun, nothing sent
			outcome = "refused"
		}
		r := refusal(name, def.actionID, outcome, err, reasonsOf(err, outcome))
		if res != nil { // sent, then failed: say what was sent
			out := outputOf(name, def.actionID, res)
			r.StructuredContent.(*Refusal).Attempt = &out
		}
		return r
	}
	return success(name, def.actionID, res)
}

// refuse audits a refusal of a call to the action actionID decided here,
// before the executor is called (its arguments, its idempotency key), as
// the executor audits its own, and returns it as a tool error: the reasons
// as audited, and msg with the audit's error when the store did not take
// it.
func (s *Server) refuse(ctx context.Context, name, actionID, key string, msg error, reasons []executor.Reason) *mcp.CallToolResult {
	re, err := s.exec.Refuse(ctx, actionID, key, reasons)
	if err != nil {
		msg = errors.Join(msg, err)
	}
	return refusal(name, actionID, "refused", msg, re.Reasons)
}

// current returns the graph as it is now, re-checking every action first
// when it changed since the last re-check. A re-check cut short leaves the
// last snapshot listed; the call then goes by the bytes it read, compiled
// for it alone (the executor's gate decides on them), never by the
// snapshot of a graph the file no longer holds.
func (s *Server) current(ctx context.Context) (*snapshot, error) {
	data, err := s.graph.Read(ctx)
	if err != nil {
		_ = s.Refresh(ctx) // nothing stays listed
		return nil, &GraphError{Source: s.graph.String(), Err: err}
	}
	sum := sumOf(data)
	s.mu.Lock()
	snap := s.snap
	s.mu.Unlock()
	if snap == nil || snap.graph == nil || snap.sum != sum {
		_ = s.Refresh(ctx)
		s.mu.Lock()
		snap = s.snap
		s.mu.Unlock()
		if snap == nil || snap.graph == nil || snap.sum != sum {
			snap = compile(s.graph.String(), data)
		}
	}
	if snap.err != nil {
		return nil, snap.err
	}
	return snap, nil
}

// idempotencyKey reads the call's idempotency key from its _meta: "" when
// _meta has none. One that is there but not a string (a number, an object,
// null…) is a reason to refuse the call: ignored, it would let every repeat
// fire again.
func idempotencyKey(req *mcp.CallToolRequest) (string, *executor.Reason) {
	if req.Params == nil {
		return "", nil
	}
	v, given := req.Params.Meta[MetaIdempotencyKey]
	if !given {
		return "", nil
	}
	k, ok := v.(string)
	if !ok {
		return "", &executor.Reason{Code: executor.ReasonInvalidInput, Field: MetaIdempotencyKey, Rule: "type", Err: executor.ErrInvalidInput,
			Detail: fmt.Sprintf("the idempotency key (_meta %q) must be a string, not %s: nothing was sent, since a key that is not read would let every repeat fire again", MetaIdempotencyKey, jsonKind(v))}
	}
	return k, nil
}

// reasonsOf lists every reason err carries: the executor's (the gate's
// among them), or err itself.
func reasonsOf(err error, outcome string) []executor.Reason {
	var refused *executor.RefusedError
	if errors.As(err, &refused) && len(refused.Reasons) > 0 {
		return refused.Reasons
	}
	var gate *shared.UnverifiedActionError
	if errors.As(err, &gate) {
		var out []executor.Reason
		for _, r := range gate.Reasons {
			out = append(out, executor.Reason{Code: string(r.Reason), Field: r.Key, Detail: r.Detail})
		}
		return out
	}
	code := ReasonRefused
	if outcome == "failed" {
		code = ReasonFailed
	}
	return []executor.Reason{{Code: code, Detail: err.Error()}}
}

func refusal(tool, actionID, outcome string, err error, reasons []executor.Reason) *mcp.CallToolResult {
	r := &Refusal{Tool: tool, ActionID: actionID, Outcome: outcome, Error: err.Error(), Reasons: reasons}
	var b strings.Builder
	if outcome == "refused" {
		fmt.Fprintf(&b, "Refused: nothing was sent. %s\n", oneLine(err.Error()))
	} else {
		fmt.Fprintf(&b, "Failed: it is not known whether the action fired; the audit log has the attempt. %s\n", oneLine(err.Error()))
	}
	for _, re := range reasons {
		b.WriteString("- ")
		b.WriteString(oneLine(re.String()))
		b.WriteByte('\n')
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, StructuredContent: r}
	res.SetError(err)
	return res
}

func outputOf(tool, actionID string, r *executor.Result) Output {
	out := Output{
		Tool: tool, ActionID: actionID, AttemptID: r.AttemptID, Endpoint: r.Endpoint,
		Sent: r.Sent, Files: r.Files, Status: r.Status, Response: r.Response, Warnings: r.Warnings, Duplicate: r.Duplicate,
	}
	if out.Sent == nil {
		out.Sent = []shared.SubmittedField{}
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out
}

func success(tool, actionID string, r *executor.Result) *mcp.CallToolResult {
	out := outputOf(tool, actionID, r)
	var b strings.Builder
	if r.Duplicate {
		fmt.Fprintf(&b, "Nothing was sent now: this idempotency key was used before (attempt %s). The first call's result:\n", r.AttemptID)
	}
	fmt.Fprintf(&b, "Sent to %s (attempt %s):\n", oneLine(r.Endpoint), r.AttemptID)
	for _, f := range out.Sent {
		fmt.Fprintf(&b, "- %s = %q\n", oneLine(f.Name), f.Value)
	}
	for _, f := range out.Files {
		fmt.Fprintf(&b, "- %s = file %q (%s, %d bytes, sha256 %s)\n", oneLine(f.Field), f.Name, oneLine(f.MediaType), f.Size, f.SHA256)
	}
	// The site's answer is quoted (it is the site's text, not ours) and
	// clipped; the structured content has the executor's whole excerpt.
	fmt.Fprintf(&b, "The site answered HTTP %d: %q\n", r.Status, shared.Clip(r.Response, textExcerpt))
	for _, w := range out.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", oneLine(w))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, StructuredContent: out}
}

// oneLine keeps a string that a site or its graph may have chosen (a field
// name a page sent, a media type, a warning or reason quoting the site) on
// its line of a result's text: as it is when it is printable text, else
// quoted as a Go string, so that a newline, a line separator or a control
// or formatting character in it cannot forge lines of the result — a
// site's answer, a warning, an instruction to the agent. The structured
// content carries every string as it is.
func oneLine(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// textExcerpt bounds the site's answer in the text content.
const textExcerpt = 600
