package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixture every test serves: the electrician's call-back form (a plain
// urlencoded post with a honeypot), the one action of its graph with a door
// an agent can drive.
const (
	site     = "electrician01"
	actionID = "electrician01:callback:callback"
)

// goodArgs is a call-back request the form accepts.
func goodArgs() map[string]any {
	return map[string]any{
		"full_name":   "Ada Lovelace",
		"phone":       "021 555 0199",
		"call_window": "morning",
		"about":       "The switchboard trips when the oven is on.",
	}
}

// auditRefOf is the audit record the confirmation of id in graph points at.
func auditRefOf(t testing.TB, graph []byte, id string) string {
	t.Helper()
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		t.Fatalf("graph: %v", issues)
	}
	for _, a := range g.Actions {
		if v, ok := a.Verification.(shared.Verified); ok && a.ID == id && v.Confirmation.AuditRecord != nil {
			return *v.Confirmation.AuditRecord
		}
	}
	t.Fatalf("action %s is not verified in the graph", id)
	return ""
}

// env is one served fixture site, an audit store, an executor and an MCP
// server over a confirmed graph written to a file.
type env struct {
	sites     *fixtures.Server
	store     *audit.Store
	graphPath string
	graph     []byte // as confirmed
	auditRef  string
	server    *mcpserver.Server
	exec      *executor.Executor
	tool      string // the compiler's name for the action's tool
	httpOpts  mcpserver.HTTPOptions
	wire      io.Writer // when set, every JSON-RPC message the client reads or writes is logged here
}

// newEnv confirms the action with a cap of capMax per day in a SQLite
// audit store and serves it.
func newEnv(t testing.TB, capMax int) *env {
	t.Helper()
	return newEnvOn(t, audittest.Open(t, audittest.URL(t, audit.DriverSQLite)), capMax, testInterval)
}

// testInterval is the re-check interval of the tests' servers: short, so
// that a revocation shows within the test's patience.
const testInterval = 50 * time.Millisecond

// newEnvOn is newEnv on the given store, re-checking every interval.
func newEnvOn(t testing.TB, store *audit.Store, capMax int, interval time.Duration) *env {
	t.Helper()
	return newEnvEdited(t, store, capMax, interval, nil)
}

// newEnvEdited is newEnvOn with the mapped graph changed by edit (when not
// nil) before the owner confirms it.
func newEnvEdited(t testing.TB, store *audit.Store, capMax int, interval time.Duration, edit func(*shared.ActionGraph)) *env {
	t.Helper()
	ctx := t.Context()
	e := &env{sites: fixturestest.Serve(t, site), store: store}
	origin := fixturestest.URL(t, e.sites, site)
	mapped, err := fixtures.MappedGraph(site, origin)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		g, issues := shared.Read(mapped)
		if len(issues) > 0 {
			t.Fatal(issues)
		}
		edit(g)
		if mapped, err = shared.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	e.graph = executortest.Confirm(t, store, mapped, actionID, executortest.Limits(capMax, shared.PerDay, "office@electrician01.example"))
	e.auditRef = auditRefOf(t, e.graph, actionID)
	e.graphPath = filepath.Join(t.TempDir(), "graph.json")
	writeFile(t, e.graphPath, e.graph)
	e.tool = toolName(t, e.graph, actionID)

	ex, err := executor.New(executor.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ex.Close() }) // after the server's Close
	srv, err := mcpserver.New(ctx, mcpserver.File(e.graphPath), ex, store, mcpserver.Options{Interval: interval})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	e.server, e.exec = srv, ex
	return e
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// toolName is the compiler's name for the one tool of actionID in graph.
func toolName(t testing.TB, graph []byte, id string) string {
	t.Helper()
	for _, tool := range compiledTools(t, graph) {
		if tool.actionID == id {
			return tool.Name
		}
	}
	t.Fatalf("the compiler defines no tool for %s", id)
	return ""
}

type compiledTool struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	Annotations map[string]any `json:"annotations"`
	Meta        map[string]any `json:"_meta"`
	actionID    string
	door        int // the door's index in the action's access list
}

// compiledTools reads the compiler's tools/list for graph.
func compiledTools(t testing.TB, graph []byte) []compiledTool {
	t.Helper()
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	files, err := compiler.CompileFormat(g, compiler.FormatMCP, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	list := files[0].Data
	var doc struct {
		Tools []compiledTool `json:"tools"`
	}
	if err := json.Unmarshal(list, &doc); err != nil {
		t.Fatal(err)
	}
	for i := range doc.Tools {
		door, _ := doc.Tools[i].Meta["dev.frontlatch/door"].(map[string]any)
		doc.Tools[i].actionID, _ = door["actionId"].(string)
		index, _ := door["index"].(float64)
		doc.Tools[i].door = int(index)
	}
	return doc.Tools
}

// submissions is how many requests reached the fixture's form endpoints.
func (e *env) submissions(t *testing.T) []fixtures.Submission {
	t.Helper()
	subs, err := e.sites.Submissions(site)
	if err != nil {
		t.Fatal(err)
	}
	return subs
}

// client is one connected SDK client, with a channel that receives each
// tools/list_changed notification.
type client struct {
	*mcp.ClientSession
	changed chan struct{}
}

// transports the round-trip tests run over.
var transports = []string{"stdio", "http"}

// connect connects the SDK's own client to e's server over transport:
// "stdio" is the SDK's in-memory pair (the stdio transport's framing over a
// pipe), "http" the streamable HTTP handler on 127.0.0.1 with the token.
func (e *env) connect(t testing.TB, transport string) *client {
	t.Helper()
	ctx := t.Context()
	c := &client{changed: make(chan struct{}, 16)}
	cl := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case c.changed <- struct{}{}:
			default:
			}
		},
	})
	var tr mcp.Transport
	switch transport {
	case "stdio":
		ct, st := mcp.NewInMemoryTransports()
		ss, err := e.server.MCP().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ss.Close() })
		tr = ct
	case "http":
		url, token := e.serveHTTP(t, e.httpOpts)
		tr = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearerClient(token), MaxRetries: -1}
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	if e.wire != nil {
		tr = &mcp.LoggingTransport{Transport: tr, Writer: e.wire}
	}
	cs, err := cl.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	c.ClientSession = cs
	return c
}

// serveHTTP serves e's HTTP handler on 127.0.0.1 and returns its URL and
// token.
func (e *env) serveHTTP(t testing.TB, opts mcpserver.HTTPOptions) (string, string) {
	t.Helper()
	if opts.Token == "" {
		opts.Token = mcpserver.NewToken()
	}
	h, err := e.server.HTTPHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	if !strings.HasPrefix(hs.URL, "http://127.0.0.1:") {
		t.Fatalf("httptest listens on %s, want 127.0.0.1", hs.URL)
	}
	return hs.URL, opts.Token
}

func bearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// listNames is the names of the tools the client is offered now.
func (c *client) listNames(t *testing.T) []string {
	t.Helper()
	res, err := c.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// waitChanged waits for a tools/list_changed notification.
func (c *client) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-c.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed within 10s")
	}
}

// drain forgets notifications received so far.
func (c *client) drain() {
	for {
		select {
		case <-c.changed:
		default:
			return
		}
	}
}

// refusalOf decodes a tool error's structured content.
func refusalOf(t *testing.T, res *mcp.CallToolResult) mcpserver.Refusal {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got a result: %s", text(res))
	}
	var r mcpserver.Refusal
	remarshal(t, res.StructuredContent, &r)
	return r
}

func outputOf(t *testing.T, res *mcp.CallToolResult) mcpserver.Output {
	t.Helper()
	if res.IsError {
		t.Fatalf("want a result, got a tool error: %s", text(res))
	}
	var o mcpserver.Output
	remarshal(t, res.StructuredContent, &o)
	return o
}

func remarshal(t *testing.T, v any, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func codes(r mcpserver.Refusal) []string {
	var out []string
	for _, re := range r.Reasons {
		out = append(out, re.Code)
	}
	return out
}
