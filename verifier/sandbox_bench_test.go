package verifier

import (
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// BenchmarkSandbox compares, in the same browser and the same run, a whole
// sandbox run of each fixture html-form action with the floor: opening the
// same page through topology.Browser.OpenPage and closing it. The ratio is the
// figure to compare across machines.
//
//	go test -run '^$' -bench BenchmarkSandbox -benchtime 2x .
func BenchmarkSandbox(b *testing.B) {
	topologytest.NeedChromium(b)
	srv := fixturestest.Serve(b)
	br, err := topology.NewBrowser(b.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	type target struct{ site, action, page string }
	var targets []target
	for _, site := range srv.Names() {
		g := fixtureGraph(b, site, fixturestest.URL(b, srv, site))
		for i := range g.Actions {
			if ac, _, err := formDoor(&g.Actions[i]); err == nil {
				targets = append(targets, target{site, g.Actions[i].ID, ac.URL})
			}
		}
	}
	var floor, run time.Duration
	opts := SandboxOptions{Browser: br}
	b.ResetTimer()
	for range b.N {
		for _, tg := range targets {
			start := time.Now()
			p, err := br.OpenPage(b.Context(), tg.page, topology.PageOptions{})
			if err != nil {
				b.Fatal(err)
			}
			_, _ = proto.TargetCloseTarget{TargetID: p.TargetID}.Call(br.Rod().Timeout(10 * time.Second))
			floor += time.Since(start)

			start = time.Now()
			g := fixtureGraph(b, tg.site, fixturestest.URL(b, srv, tg.site))
			if res, err := Sandbox(b.Context(), g, tg.action, opts); res == nil {
				b.Fatalf("%s: %v", tg.action, err)
			}
			run += time.Since(start)
		}
	}
	n := float64(b.N * len(targets))
	b.ReportMetric(float64(floor.Milliseconds())/n, "floor-ms/page")
	b.ReportMetric(float64(run.Milliseconds())/n, "sandbox-ms/run")
	b.ReportMetric(float64(run)/float64(floor), "x-floor")
}
