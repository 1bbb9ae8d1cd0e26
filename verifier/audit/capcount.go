package audit

import (
	"context"
	"sync"
)

// The cap's count. BeginAttempt must know how many attempts of the action
// were begun in the cap's window before it may insert one. Counting them
// with COUNT(*) steps through every one of them in the index — in
// modernc.org/sqlite about a quarter of a microsecond each, so a window
// holding a few thousand attempts costs a millisecond per call.
//
// On SQLite the store therefore remembers, per action and window, the count
// it last read and the table's highest rowid at that moment (and the id of
// the row there), and next time counts only the rows after that rowid. This
// is exact because the attempts table is append-only (the migrations' triggers
// refuse UPDATE and DELETE from any client) and SQLite gives every new row a
// rowid above every existing one: the rows up to the remembered rowid are the
// rows that were counted, and everything any connection or process began since
// lies above it. The mark is read inside BeginAttempt's write transaction,
// under SQLite's write lock, before its own insert, so it describes committed
// rows only and holds whether that transaction commits or not; the mark
// then moves onto the attempt the transaction inserts, which is known to be
// the newest row. If the row at the remembered rowid is not the one
// remembered (that transaction did not commit, a database rebuilt, rows
// removed by hand), the store counts the window in full again.
// PostgreSQL counts in full every time.

// countKey is one action's cap window.
type countKey struct {
	actionID string
	from, to int64
}

// countMark is what the last count of a window found.
type countMark struct {
	n      int64  // attempts of the action begun in the window, rows up to rowid
	rowid  int64  // the table's highest rowid when counted (0: empty)
	idAt   string // the id of the row at rowid
	rounds int    // counts since the last full count, for tests
}

// maxCountMarks bounds the remembered windows.
const maxCountMarks = 1024

type windowCounts struct {
	mu sync.Mutex
	m  map[countKey]countMark
}

const (
	fullCountSQL = "SELECT COUNT(*) FROM attempts WHERE action_id = ? AND begun_ns >= ? AND begun_ns < ?"
	lastRowSQL   = "SELECT rowid, id FROM attempts ORDER BY rowid DESC LIMIT 1"
	// The rows from the mark on, through the table itself (NOT INDEXED: a
	// seek to the rowid, then only the newer rows).
	sinceSQL = `SELECT COALESCE(SUM(rowid > ? AND action_id = ? AND begun_ns >= ? AND begun_ns < ?), 0),
		COALESCE(MAX(rowid), 0), COALESCE(MAX(CASE WHEN rowid = ? THEN id END), '')
		FROM attempts NOT INDEXED WHERE rowid >= ?`
)

// windowCount returns how many attempts of actionID were begun in
// [from, to). q must be BeginAttempt's write transaction.
func (s *Store) windowCount(ctx context.Context, q querier, actionID string, from, to int64) (int64, error) {
	lite, ok := s.db.(*sqliteDB)
	if !ok {
		var n int64
		_, err := one(ctx, q, fullCountSQL, []any{actionID, from, to}, &n)
		return n, err
	}
	return lite.counts.count(ctx, q, countKey{actionID, from, to})
}

// attemptBegun moves the window's mark onto the attempt BeginAttempt has
// just inserted (n counted before it, at rowid): the next count starts
// there. Should the transaction not commit, the row at rowid is not id and
// the next count is a full one.
func (s *Store) attemptBegun(actionID string, from, to, n, rowid int64, id string) {
	if lite, ok := s.db.(*sqliteDB); ok && rowid > 0 {
		k := countKey{actionID, from, to}
		lite.counts.mu.Lock()
		rounds := lite.counts.m[k].rounds
		lite.counts.mu.Unlock()
		lite.counts.put(k, countMark{n: n + 1, rowid: rowid, idAt: id, rounds: rounds})
	}
}

func (w *windowCounts) count(ctx context.Context, q querier, k countKey) (int64, error) {
	w.mu.Lock()
	mark, ok := w.m[k]
	w.mu.Unlock()
	if ok {
		var more, top int64
		var idAt string
		if _, err := one(ctx, q, sinceSQL, []any{mark.rowid, k.actionID, k.from, k.to, mark.rowid, mark.rowid}, &more, &top, &idAt); err != nil {
			return 0, err
		}
		if idAt == mark.idAt && top >= mark.rowid {
			if top > mark.rowid {
				var err error
				if _, err = one(ctx, q, "SELECT id FROM attempts WHERE rowid = ?", []any{top}, &idAt); err != nil {
					return 0, err
				}
			}
			next := countMark{n: mark.n + more, rowid: top, idAt: idAt, rounds: mark.rounds + 1}
			w.put(k, next)
			return next.n, nil
		}
		// The remembered row is gone or another: count in full.
	}
	var n int64
	if _, err := one(ctx, q, fullCountSQL, []any{k.actionID, k.from, k.to}, &n); err != nil {
		return 0, err
	}
	next := countMark{n: n}
	if _, err := one(ctx, q, lastRowSQL, nil, &next.rowid, &next.idAt); err != nil {
		return 0, err
	}
	w.put(k, next)
	return n, nil
}

func (w *windowCounts) put(k countKey, m countMark) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil || (len(w.m) >= maxCountMarks && w.m[k] == (countMark{})) {
		w.m = map[countKey]countMark{}
	}
	w.m[k] = m
}
