package audit

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"modernc.org/sqlite"
)

// rows is what both drivers' result sets offer.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// querier runs statements written with '?' placeholders.
type querier interface {
	exec(ctx context.Context, q string, args ...any) (int64, error)
	// insert runs an INSERT of one row and returns its rowid on SQLite
	// (0 on PostgreSQL, which has none).
	insert(ctx context.Context, q string, args ...any) (int64, error)
	query(ctx context.Context, q string, args ...any) (rows, error)
}

// writeOpts says how a write transaction runs.
type writeOpts struct {
	// lock, when not empty, serialises writers of the same key across
	// connections and processes on PostgreSQL (SQLite has one writer).
	lock string
	// durable: the record must survive a power loss once committed, not
	// only a killed process (see Durability). SQLite commits it with an
	// fsync; PostgreSQL commits every transaction durably.
	durable bool
	// unprepared: run the statements as text, not through the prepared
	// statement cache (migrations: the tables they create do not exist
	// for the other connections a statement is prepared on until commit).
	unprepared bool
}

// backend is one driver: reads on the pool, writes in one transaction.
type backend interface {
	querier
	// write runs fn in one write transaction and commits it when fn returns
	// nil. SQLite: BEGIN IMMEDIATE (the database's write lock is taken
	// before the first read, so a check and the insert it allows are one
	// step, across goroutines and processes). PostgreSQL: the transaction
	// first takes pg_advisory_xact_lock on lock (when lock is not empty),
	// which serialises writers of the same action across connections and
	// processes until commit.
	write(ctx context.Context, w writeOpts, fn func(q querier) error) error
	ping(ctx context.Context) error
	close() error
}

// one runs a query expected to yield at most one row and scans it into
// dest; it reports whether there was a row.
func one(ctx context.Context, q querier, query string, args []any, dest ...any) (bool, error) {
	r, err := q.query(ctx, query, args...)
	if err != nil {
		return false, err
	}
	defer r.Close()
	if !r.Next() {
		return false, r.Err()
	}
	if err := r.Scan(dest...); err != nil {
		return false, err
	}
	return true, r.Err()
}

// ---- SQLite (database/sql with modernc.org/sqlite) ----

// sqliteDB is a SQLite database through one database/sql pool. Under
// DurabilityCritical its connections run at synchronous=NORMAL and a
// durable write switches its connection to FULL for that transaction (one
// pool, rather than a second pool at FULL, keeps each connection's page
// cache warm: SQLite drops a connection's cache whenever another one wrote).
type sqliteDB struct {
	db       *sql.DB
	stmts    *stmtCache // the pool's prepared statements
	critical bool       // DurabilityCritical: durable writes commit at FULL
	// writer is held by the one write transaction this process runs at a
	// time. SQLite has a single writer anyway; waiting here wakes the next
	// writer the moment the last one commits, where SQLite's busy handler
	// would poll with sleeps of 1 ms and more. Other processes still meet
	// the write lock through the busy timeout.
	writer chan struct{}
	counts windowCounts // the cap's counts (capcount.go)
}

// stmtCache holds a pool's prepared statements, by query text: each of the
// store's statements with arguments is parsed once per connection, not once
// per call (database/sql prepares a *sql.Stmt again on every connection it
// runs on, and keeps it there).
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, m: map[string]*sql.Stmt{}} }

func (c *stmtCache) get(ctx context.Context, q string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[q]
	c.mu.Unlock()
	if ok {
		return st, nil
	}
	// Prepared outside the lock (it needs a connection); a statement two
	// callers prepared at once is kept once.
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.m[q]; ok {
		_ = st.Close()
		return prev, nil
	}
	c.m[q] = st
	return st, nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		_ = st.Close()
		delete(c.m, q)
	}
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }

// sqliteQ runs statements on the pool (tx nil) or in a transaction. A
// statement with arguments — every fixed statement of the store — runs
// prepared; one without (a migration's script) is executed as text.
type sqliteQ struct {
	stmts *stmtCache // nil: every statement as text
	tx    *sql.Tx
}

func (s sqliteQ) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	st, err := s.stmts.get(ctx, q)
	if err != nil || s.tx == nil {
		return st, err
	}
	return s.tx.StmtContext(ctx, st), nil
}

func (s sqliteQ) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.result(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqliteQ) insert(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.result(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (s sqliteQ) result(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var res sql.Result
	var err error
	switch {
	case (len(args) == 0 || s.stmts == nil) && s.tx != nil:
		res, err = s.tx.ExecContext(ctx, q, args...)
	case len(args) == 0:
		res, err = s.stmts.db.ExecContext(ctx, q)
	default:
		var st *sql.Stmt
		if st, err = s.stmt(ctx, q); err != nil {
			return nil, err
		}
		res, err = st.ExecContext(ctx, args...)
	}
	return res, err
}

func (s sqliteQ) query(ctx context.Context, q string, args ...any) (rows, error) {
	var r *sql.Rows
	var err error
	switch {
	case (len(args) == 0 || s.stmts == nil) && s.tx != nil:
		r, err = s.tx.QueryContext(ctx, q, args...)
	case len(args) == 0:
		r, err = s.stmts.db.QueryContext(ctx, q)
	default:
		var st *sql.Stmt
		if st, err = s.stmt(ctx, q); err != nil {
			return nil, err
		}
		r, err = st.QueryContext(ctx, args...)
	}
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (s *sqliteDB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return sqliteQ{stmts: s.stmts}.exec(ctx, q, args...)
}

func (s *sqliteDB) insert(ctx context.Context, q string, args ...any) (int64, error) {
	return sqliteQ{stmts: s.stmts}.insert(ctx, q, args...)
}

func (s *sqliteDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return sqliteQ{stmts: s.stmts}.query(ctx, q, args...)
}

func (s *sqliteDB) write(ctx context.Context, w writeOpts, fn func(q querier) error) error {
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	stmts := s.stmts
	if w.unprepared {
		stmts = nil
	}
	begin := s.db.BeginTx
	if w.durable && s.critical {
		// This transaction's commit waits for an fsync of the WAL, which
		// also makes every earlier commit durable. The connection goes
		// back to NORMAL after it; should that fail, it stays at FULL:
		// slower, never less durable.
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer func() {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous=NORMAL")
			_ = conn.Close()
		}()
		if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=FULL"); err != nil {
			return err
		}
		begin = conn.BeginTx
	}
	// The DSN sets _txlock=immediate: BeginTx issues BEGIN IMMEDIATE.
	tx, err := begin(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(sqliteQ{stmts: stmts, tx: tx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (s *sqliteDB) ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *sqliteDB) close() error {
	s.stmts.close()
	return s.db.Close()
}

// ---- PostgreSQL (pgx/v5 pool) ----

type pgDB struct{ pool *pgxpool.Pool }

type pgQ struct {
	exec_  func(ctx context.Context, q string, args ...any) (int64, error)
	query_ func(ctx context.Context, q string, args ...any) (pgx.Rows, error)
}

func (p pgQ) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return p.exec_(ctx, rebind(q), args...)
}

func (p pgQ) insert(ctx context.Context, q string, args ...any) (int64, error) {
	_, err := p.exec(ctx, q, args...)
	return 0, err
}

func (p pgQ) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := p.query_(ctx, rebind(q), args...)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func pgTxQ(tx pgx.Tx) pgQ {
	return pgQ{
		exec_: func(ctx context.Context, q string, args ...any) (int64, error) {
			tag, err := tx.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		query_: tx.Query,
	}
}

func (p *pgDB) q() pgQ {
	return pgQ{
		exec_: func(ctx context.Context, q string, args ...any) (int64, error) {
			tag, err := p.pool.Exec(ctx, q, args...)
			return tag.RowsAffected(), err
		},
		query_: p.pool.Query,
	}
}

func (p *pgDB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return p.q().exec(ctx, q, args...)
}

func (p *pgDB) insert(ctx context.Context, q string, args ...any) (int64, error) {
	return p.q().insert(ctx, q, args...)
}

func (p *pgDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return p.q().query(ctx, q, args...)
}

func (p *pgDB) write(ctx context.Context, w writeOpts, fn func(q querier) error) error {
	lock := w.lock
	tx, err := p.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return err
	}
	// A rollback after a commit is a no-op; with a done ctx it still runs.
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if lock != "" {
		// Held until commit or rollback. Read committed takes a new snapshot
		// per statement, so every read after the lock sees what the previous
		// holder committed.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", lock); err != nil {
			return err
		}
	}
	if err := fn(pgTxQ(tx)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (p *pgDB) ping(ctx context.Context) error { return p.pool.Ping(ctx) }
func (p *pgDB) close() error                   { p.pool.Close(); return nil }

// rebind turns '?' placeholders into PostgreSQL's $1, $2, …. The store's
// statements hold no '?' inside literals.
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// noRows reports whether err is a driver's "no rows".
func noRows(err error) bool {
	return errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows)
}

// foreignKeyViolation reports whether err is a driver's foreign key
// violation: SQLite's SQLITE_CONSTRAINT_FOREIGNKEY (787), PostgreSQL's
// 23503.
func foreignKeyViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == 787
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23503"
}
