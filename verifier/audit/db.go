package audit

import (
	"context"
	"database/sql"
	"database/sql/driver"
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
	// unprepared: run the statements as text, not prepared (a migration's
	// script holds many statements, which one prepared statement cannot).
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
	w      *sqliteWriter // the write connection, used by writer's holder
	counts windowCounts  // the cap's counts (capcount.go)
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

// sqliteQ runs statements on the pool, outside any transaction: a
// statement with arguments — every fixed statement of the store — runs
// prepared; one without, as text.
type sqliteQ struct {
	stmts *stmtCache
}

func (s sqliteQ) result(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if len(args) == 0 {
		return s.stmts.db.ExecContext(ctx, q)
	}
	st, err := s.stmts.get(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
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

func (s sqliteQ) query(ctx context.Context, q string, args ...any) (rows, error) {
	var r *sql.Rows
	var err error
	if len(args) == 0 {
		r, err = s.stmts.db.QueryContext(ctx, q)
	} else {
		var st *sql.Stmt
		if st, err = s.stmts.get(ctx, q); err != nil {
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
	wr, err := s.writerConn(ctx)
	if err != nil {
		return err
	}
	if w.durable && s.critical {
		// This transaction's commit waits for an fsync of the WAL, which
		// also makes every earlier commit durable. The connection goes
		// back to NORMAL after it; should that fail it is dropped.
		if _, err := wr.run(ctx, "PRAGMA synchronous=FULL"); err != nil {
			s.dropWriter()
			return err
		}
		defer func() {
			if s.w == wr {
				if _, err := wr.run(context.WithoutCancel(ctx), "PRAGMA synchronous=NORMAL"); err != nil {
					s.dropWriter()
				}
			}
		}()
	}
	// BEGIN IMMEDIATE: the write lock is taken before the first read.
	if _, err := wr.run(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err // no transaction was opened
	}
	err = fn(writerQ{w: wr, unprepared: w.unprepared})
	if err == nil {
		if _, err = wr.run(ctx, "COMMIT"); err == nil {
			return nil
		}
	}
	// Roll back; a connection whose state is then unknown is dropped (a
	// failed statement may already have ended the transaction, in which
	// case ROLLBACK fails and a fresh connection costs little).
	if _, rerr := wr.run(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
		s.dropWriter()
	}
	return err
}

// sqliteWriter is the one connection this process writes through, held
// out of the pool, with every statement it runs — BEGIN IMMEDIATE, COMMIT,
// ROLLBACK, the synchronous switches and the store's own — prepared on it
// once: through database/sql's Tx each transaction cost 30–40 µs more.
// Only the holder of sqliteDB.writer uses it.
type sqliteWriter struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

// writerConn returns the writer connection, opening it when there is none.
func (s *sqliteDB) writerConn(ctx context.Context) (*sqliteWriter, error) {
	if s.w != nil {
		return s.w, nil
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	s.w = &sqliteWriter{conn: c, stmts: map[string]*sql.Stmt{}}
	return s.w, nil
}

// dropWriter closes the writer connection for good (database/sql discards
// a connection whose Raw returns ErrBadConn); the next write opens another.
func (s *sqliteDB) dropWriter() {
	w := s.w
	if w == nil {
		return
	}
	s.w = nil
	for _, st := range w.stmts {
		_ = st.Close()
	}
	_ = w.conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = w.conn.Close()
}

// prepared returns q prepared on the writer connection.
func (w *sqliteWriter) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := w.stmts[q]; ok {
		return st, nil
	}
	st, err := w.conn.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	w.stmts[q] = st
	return st, nil
}

func (w *sqliteWriter) run(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := w.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// writerQ runs a write transaction's statements on the writer connection:
// prepared, or as text when unprepared (a migration's script).
type writerQ struct {
	w          *sqliteWriter
	unprepared bool
}

func (q writerQ) result(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if q.unprepared {
		return q.w.conn.ExecContext(ctx, query, args...)
	}
	return q.w.run(ctx, query, args...)
}

func (q writerQ) exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := q.result(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (q writerQ) insert(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := q.result(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (q writerQ) query(ctx context.Context, query string, args ...any) (rows, error) {
	var r *sql.Rows
	var err error
	if q.unprepared {
		r, err = q.w.conn.QueryContext(ctx, query, args...)
	} else {
		var st *sql.Stmt
		if st, err = q.w.prepared(ctx, query); err != nil {
			return nil, err
		}
		r, err = st.QueryContext(ctx, args...)
	}
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (s *sqliteDB) ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *sqliteDB) close() error {
	s.writer <- struct{}{} // after the write in flight, if any
	defer func() { <-s.writer }()
	s.dropWriter()
	s.stmts.close()
	return s.db.Close() // a later write fails: the pool is closed
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
