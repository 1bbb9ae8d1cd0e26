package fleet

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// queue is the River client behind a Fleet, for either driver: River's
// client is generic over the driver's transaction type, the Fleet is not.
type queue interface {
	insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	// insertManyChecked inserts params in one transaction with check: check
	// runs in it, with the transaction's query function, once before the
	// insert and once after; it returns the params to insert (before) or
	// those of the inserted that must not be (after). When the second call
	// names any, the transaction is rolled back and the whole is tried
	// again without them, which are returned as skipped.
	insertManyChecked(ctx context.Context, params []river.InsertManyParams, check checkFunc) ([]*rivertype.JobInsertResult, []river.InsertManyParams, error)
	// run starts a working client and returns its stop function.
	run(ctx context.Context, cfg *river.Config) (*runningClient, error)
}

// queryStrings runs a query whose first column is text, in a transaction.
type queryStrings func(ctx context.Context, query string, args ...any) ([]string, error)

// checkFunc filters params, in the insert's transaction, through query.
type checkFunc func(ctx context.Context, query queryStrings, params []river.InsertManyParams) (keep, drop []river.InsertManyParams, err error)

// runningClient is a started River client.
type runningClient struct {
	stop    func(ctx context.Context) error
	stopped <-chan struct{}
}

// txOps are the transactions of one driver: River's InsertManyTx takes the
// driver's own transaction type.
type txOps[TTx any] struct {
	begin    func(ctx context.Context) (TTx, error)
	commit   func(ctx context.Context, tx TTx) error
	rollback func(ctx context.Context, tx TTx) error
	query    func(ctx context.Context, tx TTx, query string, args ...any) ([]string, error)
}

type riverQueue[TTx any] struct {
	driver   riverdriver.Driver[TTx]
	inserter *river.Client[TTx]
	tx       txOps[TTx]
}

func newRiverQueue[TTx any](d riverdriver.Driver[TTx], tx txOps[TTx]) (*riverQueue[TTx], error) {
	// An insert-only client: no queues, so it works no job.
	c, err := river.NewClient(d, &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("fleet: river client: %w", err)
	}
	return &riverQueue[TTx]{driver: d, inserter: c, tx: tx}, nil
}

func (q *riverQueue[TTx]) insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return q.inserter.InsertMany(ctx, params)
}

func (q *riverQueue[TTx]) insertManyChecked(ctx context.Context, params []river.InsertManyParams, check checkFunc) ([]*rivertype.JobInsertResult, []river.InsertManyParams, error) {
	var skipped []river.InsertManyParams
	for range 5 {
		res, late, err := q.insertOnce(ctx, params, check, &skipped)
		if err != nil || late == nil {
			return res, skipped, err
		}
		// What another transaction committed between the check and the
		// insert: rolled back, and tried again without.
		params = late
	}
	return nil, nil, errors.New("the queue kept changing under the insert; try again")
}

// insertOnce is one transaction of insertManyChecked; late is non-nil when
// it was rolled back and the params to try again are late.
func (q *riverQueue[TTx]) insertOnce(ctx context.Context, params []river.InsertManyParams, check checkFunc, skipped *[]river.InsertManyParams) (res []*rivertype.JobInsertResult, late []river.InsertManyParams, err error) {
	tx, err := q.tx.begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	done := false
	defer func() {
		if !done {
			q.tx.rollback(context.WithoutCancel(ctx), tx)
		}
	}()
	query := func(ctx context.Context, s string, args ...any) ([]string, error) {
		return q.tx.query(ctx, tx, s, args...)
	}
	keep, drop, err := check(ctx, query, params)
	if err != nil {
		return nil, nil, err
	}
	if len(keep) > 0 {
		if res, err = q.inserter.InsertManyTx(ctx, tx, keep); err != nil {
			return nil, nil, err
		}
	}
	inserted, err := insertedParams(keep, res)
	if err != nil {
		return nil, nil, err
	}
	_, again, err := check(ctx, query, inserted)
	if err != nil {
		return nil, nil, err
	}
	if len(again) > 0 {
		*skipped = append(*skipped, drop...)
		*skipped = append(*skipped, again...)
		return nil, minusParams(keep, again), nil
	}
	if err := q.tx.commit(ctx, tx); err != nil {
		return nil, nil, err
	}
	done = true
	*skipped = append(*skipped, drop...)
	return res, nil, nil
}

// insertedParams are the params of keep (map jobs) whose jobs res says
// were inserted, not skipped as duplicates. Each result is matched to its
// param by the job's arguments, not by its position: neither SQLite nor
// PostgreSQL promises RETURNING's rows in the order of the insert. A
// result that matches no param, or one already matched, is an error.
func insertedParams(keep []river.InsertManyParams, res []*rivertype.JobInsertResult) ([]river.InsertManyParams, error) {
	index := make(map[MapArgs]int, len(keep))
	for i, p := range keep {
		if a, ok := p.Args.(MapArgs); ok {
			index[a] = i
		}
	}
	matched := make([]bool, len(keep))
	var inserted []river.InsertManyParams
	for _, r := range res {
		var a MapArgs
		if err := json.Unmarshal(r.Job.EncodedArgs, &a); err != nil {
			return nil, fmt.Errorf("a queued job's arguments do not decode: %w", err)
		}
		i, ok := index[a]
		if !ok || matched[i] {
			return nil, fmt.Errorf("the queue answered for a job of %s it was not asked to insert", a.URL)
		}
		matched[i] = true
		if !r.UniqueSkippedAsDuplicate {
			inserted = append(inserted, keep[i])
		}
	}
	return inserted, nil
}

// minusParams is a without the elements of b (compared by identity of
// their args).
func minusParams(a, b []river.InsertManyParams) []river.InsertManyParams {
	out := make([]river.InsertManyParams, 0, len(a))
	for _, p := range a {
		gone := false
		for _, d := range b {
			if p.Args == d.Args {
				gone = true
				break
			}
		}
		if !gone {
			out = append(out, p)
		}
	}
	return out
}

func (q *riverQueue[TTx]) run(ctx context.Context, cfg *river.Config) (*runningClient, error) {
	c, err := river.NewClient(q.driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("fleet: river client: %w", err)
	}
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("fleet: starting workers: %w", err)
	}
	return &runningClient{stop: c.Stop, stopped: c.Stopped()}, nil
}

// sqlTx are SQLite's transactions, on database/sql (immediate: the
// database's write lock is taken at BEGIN, so a check and the insert after
// it see no other writer in between).
func sqlTx(db *sql.DB) txOps[*sql.Tx] {
	return txOps[*sql.Tx]{
		begin:    func(ctx context.Context) (*sql.Tx, error) { return db.BeginTx(ctx, nil) },
		commit:   func(_ context.Context, tx *sql.Tx) error { return tx.Commit() },
		rollback: func(_ context.Context, tx *sql.Tx) error { return tx.Rollback() },
		query: func(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
			rows, err := tx.QueryContext(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			return scanStrings(rows)
		},
	}
}

// pgxTx are PostgreSQL's transactions, on pgx (read committed: each
// statement sees what was committed before it).
func pgxTx(pool *pgxpool.Pool) txOps[pgx.Tx] {
	return txOps[pgx.Tx]{
		begin:    func(ctx context.Context) (pgx.Tx, error) { return pool.Begin(ctx) },
		commit:   func(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) },
		rollback: func(ctx context.Context, tx pgx.Tx) error { return tx.Rollback(ctx) },
		query: func(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]string, error) {
			rows, err := tx.Query(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			return pgx.CollectRows(rows, pgx.RowTo[string])
		},
	}
}
