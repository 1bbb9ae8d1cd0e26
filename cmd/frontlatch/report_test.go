package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/verifier/portal"
	"github.com/google/go-cmp/cmp"
)

func TestReportWritesTheStandaloneFile(t *testing.T) {
	g, err := portal.ReadGraphFile(t.Context(), clinic01)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := portal.RenderReport(&want, portal.BuildReport(g, nil)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sub", "report.html")
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"report", clinic01, "-o", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), string(got)); diff != "" {
		t.Errorf("report file (-want +got):\n%s", diff)
	}
	stdout.Reset()
	if code := run(t.Context(), []string{"report", clinic01}, &stdout, &stderr); code != exitOK || stdout.String() != want.String() {
		t.Errorf("report to standard output: exit %d, %d bytes, want %d", code, stdout.Len(), want.Len())
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schemaVersion":"0.1","graphId":"g","site":{"domain":"x","url":"http://x/"},"generatedAt":"2026-01-01T00:00:00Z","generator":{"name":"n","version":"1"},"actions":[{"id":""}]}`), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"missing file", []string{"report", filepath.Join(dir, "none.json"), "-o", filepath.Join(dir, "r.html")}, exitUsage, []string{"none.json", "no such file"}},
		{"invalid graph", []string{"report", bad, "-o", filepath.Join(dir, "r.html")}, exitFail, []string{"bad.json", "$.actions[0].id: value.empty", "frontlatch check"}},
		{"no graph", []string{"report"}, exitUsage, []string{"exactly one GRAPH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), tt.args, &stdout, &stderr); code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			for _, s := range tt.says {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr.String())
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "r.html")); err == nil {
				t.Errorf("a report file was written for bad input")
			}
		})
	}
}

// report checks the graph's confirmations against the audit store, as
// compile does: one the store does not hold is reported as not live.
func TestReportChecksConfirmations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		store  string
		warned bool
	}{
		{"recorded", storeConfirming(t, doorsGraph), false},
		{"never recorded", filepath.Join(t.TempDir(), "empty.db"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, page, stderr := runCmd(t, "", "report", "--store", tc.store, doorsGraph)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			onPage := strings.Contains(page, "but your audit record does not")
			named := strings.Contains(stderr, "action plumber:quote:job: the graph says verified, but the audit store does not confirm it")
			if onPage != tc.warned || named != tc.warned {
				t.Errorf("page warns %v, stderr names the action %v; want both %v\n%s", onPage, named, tc.warned, stderr)
			}
		})
	}
}
