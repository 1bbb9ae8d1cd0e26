package shared

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// formatIssues renders issues one per line as "PATH: CODE: message", the
// form of the golden files and of frontlatch check.
func formatIssues(issues []Issue) string {
	var b strings.Builder
	for _, is := range issues {
		b.WriteString(is.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestClinic01Canonical(t *testing.T) {
	data := mustRead(t, "../fixtures/graphs/clinic01.json")
	g, issues := Read(data)
	if len(issues) > 0 {
		t.Fatalf("Read(clinic01) issues:\n%s", formatIssues(issues))
	}
	out, err := Write(g)
	if err != nil {
		t.Fatalf("Write(clinic01): %v", err)
	}
	if diff := cmp.Diff(string(data), string(out)); diff != "" {
		t.Errorf("clinic01 read→write is not byte-identical (-want +got):\n%s", diff)
	}
	// The fixture is the seed's example; spot-check what the seed fixes.
	a := g.Actions[0]
	if got := a.Access[0].Occurrences; got != 2 {
		t.Errorf("occurrences = %d, want 2 (the header modal and footer form folded)", got)
	}
	if got := a.Inputs[1].ValueSpace[0].(PatternSpace).Pattern; got != `^0[2-9]\d{8}$` {
		t.Errorf("phone pattern = %q, want the seed's ^0[2-9]\\d{8}$", got)
	}
	if _, ok := a.Verification.(Unverified); !ok {
		t.Errorf("verification = %T, want Unverified", a.Verification)
	}
}

// TestReadCorpus reads every document under testdata/docs. Valid ones must
// read without issues and be a fixed point of Write∘Read; invalid ones must
// yield exactly the issues in their .issues golden file (go test -update
// rewrites those).
func TestReadCorpus(t *testing.T) {
	for _, kind := range []string{"valid", "invalid"} {
		files, err := filepath.Glob(filepath.Join("testdata", "docs", kind, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s documents: %v", kind, err)
		}
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			t.Run(kind+"/"+name, func(t *testing.T) {
				data := mustRead(t, f)
				g, issues := Read(data)
				if kind == "valid" {
					if len(issues) > 0 || g == nil {
						t.Fatalf("Read issues:\n%s", formatIssues(issues))
					}
					checkRoundTrip(t, g)
					return
				}
				if g != nil || len(issues) == 0 {
					t.Fatalf("Read accepted an invalid document")
				}
				for _, is := range issues {
					if !is.Code.Valid() {
						t.Errorf("issue %v has a code outside IssueCode", is)
					}
					if !strings.HasPrefix(is.Path, "$") || is.Message == "" {
						t.Errorf("issue %v lacks a path or a message", is)
					}
				}
				golden := strings.TrimSuffix(f, ".json") + ".issues"
				got := formatIssues(issues)
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want := string(mustRead(t, golden))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("issues (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// checkRoundTrip asserts Write is lossless and a fixed point from g.
func checkRoundTrip(t testing.TB, g *ActionGraph) {
	t.Helper()
	out, err := Write(g)
	if err != nil {
		t.Fatalf("Write of a graph Read accepted: %v", err)
	}
	g2, issues := Read(out)
	if len(issues) > 0 {
		t.Fatalf("Read(Write(g)) issues:\n%s\n%s", formatIssues(issues), out)
	}
	if diff := cmp.Diff(g, g2); diff != "" {
		t.Fatalf("Read(Write(g)) differs from g (-want +got):\n%s", diff)
	}
	out2, err := Write(g2)
	if err != nil {
		t.Fatalf("second Write: %v", err)
	}
	if !bytes.Equal(out, out2) {
		t.Fatalf("Write∘Read is not a fixed point:\n%s\n---\n%s", out, out2)
	}
}
