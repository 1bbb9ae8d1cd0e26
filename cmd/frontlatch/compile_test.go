package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

const doorsGraph = "../../compiler/testdata/graphs/doors.json"

// allFileNames is every file `--format all` writes, sorted, as the compiler
// declares them.
func allFileNames(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(doorsGraph)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	files, err := compiler.CompileAll(g, compiler.Options{})
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
			args := append(append([]string{"compile"}, tt.args...), doorsGraph, "-o", dir)
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
