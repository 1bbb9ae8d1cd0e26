package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fleet"
)

func TestFleetAddStatusExport(t *testing.T) {
	t.Setenv(envStore, "") // fleet work --rescan-every needs a store: none
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

// TestFleetImport: fleet import records a confirmed graph as its site's
// latest, so the fleet re-scans it; a file that cannot be read is a usage
// error, an invalid graph a failure, and either records nothing (the
// database is not even created).
func TestFleetImport(t *testing.T) {
	confirmed, _ := confirmedGraphFile(t)
	dir := t.TempDir()
	invalid := filepath.Join(dir, "invalid.json")
	if err := os.WriteFile(invalid, []byte(`{"schemaVersion": "1.0", "actions": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name     string
		files    []string
		wantCode int
		wantOut  string // in stdout
		wantErr  string // in stderr
		rescans  int    // sites QueueRescans queues afterwards; -1: no database
	}{
		{"confirmed", []string{confirmed}, exitOK, "recorded http://127.0.0.1:8080/ from " + confirmed + ": ", "", 1},
		{"invalid graph", []string{invalid}, exitFail, "", invalid + " is not a valid Action Graph", -1},
		{"unreadable", []string{missing}, exitUsage, "", "missing.json", -1},
		{"one unreadable among good ones", []string{confirmed, missing}, exitUsage, "", "nothing was recorded", -1},
		{"invalid and unreadable", []string{invalid, missing}, exitUsage, "", "nothing was recorded", -1},
		{"no files", nil, exitUsage, "", "give the graph FILEs", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "fleet.db")
			code, out, errOut := runCmd(t, "", append([]string{"fleet", "import", "--db", db}, tt.files...)...)
			if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d; stdout %q (want %q in it); stderr %q (want %q in it)", code, tt.wantCode, out, tt.wantOut, errOut, tt.wantErr)
			}
			if tt.rescans < 0 {
				if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("the database was created (%v) though nothing was recorded", err)
				}
				return
			}
			f, err := fleet.Open(t.Context(), db)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if n, err := f.QueueRescans(t.Context(), time.Now()); err != nil || n != tt.rescans {
				t.Errorf("QueueRescans after the import = %d, %v; want %d", n, err, tt.rescans)
			}
		})
	}
}

// TestFleetAddSpellings: the spellings of one site queue it once.
func TestFleetAddSpellings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fleet.db")
	code, out, errOut := runCmd(t, "", "fleet", "add", "--db", db, "https://a.example/", "https://a.example:443/", "https://a.example./")
	if code != exitOK || !strings.Contains(out, "queued 1 sites, 2 already queued") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
}

// runFor runs the command line with a context that ends after d, for a
// command that would otherwise run until interrupted (fleet work).
func runFor(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestFleetUsageErrors: flags no run can use are usage errors (exit 2)
// before anything is opened or created: --metrics-token without
// --metrics, a --metrics that is not HOST:PORT, --watch with --json, an
// export DIR that is a file, a --db (or $FRONTLATCH_FLEET_DB) that is
// neither a SQLite path nor a postgres:// URL, for every fleet command,
// a SQLite file that is not there for the commands that only read one
// (an empty database was created at the mistyped path and reported as an
// empty fleet), and a --db that is a folder or a file of something else
// (exit 1, "is the database reachable?").
func TestFleetUsageErrors(t *testing.T) {
	t.Setenv(envStore, "")
	graph, _ := confirmedGraphFile(t)
	tests := []struct {
		name    string
		env     string // $FRONTLATCH_FLEET_DB, when not ""
		args    []string
		wantErr string
	}{
		{"metrics-token without metrics", "", []string{"fleet", "work", "--db", "fleet.db", "--metrics-token", "secret"}, "--metrics-token"},
		{"add to postgres:/", "", []string{"fleet", "add", "--db", "postgres:/typo/x.db", "https://a.example/"}, "--db is not a fleet database"},
		{"work on postgres:/", "", []string{"fleet", "work", "--db", "postgres:/typo/x.db"}, "--db is not a fleet database"},
		{"status of postgres:/", "", []string{"fleet", "status", "--db", "postgres:/typo/x.db"}, "a PostgreSQL URL starts postgres://"},
		{"changes of mysql://", "", []string{"fleet", "changes", "--db", "mysql://db.example/fleet"}, "the scheme mysql: is not a fleet database"},
		{"export of http://", "", []string{"fleet", "export", "--db", "http://db.example/fleet", "out"}, "--db is not a fleet database"},
		{"import into postgres:/", "", []string{"fleet", "import", "--db", "postgres:/typo/x.db", graph}, "--db is not a fleet database"},
		{"$FRONTLATCH_FLEET_DB", "postgres:/typo/x.db", []string{"fleet", "status"}, "(it is $" + envFleetDB + ")"},
		{"export into a file", "", []string{"fleet", "export", "--db", "fleet.db", graph}, graph + " is a file, not a folder"},
		{"status --watch --json", "", []string{"fleet", "status", "--db", "fleet.db", "--watch", "--json"}, "--watch redraws the text"},
		{"status of a database not there", "", []string{"fleet", "status", "--db", "typo.db"}, "--db typo.db: there is no fleet database there"},
		{"changes of a database not there", "", []string{"fleet", "changes", "--db", "sqlite:typo.db"}, "--db typo.db: there is no fleet database there"},
		{"export of a database not there", "", []string{"fleet", "export", "--db", "typo/fleet.db", "out"}, "--db typo/fleet.db: there is no fleet database there"},
		{"$FRONTLATCH_FLEET_DB not there", "typo.db", []string{"fleet", "status"}, "(it is $" + envFleetDB + ")"},
		{"status of a file that is no database", "", []string{"fleet", "status", "--db", graph}, graph + " is not a SQLite database"},
		{"add to a folder", "", []string{"fleet", "add", "--db", filepath.Dir(graph), "https://a.example/"}, filepath.Dir(graph) + " is a folder"},
		{"metrics not HOST:PORT", "", []string{"fleet", "work", "--db", "fleet.db", "--metrics", "9464"}, "--metrics 9464 is not HOST:PORT (for example 127.0.0.1:9464)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if tt.env != "" {
				t.Setenv(envFleetDB, tt.env)
			}
			code, _, errOut := runFor(t, 5*time.Second, tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d, want %d; stderr %q, want %q in it", code, exitUsage, errOut, tt.wantErr)
			}
			if names, _ := os.ReadDir(dir); len(names) != 0 {
				t.Errorf("a refused command created %v", names)
			}
		})
	}
}

// TestFleetWorkStoreFromEnv: fleet work's audit store defaults to
// $FRONTLATCH_STORE when it is set (and only then: with it unset,
// --rescan-every without --store is a usage error).
func TestFleetWorkStoreFromEnv(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fleet.db")
	t.Setenv(envStore, "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
	code, _, errOut := runFor(t, time.Minute, "fleet", "work", "--db", db, "--rescan-every", "1h")
	if code != exitFail || !strings.Contains(errOut, "the audit store") {
		t.Errorf("with $%s set to an unreachable store: exit %d, stderr %q; want %d opening the audit store", envStore, code, errOut, exitFail)
	}
	t.Setenv(envStore, "")
	if code, _, errOut := runFor(t, time.Minute, "fleet", "work", "--db", db, "--rescan-every", "1h"); code != exitUsage || !strings.Contains(errOut, "give --store") {
		t.Errorf("with $%s unset: exit %d, stderr %q; want %d asking for --store", envStore, code, errOut, exitUsage)
	}
}

// TestFleetExportWriteFailure: a graph file that cannot be written is an
// I/O error (exit 2), as for every command that writes files, not a
// failure of the work (exit 1).
func TestFleetExportWriteFailure(t *testing.T) {
	graph, _ := confirmedGraphFile(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "fleet.db")
	if code, out, errOut := runCmd(t, "", "fleet", "import", "--db", db, graph); code != exitOK {
		t.Fatalf("import: exit %d %s%s", code, out, errOut)
	}
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(out, "127.0.0.1_8080.json", "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "", "fleet", "export", "--db", db, out)
	if code != exitUsage || !strings.Contains(errOut, "127.0.0.1_8080.json") {
		t.Errorf("exit %d, stderr %q; want %d naming the file", code, errOut, exitUsage)
	}
}

// TestFleetWorkMetricsNotLoopback: metrics served beyond loopback are
// said so on stderr, as serve-mcp says it of its endpoint.
func TestFleetWorkMetricsNotLoopback(t *testing.T) {
	t.Setenv(envStore, "")
	t.Setenv(envMetricsToken, "")
	db := filepath.Join(t.TempDir(), "fleet.db")
	tests := []struct {
		addr string
		warn bool
	}{
		{"127.0.0.1:0", false},
		{"[::1]:0", false},
		{"localhost:0", false},
		{":0", true},
		{"0.0.0.0:0", true},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			code, _, errOut := runFor(t, 2*time.Second, "fleet", "work", "--db", db, "--metrics", tt.addr)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.Contains(errOut, "not loopback"); got != tt.warn {
				t.Errorf("warned %v, want %v; stderr:\n%s", got, tt.warn, errOut)
			}
		})
	}
}

// TestFleetAddListsAtMostSome: a file that is no list of sites (a CSV, a
// binary) names its first maxListedInputs bad lines and counts the rest,
// rather than printing a line per line of the file.
func TestFleetAddListsAtMostSome(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "export.csv")
	var b strings.Builder
	for i := range maxListedInputs + 30 {
		fmt.Fprintf(&b, "Business %d,https://b%d.example/\n", i, i)
	}
	if err := os.WriteFile(list, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "", "fleet", "add", "--db", filepath.Join(dir, "fleet.db"), list)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	if n := strings.Count(errOut, "  line "); n != maxListedInputs {
		t.Errorf("%d bad lines listed, want %d:\n%s", n, maxListedInputs, errOut)
	}
	for _, want := range []string{fmt.Sprintf("%d of %d inputs are not site URLs", maxListedInputs+30, maxListedInputs+30), "line 1 of " + list, "and 30 more"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}
