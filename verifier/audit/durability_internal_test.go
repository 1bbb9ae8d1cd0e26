package audit

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// TestDurabilitySettings: each sqlite: synchronous setting commits the
// writes as it documents — critical: a durable write's transaction at FULL,
// any other (and the pool's connections after it) at NORMAL; full and
// normal: every one at that setting.
func TestDurabilitySettings(t *testing.T) {
	tests := []struct {
		opt                   string
		wantDurable, wantRest int64 // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{
		{"", 2, 1},
		{"?synchronous=critical", 2, 1},
		{"?synchronous=full", 2, 2},
		{"?synchronous=normal", 1, 1},
	}
	for _, tt := range tests {
		t.Run("sqlite:PATH"+tt.opt, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db")+tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			in := func(durable bool) int64 {
				var v int64
				err := s.db.write(ctx, writeOpts{durable: durable}, func(q querier) error {
					_, err := one(ctx, q, "PRAGMA synchronous", nil, &v)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			for round := range 3 { // the setting of a durable write must not stay behind
				if got := in(true); got != tt.wantDurable {
					t.Errorf("round %d: durable write at synchronous=%d, want %d", round, got, tt.wantDurable)
				}
				if got := in(false); got != tt.wantRest {
					t.Errorf("round %d: other write at synchronous=%d, want %d", round, got, tt.wantRest)
				}
			}
			// Every other connection of the pool is at the pool's setting.
			db := s.db.(*sqliteDB).db
			var conns []*sql.Conn
			for range 3 { // of 4: the writer holds one
				c, err := db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				var v int64
				if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
					t.Fatal(err)
				}
				if v != tt.wantRest {
					t.Errorf("a pooled connection is at synchronous=%d, want %d", v, tt.wantRest)
				}
			}
			for _, c := range conns {
				_ = c.Close()
			}
		})
	}
}

// recordingBackend notes how each write transaction was asked to run.
type recordingBackend struct {
	backend
	got []writeOpts
}

func (r *recordingBackend) write(ctx context.Context, w writeOpts, fn func(q querier) error) error {
	r.got = append(r.got, w)
	return r.backend.write(ctx, w, fn)
}

// TestDurableWrites: the records whose loss would be unsafe — an attempt
// begun, a confirmation, a revocation — are written durably; a completion,
// a refusal, a notification try and a recovery mark are not.
func TestDurableWrites(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := &recordingBackend{backend: s.db}
	s.db = rec
	var c Confirmation
	var a Attempt
	ops := []struct {
		name    string
		durable bool
		run     func() error
	}{
		{"RecordConfirmation", true, func() (err error) {
			c, err = s.RecordConfirmation(ctx, Confirmation{ActionID: "x", ConfirmedBy: "o", ConfirmedAt: "2026-09-02T09:30:00.000Z",
				Method: shared.ConfirmedOwnerPortal, Digest: "sha256:" + "00000000000000000000000000000000" + "00000000000000000000000000000000"})
			return err
		}},
		{"BeginAttempt", true, func() (err error) {
			a, err = s.BeginAttempt(ctx, Begin{ActionID: "x", AuditRef: c.Ref, Cap: shared.VolumeCap{Max: 5, Per: shared.PerDay}, Instance: "i"})
			return err
		}},
		{"CompleteAttempt", false, func() error {
			return s.CompleteAttempt(ctx, a.ID, Completion{Outcome: OutcomeFired, Status: 200})
		}},
		{"RecordNotification", false, func() error { return s.RecordNotification(ctx, a.ID, 1, 0, "not sent", time.Time{}) }},
		{"RecordRefusal", false, func() error { return s.RecordRefusal(ctx, "x", "", []string{"input.invalid"}, time.Time{}) }},
		{"RecoverAbandoned", false, func() error { _, err := s.RecoverAbandoned(ctx, RecoverOptions{Instance: "j"}); return err }},
		{"Heartbeat", false, func() error { return s.Heartbeat(ctx, "j", time.Time{}, time.Minute) }},
		{"RecordRevocation", true, func() error { return s.RecordRevocation(ctx, Revocation{ActionID: "x", Ref: c.Ref, By: "o"}) }},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			rec.got = nil
			if err := op.run(); err != nil {
				t.Fatal(err)
			}
			if len(rec.got) != 1 || rec.got[0].durable != op.durable {
				t.Errorf("writes %+v, want one with durable=%t", rec.got, op.durable)
			}
		})
	}
}

// TestStatementsPreparedOnce: the store's statements are prepared once
// and reused: many calls do not grow the cache, and the lookup still sees
// every new record.
func TestStatementsPreparedOnce(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db")+"?synchronous=normal")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.db.(*sqliteDB)
	round := func(i int) {
		c, err := s.RecordConfirmation(ctx, Confirmation{ActionID: "x", ConfirmedBy: "o", ConfirmedAt: "2026-09-02T09:30:00.000Z",
			Method: shared.ConfirmedOwnerPortal, Digest: "sha256:" + "00000000000000000000000000000000" + "00000000000000000000000000000000"})
		if err != nil {
			t.Fatal(err)
		}
		ans, err := s.LookupAudit(ctx, shared.AuditQuery{Ref: c.Ref, ActionID: "x", ConfirmedBy: "o", ConfirmedAt: c.ConfirmedAt})
		if err != nil || !ans.Found || ans.Revoked {
			t.Fatalf("round %d: lookup of the new record = %+v, %v", i, ans, err)
		}
		if err := s.RecordRevocation(ctx, Revocation{ActionID: "x", Ref: c.Ref, By: "o"}); err != nil {
			t.Fatal(err)
		}
		if ans, err := s.LookupAudit(ctx, shared.AuditQuery{Ref: c.Ref, ActionID: "x", ConfirmedBy: "o", ConfirmedAt: c.ConfirmedAt}); err != nil || !ans.Revoked {
			t.Fatalf("round %d: lookup after the revocation = %+v, %v", i, ans, err)
		}
	}
	round(0)
	db.stmts.mu.Lock()
	n := len(db.stmts.m)
	db.stmts.mu.Unlock()
	for i := 1; i < 20; i++ {
		round(i)
	}
	db.stmts.mu.Lock()
	defer db.stmts.mu.Unlock()
	if n == 0 || len(db.stmts.m) != n {
		t.Errorf("prepared statements: %d after one round, %d after twenty; want the same, not 0", n, len(db.stmts.m))
	}
}

// TestWriterRollsBack: a write transaction that fails, or whose context
// ends in the middle, leaves nothing behind, and the writer connection
// goes on serving the next one; after Close a write fails at once.
func TestWriterRollsBack(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	count := func() int64 {
		var n int64
		if _, err := one(ctx, s.db, "SELECT COUNT(*) FROM refusals WHERE action_id = ?", []any{"x"}, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	insert := func(ctx context.Context, q querier) error {
		return insertRefusal(ctx, q, "x", "", RefusalRefused, []string{"r"}, time.Now())
	}
	failed := errors.New("fail after the insert")
	if err := s.db.write(ctx, writeOpts{durable: true}, func(q querier) error {
		if err := insert(ctx, q); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatalf("err = %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	if err := s.db.write(cctx, writeOpts{}, func(q querier) error {
		if err := insert(cctx, q); err != nil {
			return err
		}
		cancel()
		return insert(cctx, q)
	}); err == nil {
		t.Fatal("a write whose context ended in the middle committed")
	}
	if n := count(); n != 0 {
		t.Fatalf("%d rows after two failed writes, want 0", n)
	}
	for range 3 {
		if err := s.db.write(ctx, writeOpts{durable: true}, func(q querier) error { return insert(ctx, q) }); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(); n != 3 {
		t.Fatalf("%d rows after three writes, want 3", n)
	}
	s.Close()
	done := make(chan error, 1)
	go func() {
		done <- s.db.write(ctx, writeOpts{}, func(q querier) error { return insert(ctx, q) })
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a write after Close succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a write after Close hangs")
	}
}
