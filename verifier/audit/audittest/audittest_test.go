package audittest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// Every store EachStore hands out is fresh: what one test wrote is not in
// the next one's.
func TestEachStoreIsFresh(t *testing.T) {
	b := audit.Begin{ActionID: "a", Cap: shared.VolumeCap{Max: 1, Per: shared.PerDay}}
	for round := range 2 {
		audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
			if _, err := s.BeginAttempt(context.Background(), b); err != nil {
				t.Fatalf("round %d on %s: %v (a store left over from an earlier test?)", round, s.Driver(), err)
			}
		})
	}
}

func TestStores(t *testing.T) {
	stores := audittest.Stores(t)
	want := 1
	if os.Getenv(audittest.EnvPostgresURL) != "" {
		want = 2
	}
	if len(stores) != want {
		t.Fatalf("Stores = %d stores, want %d", len(stores), want)
	}
	for name, s := range stores {
		if s.Driver() != name {
			t.Errorf("Stores[%q].Driver() = %q", name, s.Driver())
		}
	}
}

// Under CI=true without a PostgreSQL URL, the PostgreSQL half fails rather
// than skips: run a child test with that environment and read its verdict.
func TestCIRequiresPostgres(t *testing.T) {
	if os.Getenv("AUDITTEST_CHILD") == "1" {
		audittest.PostgresURL(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCIRequiresPostgres$", "-test.count=1", "-test.v")
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, audittest.EnvPostgresURL+"=") && !strings.HasPrefix(e, "CI=") {
			env = append(env, e)
		}
	}
	tests := []struct {
		ci       string
		wantFail bool
		wantText string
	}{
		{"true", true, "CI=true but " + audittest.EnvPostgresURL + " is unset"},
		{"", false, "--- SKIP"},
	}
	for _, tt := range tests {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			c := exec.Command(cmd.Path, cmd.Args[1:]...)
			c.Env = append(env, "AUDITTEST_CHILD=1", "CI="+tt.ci)
			out, err := c.CombinedOutput()
			if failed := err != nil; failed != tt.wantFail || !strings.Contains(string(out), tt.wantText) {
				t.Errorf("child failed=%v, want %v, output containing %q:\n%s", failed, tt.wantFail, tt.wantText, out)
			}
		})
	}
}
