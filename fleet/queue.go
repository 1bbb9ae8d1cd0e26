package fleet

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// queue is the River client behind a Fleet, for either driver: River's
// client is generic over the driver's transaction type, the Fleet is not.
type queue interface {
	insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	// run starts a working client and returns its stop function.
	run(ctx context.Context, cfg *river.Config) (*runningClient, error)
}

// runningClient is a started River client.
type runningClient struct {
	stop    func(ctx context.Context) error
	stopped <-chan struct{}
}

type riverQueue[TTx any] struct {
	driver   riverdriver.Driver[TTx]
	inserter *river.Client[TTx]
}

func newRiverQueue[TTx any](d riverdriver.Driver[TTx]) (*riverQueue[TTx], error) {
	// An insert-only client: no queues, so it works no job.
	c, err := river.NewClient(d, &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("fleet: river client: %w", err)
	}
	return &riverQueue[TTx]{driver: d, inserter: c}, nil
}

func (q *riverQueue[TTx]) insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return q.inserter.InsertMany(ctx, params)
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
