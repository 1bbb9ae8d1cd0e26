package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFleetAddStatusExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "fleet.db")
	list := filepath.Join(dir, "sites.txt")
	if err := os.WriteFile(list, []byte("# two sites\nhttps://a.example/\nhttps://b.example/\nftp://bad.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "fleet", "add", "--db", db, list)
	if code != exitUsage || !strings.Contains(errOut, "line 4 of "+list) || !strings.Contains(errOut, "nothing was queued") {
		t.Fatalf("a bad line: exit %d %s%s", code, out, errOut)
	}
	if err := os.WriteFile(list, []byte("https://a.example/\nhttps://b.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCmd(t, "", "fleet", "add", "--db", db, list, "https://a.example"); code != exitOK || !strings.Contains(out, "queued 2 sites, 1 already") {
		t.Fatalf("add: exit %d %s%s", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "", "fleet", "status", "--db", db, "--json")
	if code != exitOK {
		t.Fatalf("status: exit %d %s", code, errOut)
	}
	var st struct {
		Queued   int   `json:"queued"`
		Done     int   `json:"done"`
		Failures []any `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Queued != 2 || st.Done != 0 || st.Failures == nil {
		t.Errorf("status --json = %s (%v)", out, err)
	}
	if code, out, _ := runCmd(t, "", "fleet", "status", "--db", db); code != exitOK || !strings.Contains(out, "queued 2") {
		t.Errorf("status: %s", out)
	}
	if code, out, _ := runCmd(t, "", "fleet", "changes", "--db", db); code != exitOK || !strings.Contains(out, "0 sites changed") {
		t.Errorf("changes: %s", out)
	}
	if code, out, _ := runCmd(t, "", "fleet", "changes", "--db", db, "--json"); code != exitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("changes --json: %q", out)
	}
	if code, out, _ := runCmd(t, "", "fleet", "export", "--db", db, filepath.Join(dir, "out")); code != exitOK || !strings.Contains(out, "wrote 0 graphs") {
		t.Errorf("export: %s", out)
	}
	for _, args := range [][]string{
		{"fleet"}, {"fleet", "nope"}, {"fleet", "add", "--db", db}, {"fleet", "add", "--db", db, filepath.Join(dir, "missing.txt")},
		{"fleet", "work", "--db", db, "--workers", "0"}, {"fleet", "work", "--db", db, "--rescan-every", "1h"},
		{"fleet", "changes", "--db", db, "--since", "-1h"},
	} {
		if code, _, _ := runCmd(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, _ := runCmd(t, "", "fleet", "status", "--db", "postgres://x@127.0.0.1:1/x?sslmode=disable&connect_timeout=2"); code != exitFail {
		t.Errorf("unreachable database: exit %d, want %d", code, exitFail)
	}
}

// TestDefaultFleetDB: $FRONTLATCH_FLEET_DB when set; else fleet.db in the
// user's data directory, even when $FRONTLATCH_STORE names a PostgreSQL
// store (a URL is not a folder to put a SQLite file in).
func TestDefaultFleetDB(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv(envStore, "postgres://db.example/audit")
	t.Setenv(envFleetDB, "")
	if got, want := defaultFleetDB(), filepath.Join(data, "frontlatch", "fleet.db"); got != want {
		t.Errorf("defaultFleetDB() = %q, want %q", got, want)
	}
	t.Setenv(envFleetDB, "postgres://db.example/fleet")
	if got := defaultFleetDB(); got != "postgres://db.example/fleet" {
		t.Errorf("with $%s set: %q", envFleetDB, got)
	}
}
