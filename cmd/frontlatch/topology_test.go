package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

const topologySchema = "../../topology/schemas/topology-graph.schema.json"

// topologyPage has one safe disclosure (a button opening a dialog) so that
// explore records an edge and a second state.
const topologyPage = `<!doctype html><html lang="en"><head><title>Harbourside Plumbing</title></head><body>
<main><h1>Harbourside Plumbing</h1>
<button type="button" aria-haspopup="dialog" onclick="document.getElementById('q').hidden=false">Get a quote</button>
<div id="q" role="dialog" aria-label="Quote" hidden><label>Phone <input type="tel" name="phone" required></label></div>
<a href="/about">About</a>
</main></body></html>`

// topologySite serves topologyPage on 127.0.0.1 for the length of the test.
func topologySite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, topologyPage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// validateTopology parses data as JSON and validates it against the
// committed Topology Graph schema, returning the decoded graph.
func validateTopology(t *testing.T, data []byte) *topology.Graph {
	t.Helper()
	raw, err := os.ReadFile(topologySchema)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", topologySchema, err)
	}
	c := sjs.NewCompiler()
	if err := c.AddResource(topologySchema, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(topologySchema)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, data)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("output does not validate against %s: %v", topologySchema, err)
	}
	var g topology.Graph
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("output does not decode as a topology.Graph: %v", err)
	}
	return &g
}

// noLaunch makes launching a browser fail the test for its duration: a
// command that refuses its input must do so before it launches anything.
func noLaunch(t *testing.T) {
	t.Helper()
	old := newBrowser
	newBrowser = func(context.Context, topology.BrowserOptions) (*topology.Browser, error) {
		t.Error("a browser was launched before the command line was checked")
		return nil, topology.ErrLaunch
	}
	t.Cleanup(func() { newBrowser = old })
}

// Bad input is refused before any browser starts, with a usage error (exit
// 2), the reason and advice or the usage: these pass with no Chromium on
// the machine (nothing answers on port 1 either: a command that got as far
// as a run would fail with exit 1).
func TestTopologyUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantErr  []string // substrings of stderr
		wantCode int
	}{
		{"no mode", []string{"topology"}, []string{"first argument must be scan or explore"}, exitUsage},
		{"unknown mode", []string{"topology", "crawl", "http://127.0.0.1:1/"}, []string{"first argument must be scan or explore"}, exitUsage},
		{"no URL", []string{"topology", "scan"}, []string{"want exactly one URL, got 0"}, exitUsage},
		{"two URLs", []string{"topology", "explore", "http://127.0.0.1:1/a", "http://127.0.0.1:1/b"}, []string{"want exactly one URL, got 2"}, exitUsage},
		{"unknown flag", []string{"topology", "scan", "--frobnicate", "http://127.0.0.1:1/"}, []string{"frobnicate"}, exitUsage},
		{"bad duration", []string{"topology", "scan", "--timeout", "soon", "http://127.0.0.1:1/"}, []string{"timeout"}, exitUsage},
		{"bad number", []string{"topology", "explore", "--max-states", "many", "http://127.0.0.1:1/"}, []string{"max-states"}, exitUsage},
		{"relative URL", []string{"topology", "scan", "index.html"},
			[]string{`topology: invalid URL: "index.html" is not absolute`, "frontlatch topology: give an absolute http://"}, exitUsage},
		{"unsupported scheme", []string{"topology", "explore", "ftp://127.0.0.1/"},
			[]string{`topology: invalid URL: "ftp://127.0.0.1/": the scheme is not http, https or file`, "frontlatch topology: give an absolute http://"}, exitUsage},
		{"no host", []string{"topology", "scan", "http:///x"}, []string{"has no host"}, exitUsage},
		{"timeout 0", []string{"topology", "scan", "--timeout", "0", "http://127.0.0.1:1/"},
			[]string{"frontlatch topology: --timeout must be a positive duration such as 90s or 5m, got 0s", "usage: " + topologyUsage}, exitUsage},
		{"negative timeout", []string{"topology", "explore", "--timeout", "-1s", "http://127.0.0.1:1/"},
			[]string{"--timeout must be a positive duration such as 90s or 5m, got -1s"}, exitUsage},
		{"max-states 0", []string{"topology", "explore", "--max-states", "0", "http://127.0.0.1:1/"}, []string{"--max-states must be at least 1, got 0"}, exitUsage},
		{"negative max-states", []string{"topology", "explore", "--max-states", "-1", "http://127.0.0.1:1/"}, []string{"--max-states must be at least 1, got -1"}, exitUsage},
		{"negative max-edges", []string{"topology", "explore", "--max-edges", "-3", "http://127.0.0.1:1/"}, []string{"--max-edges must be at least 1, got -3"}, exitUsage},
		{"max-edges with scan", []string{"topology", "scan", "--max-edges", "5", "http://127.0.0.1:1/"}, []string{"--max-edges applies to explore only"}, exitUsage},
		{"-o names a folder", []string{"topology", "scan", "http://127.0.0.1:1/", "-o", dir}, []string{"-o " + dir + " is a folder: give the name of the file to write"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noLaunch(t)
			code, out, errOut := runCmd(t, "", tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstderr:\n%s", code, tt.wantCode, errOut)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q does not say %q", errOut, want)
				}
			}
			if out != "" {
				t.Errorf("a usage error wrote to stdout: %q", out)
			}
		})
	}
}

// scan and explore --json print a graph that validates against the schema.
func TestTopologyJSON(t *testing.T) {
	topologytest.NeedChromium(t)
	srv := topologySite(t)
	tests := []struct {
		mode      string
		flags     []string
		minStates int
		minEdges  int
	}{
		{"scan", nil, 1, 0},
		{"explore", []string{"--max-states", "5"}, 2, 1}, // the bounds are explore's
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			args := append([]string{"topology", tt.mode, "--offline", "--json"}, tt.flags...)
			code, out, errOut := runCmd(t, "", append(args, srv.URL+"/")...)
			if code != exitOK {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitOK, errOut)
			}
			g := validateTopology(t, []byte(out))
			if got := string(g.Metadata.Mode); got != tt.mode {
				t.Errorf("metadata.mode = %q, want %q", got, tt.mode)
			}
			if len(g.States) < tt.minStates || len(g.Edges) < tt.minEdges {
				t.Errorf("%d states and %d edges, want at least %d and %d", len(g.States), len(g.Edges), tt.minStates, tt.minEdges)
			}
			if !hasElement(g, "button", "Get a quote") {
				t.Errorf("no button %q among %d elements", "Get a quote", len(g.Elements))
			}
		})
	}
}

func hasElement(g *topology.Graph, role, name string) bool {
	for _, e := range g.Elements {
		if e.Role == role && e.AccessibleName == name {
			return true
		}
	}
	return false
}

// A page that cannot be loaded is the work failing (exit 1), with a message
// naming the cause on stderr.
func TestTopologyUnreachable(t *testing.T) {
	topologytest.NeedChromium(t)
	code, _, errOut := runCmd(t, "", "topology", "scan", "--offline", closedURL(t))
	if code != exitFail {
		t.Errorf("exit %d, want %d\nstderr:\n%s", code, exitFail, errOut)
	}
	for _, want := range []string{string(topology.FailNavigationFailed), "ERR_CONNECTION_REFUSED", "check the URL is reachable"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
}

// -o writes the graph as JSON to the file (creating its directory) while
// stdout keeps the human summary.
func TestTopologyOutFile(t *testing.T) {
	topologytest.NeedChromium(t)
	srv := topologySite(t)
	file := filepath.Join(t.TempDir(), "out", "graph.json")
	code, out, errOut := runCmd(t, "", "topology", "scan", "--offline", srv.URL+"/", "-o", file)
	if code != exitOK {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitOK, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("-o did not write the file: %v", err)
	}
	if g := validateTopology(t, data); len(g.States) != 1 {
		t.Errorf("file holds %d states, want 1", len(g.States))
	}
	if want := "topology scan " + srv.URL; !strings.HasPrefix(out, want) {
		t.Errorf("stdout %q does not start with the summary %q", out, want)
	}
}
