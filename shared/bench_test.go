package shared

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkRead measures the strict reader's throughput (MB/s) on the
// clinic01 fixture and on a synthetic graph of 200 clinic01-sized actions,
// and reports its speed relative to encoding/json decoding the same bytes
// into an `any` (maps and slices) in the same run.
//
// Why `any`: encoding/json cannot decode the contract's sealed unions into
// the structs at all, so the comparison is with the generic decode a caller
// would otherwise do before validating. It validates nothing, so the ratio
// is the price of strictness, not a like-for-like race.
//
// Metrics: MB/s and ns/op (reader), json-ns/op (encoding/json, same bytes,
// interleaved in the same loop), and "x-json" = json-ns/op ÷ reader ns/op
// (above 1 means the reader is faster than encoding/json into any).
func BenchmarkRead(b *testing.B) {
	clinic := mustRead(b, "../fixtures/graphs/clinic01.json")
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"clinic01", clinic},
		{"synthetic-200-actions", syntheticGraph(b, clinic, 200)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, issues := Read(bc.data); issues != nil {
				b.Fatalf("benchmark input does not read: %v", issues)
			}
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			// Interleave the two decoders iteration by iteration, so both run
			// under the same load (these machines are shared) and the ratio
			// compares like with like.
			var jsonTime time.Duration
			n := 0
			for b.Loop() {
				Read(bc.data)
				b.StopTimer()
				start := time.Now()
				var v any
				if err := json.Unmarshal(bc.data, &v); err != nil {
					b.Fatal(err)
				}
				jsonTime += time.Since(start)
				n++
				b.StartTimer()
			}
			readNs := float64(b.Elapsed().Nanoseconds()) / float64(n)
			jsonNs := float64(jsonTime.Nanoseconds()) / float64(n)
			b.ReportMetric(jsonNs, "json-ns/op")
			b.ReportMetric(jsonNs/readNs, "x-json")
		})
	}
}

// BenchmarkWrite measures canonical writing, which includes the re-read.
func BenchmarkWrite(b *testing.B) {
	data := mustRead(b, "../fixtures/graphs/clinic01.json")
	g, issues := Read(data)
	if issues != nil {
		b.Fatal(issues)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(g); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticGraph repeats clinic01's action n times under distinct ids.
func syntheticGraph(tb testing.TB, clinic []byte, n int) []byte {
	g, issues := Read(clinic)
	if issues != nil {
		tb.Fatal(issues)
	}
	one := g.Actions[0]
	g.Actions = g.Actions[:0]
	for i := range n {
		a := one
		a.ID = fmt.Sprintf("clinic01:booking:%d", i)
		g.Actions = append(g.Actions, a)
	}
	out, err := Write(g)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
