package mcpserver_test

import (
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCall measures what serving over MCP adds to a firing. Each of
// the b.N rounds fires the same action with the same arguments three ways,
// interleaved so that the store and the fixture see the same load: straight
// through executor.Execute, and as a tool call through the SDK's client over
// each transport (a server re-checking at the default interval). It reports
// the time per call of each and the ratio of each transport to the direct
// call, measured in the same run.
func BenchmarkCall(b *testing.B) {
	e := newEnvOn(b, audittest.Open(b, audittest.URL(b, audit.DriverSQLite)), 1<<30, mcpserver.DefaultInterval)
	e.httpOpts = mcpserver.HTTPOptions{RatePerSecond: 1e6, Burst: 1 << 20} // measure the transport, not the limiter
	ex, err := executor.New(executor.Options{Store: e.store})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	action, err := executor.ActionBytes(e.graph, actionID)
	if err != nil {
		b.Fatal(err)
	}
	clients := map[string]*client{}
	for _, tr := range transports {
		clients[tr] = e.connect(b, tr)
	}
	took := map[string]time.Duration{}

	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := ex.Execute(b.Context(), executor.Call{Action: action, Input: goodArgs()}); err != nil {
			b.Fatal(err)
		}
		took["direct"] += time.Since(start)
		for _, tr := range transports {
			start := time.Now()
			res, err := clients[tr].CallTool(b.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: goodArgs()})
			if err != nil {
				b.Fatalf("%s: %v", tr, err)
			}
			if res.IsError {
				b.Fatalf("%s: %s", tr, text(res))
			}
			took[tr] += time.Since(start)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(took["direct"].Nanoseconds())/float64(b.N), "ns/call-direct")
	for _, tr := range transports {
		b.ReportMetric(float64(took[tr].Nanoseconds())/float64(b.N), "ns/call-"+tr)
		b.ReportMetric(float64(took[tr])/float64(took["direct"]), "x-direct-"+tr)
	}
}
