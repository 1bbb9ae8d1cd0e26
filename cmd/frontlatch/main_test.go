package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// TestMain points the default audit store ($FRONTLATCH_STORE) and fleet
// database ($FRONTLATCH_FLEET_DB) into a temporary folder, so that no test
// writes the user's own, whatever flag it forgets.
func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "frontlatch-cmd-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		if os.Getenv(envStore) == "" {
			os.Setenv(envStore, filepath.Join(dir, "default-audit.db"))
		}
		if os.Getenv(envFleetDB) == "" {
			os.Setenv(envFleetDB, filepath.Join(dir, "default-fleet.db"))
		}
		return m.Run()
	}())
}

// graphAt reads the valid graph file at path, failing the test otherwise.
func graphAt(t *testing.T, path string) *shared.ActionGraph {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if g == nil {
		t.Fatalf("%s does not read: %v", path, issues)
	}
	return g
}
