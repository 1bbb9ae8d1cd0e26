package fleet

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// RescanArgs is the periodic River job that queues a re-scan of every site
// with confirmed actions, so that a confirmation expires as soon as what
// its owner confirmed changes.
type RescanArgs struct{}

// Kind is the job kind in River's tables.
func (RescanArgs) Kind() string { return "frontlatch_rescan" }

// InsertOpts makes the periodic job unique per minute, so several worker
// processes scheduling it queue it once.
func (RescanArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

type rescanWorker struct {
	river.WorkerDefaults[RescanArgs]
	fleet *Fleet
}

// Work queues one re-scan map job per confirmed site, unique per hour.
func (w *rescanWorker) Work(ctx context.Context, job *river.Job[RescanArgs]) error {
	_, err := w.fleet.queueRescans(ctx, time.Now())
	return err
}

// QueueRescans queues a re-scan of every site whose latest graph has an
// owner-confirmed action, at most one per site per hour, and returns how
// many it queued. Workers reconcile each re-scan against the audit store
// (WorkOptions.Audit): a confirmation whose consequences drifted becomes
// "needs your confirmation again".
func (f *Fleet) QueueRescans(ctx context.Context, now time.Time) (int, error) {
	if err := f.checkOpen(); err != nil {
		return 0, err
	}
	return f.queueRescans(ctx, now)
}

// queueRescans is QueueRescans, also for the periodic job of a Work that a
// Close is stopping.
func (f *Fleet) queueRescans(ctx context.Context, now time.Time) (int, error) {
	sites, err := f.confirmedSites(ctx)
	if err != nil || len(sites) == 0 {
		return 0, err
	}
	window := now.UTC().Truncate(time.Hour).Format(time.RFC3339)
	params := make([]river.InsertManyParams, len(sites))
	for i, s := range sites {
		a := MapArgs{URL: s, Rescan: true, Window: window}
		params[i] = river.InsertManyParams{Args: a, InsertOpts: f.insertOpts(a)}
	}
	res, err := f.queue.insertMany(ctx, params)
	if err != nil {
		return 0, unavailable(err)
	}
	n := 0
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate {
			n++
		}
	}
	return n, nil
}
