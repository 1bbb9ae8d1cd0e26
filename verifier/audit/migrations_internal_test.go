package audit

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Both drivers know the same versions, with the same names: one schema
// history in two dialects.
func TestMigrationSetsMatch(t *testing.T) {
	lite, err := migrations(DriverSQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations(DriverPostgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 || len(lite) != len(pg) {
		t.Fatalf("sqlite has %d migrations, postgres %d; want the same, at least one", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].version != pg[i].version || lite[i].name != pg[i].name {
			t.Errorf("migration %d: sqlite %s, postgres %s", i+1, lite[i].name, pg[i].name)
		}
		if strings.Contains(lite[i].sql, "?") || strings.Contains(pg[i].sql, "?") {
			t.Errorf("migration %s holds '?', which the PostgreSQL placeholder rewriting would change", lite[i].name)
		}
	}
	if SchemaVersion() != len(lite) {
		t.Errorf("SchemaVersion = %d, want %d", SchemaVersion(), len(lite))
	}
}

func TestRebind(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"},
		{"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"},
	}
	for _, tt := range tests {
		if got := rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A database migrated by an older binary (schema version 1) is brought up
// to date by Open, and the newer migration's effect is there.
func TestMigrateFromOlderSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "audit.db")
	old, err := openSQLite(ctx, path, "FULL")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations(DriverSQLite)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.migrateWith(ctx, ms[:1]); err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.exec(ctx, "INSERT INTO refusals (action_id, idempotency_key, kind, reasons, at_ns, recorded_ns) VALUES ('a', '', 'refused', '[\"x\"]', 1, 1)"); err != nil {
		t.Fatal(err)
	}
	version := func(s *Store) int64 {
		var v int64
		if _, err := one(ctx, s.db, "SELECT MAX(version) FROM schema_migrations", nil, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := version(old); v != 1 {
		t.Fatalf("old binary's schema version = %d, want 1", v)
	}
	old.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := version(s); v != int64(SchemaVersion()) {
		t.Errorf("after Open: schema version %d, want %d", v, SchemaVersion())
	}
	refs, err := s.Refusals(ctx, "a")
	if err != nil || len(refs) != 1 {
		t.Errorf("the old record after migrating: %v, %v", refs, err)
	}
	if len(ms) >= 2 {
		if _, err := s.db.exec(ctx, "DELETE FROM refusals"); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("after migrating to 0002, a delete: err = %v, want the append-only refusal", err)
		}
	}
}
