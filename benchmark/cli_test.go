package benchmark

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// TestMainRefusesBadFlags: a bad value is a usage error (exit 2) before
// anything is mapped or written, never a run with other figures.
func TestMainRefusesBadFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"a site named twice", []string{"--site", "clinic01,clinic01"}, `named twice: "clinic01"`},
		{"an unknown site", []string{"--site", "clinic99"}, "clinic99"},
		{"no concurrency", []string{"--concurrency", "0"}, "--concurrency must be at least 1"},
		{"a scaling level that is no number", []string{"--scaling", "1,two"}, "--scaling"},
		{"a stray argument", []string{"clinic01"}, "usage:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := filepath.Join(t.TempDir(), "results.json")
			var stdout, stderr bytes.Buffer
			code := Main(t.Context(), "bench", append([]string{"--results", results}, tt.args...), &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tt.wantStderr)
			}
			if _, err := os.Stat(results); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("results written (%v), want none", err)
			}
		})
	}
}

// TestMainSubsetWritesNoResults: `bench --site NAME` without --results maps
// the site and prints its table, but leaves the committed results file —
// the fifteen sites' figures — as it was.
func TestMainSubsetWritesNoResults(t *testing.T) {
	topologytest.NeedChromium(t)
	path := DefaultResultsPath()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the old behaviour replaced the committed file: put it back
		if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
			_ = os.WriteFile(path, before, 0o644)
		}
	})
	var stdout, stderr bytes.Buffer
	if code := Main(t.Context(), "bench", []string{"--site", "wpforms01"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, before) {
		t.Errorf("%s was rewritten by a one-site run (%v)", path, err)
	}
	if !strings.Contains(stderr.String(), "no results file written") || !strings.Contains(stdout.String(), "wpforms01") {
		t.Errorf("stdout %q / stderr %q: want the site's table and a note that no results file was written", stdout.String(), stderr.String())
	}
}
