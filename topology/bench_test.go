package topology

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// benchPages are the fixture pages every measurement visits.
var benchPages = []string{"/modal.html", "/injected.html", "/duplicate.html", "/plain.html", "/about.html", "/covered.html"}

// BenchmarkTopology reports scan and explore time per state as a ratio to a
// bare floor: navigate + load + one in-page extraction of the same pages, on
// a reused tab of the same browser.
//
//	go test -run '^$' -bench BenchmarkTopology -benchtime 3x ./
func BenchmarkTopology(b *testing.B) {
	br := browserForTest(b)
	ctx := context.Background()
	o := testOptions()
	var bare, scan, explore time.Duration
	var barePages, scanStates, exploreStates int
	for b.Loop() {
		d, n := bareFloor(b, ctx, br, o)
		bare += d
		barePages += n
		for _, p := range benchPages {
			start := time.Now()
			g, err := ScanWith(ctx, br, siteURL(p), o)
			if err != nil {
				b.Fatal(err)
			}
			scan += time.Since(start)
			scanStates += len(g.States)

			start = time.Now()
			g, err = ExploreWith(ctx, br, siteURL(p), o)
			if err != nil {
				b.Fatal(err)
			}
			explore += time.Since(start)
			exploreStates += len(g.States)
		}
	}
	perBare := float64(bare.Milliseconds()) / float64(barePages)
	perScan := float64(scan.Milliseconds()) / float64(scanStates)
	perExplore := float64(explore.Milliseconds()) / float64(exploreStates)
	b.ReportMetric(perBare, "bare-ms/page")
	b.ReportMetric(perScan, "scan-ms/state")
	b.ReportMetric(perExplore, "explore-ms/state")
	b.ReportMetric(perScan/perBare, "scan/bare")
	b.ReportMetric(perExplore/perBare, "explore/bare")
	b.ReportMetric(float64(exploreStates)/float64(b.N), "explore-states/op")
}

// bareFloor visits every bench page on one reused hardened tab: navigate,
// bounded wait for load, one extraction Evaluate.
func bareFloor(b *testing.B, ctx context.Context, br *rod.Browser, o Options) (time.Duration, int) {
	o = o.withDefaults()
	p, err := OpenPage(ctx, br, siteURL("/plain.html"), o)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	start := time.Now()
	for _, path := range benchPages {
		if err := p.Context(ctx).Timeout(o.NavigationTimeout).Navigate(siteURL(path)); err != nil {
			b.Fatal(err)
		}
		_ = p.Context(ctx).Timeout(o.LoadTimeout).WaitLoad()
		if _, err := p.Context(ctx).Timeout(o.ActionTimeout).Evaluate(rod.Eval(extractJS, "extract", map[string]int{"maxElements": o.MaxElements, "maxNodes": maxHashedNodes}).ByPromise()); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start), len(benchPages)
}
