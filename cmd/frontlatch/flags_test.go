package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The rules apply to flags given on the command line only, report the
// first refusal, and name the flag, the value and what would do.
func TestFlagRules(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string // "" when every rule passes
	}{
		{"defaults", nil, ""},
		{"timeout 0", []string{"--timeout", "0"}, "--timeout must be a positive duration such as 90s or 5m, got 0s"},
		{"negative rescan", []string{"--rescan", "-1h"}, "--rescan must not be negative (0 turns it off), got -1h0m0s"},
		{"pages 0", []string{"--pages", "0"}, "--pages must be at least 1, got 0"},
		{"edges with scan", []string{"--edges", "3"}, "--edges applies to explore only"},
		{"rescan without store", []string{"--rescan", "1h"}, "--rescan re-scans need the store: give --store too"},
		{"folder", []string{"-o", dir}, "-o " + dir + " is a folder: give the name of the file to write, for example " + filepath.Join(dir, "graph.json")},
		{"first refusal wins", []string{"--pages", "0", "--timeout", "0"}, "--timeout must be a positive duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			timeout := fs.Duration("timeout", time.Minute, "")
			rescan := fs.Duration("rescan", 0, "")
			pages := fs.Int("pages", 0, "")
			fs.Int("edges", 0, "")
			fs.String("store", "", "")
			out := fs.String("o", "", "")
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			r := rulesFor(fs)
			r.positive("timeout", *timeout)
			r.notNegative("rescan", *rescan)
			r.atLeast("pages", *pages, 1)
			r.only("edges", false, "to explore")
			if *rescan > 0 {
				r.needs("rescan", "store", "re-scans need the store")
			}
			r.file("o", *out)
			got := ""
			if r.err != nil {
				got = r.err.Error()
			}
			if (tt.want == "") != (got == "") || !strings.HasPrefix(got, tt.want) {
				t.Errorf("refusal %q, want %q", got, tt.want)
			}
		})
	}
}

// Every command refuses a bad command line before its first I/O: no
// browser is launched (noLaunch), and no database or audit store is
// created. Each case passes without Chromium, PostgreSQL or a network.
func TestCommandsRefuseBeforeIO(t *testing.T) {
	dir := t.TempDir()
	// No default audit store: fleet work's --store takes $FRONTLATCH_STORE,
	// and "--rescan-every without a store" must be refused. Any default the
	// other commands fall back on is in the test's folder.
	t.Setenv(envStore, "")
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	db := filepath.Join(dir, "state", "fleet.db")
	store := filepath.Join(dir, "state", "audit.db")
	list := filepath.Join(dir, "sites.txt")
	if err := os.WriteFile(list, []byte("https://a.example/\nftp://bad.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	graph := copyGraph(t)
	confirmed, _ := confirmedGraphFile(t) // a graph that says an action is verified: compile opens the store for it
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"fleet add: a line that is no site", []string{"fleet", "add", "--db", db, list}, exitUsage, "line 2 of " + list},
		{"fleet work: browser URL", []string{"fleet", "work", "--db", db, "--browser-url", "ftp://127.0.0.1:9222"}, exitUsage, "--browser-url ftp://127.0.0.1:9222: must be the browser's DevTools WebSocket URL"},
		{"fleet work: metrics address", []string{"fleet", "work", "--db", db, "--metrics", "127.0.0.1:notaport"}, exitUsage, "--metrics"},
		{"fleet work: an argument", []string{"fleet", "work", "--db", db, "https://a.example/"}, exitUsage, "takes no arguments"},
		{"compile: -o names a file", []string{"compile", "-o", list, "--store", store, graph}, exitUsage, "-o " + list + " is a file, not a folder"},
		{"compile: unknown MCP version", []string{"compile", "--mcp-version", "1999-01-01", "--store", store, confirmed}, exitUsage, "--mcp-version 1999-01-01: unknown MCP protocol version; use one of"},
		{"fleet status: an argument", []string{"fleet", "status", "--db", db, "clinic01"}, exitUsage, `fleet status: takes no arguments, got ["clinic01"]`},
		{"fleet changes: an argument", []string{"fleet", "changes", "--db", db, "7d"}, exitUsage, `fleet changes: takes no arguments, got ["7d"]`},
		{"fleet work: negative rescan", []string{"fleet", "work", "--db", db, "--rescan-every", "-1h"}, exitUsage, "--rescan-every must not be negative"},
		{"fleet work: rescan without store", []string{"fleet", "work", "--db", db, "--rescan-every", "1h"}, exitUsage, "give --store too"},
		{"verify sandbox: unknown action", []string{"verify", "sandbox", graph, "clinic01:nope"}, exitUsage, `verifier: action "clinic01:nope": verifier: unknown action`},
		{"verify sandbox: -o folder", []string{"verify", "sandbox", graph, "clinic01:booking:appointment", "-o", dir}, exitUsage, "is a folder"},
		{"verify sandbox: timeout 0", []string{"verify", "sandbox", "--timeout", "0", graph, "clinic01:booking:appointment"}, exitUsage, "--timeout must be a positive duration"},
		{"verify revoke: unknown action", []string{"verify", "revoke", "--store", store, "--by", "Pat", graph, "clinic01:nope"}, exitUsage, "unknown action"},
		{"verify reconcile: -o folder", []string{"verify", "reconcile", "--store", store, graph, graph, "-o", dir}, exitUsage, "is a folder"},
		{"verify serve: address", []string{"verify", "serve", "--store", store, "--addr", "nowhere", graph}, exitUsage, "--addr nowhere is not HOST:PORT"},
		{"serve-mcp: interval", []string{"serve-mcp", "--store", store, "--interval", "-1s", graph}, exitUsage, "--interval must be a positive duration"},
		{"serve-mcp: rate", []string{"serve-mcp", "--store", store, "--http", "--rate", "0", graph}, exitUsage, "--rate must be a positive number"},
		{"serve-mcp: in flight", []string{"serve-mcp", "--store", store, "--http", "--max-in-flight", "0", graph}, exitUsage, "--max-in-flight must be at least 1"},
		{"serve-mcp: in flight without http", []string{"serve-mcp", "--store", store, "--max-in-flight", "4", graph}, exitUsage, "--max-in-flight applies with --http only"},
		{"serve-mcp: token without http", []string{"serve-mcp", "--store", store, "--token", "t", graph}, exitUsage, "--token applies with --http only"},
		{"serve-mcp: address", []string{"serve-mcp", "--store", store, "--http", "--addr", "8765", graph}, exitUsage, "--addr 8765 is not HOST:PORT"},
		{"map: -o and --out-dir", []string{"map", "-o", filepath.Join(dir, "g.json"), "--out-dir", dir, "http://127.0.0.1:1/"}, exitUsage, "--out-dir cannot go with -o"},
		{"map: --out-dir names a file", []string{"map", "--out-dir", list, "http://127.0.0.1:1/", "http://127.0.0.1:2/"}, exitUsage, "--out-dir " + list + " is a file, not a folder"},
		{"forms: nothing to open", []string{"forms", "--json", filepath.Join(dir, "none.html"), "mailto:a@b.c"}, exitFail, "not a file and not an http(s) URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noLaunch(t)
			// Bounded: a command that got past its checks would run (fleet
			// work until interrupted) and create what the test looks for.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			code := run(ctx, tt.args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tt.code {
				t.Errorf("exit %d, want %d:\n%s", code, tt.code, out)
			}
			if !strings.Contains(out, tt.says) {
				t.Errorf("output does not say %q:\n%s", tt.says, out)
			}
			for _, f := range []string{db, store} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s was created before the command line was refused", f)
					os.Remove(f)
				}
			}
		})
	}
}

// TestParseInterspersedTerminator: after "--" every argument is
// positional, however many there are before it ("check -- a.json
// -b.json" refused -b.json as a flag); a "--" that is a flag's value is
// that value.
func TestParseInterspersedTerminator(t *testing.T) {
	tests := []struct {
		args    []string
		want    []string
		wantOut string // the -o flag's value
	}{
		{[]string{"--", "a.json", "-b.json"}, []string{"a.json", "-b.json"}, ""},
		{[]string{"a.json", "--", "-b.json", "-o", "x"}, []string{"a.json", "-b.json", "-o", "x"}, ""},
		{[]string{"-o", "x", "a.json", "-v", "--", "-c.json"}, []string{"a.json", "-c.json"}, "x"},
		{[]string{"-o", "--", "a.json", "-v"}, []string{"a.json"}, "--"},
		{[]string{"a.json", "-o", "x", "b.json"}, []string{"a.json", "b.json"}, "x"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			out := fs.String("o", "", "")
			fs.Bool("v", false, "")
			got, err := parseInterspersed(fs, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("positional (-want +got):\n%s", diff)
			}
			if *out != tt.wantOut {
				t.Errorf("-o = %q, want %q", *out, tt.wantOut)
			}
		})
	}
}
