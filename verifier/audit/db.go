package audit

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
	query(ctx context.Context, q string, args ...any) (rows, error)
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
	write(ctx context.Context, lock string, fn func(q querier) error) error
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

type sqliteDB struct{ db *sql.DB }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }

type sqlQuerier interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

type sqliteQ struct{ q sqlQuerier }

func (s sqliteQ) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.q.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqliteQ) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := s.q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

func (s *sqliteDB) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return sqliteQ{s.db}.exec(ctx, q, args...)
}

func (s *sqliteDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return sqliteQ{s.db}.query(ctx, q, args...)
}

func (s *sqliteDB) write(ctx context.Context, _ string, fn func(q querier) error) error {
	// The DSN sets _txlock=immediate: BeginTx issues BEGIN IMMEDIATE.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(sqliteQ{tx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (s *sqliteDB) ping(ctx context.Context) error { return s.db.PingContext(ctx) }
func (s *sqliteDB) close() error                   { return s.db.Close() }

// ---- PostgreSQL (pgx/v5 pool) ----

type pgDB struct{ pool *pgxpool.Pool }

type pgQ struct {
	exec_  func(ctx context.Context, q string, args ...any) (int64, error)
	query_ func(ctx context.Context, q string, args ...any) (pgx.Rows, error)
}

func (p pgQ) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return p.exec_(ctx, rebind(q), args...)
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

func (p *pgDB) query(ctx context.Context, q string, args ...any) (rows, error) {
	return p.q().query(ctx, q, args...)
}

func (p *pgDB) write(ctx context.Context, lock string, fn func(q querier) error) error {
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
