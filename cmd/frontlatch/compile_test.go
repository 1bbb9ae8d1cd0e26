package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/google/go-cmp/cmp"
)

const doorsGraph = "../../compiler/testdata/graphs/doors.json"

// allFileNames is every file `--format all` writes, sorted, as the compiler
// declares them.
func allFileNames(t *testing.T) []string {
	t.Helper()
	files, err := compiler.CompileAll(graphAt(t, doorsGraph), compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

func TestCompileStdout(t *testing.T) {
	g, err := os.ReadFile(clinic01)
	if err != nil {
		t.Fatal(err)
	}
	graph, issues := shared.Read(g)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	want := func(f compiler.Format, opts compiler.Options) string {
		files, err := compiler.CompileFormat(graph, f, opts)
		if err != nil {
			t.Fatal(err)
		}
		return string(files[0].Data)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default is the 2026-07-28 tools/list", []string{"compile", clinic01}, want(compiler.FormatMCP, compiler.Options{})},
		{"include unverified, flags after GRAPH", []string{"compile", clinic01, "--include-unverified"}, want(compiler.FormatMCP, compiler.Options{IncludeUnverified: true})},
		{"older MCP version", []string{"compile", "--mcp-version", "2025-11-25", "--include-unverified", clinic01}, want(compiler.FormatMCP, compiler.Options{IncludeUnverified: true, MCPVersion: compiler.MCPVersion20251125})},
		{"llms", []string{"compile", "--format", "llms", clinic01}, want(compiler.FormatLLMs, compiler.Options{})},
		{"webmcp", []string{"compile", "--format=webmcp", "--include-unverified", clinic01}, want(compiler.FormatWebMCP, compiler.Options{IncludeUnverified: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr: %s", code, stderr)
			}
			if diff := cmp.Diff(tt.want, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("mcp 2026-07-28 by default", func(t *testing.T) {
		_, stdout, _ := runCmd(t, "", "compile", clinic01)
		var v map[string]any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatal(err)
		}
		if v["resultType"] != "complete" || v["ttlMs"] == nil || v["cacheScope"] == nil {
			t.Errorf("not a 2026-07-28 tools/list result: %v", v)
		}
	})
}

func TestCompileOutDir(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"all", []string{"--format", "all"}, allFileNames(t)},
		{"ard writes both well-known names", []string{"--format", "ard"}, []string{"ai-catalog.json", "ard.json"}},
		{"mcp", nil, []string{"mcp-tools.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append(append([]string{"compile", "--store", storeConfirming(t, doorsGraph)}, tt.args...), doorsGraph, "-o", dir)
			code, stdout, stderr := runCmd(t, "", args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr: %s", code, stderr)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			sort.Strings(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if n := strings.Count(stdout, "\n"); n != len(tt.want) {
				t.Errorf("stdout lists %d files, want %d:\n%s", n, len(tt.want), stdout)
			}
			golden, err := os.ReadFile(filepath.Join("../../compiler/testdata/golden/doors/default", tt.want[0]))
			if err != nil {
				t.Fatal(err)
			}
			written, _ := os.ReadFile(filepath.Join(dir, tt.want[0]))
			if diff := cmp.Diff(string(golden), string(written)); diff != "" {
				t.Errorf("%s differs from the compiler's golden file (-want +got):\n%s", tt.want[0], diff)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schemaVersion": "0.2"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"no graph", []string{"compile"}, exitUsage, "want exactly one GRAPH"},
		{"two graphs", []string{"compile", clinic01, clinic01}, exitUsage, "want exactly one GRAPH"},
		{"all without -o", []string{"compile", "--format", "all", clinic01}, exitUsage, "give -o DIR"},
		{"unknown format", []string{"compile", "--format", "pdf", clinic01}, exitUsage, `unknown format "pdf"`},
		{"unknown flag", []string{"compile", "--verbose", clinic01}, exitUsage, "flag provided but not defined"},
		{"unknown MCP version", []string{"compile", "--mcp-version", "2024-01-01", clinic01}, exitUsage, "unknown MCP protocol version"},
		{"missing file", []string{"compile", "nope.json"}, exitUsage, "nope.json"},
		{"invalid graph", []string{"compile", bad}, exitFail, "bad.json: $.schemaVersion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr: %s)", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.inStderr) {
				t.Errorf("stderr %q does not say %q", stderr, tt.inStderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty on error: %q", stdout)
			}
		})
	}
}

// storeConfirming returns a SQLite audit store, in a new file, holding the
// confirmation of every action the graph at path says is verified, as the
// portal would have recorded it; revoke names actions whose confirmation
// is then revoked.
func storeConfirming(t *testing.T, path string, revoke ...string) string {
	t.Helper()
	g := graphAt(t, path)
	dbPath := filepath.Join(t.TempDir(), "audit.db")
	st, err := audit.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range g.Actions {
		a := &g.Actions[i]
		v, ok := a.Verification.(shared.Verified)
		if !ok {
			continue
		}
		c := v.Confirmation
		subject := shared.ConsentSubjectOf(a, c.Limits)
		digest, err := shared.ConsentDigest(subject)
		if err != nil {
			t.Fatal(err)
		}
		canon, err := shared.CanonicalConsent(subject)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.RecordConfirmation(t.Context(), audit.Confirmation{Ref: *c.AuditRecord, GraphID: g.GraphID, ActionID: a.ID,
			ConfirmedBy: c.ConfirmedBy, ConfirmedAt: c.ConfirmedAt, Method: c.Method, Digest: digest, Subject: canon}); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(revoke, a.ID) {
			if err := st.RecordRevocation(t.Context(), audit.Revocation{ActionID: a.ID, Ref: *c.AuditRecord, By: "owner@example.test", At: time.Now(), Reason: "test"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dbPath
}

// compile checks the confirmations a graph claims against the audit store:
// an action the store does not confirm (never recorded, or revoked) is
// compiled as unverified and named on stderr, and one it confirms is
// offered.
func TestCompileChecksConfirmations(t *testing.T) {
	const quote, enquiry = "plumber:quote:job", "plumber:enquiry:question"
	tests := []struct {
		name        string
		store       string
		wantOffered []string // action ids with tools
		wantNamed   []string // on stderr
	}{
		{"every confirmation recorded", storeConfirming(t, doorsGraph), []string{quote, enquiry}, nil},
		{"one revoked", storeConfirming(t, doorsGraph, quote), []string{enquiry}, []string{quote}},
		{"a store that has none", filepath.Join(t.TempDir(), "empty.db"), nil, []string{quote, enquiry}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", "compile", "--store", tt.store, doorsGraph)
			if code != exitOK {
				t.Fatalf("exit %d, stderr: %s", code, stderr)
			}
			var doc struct {
				Tools []struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				} `json:"tools"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			offered := map[string]bool{}
			for _, tl := range doc.Tools {
				var d struct {
					ActionID string `json:"actionId"`
				}
				json.Unmarshal(tl.Meta["dev.frontlatch/door"], &d)
				offered[d.ActionID] = true
			}
			for _, id := range []string{quote, enquiry} {
				if want := slices.Contains(tt.wantOffered, id); offered[id] != want {
					t.Errorf("%s offered %v, want %v", id, offered[id], want)
				}
				named := strings.Contains(stderr, "action "+id+": the graph says verified, but the audit store does not confirm it")
				if want := slices.Contains(tt.wantNamed, id); named != want {
					t.Errorf("%s named on stderr %v, want %v:\n%s", id, named, want, stderr)
				}
			}
		})
	}
	t.Run("a store that cannot be opened", func(t *testing.T) {
		code, _, stderr := runCmd(t, "", "compile", "--store", "ftp://nowhere", doorsGraph)
		if code != exitUsage || !strings.Contains(stderr, "the audit store") {
			t.Errorf("exit %d, want %d naming the store:\n%s", code, exitUsage, stderr)
		}
	})
}

// The owner's journey: an action confirmed through the verifier is
// offered by compile against the store it was recorded in, and revoking it
// (verify revoke) takes it out of the next compile, though the file the
// revocation rewrote would say so anyway: here the file is put back as it
// was before the revocation, as someone restoring an old copy would.
func TestCompileAfterConfirmAndRevoke(t *testing.T) {
	graph, store := confirmedGraphFile(t)
	offered := func() bool {
		t.Helper()
		code, stdout, stderr := runCmd(t, "", "compile", "--store", store, graph)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return strings.Contains(stdout, `"actionId": "`+verifyAction+`"`)
	}
	if !offered() {
		t.Fatal("the confirmed action is not offered")
	}
	before, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "verify", "revoke", "--store", store, "--by", "Pat Owner", graph, verifyAction); code != exitOK {
		t.Fatalf("revoke: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(graph, before, 0o644); err != nil {
		t.Fatal(err)
	}
	if offered() {
		t.Error("the revoked action is offered from the old copy of the file")
	}
}
