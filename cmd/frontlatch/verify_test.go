package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

const verifyAction = "wpforms01:contact:wpforms-form-412"

// confirmedGraphFile writes wpforms01's mapped graph with its action
// confirmed through the verifier into a temp dir, and returns its path and
// the store's path.
func confirmedGraphFile(t *testing.T) (graph, store string) {
	t.Helper()
	dir := t.TempDir()
	store = filepath.Join(dir, "audit.db")
	data, err := fixtures.MappedGraph("wpforms01", "http://127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	s, err := audit.Open(t.Context(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	notify := "owner@example.com"
	out, _, err := verifier.Confirm(t.Context(), g, verifyAction, verifier.Confirmation{
		By: "Pat Owner", At: time.Now(),
		Limits: shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 3, Per: shared.PerDay}, Notify: &notify},
	}, s)
	if err != nil {
		t.Fatal(err)
	}
	graph = filepath.Join(dir, "graph.json")
	if err := writeGraphFile(graph, out); err != nil {
		t.Fatal(err)
	}
	return graph, store
}

func actionStatus(t *testing.T, path string) (shared.VerificationStatus, string) {
	t.Helper()
	for _, a := range graphAt(t, path).Actions {
		if a.ID == verifyAction {
			if u, ok := a.Verification.(shared.Unverified); ok && u.Note != nil {
				return u.Status(), *u.Note
			}
			return a.Verification.Status(), ""
		}
	}
	t.Fatal("action missing")
	return "", ""
}

func TestVerifyRevoke(t *testing.T) {
	graph, store := confirmedGraphFile(t)
	code, out, errOut := runCmd(t, "", "verify", "revoke", "--store", store, "--by", "Pat Owner", "--reason", "on holiday", graph, verifyAction)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if st, note := actionStatus(t, graph); st != shared.StatusUnverified || !strings.Contains(note, "on holiday") {
		t.Errorf("after revoke: %s %q", st, note)
	}
	if !strings.Contains(errOut, "run frontlatch compile again and publish what it writes") {
		t.Errorf("revoke does not tell the owner that files compiled before still offer the action:\n%s", errOut)
	}
	// Revoking again: the action is no longer verified.
	if code, _, errOut := runCmd(t, "", "verify", "revoke", "--store", store, "--by", "Pat", graph, verifyAction); code != exitFail || !strings.Contains(errOut, "not verified") {
		t.Errorf("second revoke: exit %d %s", code, errOut)
	}
	for _, tt := range []struct {
		name string
		args []string
		want int
	}{
		{"no --by", []string{"verify", "revoke", "--store", store, graph, verifyAction}, exitUsage},
		{"unknown action", []string{"verify", "revoke", "--store", store, "--by", "P", graph, "nope"}, exitUsage},
		{"missing graph", []string{"verify", "revoke", "--store", store, "--by", "P", graph + ".missing", verifyAction}, exitUsage},
		{"unknown subcommand", []string{"verify", "bless", graph}, exitUsage},
		{"store unreachable", []string{"verify", "revoke", "--store", "postgres://x@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", "--by", "P", graph, verifyAction}, exitFail},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, out, errOut := runCmd(t, "", tt.args...); code != tt.want {
				t.Errorf("exit %d, want %d: %s%s", code, tt.want, out, errOut)
			}
		})
	}
}

func TestVerifyReconcile(t *testing.T) {
	graph, store := confirmedGraphFile(t)
	// The re-scan: the same site, the form now posting to another host.
	data, err := fixtures.MappedGraph("wpforms01", "http://127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	rescan := filepath.Join(filepath.Dir(graph), "rescan.json")
	if err := os.WriteFile(rescan, []byte(strings.Replace(string(data), `"endpoint": "http://127.0.0.1:8080/`, `"endpoint": "https://collector.example.net/`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	unchanged := filepath.Join(filepath.Dir(graph), "unchanged.json")
	if err := os.WriteFile(unchanged, data, 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runCmd(t, "", "verify", "reconcile", "--store", store, graph, unchanged)
	if code != exitOK || !strings.Contains(out, "confirmation kept") {
		t.Fatalf("unchanged re-scan: exit %d: %s%s", code, out, errOut)
	}
	if st, _ := actionStatus(t, unchanged); st != shared.StatusVerified {
		t.Errorf("unchanged re-scan: %s, want verified", st)
	}

	code, out, errOut = runCmd(t, "", "verify", "reconcile", "--store", store, graph, rescan)
	if code != exitOK || !strings.Contains(out, "needs the owner's confirmation again") || !strings.Contains(out, "$.doors[0].endpoint") {
		t.Fatalf("drifted re-scan: exit %d: %s%s", code, out, errOut)
	}
	if st, note := actionStatus(t, rescan); st != shared.StatusUnverified || !strings.HasPrefix(note, verifier.DriftedNotePrefix) {
		t.Errorf("drifted re-scan: %s %q", st, note)
	}
	if code, _, _ := runCmd(t, "", "verify", "reconcile", "--store", store, graph); code != exitUsage {
		t.Errorf("one file: exit %d, want %d", code, exitUsage)
	}
}

// TestCountIssues: the count in "is not a valid Action Graph (…)" agrees
// in number, and says "at least" when the read listed only the first
// shared.MaxIssues.
func TestCountIssues(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"contractVersion":"0.1.0"`)
	for i := range shared.MaxIssues + 20 {
		fmt.Fprintf(&many, `,"unknown%d":1`, i)
	}
	many.WriteString("}")
	tests := []struct {
		name, doc, want string
	}{
		{"one", ``, "1 issue"},
		{"capped", many.String(), "at least"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, issues := shared.Read([]byte(tt.doc))
			if got := countIssues(issues); !strings.HasPrefix(got, tt.want) {
				t.Errorf("countIssues of %d issues = %q, want it to begin %q", len(issues), got, tt.want)
			}
		})
	}
	if got := countIssues(make([]shared.Issue, 3)); got != "3 issues" {
		t.Errorf("countIssues of 3 = %q", got)
	}
}
