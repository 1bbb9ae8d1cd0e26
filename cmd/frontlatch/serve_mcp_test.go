package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const serveSite, serveAction = "electrician01", "electrician01:callback:callback"

// stderrFile is a file for the server's stderr (safe for its goroutines);
// read it with its String.
type stderrFile struct{ *os.File }

func newStderr(t *testing.T) stderrFile {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return stderrFile{f}
}

func (f stderrFile) String() string {
	b, _ := os.ReadFile(f.Name())
	return string(b)
}

// confirmedGraph serves the fixture site, confirms its call-back form in a
// new SQLite audit store and writes the graph; it returns the site server,
// the store's URL and the graph's path.
func confirmedGraph(t *testing.T) (*fixtures.Server, string, string) {
	t.Helper()
	return confirmedGraphNotifying(t, "office@electrician01.example")
}

// confirmedGraphNotifying is confirmedGraph with notify as the
// confirmation's notify target.
func confirmedGraphNotifying(t *testing.T, notify string) (*fixtures.Server, string, string) {
	t.Helper()
	sites := fixturestest.Serve(t, serveSite)
	mapped, err := fixtures.MappedGraph(serveSite, fixturestest.URL(t, sites, serveSite))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dbPath := audittest.URL(t, audit.DriverSQLite)
	store := audittest.Open(t, dbPath)
	graph := executortest.Confirm(t, store, mapped, serveAction, executortest.Limits(5, shared.PerDay, notify))
	graphPath := filepath.Join(dir, "graph.json")
	if err := os.WriteFile(graphPath, graph, 0o600); err != nil {
		t.Fatal(err)
	}
	return sites, dbPath, graphPath
}

func callArgs() map[string]any {
	return map[string]any{"full_name": "Ada Lovelace", "phone": "021 555 0199", "call_window": "evening"}
}

// serve-mcp over stdio: the SDK's client lists the confirmed tool and a
// call reaches the fixture site once; the owner's webhook is told, signed
// with $FRONTLATCH_NOTIFY_SECRET, as `frontlatch execute` does.
func TestServeMCPStdio(t *testing.T) {
	const secret = "webhook-secret"
	t.Setenv(envNotifySecret, secret)
	hooks := make(chan *http.Request, 4)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		hooks <- r
	}))
	t.Cleanup(hook.Close)
	sites, dbPath, graphPath := confirmedGraphNotifying(t, hook.URL+"/frontlatch")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	oldStdin := stdin
	stdin = inR
	t.Cleanup(func() { stdin = oldStdin })

	stderr := newStderr(t)
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), []string{"serve-mcp", "--store", dbPath, graphPath}, outW, stderr)
		outW.Close()
	}()
	cl := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil)
	cs, err := cl.Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr.String())
	}
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("listed %d tools, want 1; stderr:\n%s", len(res.Tools), stderr.String())
	}
	call, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: res.Tools[0].Name, Arguments: callArgs()})
	if err != nil {
		t.Fatal(err)
	}
	if call.IsError {
		t.Fatalf("call refused: %+v", call.StructuredContent)
	}
	subs, err := sites.Submissions(serveSite)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 || subs[0].Fields.Get("call_window") != "evening" {
		t.Errorf("site received %+v, want the one call", subs)
	}
	select {
	case r := <-hooks:
		body, _ := io.ReadAll(r.Body)
		if got, want := r.Header.Get(executor.SignatureHeader), executor.Sign([]byte(secret), body); got != want {
			t.Errorf("webhook signature %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Error("the owner's webhook was not called")
	}
	_ = cs.Close()
	inW.Close()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve-mcp did not stop when its input closed")
	}
}

// serve-mcp --http prints its endpoint and a generated token; with them the
// SDK's client lists the tool, without the token the server answers 401.
func TestServeMCPHTTP(t *testing.T) {
	_, dbPath, graphPath := confirmedGraph(t)
	t.Setenv(envMCPToken, "")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	outR, outW := io.Pipe()
	stderr := newStderr(t)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve-mcp", "--http", "--addr", "127.0.0.1:0", "--store", dbPath, graphPath}, outW, stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	var endpoint, token string
	for lines.Scan() && (endpoint == "" || token == "") {
		if v, ok := strings.CutPrefix(lines.Text(), "MCP endpoint: "); ok {
			endpoint = v
		}
		if v, ok := strings.CutPrefix(lines.Text(), "Bearer token: "); ok {
			token = v
		}
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || len(token) < 40 {
		t.Fatalf("endpoint %q, token %q; stderr:\n%s", endpoint, token, stderr.String())
	}

	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d, want 401", resp.StatusCode)
	}

	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
	cl := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if len(names) != 1 || !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "callback") }) {
		t.Errorf("listed %v, want the call-back tool", names)
	}
	_ = cs.Close()
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve-mcp --http did not stop when its context ended")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Usage errors exit 2 and say what is missing.
func TestServeMCPUsage(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no graph", []string{"serve-mcp", "--store", "x.db"}, "exactly one GRAPH"},
		{"two graphs", []string{"serve-mcp", "--store", "x.db", "a.json", "b.json"}, "exactly one GRAPH"},
		{"store of no kind", []string{"serve-mcp", "--store", "ftp://nowhere", "serve_mcp.go"}, "audit store"},
		{"missing graph file", []string{"serve-mcp", "--store", "x.db", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		// No --store: $FRONTLATCH_STORE is the store, as for verify.
		{"$FRONTLATCH_STORE of no kind", []string{"serve-mcp", "serve_mcp.go"}, "audit store"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envStore, "ftp://nowhere") // an unreachable one is exit 1: TestStoreExitCodes
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), tc.args, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
}

// The default --max-body is the executor's upload cap in base64 plus the
// margin, from the one place that derives it, so a call may carry as many
// bytes of files as the executor uploads.
func TestServeMCPMaxBodyDefault(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run(t.Context(), []string{"serve-mcp", "--help"}, &stdout, &stderr)
	want := fmt.Sprintf("(default %d)", mcpserver.MaxBodyBytesFor(executor.DefaultMaxUploadBytes))
	usage := stderr.String()
	i := strings.Index(usage, "-max-body")
	if i < 0 {
		t.Fatalf("the usage does not list --max-body:\n%s", usage)
	}
	line, _, _ := strings.Cut(usage[i:], "\n  -")
	if !strings.Contains(line, want) || mcpserver.MaxBodyBytesFor(executor.DefaultMaxUploadBytes) <= executor.DefaultMaxUploadBytes {
		t.Errorf("--max-body's usage %q does not say %s", line, want)
	}
}

// serve-mcp marks the attempts an earlier process began and never
// completed (killed between the two records) as outcome unknown, and says
// how many.
func TestServeMCPRecoversAbandoned(t *testing.T) {
	_, dbPath, graphPath := confirmedGraph(t)
	store := audittest.Open(t, dbPath)
	att, err := store.BeginAttempt(t.Context(), audit.Begin{ActionID: serveAction, AuditRef: "aud_x", Cap: shared.VolumeCap{Max: 5, Per: shared.PerDay},
		Request: []byte(`{}`), Instance: "a-process-that-was-killed"})
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "serve-mcp", "--store", dbPath, graphPath)
	if code != exitOK || !strings.Contains(stderr, "1 attempt(s) an earlier process began and never completed are marked outcome unknown") {
		t.Errorf("exit %d, stderr %q; want 0 and the recovery said", code, stderr)
	}
	got, err := store.Attempt(t.Context(), att.ID)
	if err != nil || !got.Unknown {
		t.Errorf("the abandoned attempt: %+v (%v), want outcome unknown", got, err)
	}
}
