package benchmark

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
)

// measureThroughput times shared.Read and shared.Write against encoding/json
// on the same bytes, in this run, so the ratios compare across machines.
// The document is every mapped action of the run in one graph: real output,
// not a synthetic shape.
func (p *Performance) measureThroughput(graphs []*shared.ActionGraph) {
	g := mergeGraphs(graphs)
	data, err := shared.Write(g)
	if err != nil {
		p.ThroughputNote = "skipped: merged graph did not validate: " + err.Error()
		return
	}
	p.ThroughputBytes = len(data)
	mbps := func(r testing.BenchmarkResult) float64 {
		if r.T <= 0 {
			return 0
		}
		return round(float64(r.Bytes) * float64(r.N) / r.T.Seconds() / 1e6)
	}
	bench := func(f func()) testing.BenchmarkResult {
		return timed(int64(len(data)), f)
	}
	p.ReaderMBps = mbps(bench(func() { shared.Read(data) }))
	p.JSONDecodeMBps = mbps(bench(func() {
		var v any
		_ = json.Unmarshal(data, &v)
	}))
	p.WriterMBps = mbps(bench(func() { _, _ = shared.Write(g) }))
	p.JSONEncodeMBps = mbps(bench(func() { _, _ = json.MarshalIndent(g, "", "  ") }))
	if p.JSONDecodeMBps > 0 {
		p.ReaderToJSON = round(p.ReaderMBps / p.JSONDecodeMBps)
	}
	if p.JSONEncodeMBps > 0 {
		p.WriterToJSON = round(p.WriterMBps / p.JSONEncodeMBps)
	}
	p.ThroughputNote = fmt.Sprintf("one %d-byte graph holding every mapped action of the run; reader vs json.Unmarshal into any (encoding/json cannot decode the contract's unions), writer vs json.MarshalIndent of the same structs", len(data))
}

// throughputWindow is how long each throughput figure is timed: long
// enough for a stable MB/s on kilobytes of JSON, short enough to keep the
// whole benchmark within seconds (testing.Benchmark takes a second each).
const throughputWindow = 200 * time.Millisecond

// timed runs f after one warm-up call until throughputWindow has passed.
func timed(bytes int64, f func()) testing.BenchmarkResult {
	f()
	start := time.Now()
	n := 0
	for time.Since(start) < throughputWindow {
		f()
		n++
	}
	return testing.BenchmarkResult{N: n, T: time.Since(start), Bytes: bytes}
}

// mergeGraphs puts every action of every graph into one valid graph, ids
// prefixed by graph id so they stay unique.
func mergeGraphs(graphs []*shared.ActionGraph) *shared.ActionGraph {
	first := graphs[0]
	g := shared.NewGraph("ag_benchmark_merged", first.Site, first.GeneratedAt, first.Generator)
	for _, src := range graphs {
		for _, a := range src.Actions {
			a.ID = src.GraphID + ":" + a.ID
			g.Actions = append(g.Actions, a)
		}
	}
	return g
}
