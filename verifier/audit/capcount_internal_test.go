package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// TestWindowCountMatchesFullCount: the remembered count of a cap window
// (capcount.go) equals COUNT(*) after every attempt, with two stores on one
// file (as two processes) beginning attempts for two actions, some dated
// into the window and some outside it; and it counts from the mark, not in
// full, once it has one.
func TestWindowCountMatchesFullCount(t *testing.T) {
	ctx := context.Background()
	path := "sqlite:" + filepath.Join(t.TempDir(), "a.db") + "?synchronous=normal"
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	from, to := day.UnixNano(), day.AddDate(0, 0, 1).UnixNano()
	full := func(actionID string) int64 {
		var n int64
		if err := stores[0].db.(*sqliteDB).db.QueryRowContext(ctx, fullCountSQL, actionID, from, to).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	actions := []string{"a:b:c", "d:e:f"}
	for i := range 60 {
		s := stores[i%2]
		act := actions[(i/3)%2]
		at := day.Add(time.Duration(i) * time.Minute)
		if i%5 == 4 {
			at = day.Add(-time.Hour) // yesterday: not in the window
		}
		if _, err := s.BeginAttempt(ctx, Begin{ActionID: act, AuditRef: "aud_x", Cap: shared.VolumeCap{Max: 1000, Per: shared.PerDay}, At: at, Instance: "i"}); err != nil {
			t.Fatal(err)
		}
		for j, st := range stores {
			for _, a := range actions {
				var got int64
				err := st.db.write(ctx, writeOpts{durable: true}, func(q querier) error {
					var err error
					got, err = st.windowCount(ctx, q, a, from, to)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				if want := full(a); got != want {
					t.Fatalf("after attempt %d, store %d, %s: window count %d, COUNT(*) %d", i, j, a, got, want)
				}
			}
		}
	}
	lite := stores[0].db.(*sqliteDB)
	lite.counts.mu.Lock()
	mark := lite.counts.m[countKey{actions[0], from, to}]
	lite.counts.mu.Unlock()
	if mark.rounds < 50 {
		t.Errorf("the count was read from the mark %d times in 60 rounds; want it used", mark.rounds)
	}
}

// TestWindowCountRecountsWhenTheMarkMoved: when the row at the remembered
// rowid is not the one remembered, the window is counted in full again.
func TestWindowCountRecountsWhenTheMarkMoved(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db")+"?synchronous=normal")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	begin := Begin{ActionID: "a:b:c", AuditRef: "aud_x", Cap: shared.VolumeCap{Max: 3, Per: shared.PerMonth}, Instance: "i"}
	for i := range 3 {
		if _, err := s.BeginAttempt(ctx, begin); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	lite := s.db.(*sqliteDB)
	lite.counts.mu.Lock()
	if len(lite.counts.m) != 1 {
		t.Fatalf("%d marks, want 1", len(lite.counts.m))
	}
	for k, m := range lite.counts.m {
		m.n, m.idAt = 0, fmt.Sprintf("att_%032d", 0) // as if the rows it counted were others
		lite.counts.m[k] = m
	}
	lite.counts.mu.Unlock()
	if _, err := s.BeginAttempt(ctx, begin); err == nil {
		t.Fatal("a 4th attempt against a cap of 3 was begun: the moved mark was trusted")
	}
}

// TestWindowCountAfterRollback: a mark moved onto an attempt whose
// transaction then rolled back is not trusted: the row is not there, so the
// window is counted in full and the cap holds.
func TestWindowCountAfterRollback(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "a.db")+"?synchronous=normal")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	begin := Begin{ActionID: "a:b:c", AuditRef: "aud_x", Cap: shared.VolumeCap{Max: 2, Per: shared.PerMonth}, Instance: "i"}
	if _, err := s.BeginAttempt(ctx, begin); err != nil {
		t.Fatal(err)
	}
	from, to, _ := Window(shared.PerMonth, time.Now())
	rolledBack := fmt.Errorf("roll back")
	err = s.db.write(ctx, writeOpts{durable: true}, func(q querier) error {
		rowid, err := q.insert(ctx, `INSERT INTO attempts (id, action_id, audit_ref, idempotency_key, cap_max, cap_per, request, begun_ns, instance, recorded_ns)
			VALUES (?, ?, '', NULL, 2, 'month', x'', ?, 'i', 0)`, "att_rolled_back", "a:b:c", time.Now().UnixNano())
		if err != nil {
			return err
		}
		// As BeginAttempt does after its insert, claiming a count of 5 (a
		// mark that, trusted, would refuse the next attempt wrongly) …
		s.attemptBegun("a:b:c", ns(from), ns(to), 4, rowid, "att_rolled_back")
		return rolledBack // … and then the transaction does not commit.
	})
	if err != rolledBack {
		t.Fatalf("write: %v", err)
	}
	if _, err := s.BeginAttempt(ctx, begin); err != nil {
		t.Fatalf("2nd attempt against a cap of 2 (one begun): %v", err)
	}
	if _, err := s.BeginAttempt(ctx, begin); err == nil {
		t.Fatal("3rd attempt against a cap of 2 was begun")
	}
}
