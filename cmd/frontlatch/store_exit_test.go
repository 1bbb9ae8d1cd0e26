package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStoreExitCodes: every command that opens the audit store exits the
// same way when it cannot: 2 for a --store that names no store (a usage
// error), 1 for one that cannot be reached (the work failed).
func TestStoreExitCodes(t *testing.T) {
	graph := copyGraph(t)
	const action = "clinic01:booking:appointment"
	db := filepath.Join(t.TempDir(), "fleet.db")
	notAStore := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notAStore, []byte("not a database, but long enough to be read as one's header\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := []struct {
		name string
		args func(store string) []string
	}{
		{"execute", func(s string) []string { return []string{"execute", "--store", s, "--input", "{}", graph, action} }},
		{"serve-mcp", func(s string) []string { return []string{"serve-mcp", "--store", s, graph} }},
		{"verify serve", func(s string) []string { return []string{"verify", "serve", "--store", s, graph} }},
		{"verify reconcile", func(s string) []string { return []string{"verify", "reconcile", "--store", s, graph, graph} }},
		{"verify revoke", func(s string) []string {
			return []string{"verify", "revoke", "--store", s, "--by", "Owner", graph, action}
		}},
		{"fleet work", func(s string) []string {
			return []string{"fleet", "work", "--db", db, "--rescan-every", "1h", "--store", s}
		}},
	}
	stores := []struct {
		name, url string
		want      int
	}{
		{"names no store", "ftp://nowhere", exitUsage},
		{"cannot be reached", "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=1", exitFail},
		{"is no audit store", notAStore, exitUsage},
	}
	for _, c := range commands {
		for _, s := range stores {
			t.Run(c.name+"/"+s.name, func(t *testing.T) {
				t.Setenv(envStore, "")
				code, _, stderr := runFor(t, time.Minute, c.args(s.url)...)
				if code != s.want || !strings.Contains(stderr, "audit") {
					t.Errorf("exit %d, want %d naming the audit store; stderr:\n%s", code, s.want, stderr)
				}
			})
		}
	}
}
