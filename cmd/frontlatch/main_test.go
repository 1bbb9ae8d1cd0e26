package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain points the default audit store ($FRONTLATCH_STORE) into a
// temporary folder, so that no test writes the user's own store, whatever
// flag it forgets.
func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "frontlatch-cmd-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		if os.Getenv("FRONTLATCH_STORE") == "" {
			os.Setenv("FRONTLATCH_STORE", filepath.Join(dir, "default-audit.db"))
		}
		return m.Run()
	}())
}
