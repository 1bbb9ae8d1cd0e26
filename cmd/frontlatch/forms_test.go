package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// TestFormsGolden runs `forms --json` in Chromium on a small served page and
// compares the exact output with testdata/forms/page.golden.jsonl.
func TestFormsGolden(t *testing.T) {
	page := filepath.Join("testdata", "forms", "page.html")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"forms", "--json", "--offline", page}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", code, errb.String(), out.String())
	}
	golden := filepath.Join("testdata", "forms", "page.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), out.String()); diff != "" {
		t.Errorf("forms --json (-want +got):\n%s", diff)
	}
	// The shape independent checks rely on.
	var line map[string]any
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	if diff := cmp.Diff([]string{"error", "forms", "url"}, keys(line)); diff != "" {
		t.Errorf("line keys (-want +got):\n%s", diff)
	}
	forms := line["forms"].([]any)
	f0 := forms[0].(map[string]any)
	if diff := cmp.Diff([]string{"customerAction", "fields", "formless", "index", "kind", "purpose"}, keys(f0)); diff != "" {
		t.Errorf("form keys (-want +got):\n%s", diff)
	}
	fl := f0["fields"].([]any)[0].(map[string]any)
	if diff := cmp.Diff([]string{"agentFillable", "confidence", "label", "name", "required", "semantic", "type"}, keys(fl)); diff != "" {
		t.Errorf("field keys (-want +got):\n%s", diff)
	}
}

// closedURL is a loopback URL where nothing listens (connection refused).
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

func TestFormsErrors(t *testing.T) {
	refused := closedURL(t)
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // substring of the line's error
	}{
		{"no arguments", []string{"forms"}, exitUsage, ""},
		{"unknown flag", []string{"forms", "--frobnicate", "x.html"}, exitUsage, ""},
		{"neither file nor URL", []string{"forms", "--json", "no-such-file.html"}, exitFail, "not a file and not an http(s) URL"},
		{"server that refuses", []string{"forms", "--json", "--offline", refused}, exitFail, "ERR_CONNECTION_REFUSED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), c.args, &out, &errb)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.wantCode, errb.String())
			}
			if c.wantErr == "" {
				return
			}
			var line formsLine
			if err := json.Unmarshal(out.Bytes(), &line); err != nil {
				t.Fatalf("output %q: %v", out.String(), err)
			}
			if line.Error == nil || !strings.Contains(*line.Error, c.wantErr) || len(line.Forms) != 0 {
				t.Errorf("line = %+v, want error containing %q and no forms", line, c.wantErr)
			}
		})
	}
}

func TestFormsGoOnAfterAFailure(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"forms", "--json", "--offline", closedURL(t), filepath.Join("testdata", "forms", "page.html")}, &out, &errb)
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), out.String())
	}
	var second formsLine
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil || second.Error != nil || len(second.Forms) == 0 {
		t.Errorf("second page = %+v (%v), want forms and no error", second, err)
	}
}
