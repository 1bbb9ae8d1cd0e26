package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

func TestVerifySandbox(t *testing.T) {
	topologytest.NeedChromium(t)
	srv := fixturestest.Serve(t, "electrician01")
	origin := fixturestest.URL(t, srv, "electrician01")
	data, err := fixtures.MappedGraph("electrician01", origin)
	if err != nil {
		t.Fatal(err)
	}
	graph := filepath.Join(t.TempDir(), "graph.json")
	if err := os.WriteFile(graph, data, 0o644); err != nil {
		t.Fatal(err)
	}
	const id = "electrician01:callback:callback"
	code, out, errOut := runCmd(t, "", "verify", "sandbox", graph, id)
	if code != exitOK || !strings.Contains(out, id+": passed") {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	for _, a := range graphAt(t, graph).Actions {
		if a.ID == id && a.Verification.Status() != shared.StatusSandboxTested {
			t.Errorf("after the run the action is %s, want sandbox-tested", a.Verification.Status())
		}
	}
	if subs, _ := srv.Submissions("electrician01"); len(subs) != 0 {
		t.Errorf("the business received %d submissions from a sandbox run", len(subs))
	}
	if code, _, _ := runCmd(t, "", "verify", "sandbox", graph, "nope"); code != exitUsage {
		t.Errorf("unknown action: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runCmd(t, "", "verify", "sandbox", graph); code != exitUsage {
		t.Errorf("no action: exit %d, want %d", code, exitUsage)
	}
}
