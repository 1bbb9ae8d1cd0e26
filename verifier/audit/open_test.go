package audit_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

func TestOpenBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		url  string
		want error
	}{
		{"unknown scheme", "mysql://localhost/audit", audit.ErrInvalid},
		{"http scheme", "http://127.0.0.1/audit", audit.ErrInvalid},
		{"sqlite uri", "file:audit.db?mode=memory", audit.ErrInvalid},
		{"memory database", ":memory:", audit.ErrInvalid},
		{"empty sqlite path", "sqlite:", audit.ErrInvalid},
		{"query in path", filepath.Join(dir, "a.db?x=1"), audit.ErrInvalid},
		{"unknown sqlite option", "sqlite:" + filepath.Join(dir, "a.db?cache=shared"), audit.ErrInvalid},
		{"bad synchronous value", "sqlite:" + filepath.Join(dir, "a.db?synchronous=off"), audit.ErrInvalid},
		{"a directory", dir, audit.ErrInvalid},
		{"unparsable postgres url", "postgres://%zz@127.0.0.1/x", audit.ErrInvalid},
		{"directory cannot be created", "/proc/nonexistent/audit.db", audit.ErrUnavailable},
		// Port 1 on loopback: nothing listens; the refusal must come fast.
		{"unreachable postgres", "postgres://frontlatch@127.0.0.1:1/x?sslmode=disable", audit.ErrUnavailable},
		{"unreachable postgresql", "postgresql://frontlatch@127.0.0.1:1/x?sslmode=disable", audit.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done := make(chan struct{})
			var s *audit.Store
			var err error
			go func() { s, err = audit.Open(ctx, tt.url); close(done) }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				t.Fatalf("Open(%q) did not return within 15 s", tt.url)
			}
			if s != nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded, want %v", tt.url, tt.want)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open(%q): err = %v, want %v", tt.url, err, tt.want)
			}
			var se *audit.StoreError
			if !errors.As(err, &se) || se.Op != "open" || !strings.HasPrefix(err.Error(), "audit: open") {
				t.Errorf("err = %q, want a *StoreError for op open", err)
			}
		})
	}
}

func TestOpenForms(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg"))
	def, err := audit.DefaultPath()
	if err != nil || def != filepath.Join(dir, "xdg", "frontlatch", "audit.db") {
		t.Fatalf("DefaultPath = %q, %v", def, err)
	}
	tests := []struct {
		name, url, file string
	}{
		{"empty is the default path", "", def},
		{"plain path, directories created", filepath.Join(dir, "a", "b", "audit.db"), filepath.Join(dir, "a", "b", "audit.db")},
		{"sqlite: prefix", "sqlite:" + filepath.Join(dir, "c.db"), filepath.Join(dir, "c.db")},
		{"synchronous=normal", "sqlite:" + filepath.Join(dir, "n.db") + "?synchronous=normal", filepath.Join(dir, "n.db")},
		{"synchronous=full", "sqlite:" + filepath.Join(dir, "f.db") + "?synchronous=FULL", filepath.Join(dir, "f.db")},
		{"synchronous=critical", "sqlite:" + filepath.Join(dir, "k.db") + "?synchronous=critical", filepath.Join(dir, "k.db")},
		{"a path with # and spaces", filepath.Join(dir, "owner #1", "a b.db"), filepath.Join(dir, "owner #1", "a b.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := audit.Open(context.Background(), tt.url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Driver() != audit.DriverSQLite {
				t.Errorf("Driver = %q", s.Driver())
			}
			if _, err := os.Stat(tt.file); err != nil {
				t.Errorf("no database at %s: %v", tt.file, err)
			}
		})
	}
}

// rawDB opens the store's database beside the store, for tests that must
// look under it (schema_migrations).
type rawDB struct {
	exec  func(q string, args ...any) error
	query func(q string, dest ...any) error
	close func()
}

func openRaw(t *testing.T, url string) rawDB {
	t.Helper()
	ctx := context.Background()
	if audittest.Driver(url) == audit.DriverPostgres {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		return rawDB{
			exec:  func(q string, args ...any) error { _, err := c.Exec(ctx, q, args...); return err },
			query: func(q string, dest ...any) error { return c.QueryRow(ctx, q).Scan(dest...) },
			close: func() { c.Close(ctx) },
		}
	}
	db, err := sql.Open("sqlite", strings.TrimPrefix(url, "sqlite:"))
	if err != nil {
		t.Fatal(err)
	}
	return rawDB{
		exec:  func(q string, args ...any) error { _, err := db.ExecContext(ctx, q, args...); return err },
		query: func(q string, dest ...any) error { return db.QueryRowContext(ctx, q).Scan(dest...) },
		close: func() { db.Close() },
	}
}

func TestMigrations(t *testing.T) {
	if audit.SchemaVersion() < 1 {
		t.Fatalf("SchemaVersion = %d", audit.SchemaVersion())
	}
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		for i := range 2 { // a second Open applies nothing again
			s, err := audit.Open(ctx, url)
			if err != nil {
				t.Fatalf("Open #%d: %v", i+1, err)
			}
			s.Close()
		}
		raw := openRaw(t, url)
		defer raw.close()
		var n, max int64
		if err := raw.query("SELECT COUNT(*), MAX(version) FROM schema_migrations", &n, &max); err != nil {
			t.Fatal(err)
		}
		if n != int64(audit.SchemaVersion()) || max != int64(audit.SchemaVersion()) {
			t.Errorf("schema_migrations holds %d rows up to %d, want %d", n, max, audit.SchemaVersion())
		}
		// A newer binary migrated this database: this code must refuse it.
		next := audit.SchemaVersion() + 1
		if err := raw.exec(fmt.Sprintf("INSERT INTO schema_migrations (version, name, applied_ns) VALUES (%d, 'future.sql', 0)", next)); err != nil {
			t.Fatal(err)
		}
		s, err := audit.Open(ctx, url)
		if s != nil {
			s.Close()
		}
		if !errors.Is(err, audit.ErrSchemaVersion) {
			t.Errorf("Open of a newer schema: err = %v, want ErrSchemaVersion", err)
		}
	})
}

// TestOpenConcurrently opens one fresh database from many goroutines at
// once: every Open migrates or finds it migrated; none fails.
func TestOpenConcurrently(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := audit.Open(context.Background(), url)
				if err != nil {
					errs <- err
					return
				}
				_, err = s.RecordConfirmation(context.Background(), confirmation(t, "a"))
				if err != nil {
					errs <- err
				}
				s.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

// TestDatabaseRefusesChanges goes around the store: a client with the
// database's own credentials cannot update, delete or truncate a record
// either (the triggers of migrations 0002, 0003 and 0004).
func TestDatabaseRefusesChanges(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := audittest.Open(t, url)
		c, err := s.RecordConfirmation(ctx, confirmation(t, "a"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := s.BeginAttempt(ctx, begin("a", 5))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Sent: []byte(`{"fields":[]}`)}); err != nil {
			t.Fatal(err)
		}
		if err := s.Heartbeat(ctx, "exec-1", time.Time{}, time.Minute); err != nil {
			t.Fatal(err)
		}
		raw := openRaw(t, url)
		defer raw.close()
		stmts := []string{
			"UPDATE confirmations SET digest = 'sha256:forged'",
			"DELETE FROM confirmations",
			"UPDATE attempts SET action_id = 'b'",
			"DELETE FROM attempts",
			"UPDATE completions SET outcome = 'failed'",
			"DELETE FROM completions",
			"UPDATE completion_sent SET sent = 'x'",
			"DELETE FROM completion_sent",
			"UPDATE heartbeats SET until_ns = until_ns + 1000000000000",
			"DELETE FROM heartbeats",
		}
		if audittest.Driver(url) == audit.DriverPostgres {
			stmts = append(stmts, "TRUNCATE completions", "TRUNCATE completion_sent", "TRUNCATE heartbeats", "TRUNCATE confirmations CASCADE")
		}
		for _, q := range stmts {
			err := raw.exec(q)
			if err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: err = %v, want the append-only refusal", q, err)
			}
		}
		got, err := s.LookupAudit(ctx, query(c))
		if err != nil || !got.Found || got.Digest != c.Digest {
			t.Errorf("after the refused changes: %+v, %v; want the record as written", got, err)
		}
		if att, err := s.Attempt(ctx, a.ID); err != nil || att.Completed == nil || att.Completed.Outcome != audit.OutcomeFired {
			t.Errorf("attempt after the refused changes: %+v, %v", att, err)
		}
	})
}

// An insert that would replace a record does not rewrite it either. On
// SQLite, REPLACE (INSERT OR REPLACE, REPLACE INTO) deletes the row in the
// way without firing its delete trigger (recursive_triggers is off unless a
// connection turns it on), so a client could move a revocation off its
// confirmation or turn a fired attempt into a failed one; on PostgreSQL an
// upsert's DO UPDATE meets the update triggers.
func TestDatabaseKeepsRecordsAnInsertWouldReplace(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := audittest.Open(t, url)
		c, err := s.RecordConfirmation(ctx, confirmation(t, "a"))
		if err != nil {
			t.Fatal(err)
		}
		other, err := s.RecordConfirmation(ctx, confirmation(t, "a"))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: "a", Ref: c.Ref, By: "Owner"}); err != nil {
			t.Fatal(err)
		}
		a, err := s.BeginAttempt(ctx, begin("a", 5))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200}); err != nil {
			t.Fatal(err)
		}
		raw := openRaw(t, url)
		defer raw.close()
		const (
			confCols = "ref, graph_id, action_id, confirmed_by, confirmed_at, method, digest, subject, recorded_ns"
			forged   = "ref, graph_id, action_id, confirmed_by, confirmed_at, method, 'sha256:forged', subject, recorded_ns"
			revCols  = "id, ref, revoked_by, revoked_ns, reason, recorded_ns"
			compCols = "attempt_id, outcome, status, response, error, at_ns, recorded_ns"
			attCols  = "id, action_id, audit_ref, idempotency_key, cap_max, cap_per, request, begun_ns, instance, recorded_ns"
		)
		moved := "id, '" + other.Ref + "', revoked_by, revoked_ns, reason, recorded_ns"
		stmts := []string{
			"INSERT OR REPLACE INTO confirmations (" + confCols + ") SELECT " + forged + " FROM confirmations",
			"REPLACE INTO revocations (" + revCols + ") SELECT " + moved + " FROM revocations",
			"REPLACE INTO completions (" + compCols + ") SELECT attempt_id, 'failed', 500, response, error, at_ns, recorded_ns FROM completions",
			"INSERT OR REPLACE INTO attempts (" + attCols + ") SELECT id, 'b', audit_ref, idempotency_key, cap_max, cap_per, request, begun_ns, instance, recorded_ns FROM attempts",
		}
		if audittest.Driver(url) == audit.DriverPostgres {
			stmts = []string{
				"INSERT INTO confirmations (" + confCols + ") SELECT " + forged + " FROM confirmations ON CONFLICT (ref) DO UPDATE SET digest = excluded.digest",
				"INSERT INTO revocations (" + revCols + ") SELECT " + moved + " FROM revocations ON CONFLICT (id) DO UPDATE SET ref = excluded.ref",
				"INSERT INTO completions (" + compCols + ") SELECT attempt_id, 'failed', 500, response, error, at_ns, recorded_ns FROM completions ON CONFLICT (attempt_id) DO UPDATE SET outcome = excluded.outcome",
			}
		}
		for _, q := range stmts {
			_ = raw.exec(q) // refused, or dropped: either way nothing is rewritten
		}
		got, err := s.LookupAudit(ctx, query(c))
		if err != nil || !got.Found || got.Digest != c.Digest || !got.Revoked {
			t.Errorf("the revoked confirmation is now found %v, digest %s, revoked %v (%v); want it as written, and revoked", got.Found, got.Digest, got.Revoked, err)
		}
		if got, err := s.LookupAudit(ctx, query(other)); err != nil || !got.Found || got.Revoked {
			t.Errorf("the other confirmation is now found %v, revoked %v (%v); want it found, not revoked", got.Found, got.Revoked, err)
		}
		att, err := s.Attempt(ctx, a.ID)
		if err != nil || att.ActionID != "a" || att.Completed == nil || att.Completed.Outcome != audit.OutcomeFired || att.Completed.Status != 200 {
			t.Errorf("the attempt is now %+v (completed %+v), %v; want it as written", att, att.Completed, err)
		}
		// The store's own inserts still meet a record they would repeat as
		// it says: a duplicate, not a failure.
		if _, err := s.RecordConfirmation(ctx, c); !errors.Is(err, audit.ErrDuplicate) {
			t.Errorf("recording the same confirmation again: %v, want ErrDuplicate", err)
		}
		if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFailed}); !errors.Is(err, audit.ErrAlreadyCompleted) {
			t.Errorf("completing the attempt again: %v, want ErrAlreadyCompleted", err)
		}
	})
}

// sqliteBusy is what opening a store retries on: SQLite's busy code, read
// from the driver's error, not from its text.
func TestSQLiteBusyIsReadFromTheCode(t *testing.T) {
	dir := t.TempDir()
	lock, err := sql.Open("sqlite", filepath.Join(dir, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	lock.SetMaxOpenConns(1)
	if _, err := lock.Exec(`CREATE TABLE x (a); BEGIN EXCLUSIVE; INSERT INTO x VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", filepath.Join(dir, "a.db")+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, busyErr := other.Exec(`INSERT INTO x VALUES (2)`)
	if busyErr == nil {
		t.Fatal("a write beside an exclusive transaction succeeded")
	}
	if !audit.SQLiteBusyForTest(busyErr) {
		t.Errorf("not taken for busy: %v", busyErr)
	}
	if audit.SQLiteBusyForTest(errors.New("SQLITE_BUSY in a message")) {
		t.Error("an error that only says SQLITE_BUSY was taken for busy")
	}
}

// A file that is not a SQLite database, or a corrupt one, is no audit
// store: Open says so with ErrNotAuditStore, not ErrUnavailable (which
// means "try again later"), and leaves the file as it was.
func TestOpenWhatIsNoAuditStore(t *testing.T) {
	dir := t.TempDir()
	// A real store whose pages are overwritten: all but the header, or all
	// but the first page.
	corrupt := filepath.Join(dir, "corrupt.db")
	s, err := audit.Open(context.Background(), corrupt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordConfirmation(context.Background(), confirmation(t, "a")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(corrupt)
	if err != nil {
		t.Fatal(err)
	}
	garble := func(from int) []byte {
		out := bytes.Clone(b)
		for i := from; i < len(out); i++ {
			out[i] = 0xA5
		}
		return out
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"a text file", []byte(strings.Repeat("these are the minutes of the meeting, not a database\n", 20))},
		{"a SQLite file corrupt past its header", garble(100)},
		{"a SQLite file corrupt past its first page", garble(4096)},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("file%d.db", i))
			if err := os.WriteFile(p, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := audit.Open(context.Background(), p)
			if s != nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, audit.ErrNotAuditStore) || errors.Is(err, audit.ErrUnavailable) {
				t.Errorf("err = %v, want ErrNotAuditStore and not ErrUnavailable", err)
			}
			var se *audit.StoreError
			if !errors.As(err, &se) || se.Driver != audit.DriverSQLite {
				t.Errorf("err = %#v, want a *StoreError of the sqlite driver", err)
			}
			got, rerr := os.ReadFile(p)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if diff := cmp.Diff(tt.data, got); diff != "" {
				t.Errorf("the file changed (-want +got):\n%s", diff)
			}
		})
	}
}

// Open adds its tables only to an empty database or one it migrated:
// pointed at an application's database (tables of its own, no
// schema_migrations, or another tool's schema_migrations), it answers
// ErrNotAuditStore and adds nothing.
func TestOpenRefusesAnotherProgramsDatabase(t *testing.T) {
	tests := []struct {
		name  string
		setup []string
	}{
		{"a table of its own", []string{
			"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
			"INSERT INTO customers (id, name) VALUES (1, 'Ada')",
		}},
		{"a view of its own", []string{"CREATE VIEW answer AS SELECT 42 AS n"}},
		{"another tool's schema_migrations", []string{
			"CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, dirty BOOLEAN NOT NULL)",
			"INSERT INTO schema_migrations (version, dirty) VALUES (3, false)",
			"CREATE TABLE orders (id INTEGER PRIMARY KEY)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			audittest.EachURL(t, func(t *testing.T, url string) {
				raw := openRaw(t, url)
				defer raw.close()
				for _, q := range tt.setup {
					if err := raw.exec(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				tables := func() []string {
					q := "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name)"
					if audittest.Driver(url) == audit.DriverPostgres {
						q = "SELECT string_agg(relname::text, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'v')"
					}
					var s string
					if err := raw.query(q, &s); err != nil {
						t.Fatal(err)
					}
					return strings.Split(s, ",")
				}
				before := tables()
				s, err := audit.Open(context.Background(), url)
				if s != nil {
					s.Close()
					t.Fatal("Open succeeded")
				}
				if !errors.Is(err, audit.ErrNotAuditStore) || errors.Is(err, audit.ErrUnavailable) {
					t.Errorf("err = %v, want ErrNotAuditStore and not ErrUnavailable", err)
				}
				if diff := cmp.Diff(before, tables()); diff != "" {
					t.Errorf("Open changed the database's tables (-want +got):\n%s", diff)
				}
			})
		})
	}
	// A PostgreSQL database may hold the store in a schema of its own
	// (search_path in the URL) beside an application's tables.
	t.Run("postgres schema of its own", func(t *testing.T) {
		url := audittest.PostgresURL(t)
		raw := openRaw(t, url)
		defer raw.close()
		for _, q := range []string{"CREATE TABLE customers (id INTEGER PRIMARY KEY)", "CREATE SCHEMA audit"} {
			if err := raw.exec(q); err != nil {
				t.Fatal(err)
			}
		}
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		s, err := audit.Open(context.Background(), url+sep+"search_path=audit")
		if err != nil {
			t.Fatalf("Open in a schema of its own: %v", err)
		}
		defer s.Close()
		if _, err := s.RecordConfirmation(context.Background(), confirmation(t, "a")); err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := raw.query("SELECT COUNT(*) FROM audit.confirmations", &n); err != nil || n != 1 {
			t.Errorf("audit.confirmations holds %d rows (%v), want 1", n, err)
		}
	})
}

// schema_migrations is append-only like the records (migration 0006): a
// client cannot delete, rewrite or replace the schema's history, which made
// every later Open apply a migration again over its own tables and fail.
func TestSchemaHistoryIsAppendOnly(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s, err := audit.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		raw := openRaw(t, url)
		defer raw.close()
		history := func() string {
			q := "SELECT group_concat(version || ':' || name, ',') FROM (SELECT version, name FROM schema_migrations ORDER BY version)"
			if audittest.Driver(url) == audit.DriverPostgres {
				q = "SELECT string_agg(version || ':' || name, ',' ORDER BY version) FROM schema_migrations"
			}
			var h string
			if err := raw.query(q, &h); err != nil {
				t.Fatal(err)
			}
			return h
		}
		before := history()
		refused := []string{
			"DELETE FROM schema_migrations WHERE version = 1",
			"DELETE FROM schema_migrations",
			"UPDATE schema_migrations SET name = 'forged.sql'",
		}
		dropped := []string{}
		if audittest.Driver(url) == audit.DriverPostgres {
			refused = append(refused, "TRUNCATE schema_migrations")
		} else {
			dropped = append(dropped, "INSERT OR REPLACE INTO schema_migrations (version, name, applied_ns) VALUES (1, 'forged.sql', 0)")
		}
		for _, q := range refused {
			if err := raw.exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: err = %v, want the append-only refusal", q, err)
			}
		}
		for _, q := range dropped {
			_ = raw.exec(q) // refused, or dropped: either way nothing is rewritten
		}
		if diff := cmp.Diff(before, history()); diff != "" {
			t.Errorf("schema_migrations changed (-want +got):\n%s", diff)
		}
		s, err = audit.Open(ctx, url)
		if err != nil {
			t.Fatalf("Open after the refused changes: %v", err)
		}
		s.Close()
	})
}
