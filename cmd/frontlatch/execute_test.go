package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

func TestExecute(t *testing.T) {
	srv := fixturestest.Serve(t, "electrician01")
	mapped, err := fixtures.MappedGraph("electrician01", fixturestest.URL(t, srv, "electrician01"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	storePath := filepath.Join(dir, "audit.db")
	st := audittest.Open(t, storePath)
	const id = "electrician01:callback:callback"
	confirmed := executortest.Confirm(t, st, mapped, id, executortest.Limits(5, shared.PerDay, "owner@example.test"))
	unverified := filepath.Join(dir, "mapped.json")
	verified := filepath.Join(dir, "confirmed.json")
	for p, b := range map[string][]byte{unverified: mapped, verified: confirmed} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	good := `{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}`
	invalid := filepath.Join(dir, "invalid.json")
	if err := os.WriteFile(invalid, []byte(`{"actions": 7}`), 0o600); err != nil {
		t.Fatal(err)
	}
	inputFile := filepath.Join(dir, "input.json")
	if err := os.WriteFile(inputFile, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		wantCode  int
		wantErr   string // in stderr
		wantSubs  int    // the site's submissions after the call
		wantFired bool   // stdout is a result with status 200
	}{
		{"no arguments", []string{"execute"}, exitUsage, "want GRAPH and ACTION_ID", 0, false},
		{"input not an object", []string{"execute", verified, id, "--input", "[1]", "--store", storePath}, exitUsage, "one JSON object", 0, false},
		{"unknown action", []string{"execute", verified, "nope", "--input", good, "--store", storePath}, exitUsage, "no action \"nope\"", 0, false},
		{"invalid graph", []string{"execute", invalid, id, "--input", good, "--store", storePath}, exitFail, "frontlatch check", 0, false},
		{"unverified", []string{"execute", unverified, id, "--input", good, "--store", storePath}, exitFail, "verification.not-verified", 0, false},
		{"bad input", []string{"execute", verified, id, "--input", `{"full_name": 7}`, "--store", storePath}, exitFail, "input.invalid", 0, false},
		{"fires", []string{"execute", verified, id, "--input", good, "--store", storePath, "--idempotency-key", "k1"}, exitOK, "", 1, true},
		{"repeat key", []string{"execute", verified, id, "--input", good, "--store", storePath, "--idempotency-key", "k1"}, exitOK, "nothing was sent now", 1, true},
		{"input from a file", []string{"execute", verified, id, "--input", "@" + inputFile, "--store", storePath, "--idempotency-key", "k2"}, exitOK, "", 2, true},
		{"input file missing", []string{"execute", verified, id, "--input", "@" + filepath.Join(dir, "nope.json"), "--store", storePath}, exitUsage, "no such file", 2, false},
		{"input and graph both on stdin", []string{"execute", "-", id, "--input", "@-", "--store", storePath}, exitUsage, "already read from standard input", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("exit %d stderr %q; want %d and %q", code, stderr, tt.wantCode, tt.wantErr)
			}
			subs, _ := srv.Submissions("electrician01")
			if len(subs) != tt.wantSubs {
				t.Errorf("%d submissions, want %d", len(subs), tt.wantSubs)
			}
			if tt.wantFired {
				var res executor.Result
				if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Status != 200 || len(res.Sent) != 6 {
					t.Errorf("stdout %q (%v)", stdout, err)
				}
			}
		})
	}
	// Without --store, execute uses $FRONTLATCH_STORE, as verify, compile
	// and report do: the store the owner confirmed the action in.
	t.Run("store from $FRONTLATCH_STORE", func(t *testing.T) {
		t.Setenv(envStore, storePath)
		code, stdout, stderr := runCmd(t, "", "execute", verified, id, "--input", good, "--idempotency-key", "k3")
		if code != exitOK {
			t.Fatalf("exit %d, want %d: %s", code, exitOK, stderr)
		}
		var res executor.Result
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Status != 200 {
			t.Errorf("stdout %q (%v)", stdout, err)
		}
	})

}

// TestExecuteRepeatOfARefusedSubmission: a repeated idempotency key
// returns the first call's result, and when the site refused that one
// (an error status) execute exits 1 again, as the first call did, with
// nothing sent now.
func TestExecuteRepeatOfARefusedSubmission(t *testing.T) {
	srv := fixturestest.Serve(t, "electrician01")
	site, err := url.Parse(fixturestest.URL(t, srv, "electrician01"))
	if err != nil {
		t.Fatal(err)
	}
	var posts atomic.Int32
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: site.Scheme, Host: site.Host})
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
			http.Error(w, "Please check the form", http.StatusBadRequest)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer refusing.Close()
	mapped, err := fixtures.MappedGraph("electrician01", refusing.URL+site.Path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	storePath := filepath.Join(dir, "audit.db")
	st := audittest.Open(t, storePath)
	const id = "electrician01:callback:callback"
	graph := filepath.Join(dir, "confirmed.json")
	if err := os.WriteFile(graph, executortest.Confirm(t, st, mapped, id, executortest.Limits(5, shared.PerDay, "owner@example.test")), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"execute", graph, id, "--input", `{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}`, "--store", storePath, "--idempotency-key", "k1"}
	for i, want := range []string{"the site answered 400", "nothing was sent now"} {
		code, _, stderr := runCmd(t, "", args...)
		if code != exitFail || !strings.Contains(stderr, want) {
			t.Errorf("call %d: exit %d stderr %q; want %d and %q", i+1, code, stderr, exitFail, want)
		}
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("%d submissions reached the site, want 1", n)
	}
}
