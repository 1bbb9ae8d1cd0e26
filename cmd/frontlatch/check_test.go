package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

const (
	clinic01    = "../../fixtures/graphs/clinic01.json"
	invalidDocs = "../../shared/testdata/docs/invalid/"
)

func runCmd(t *testing.T, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(in)
	defer func() { stdin = old }()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExitCodes(t *testing.T) {
	clinic, err := os.ReadFile(clinic01)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  string // exact stdout, when not empty
	}{
		{"valid", "", []string{"check", clinic01}, exitOK, clinic01 + ": ok\n"},
		{"valid stdin", string(clinic), []string{"check", "-"}, exitOK, "-: ok\n"},
		{"invalid", "", []string{"check", invalidDocs + "effects-empty.json"}, exitFail,
			invalidDocs + "effects-empty.json: $.actions[0].sideEffects.effects: effects.empty: effects must not be empty: an action whose consequences we cannot state is one nobody should execute; list each effect, using kind \"unknown\" for one you cannot name\n"},
		{"one invalid of two", "", []string{"check", clinic01, invalidDocs + "version-0.2.json"}, exitFail, ""},
		{"missing file", "", []string{"check", "testdata/does-not-exist.json"}, exitUsage, ""},
		{"missing file wins over invalid", "", []string{"check", invalidDocs + "effects-empty.json", "testdata/does-not-exist.json"}, exitUsage, ""},
		{"no files", "", []string{"check"}, exitUsage, ""},
		{"unknown flag", "", []string{"check", "--frobnicate", clinic01}, exitUsage, ""},
		{"flags after files", "", []string{"check", clinic01, "--json"}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
			}
			if tt.wantOut != "" {
				if diff := cmp.Diff(tt.wantOut, out); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestCheckLineFormat checks that every issue line of every invalid corpus
// document reads FILE: PATH: CODE: message.
func TestCheckLineFormat(t *testing.T) {
	files, _ := filepath.Glob(invalidDocs + "*.json")
	if len(files) == 0 {
		t.Fatal("no invalid documents")
	}
	code, out, _ := runCmd(t, "", append([]string{"check"}, files...)...)
	if code != exitFail {
		t.Fatalf("exit %d, want %d", code, exitFail)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		parts := strings.SplitN(line, ": ", 4)
		if len(parts) != 4 || !strings.HasPrefix(parts[1], "$") || strings.Contains(parts[2], " ") || parts[3] == "" {
			t.Errorf("line does not read FILE: PATH: CODE: message: %q", line)
			continue
		}
		seen[parts[0]] = true
	}
	if len(seen) != len(files) {
		t.Errorf("issues printed for %d files, want %d", len(seen), len(files))
	}
}

func TestCheckCompleteness(t *testing.T) {
	code, out, errOut := runCmd(t, "", "check", "--completeness", clinic01)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines (ok, the action, mappability), got:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], clinic01+": clinic01:booking:appointment: ") || !strings.Contains(lines[1], "barrier.captcha") {
		t.Errorf("action line = %q, want the action id and its captcha blocker", lines[1])
	}
	if !strings.HasPrefix(lines[2], clinic01+": mappability ") {
		t.Errorf("last line = %q, want the mappability", lines[2])
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "check", "--json", "--completeness", clinic01, invalidDocs+"many-issues.json")
	if code != exitFail {
		t.Fatalf("exit %d, want %d: %s", code, exitFail, errOut)
	}
	var got []checkResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if len(got) != 2 || !got[0].Valid || got[0].Completeness == nil || got[0].Completeness.Actions != 1 {
		t.Fatalf("first result = %+v, want clinic01 valid with a completeness report", got[0])
	}
	var codes []string
	for _, is := range got[1].Issues {
		codes = append(codes, string(is.Code))
	}
	want := []string{"key.unknown", "value.not-in-vocabulary", "effects.empty", "verification.missing"}
	if diff := cmp.Diff(want, codes); diff != "" || got[1].Valid || got[1].Completeness != nil {
		t.Errorf("second result codes (-want +got):\n%s", diff)
	}
}

// endless is a reader that never ends, as /dev/zero is.
type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestGraphInputIsBounded: every command that reads a graph stops at
// shared.MaxDocumentBytes with a usage error naming the file, where it
// used to read a /dev/zero until memory ran out.
func TestGraphInputIsBounded(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(shared.MaxDocumentBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{
		{"check", huge},
		{"fmt", huge},
		{"compile", huge},
		{"execute", "--store", filepath.Join(t.TempDir(), "a.db"), "--input", "{}", huge, "callback"},
		{"verify", "revoke", "--store", filepath.Join(t.TempDir(), "a.db"), "--by", "owner", huge, "callback"},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			code, _, errOut := runCmd(t, "", args...)
			if code != exitUsage || !strings.Contains(errOut, huge+": shared: document too large") {
				t.Errorf("exit %d, want %d, and stderr naming the file and the bound:\n%s", code, exitUsage, errOut)
			}
		})
	}
	t.Run("check -", func(t *testing.T) {
		old := stdin
		stdin = endless{}
		defer func() { stdin = old }()
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"check", "-"}, &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "document too large") {
			t.Errorf("exit %d, want %d, stderr:\n%s", code, exitUsage, errb.String())
		}
	})
}

// TestHelpCommand: `help COMMAND [SUBCOMMAND]` prints what the command does,
// its usage line and every flag, on stdout, exit 0.
func TestHelpCommand(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help", "map"}, []string{"usage: frontlatch map", "-pages", "-timeout", "-ignore-robots"}},
		{[]string{"help", "fleet", "work"}, []string{"usage: frontlatch fleet work", "-workers", "-metrics"}},
		{[]string{"help", "verify", "revoke"}, []string{"usage: frontlatch verify revoke", "-by", "-store"}},
		{[]string{"help", "fleet"}, []string{"frontlatch fleet add", "frontlatch fleet work"}},
		{[]string{"help", "topology"}, []string{"usage: frontlatch topology", "-max-states", "-offline"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tt.args...)
			if code != exitOK || stderr != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestHelpBadCommand: help for a command, or a subcommand, that does not
// exist (or with more words than a command has) says so, exit 2; it
// printed the command list, or the parent's help, with exit 0.
func TestHelpBadCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"help", "nope"}, `frontlatch help: unknown command "nope"`},
		{[]string{"help", "fleet", "nope"}, `frontlatch help: unknown subcommand "fleet nope"; use one of add, changes, export, import, status, work`},
		{[]string{"help", "map", "extra"}, `frontlatch help: map has no subcommands, got "extra"`},
		{[]string{"help", "fleet", "work", "extra"}, `frontlatch help: want COMMAND [SUBCOMMAND], got 3 words`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q in it (stdout %q)", code, stderr, exitUsage, tt.want, stdout)
			}
		})
	}
}

// TestHelpFlagExitsZero: -h and --help of a command print its usage and
// exit 0, as `frontlatch --help` and `frontlatch help COMMAND` do (they
// were exit 2, a usage error); a flag that does not exist is still 2.
func TestHelpFlagExitsZero(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"map", "-h"}, exitOK},
		{[]string{"check", "--help"}, exitOK},
		{[]string{"fleet", "add", "-h"}, exitOK},
		{[]string{"fleet", "status", "--help"}, exitOK},
		{[]string{"verify", "serve", "-h"}, exitOK},
		{[]string{"topology", "scan", "-h"}, exitOK},
		{[]string{"compile", "graph.json", "-h"}, exitOK},
		{[]string{"topology", "-h"}, exitOK},
		{[]string{"fleet", "-h"}, exitOK},
		{[]string{"verify", "--help"}, exitOK},
		{[]string{"map", "--no-such-flag"}, exitUsage},
		{[]string{"fleet"}, exitUsage},
		{[]string{"topology"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, "usage: frontlatch ") {
				t.Errorf("exit %d, want %d; stderr %q, want the usage", code, tt.code, stderr)
			}
		})
	}
}
