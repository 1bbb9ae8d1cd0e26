package fleet

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestErrorsOnePrefix: an error of the package says "fleet: " once and
// matches its sentinel ("fleet: fleet: database unavailable: …" was what
// fleet status printed for a database that went away).
func TestErrorsOnePrefix(t *testing.T) {
	open := openTemp(t)
	// A database that went away under an open Fleet (a closed Fleet is
	// ErrClosed: TestClosedFleet).
	closed := openTemp(t)
	if err := closed.db.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want error
		call func(ctx context.Context) error
	}{
		{"Open of an unreachable PostgreSQL", ErrUnavailable, func(ctx context.Context) error {
			_, err := Open(ctx, "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=2")
			return err
		}},
		{"Open of no SQLite path", ErrUnavailable, func(ctx context.Context) error { _, err := Open(ctx, "sqlite:"); return err }},
		{"Latest of a site never mapped", ErrNoSuchSite, func(ctx context.Context) error {
			_, err := open.Latest(ctx, "https://a.example/")
			return err
		}},
		{"Status", ErrUnavailable, func(ctx context.Context) error { _, err := closed.Status(ctx); return err }},
		{"Failures", ErrUnavailable, func(ctx context.Context) error { _, err := closed.Failures(ctx); return err }},
		{"Changes", ErrUnavailable, func(ctx context.Context) error { _, err := closed.Changes(ctx, time.Now()); return err }},
		{"Export", ErrUnavailable, func(ctx context.Context) error { _, err := closed.Export(ctx, t.TempDir()); return err }},
		{"Latest", ErrUnavailable, func(ctx context.Context) error { _, err := closed.Latest(ctx, "https://a.example/"); return err }},
		{"Add", ErrUnavailable, func(ctx context.Context) error {
			_, err := closed.Add(ctx, inputs([]string{"https://a.example/"}))
			return err
		}},
		{"QueueRescans", ErrUnavailable, func(ctx context.Context) error { _, err := closed.QueueRescans(ctx, time.Now()); return err }},
		{"Import", ErrUnavailable, func(ctx context.Context) error {
			_, err := closed.Import(ctx, readGraph(t, clinicGraph))
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(t.Context())
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if n := strings.Count(err.Error(), "fleet: "); n != 1 {
				t.Errorf("%q says \"fleet: \" %d times, want once", err, n)
			}
		})
	}
}
