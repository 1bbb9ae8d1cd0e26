package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// BenchmarkFleet maps the same sites through the queue (River on SQLite,
// results recorded) and with the plain concurrent mapper (mapper.MapAll on
// one browser), at 1, 2 and 4 workers, and reports sites/min of each and
// the queue's overhead per job (fleet time / plain time − 1). Both times
// include launching the browser.
//
//	cd fleet && go test -run '^$' -bench BenchmarkFleet -benchtime 1x .
func BenchmarkFleet(b *testing.B) {
	topologytest.NeedChromium(b)
	const sites = 12
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var plain, queued time.Duration
			for range b.N {
				urls := serveVariants(b, sites)
				plain += timePlain(b, urls, workers)
				queued += timeFleet(b, urls, workers)
			}
			n := float64(b.N * sites)
			b.ReportMetric(n/plain.Minutes(), "plain-sites/min")
			b.ReportMetric(n/queued.Minutes(), "fleet-sites/min")
			b.ReportMetric(queued.Seconds()/plain.Seconds()-1, "queue-overhead")
		})
	}
}

// timePlain maps urls with the plain concurrent mapper (mapper.MapAll:
// workers reused tabs, one site per host at a time) on a browser launched
// for the run, as the fleet's workers launch theirs.
func timePlain(b *testing.B, urls []string, workers int) time.Duration {
	ctx := context.Background()
	start := time.Now()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	mo := testMapOptions()
	mo.Browser = br
	rs, err := mapper.MapAll(ctx, urls, mo, mapper.PoolOptions{Concurrency: workers, PerHost: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rs {
		if r.Err != nil {
			b.Error(r.Err)
		}
	}
	return time.Since(start)
}

// timeFleet queues urls and works them with workers River workers until
// all are done (the browser launch is inside, as in the plain pool).
func timeFleet(b *testing.B, urls []string, workers int) time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := Open(ctx, filepath.Join(b.TempDir(), "fleet.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	in := make([]Input, len(urls))
	for i, u := range urls {
		in[i] = Input{URL: u}
	}
	start := time.Now()
	if _, err := f.Add(ctx, in); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.Work(ctx, WorkOptions{Workers: workers, Offline: true, Map: testMapOptions()}) }()
	for {
		st, err := f.Status(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if st.Done+st.Failed >= len(urls) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(start)
	cancel()
	<-done
	return took
}
