package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFmt(t *testing.T) {
	clinic, err := os.ReadFile(clinic01)
	if err != nil {
		t.Fatal(err)
	}
	// A non-canonical but valid document: compact, keys reordered, nullable
	// keys omitted.
	messy, err := os.ReadFile("../../shared/testdata/docs/valid/omitted-nullables-and-key-order.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		stdin     string
		args      []string
		wantCode  int
		wantOut   string
		errPrefix string
	}{
		{"canonical file", "", []string{"fmt", clinic01}, exitOK, string(clinic), ""},
		{"stdin", string(clinic), []string{"fmt", "-"}, exitOK, string(clinic), ""},
		{"invalid", "", []string{"fmt", invalidDocs + "effects-empty.json"}, exitFail, "", invalidDocs + "effects-empty.json: $.actions[0].sideEffects.effects: effects.empty: "},
		{"not JSON", "{", []string{"fmt", "-"}, exitFail, "", "-: $: json.syntax: "},
		{"missing file", "", []string{"fmt", "testdata/nope.json"}, exitUsage, "", "frontlatch fmt: "},
		{"no file", "", []string{"fmt"}, exitUsage, "", "frontlatch fmt: want exactly one"},
		{"two files", "", []string{"fmt", clinic01, clinic01}, exitUsage, "", "frontlatch fmt: want exactly one"},
		{"-w on stdin", "", []string{"fmt", "-w", "-"}, exitUsage, "", "frontlatch fmt: -w needs a FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", code, tt.wantCode, errOut)
			}
			if diff := cmp.Diff(tt.wantOut, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(errOut, tt.errPrefix) {
				t.Errorf("stderr = %q, want prefix %q", errOut, tt.errPrefix)
			}
		})
	}

	t.Run("canonicalises and is idempotent", func(t *testing.T) {
		code, once, errOut := runCmd(t, string(messy), "fmt", "-")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if once == string(messy) || !strings.Contains(once, `"toolName": null`) {
			t.Fatalf("fmt did not canonicalise:\n%s", once)
		}
		_, twice, _ := runCmd(t, once, "fmt", "-")
		if diff := cmp.Diff(once, twice); diff != "" {
			t.Errorf("fmt is not idempotent (-want +got):\n%s", diff)
		}
	})

	t.Run("-w rewrites in place", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "g.json")
		if err := os.WriteFile(path, messy, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCmd(t, "", "fmt", "-w", path)
		if code != exitOK || out != "" {
			t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
		}
		got, _ := os.ReadFile(path)
		_, want, _ := runCmd(t, string(messy), "fmt", "-")
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("rewritten file (-want +got):\n%s", diff)
		}
	})
}
