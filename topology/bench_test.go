package topology

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// benchPages are the fixture pages every measurement visits.
var benchPages = []string{"/modal.html", "/injected.html", "/duplicate.html", "/plain.html", "/about.html", "/covered.html"}

// BenchmarkTopology reports, as ratios to the physical floor measured in
// the same run — one reused tab: navigate, load event, one extraction
// Evaluate — what the engine costs per page:
//
//   - page/floor: the mapper's page path, Session.Open (navigate, load,
//     quiescence) plus one extraction, in the session's reused tab;
//
//   - read/floor: Session.Open plus one Session.Read that also captures
//     the state, then a light exploration of disclosure clicks from it
//     (Session.Explore) — the mapper's path for a page it explores;
//
//   - scan/floor: Session.Open plus a full state capture (Session.Scan:
//     extraction, DOM snapshot, AX tree, locator verification);
//
//   - scanwith/floor: Browser.Scan, which opens its own context and tab per run;
//
//   - explore/floor: Browser.Explore per state reached.
//
//     go test -run '^$' -bench BenchmarkTopology -benchtime 3x ./
func BenchmarkTopology(b *testing.B) {
	br := browserForTest(b)
	ctx := context.Background()
	o := testOptions()
	var floor, page, read, scan, scanWith, explore time.Duration
	var pages, exploreStates int
	s, err := br.NewSession(ctx, o.PageOptions)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		floor += bareFloor(b, ctx, br, o)
		pages += len(benchPages)
		for _, p := range benchPages {
			start := time.Now()
			pg, err := s.Open(ctx, siteURL(p))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := pg.Context(ctx).Timeout(o.ActionTimeout).Evaluate(extractEval(o)); err != nil {
				b.Fatal(err)
			}
			page += time.Since(start)

			start = time.Now()
			if _, err := s.Open(ctx, siteURL(p)); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Read(ctx, `() => document.title`, true); err != nil {
				b.Fatal(err)
			}
			lo := o.ExploreOptions
			lo.Light, lo.MaxDepth, lo.ExploreOnly = true, 1, []RiskCategory{RiskDisclosure}
			if _, err := s.Explore(ctx, lo); err != nil {
				b.Fatal(err)
			}
			read += time.Since(start)

			start = time.Now()
			if _, err := s.Open(ctx, siteURL(p)); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Scan(ctx, o.ScanOptions); err != nil {
				b.Fatal(err)
			}
			scan += time.Since(start)

			start = time.Now()
			if _, err := br.Scan(ctx, siteURL(p), o.PageOptions, o.ScanOptions); err != nil {
				b.Fatal(err)
			}
			scanWith += time.Since(start)

			start = time.Now()
			g, err := br.Explore(ctx, siteURL(p), o.PageOptions, o.ExploreOptions)
			if err != nil {
				b.Fatal(err)
			}
			explore += time.Since(start)
			exploreStates += len(g.States)
		}
	}
	per := func(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	f := per(floor, pages)
	b.ReportMetric(f, "floor-ms/page")
	b.ReportMetric(per(page, pages), "page-ms/page")
	b.ReportMetric(per(page, pages)/f, "page/floor")
	b.ReportMetric(per(read, pages)/f, "read/floor")
	b.ReportMetric(per(scan, pages)/f, "scan/floor")
	b.ReportMetric(per(scanWith, pages)/f, "scanwith/floor")
	b.ReportMetric(per(explore, exploreStates)/f, "explore-state/floor")
}

func extractEval(o settings) *rod.EvalOptions {
	o = o.withDefaults()
	return rod.Eval(extractJS, "extract", map[string]int{"maxElements": o.MaxElements, "maxNodes": maxHashedNodes}).ByPromise()
}

// bareFloor visits every bench page on one reused tab: navigate, bounded
// wait for the load event, one extraction Evaluate.
func bareFloor(b *testing.B, ctx context.Context, br *Browser, o settings) time.Duration {
	o = o.withDefaults()
	p, err := br.OpenPage(ctx, siteURL("/plain.html"), o.PageOptions)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Timeout(5 * time.Second).Close()
	start := time.Now()
	for _, path := range benchPages {
		if err := p.Context(ctx).Timeout(o.NavigationTimeout).Navigate(siteURL(path)); err != nil {
			b.Fatal(err)
		}
		_ = p.Context(ctx).Timeout(o.LoadTimeout).WaitLoad()
		if _, err := p.Context(ctx).Timeout(o.ActionTimeout).Evaluate(extractEval(o)); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// BenchmarkConfine reports what a confined tab costs over a plain one, per
// tab, as the executor's browser door and the verifier's sandbox pay it on
// every call: Browser.Confine (a browser context and its proxy listener),
// Confined.OpenPage (the guard, then the page loaded through the proxy)
// and Confined.Close, against Browser.OpenPage of the same page and
// closing it, interleaved in one run:
//
//	go test -run '^$' -bench BenchmarkConfine -benchtime 30x ./
func BenchmarkConfine(b *testing.B) {
	br := browserForTest(b)
	ctx := context.Background()
	opts := testOptions().PageOptions
	url := siteURL("/plain.html")
	var plain, confined time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		p, err := br.OpenPage(ctx, url, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Timeout(5 * time.Second).Close(); err != nil {
			b.Fatal(err)
		}
		plain += time.Since(start)

		start = time.Now()
		c, err := br.Confine(ctx, testSite.URL)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.OpenPage(ctx, url, opts); err != nil {
			b.Fatal(err)
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		if r := c.Refused(); len(r) != 0 {
			b.Fatalf("the proxy refused %v", r)
		}
		confined += time.Since(start)
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(plain), "plain-ms/tab")
	b.ReportMetric(ms(confined), "confined-ms/tab")
	b.ReportMetric(ms(confined)/ms(plain), "confined/plain")
}
