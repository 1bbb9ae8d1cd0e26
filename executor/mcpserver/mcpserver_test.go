package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The list is the compiler's definitions of the actions that pass the gate:
// same names, titles, descriptions and input schemas, over both transports.
func TestListIsTheCompilersDefinitions(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, tr)
			res, err := c.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []compiledTool
			for _, ct := range compiledTools(t, e.graph) {
				if ct.actionID == actionID {
					want = append(want, ct)
				}
			}
			var got []compiledTool
			for _, tl := range res.Tools {
				var ct compiledTool
				remarshal(t, tl, &ct)
				got = append(got, ct)
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(compiledTool{}), cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".actionID" || p.Last().String() == ".door"
			}, cmp.Ignore())); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}
			if len(got) != 1 {
				t.Fatalf("%d tools listed, want the one confirmed action's", len(got))
			}
		})
	}
}

// An action with two executable doors is served as one tool: its door's
// (door.Of: the form, which the sandbox ran and the executor fires), not a
// tool named for a WebMCP door that would fire the form all the same. The
// compiler defines both; calling the other is a protocol error and fires
// nothing.
func TestOneToolPerAction(t *testing.T) {
	webmcpFirst := func(g *shared.ActionGraph) {
		for i := range g.Actions {
			a := &g.Actions[i]
			if a.ID != actionID {
				continue
			}
			form := a.Access[0]
			tool := "request_callback"
			w := shared.Access{Method: shared.AccessWebMCPTool, URL: form.URL, ToolName: &tool,
				Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Occurrences: 1, Provenance: form.Provenance}
			a.Access = append([]shared.Access{w}, a.Access...)
		}
	}
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnvEdited(t, audittest.Open(t, audittest.URL(t, audit.DriverSQLite)), 10, testInterval, webmcpFirst)
			var served, other string
			for _, ct := range compiledTools(t, e.graph) {
				switch {
				case ct.actionID != actionID:
				case ct.door == 0:
					other = ct.Name
				default:
					served = ct.Name
				}
			}
			if served == "" || other == "" {
				t.Fatalf("the compiler defines form tool %q and WebMCP tool %q: want both", served, other)
			}
			c := e.connect(t, tr)
			if diff := cmp.Diff([]string{served}, c.listNames(t)); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}
			if _, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: other, Arguments: goodArgs()}); err == nil {
				t.Errorf("calling %s (the WebMCP door's tool): no error", other)
			}
			if n := len(e.submissions(t)); n != 0 {
				t.Errorf("%d submissions after calling the unserved tool, want 0", n)
			}
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: served, Arguments: goodArgs()})
			if err != nil {
				t.Fatal(err)
			}
			if out := outputOf(t, res); out.Tool != served {
				t.Errorf("output names tool %q, want %q", out.Tool, served)
			}
			if n := len(e.submissions(t)); n != 1 {
				t.Errorf("%d submissions after calling the form's tool, want 1", n)
			}
		})
	}
}

// An action the owner never confirmed is not listed; nor is one whose file
// says "verified" with a confirmation the store never recorded.
func TestUnverifiedAndForgedAreNeverListed(t *testing.T) {
	e := newEnv(t, 10)
	origin := fixturestest.URL(t, e.sites, site)
	mapped, err := fixtures.MappedGraph(site, origin)
	if err != nil {
		t.Fatal(err)
	}
	forged := bytes.ReplaceAll(e.graph, []byte(e.auditRef), []byte("aud_forged0000000000"))
	cases := []struct {
		name  string
		graph []byte
	}{
		{"unverified (as mapped)", mapped},
		{"verified in the file, unknown to the store", forged},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, e.graphPath, tc.graph)
			c := e.connect(t, "stdio")
			if got := c.listNames(t); len(got) != 0 {
				t.Errorf("listed %v, want nothing", got)
			}
			if got := e.server.Tools(); len(got) != 0 {
				t.Errorf("Server.Tools() = %v, want nothing", got)
			}
		})
	}
	// Back to the real confirmation: listed again.
	writeFile(t, e.graphPath, e.graph)
	if got := e.connect(t, "stdio").listNames(t); !slices.Equal(got, []string{e.tool}) {
		t.Errorf("after restoring the confirmed graph: listed %v, want [%s]", got, e.tool)
	}
}

// A call fires once, through the executor: the fixture receives exactly
// the agent's fields (the honeypot empty), and the result says what was
// sent and what the site answered.
func TestCallFires(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, tr)
			args := goodArgs()
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			out := outputOf(t, res)
			subs := e.submissions(t)
			if len(subs) != 1 {
				t.Fatalf("%d submissions reached the site, want 1", len(subs))
			}
			sub := subs[0]
			for k, v := range args {
				if got := sub.Fields.Get(k); got != v {
					t.Errorf("site received %s=%q, want %q", k, got, v)
				}
			}
			if got := sub.Fields.Get("website"); got != "" {
				t.Errorf("honeypot sent as %q, want empty", got)
			}
			sent := map[string]string{}
			for _, f := range out.Sent {
				sent[f.Name] = f.Value
			}
			for k, v := range sub.Fields {
				if sent[k] != v[0] {
					t.Errorf("result says %s=%q was sent, the site received %q", k, sent[k], v[0])
				}
			}
			if out.Status < 200 || out.Status > 399 {
				t.Errorf("status %d, want the site's success", out.Status)
			}
			if out.AttemptID == "" || out.ActionID != actionID || out.Tool != e.tool {
				t.Errorf("output %+v: want attempt, action and tool", out)
			}
			if !strings.Contains(out.Endpoint, "/callback-request") {
				t.Errorf("endpoint %q, want the confirmed /callback-request", out.Endpoint)
			}
			if txt := text(res); !strings.Contains(txt, "full_name") || !strings.Contains(txt, "Ada Lovelace") {
				t.Errorf("text content does not say what was sent:\n%s", txt)
			}
		})
	}
}

// The executor's refusals are tool errors with its reasons, and fire
// nothing: past the owner's volume cap, the second call is refused.
func TestRefusalIsAToolError(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 1)
			c := e.connect(t, tr)
			if _, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()}); err != nil {
				t.Fatal(err)
			}
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
			if err != nil {
				t.Fatal(err)
			}
			r := refusalOf(t, res)
			if r.Outcome != "refused" || len(r.Reasons) == 0 {
				t.Errorf("refusal %+v: want outcome refused with reasons", r)
			}
			if !strings.Contains(strings.ToLower(r.Error+text(res)), "cap") {
				t.Errorf("refusal does not mention the cap: %s", text(res))
			}
			if n := len(e.submissions(t)); n != 1 {
				t.Errorf("%d submissions, want 1 (the second call must not fire)", n)
			}
		})
	}
}

// Revoked while connected, on each store and over each transport: the
// client is told the list changed, the tool is gone, and calling it anyway
// is refused with the gate's reason.
func TestRevokedWhileConnected(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, s *audit.Store) { revokedWhileConnected(t, s, tr) })
		})
	}
}

func revokedWhileConnected(t *testing.T, store *audit.Store, tr string) {
	e := newEnvOn(t, store, 10, testInterval)
	c := e.connect(t, tr)
	if got := c.listNames(t); !slices.Equal(got, []string{e.tool}) {
		t.Fatalf("listed %v, want [%s]", got, e.tool)
	}
	c.drain()
	if err := e.store.RecordRevocation(t.Context(), audit.Revocation{ActionID: actionID, Ref: e.auditRef, By: executortest.Owner, At: time.Now(), Reason: "no more agent bookings"}); err != nil {
		t.Fatal(err)
	}
	c.waitChanged(t)
	e.assertGone(t, c, "confirmation.revoked")
}

// assertGone checks that the tool is no longer listed, that calling it
// anyway is refused with reason among the reasons, and that nothing
// reached the site.
func (e *env) assertGone(t *testing.T, c *client, reason string) {
	t.Helper()
	if got := c.listNames(t); len(got) != 0 {
		t.Errorf("listed %v, want nothing", got)
	}
	res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
	if err != nil {
		t.Fatal(err)
	}
	r := refusalOf(t, res)
	if !slices.Contains(codes(r), reason) {
		t.Errorf("reasons %v, want %s", codes(r), reason)
	}
	if n := len(e.submissions(t)); n != 0 {
		t.Errorf("%d submissions, want 0", n)
	}
}

// Drifted while connected: the graph file changes under the server (the
// summary the owner confirmed is not what the action says now); the tool
// leaves the list, and a call is refused with the drift named.
func TestDriftWhileConnected(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, tr)
			if got := c.listNames(t); len(got) != 1 {
				t.Fatalf("listed %v, want one tool", got)
			}
			c.drain()
			drifted := driftSummary(t, e.graph)
			writeFile(t, e.graphPath, drifted)
			c.waitChanged(t)
			e.assertGone(t, c, "disclosure.drift")
		})
	}
}

// A call to a listed tool that the graph no longer defines, or whose
// graph no longer reads, is refused with tool.unknown, fires nothing, and
// is audited under the action the tool was listed for, as every other
// refusal is (before, such a refusal left no trace).
func TestToolGoneIsAudited(t *testing.T) {
	withoutAction := func(t *testing.T, graph []byte) []byte {
		var doc map[string]any
		if err := json.Unmarshal(graph, &doc); err != nil {
			t.Fatal(err)
		}
		var kept []any
		for _, a := range doc["actions"].([]any) {
			if a.(map[string]any)["id"] != actionID {
				kept = append(kept, a)
			}
		}
		if len(kept) == len(doc["actions"].([]any)) {
			t.Fatalf("the graph has no action %s", actionID)
		}
		doc["actions"] = kept
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cases := []struct {
		name  string
		graph func(t *testing.T, graph []byte) []byte
	}{
		{"the action removed", withoutAction},
		{"the graph unreadable", func(*testing.T, []byte) []byte { return []byte(`{"actions": [`) }},
	}
	for _, tr := range transports {
		for _, tc := range cases {
			t.Run(tr+"/"+tc.name, func(t *testing.T) {
				// No re-check but the call's own: the tool is still
				// listed when it is called.
				e := newEnvOn(t, audittest.Open(t, audittest.URL(t, audit.DriverSQLite)), 10, time.Hour)
				c := e.connect(t, tr)
				if got := c.listNames(t); !slices.Equal(got, []string{e.tool}) {
					t.Fatalf("listed %v, want [%s]", got, e.tool)
				}
				writeFile(t, e.graphPath, tc.graph(t, e.graph))
				res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]string{mcpserver.ReasonToolUnknown}, codes(refusalOf(t, res))); diff != "" {
					t.Errorf("reasons (-want +got):\n%s", diff)
				}
				if n := len(e.submissions(t)); n != 0 {
					t.Errorf("%d submissions reached the site, want none", n)
				}
				rs, err := e.store.Refusals(t.Context(), actionID)
				if err != nil {
					t.Fatal(err)
				}
				if len(rs) != 1 {
					t.Fatalf("%d refusals audited under %s, want 1", len(rs), actionID)
				}
				if got := strings.Join(rs[0].Reasons, "\n"); !strings.HasPrefix(got, mcpserver.ReasonToolUnknown) {
					t.Errorf("the audited refusal is %q, want it to begin %q", got, mcpserver.ReasonToolUnknown)
				}
			})
		}
	}
}

// A call that reaches a closed executor (the server shutting down) is
// refused — nothing was begun or sent — not reported as a call of unknown
// outcome whose attempt the audit log has, as it was before.
func TestCallAfterTheExecutorClosed(t *testing.T) {
	e := newEnv(t, 10)
	c := e.connect(t, "stdio")
	if err := e.exec.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
	if err != nil {
		t.Fatal(err)
	}
	if r := refusalOf(t, res); r.Outcome != "refused" || !strings.HasPrefix(text(res), "Refused: nothing was sent.") {
		t.Errorf("outcome %q, text %q; want refused, nothing sent", r.Outcome, text(res))
	}
	if n := len(e.submissions(t)); n != 0 {
		t.Errorf("%d submissions reached the site, want none", n)
	}
}

// driftSummary changes the action's side-effect summary (not the one the
// owner was shown, inside the confirmation).
func driftSummary(t *testing.T, graph []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(graph, &doc); err != nil {
		t.Fatal(err)
	}
	for _, a := range doc["actions"].([]any) {
		a := a.(map[string]any)
		if a["id"] == actionID {
			a["sideEffects"].(map[string]any)["summary"] = "Asks the business to phone the customer back. A $90 call-out fee applies."
		}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Bad input from an agent gets a clear error and fires nothing: a tool
// that does not exist is a protocol error; wrong types, unknown keys,
// missing required fields and non-object arguments are tool errors naming
// the field.
func TestBadCallsFireNothing(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, tr)
			if _, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: goodArgs()}); err == nil {
				t.Error("calling a tool that does not exist: no error")
			}
			with := func(k string, v any) map[string]any {
				a := goodArgs()
				if v == nil {
					delete(a, k)
				} else {
					a[k] = v
				}
				return a
			}
			cases := []struct {
				name  string
				args  any
				field string
			}{
				{"number for a string", with("phone", 5), "phone"},
				{"object for a string", with("full_name", map[string]any{"first": "Ada"}), "full_name"},
				{"not one of the options", with("call_window", "midnight"), "call_window"},
				{"unknown key", with("coupon", "FREE"), "coupon"},
				{"honeypot from the agent", with("website", "http://spam.example"), "website"},
				{"required field missing", with("phone", nil), "phone"},
				{"too long", with("full_name", strings.Repeat("A", 101)), "full_name"},
				{"arguments not an object", []any{1, 2}, ""},
			}
			refusals := func(t *testing.T) []audit.Refusal {
				rs, err := e.store.Refusals(t.Context(), actionID)
				if err != nil {
					t.Fatal(err)
				}
				return rs
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					before := len(refusals(t))
					res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: tc.args})
					if err != nil {
						// The SDK client may refuse to send a non-object; that fires nothing either.
						if tc.field == "" {
							return
						}
						t.Fatal(err)
					}
					r := refusalOf(t, res)
					var fields []string
					for _, re := range r.Reasons {
						fields = append(fields, re.Field)
					}
					if tc.field != "" && !slices.Contains(fields, tc.field) {
						t.Errorf("reasons %+v name fields %q, want %q", r.Reasons, fields, tc.field)
					}
					if tc.field != "" && !strings.Contains(text(res), tc.field) {
						t.Errorf("text does not name %q:\n%s", tc.field, text(res))
					}
					// Audited, as the executor audits its own refusals
					// (the schema's were not, before).
					rs := refusals(t)
					if len(rs) != before+1 {
						t.Fatalf("%d refusals audited by this call, want 1", len(rs)-before)
					}
					if last := strings.Join(rs[len(rs)-1].Reasons, "\n"); !strings.Contains(last, tc.field) {
						t.Errorf("the audited refusal %q does not name %q", last, tc.field)
					}
				})
			}
			if n := len(e.submissions(t)); n != 0 {
				t.Errorf("%d submissions after bad calls, want 0", n)
			}
		})
	}
}

// A graph that can no longer be read or compiled lists nothing, and a call
// is refused: nothing stays live on the strength of what the file said
// before.
func TestBrokenGraphListsNothing(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(t *testing.T, path string)
	}{
		{"file removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}},
		{"not JSON", func(t *testing.T, path string) { writeFile(t, path, []byte("{\"actions\": [")) }},
		{"not a valid graph", func(t *testing.T, path string) { writeFile(t, path, []byte(`{"schemaVersion":"0.1","actions":{}}`)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, "stdio")
			if got := c.listNames(t); len(got) != 1 {
				t.Fatalf("listed %v, want one tool", got)
			}
			c.drain()
			tc.breakIt(t, e.graphPath)
			c.waitChanged(t)
			if got := c.listNames(t); len(got) != 0 {
				t.Errorf("listed %v, want nothing", got)
			}
			if err := e.server.Refresh(t.Context()); !errors.Is(err, mcpserver.ErrGraph) {
				t.Errorf("Refresh: %v, want ErrGraph", err)
			}
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
			if err == nil && !res.IsError {
				t.Errorf("call succeeded: %s", text(res))
			}
			if n := len(e.submissions(t)); n != 0 {
				t.Errorf("%d submissions, want 0", n)
			}
		})
	}
}

// An idempotency key in _meta: the repeated call returns the first result
// and fires nothing; repeated with other arguments, it is a tool error and
// fires nothing.
func TestIdempotencyKey(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 10)
			c := e.connect(t, tr)
			callWith := func(args map[string]any) *mcp.CallToolResult {
				p := &mcp.CallToolParams{Name: e.tool, Arguments: args}
				p.Meta = mcp.Meta{mcpserver.MetaIdempotencyKey: "booking-42-" + tr}
				res, err := c.CallTool(t.Context(), p)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			call := func() mcpserver.Output { return outputOf(t, callWith(goodArgs())) }
			first, second := call(), call()
			if first.Duplicate || !second.Duplicate {
				t.Errorf("duplicate flags %v, %v; want false, true", first.Duplicate, second.Duplicate)
			}
			if first.AttemptID != second.AttemptID {
				t.Errorf("attempts %s and %s, want the first one twice", first.AttemptID, second.AttemptID)
			}
			// The key with other arguments: a tool error, nothing fired.
			other := goodArgs()
			other["full_name"] = "Grace Hopper"
			r := refusalOf(t, callWith(other))
			if len(r.Reasons) != 1 || r.Reasons[0].Code != executor.ReasonIdempotency || !strings.Contains(r.Reasons[0].Detail, `"full_name"`) {
				t.Errorf("reasons %+v, want one %s naming full_name", r.Reasons, executor.ReasonIdempotency)
			}
			if n := len(e.submissions(t)); n != 1 {
				t.Errorf("%d submissions, want 1", n)
			}
		})
	}
}

// An idempotency key that is not a string is a tool error naming it, and
// nothing fires, however often it is repeated (on the code before, it was
// ignored and every repeat fired again); over both transports, on both
// stores. A string key still makes a repeat a duplicate.
func TestIdempotencyKeyNotAString(t *testing.T) {
	tests := []struct {
		name string
		key  any
	}{
		{"number", 42},
		{"object", map[string]any{"key": "booking-42"}},
		{"boolean", true},
		{"array", []any{"booking-42"}},
		{"null", nil},
	}
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
				e := newEnvOn(t, st, 10, testInterval)
				c := e.connect(t, tr)
				callWith := func(key any) *mcp.CallToolResult {
					p := &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()}
					p.Meta = mcp.Meta{mcpserver.MetaIdempotencyKey: key}
					res, err := c.CallTool(t.Context(), p)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				for _, tt := range tests {
					t.Run(tt.name, func(t *testing.T) {
						for range 2 {
							r := refusalOf(t, callWith(tt.key))
							want := []string{executor.ReasonInvalidInput + "/" + mcpserver.MetaIdempotencyKey + "/type"}
							var got []string
							for _, re := range r.Reasons {
								got = append(got, re.Code+"/"+re.Field+"/"+re.Rule)
							}
							if diff := cmp.Diff(want, got); diff != "" {
								t.Errorf("reasons (-want +got):\n%s", diff)
							}
							if r.Outcome != "refused" {
								t.Errorf("outcome %q, want refused", r.Outcome)
							}
						}
					})
				}
				if n := len(e.submissions(t)); n != 0 {
					t.Errorf("%d submissions, want 0", n)
				}
				first, second := outputOf(t, callWith("booking-42")), outputOf(t, callWith("booking-42"))
				if first.Duplicate || !second.Duplicate || first.AttemptID != second.AttemptID {
					t.Errorf("a string key: %+v then %+v, want the first result twice, the second marked duplicate", first, second)
				}
				if n := len(e.submissions(t)); n != 1 {
					t.Errorf("%d submissions, want 1", n)
				}
			})
		})
	}
}

// File reads at most shared.MaxDocumentBytes: a path that names something
// larger than any graph (here a sparse file; /dev/zero the same) is an
// error, not memory spent.
func TestFileIsBounded(t *testing.T) {
	huge := t.TempDir() + "/huge.json"
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, shared.MaxDocumentBytes+1); err != nil {
		t.Fatal(err)
	}
	data, err := mcpserver.File(huge).Read(t.Context())
	if !errors.Is(err, shared.ErrDocumentTooLarge) || data != nil {
		t.Errorf("Read = %d bytes, %v; want nothing and shared.ErrDocumentTooLarge", len(data), err)
	}
}

// A call that finds the graph file changed, and whose re-check is cut
// short (here the server's lookup stalls past CheckTimeout), fires the
// action as the file holds it now, or nothing: the drifted action is
// refused, with the drift named. Before, the cut-short re-check left the
// last snapshot in place and the call fired the action as it was before
// the change.
func TestCallAfterACutShortRecheck(t *testing.T) {
	e := newEnv(t, 10)
	ex, err := executor.New(executor.Options{Store: e.store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ex.Close() })
	var stall atomic.Bool
	lookup := shared.AuditLookupFunc(func(ctx context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
		if stall.Load() {
			<-ctx.Done() // a store that does not answer within the re-check's bound
			return shared.AuditAnswer{}, ctx.Err()
		}
		return e.store.LookupAudit(ctx, q)
	})
	srv, err := mcpserver.New(t.Context(), mcpserver.File(e.graphPath), ex, lookup, mcpserver.Options{Interval: time.Hour, CheckTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if got := srv.Tools(); len(got) != 1 {
		t.Fatalf("listed %v, want one tool", got)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })

	stall.Store(true)
	writeFile(t, e.graphPath, driftSummary(t, e.graph))
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(e.submissions(t)); n != 0 {
		t.Fatalf("%d submissions, want 0: the call fired the action as it was before the file changed", n)
	}
	r := refusalOf(t, res)
	if !slices.Contains(codes(r), "disclosure.drift") {
		t.Errorf("reasons %v, want disclosure.drift", codes(r))
	}
}

// A number argument reaches the site as the agent wrote it: decoded as
// float64, as before, an integer past 2^53 lost its last digits
// (12345678901234567890 was sent as 12345678901234567000, 2^53+1 as
// 2^53).
func TestNumberArgumentsAsWritten(t *testing.T) {
	e := newEnvEdited(t, audittest.Open(t, audittest.URL(t, audit.DriverSQLite)), 10, testInterval, func(g *shared.ActionGraph) {
		for i := range g.Actions {
			if g.Actions[i].ID == actionID {
				g.Actions[i].Inputs = append(g.Actions[i].Inputs, shared.Input{Name: "guests", Semantic: shared.SemanticUnknown, Type: "number", AgentFillable: true})
			}
		}
	})
	c := e.connect(t, "stdio")
	for i, n := range []string{"12345678901234567890", "9007199254740993", "7"} {
		t.Run(n, func(t *testing.T) {
			args := goodArgs()
			args["guests"] = json.Number(n)
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			out := outputOf(t, res)
			subs := e.submissions(t)
			if len(subs) != i+1 {
				t.Fatalf("%d submissions, want %d", len(subs), i+1)
			}
			if diff := cmp.Diff([]string{n}, subs[i].Fields["guests"]); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			if !slices.Contains(out.Sent, shared.SubmittedField{Name: "guests", Value: n}) {
				t.Errorf("sent %v, want guests = %s", out.Sent, n)
			}
		})
	}
}
