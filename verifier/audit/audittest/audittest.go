// Package audittest gives tests a fresh audit store on every driver: SQLite
// in t.TempDir() always, and PostgreSQL when FRONTLATCH_TEST_POSTGRES_URL
// names a server (scripts/with-postgres.sh starts a throwaway one and sets
// it; `make test` runs the suite inside it). Each PostgreSQL store gets a
// database of its own, created with a random name and dropped in Cleanup.
//
// Without the variable the PostgreSQL half is skipped, except under
// CI=true, where it fails: CI must test both stores.
package audittest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/frontlatch/frontlatch/verifier/audit"
)

// EnvPostgresURL names the variable holding the PostgreSQL server's URL
// (its maintenance database, usually …/postgres).
const EnvPostgresURL = "FRONTLATCH_TEST_POSTGRES_URL"

// Drivers lists the drivers EachStore runs, in order.
var Drivers = []string{audit.DriverSQLite, audit.DriverPostgres}

// EachStore runs fn as a subtest per driver ("sqlite", "postgres"), each
// with a fresh, opened store closed in Cleanup.
func EachStore(t *testing.T, fn func(t *testing.T, s *audit.Store)) {
	t.Helper()
	for _, d := range Drivers {
		t.Run(d, func(t *testing.T) {
			fn(t, Open(t, URL(t, d)))
		})
	}
}

// EachURL runs fn as a subtest per driver with a fresh, unopened store URL
// (for tests that open it themselves, in this process or in others).
func EachURL(t *testing.T, fn func(t *testing.T, url string)) {
	t.Helper()
	for _, d := range Drivers {
		t.Run(d, func(t *testing.T) {
			fn(t, URL(t, d))
		})
	}
}

// Stores returns a fresh opened store per available driver. PostgreSQL is
// missing from the map when FRONTLATCH_TEST_POSTGRES_URL is unset (outside
// CI; under CI=true that fails the test).
func Stores(t testing.TB) map[string]*audit.Store {
	t.Helper()
	out := map[string]*audit.Store{audit.DriverSQLite: Open(t, URL(t, audit.DriverSQLite))}
	if base := os.Getenv(EnvPostgresURL); base != "" {
		out[audit.DriverPostgres] = Open(t, freshPostgres(t, base))
	} else if ci() {
		t.Fatalf("audittest: CI=true but %s is unset: run the tests inside scripts/with-postgres.sh", EnvPostgresURL)
	}
	return out
}

// URL returns a fresh, empty store URL for driver: a file in t.TempDir()
// for SQLite, a new database for PostgreSQL (see PostgresURL).
func URL(t testing.TB, driver string) string {
	t.Helper()
	switch driver {
	case audit.DriverSQLite:
		return "sqlite:" + filepath.Join(t.TempDir(), "audit.db")
	case audit.DriverPostgres:
		return PostgresURL(t)
	}
	t.Fatalf("audittest: unknown driver %q", driver)
	return ""
}

// PostgresURL creates a database with a random name on the server
// FRONTLATCH_TEST_POSTGRES_URL names, drops it in Cleanup, and returns its
// URL. It skips the test when the variable is unset, and fails it instead
// under CI=true.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgresURL)
	if base == "" {
		if ci() {
			t.Fatalf("audittest: CI=true but %s is unset: run the tests inside scripts/with-postgres.sh", EnvPostgresURL)
		}
		t.Skipf("audittest: %s is unset; run inside scripts/with-postgres.sh to test PostgreSQL", EnvPostgresURL)
	}
	return freshPostgres(t, base)
}

// Open opens url and closes the store in Cleanup.
func Open(t testing.TB, url string) *audit.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := audit.Open(ctx, url)
	if err != nil {
		t.Fatalf("audittest: Open(%q): %v", url, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("audittest: Close: %v", err)
		}
	})
	return s
}

func ci() bool { return os.Getenv("CI") == "true" }

// freshPostgres creates a database named frontlatch_test_<random> and
// registers its removal.
func freshPostgres(t testing.TB, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("audittest: %s=%q is not a postgres:// URL", EnvPostgresURL, base)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "frontlatch_test_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("audittest: connect to %s: %v", EnvPostgresURL, err)
	}
	defer conn.Close(context.Background())
	// name is [a-z0-9_] only: safe to write into the statement.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("audittest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("audittest: connect to drop %s: %v", name, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("audittest: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// Driver returns the driver a store URL selects ("sqlite" or "postgres").
func Driver(url string) string {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return audit.DriverPostgres
	}
	return audit.DriverSQLite
}

// State is an attempt's state in one word, for tests that compare many:
// "completed", "unknown" (marked abandoned, not completed) or "pending".
func State(a audit.Attempt) string {
	switch {
	case a.Completed != nil:
		return "completed"
	case a.Unknown:
		return "unknown"
	}
	return "pending"
}
