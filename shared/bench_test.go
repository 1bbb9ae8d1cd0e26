package shared

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
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

// BenchmarkReadAdversarial reads hostile shapes of the size of a valid
// graph (100 synthetic clinic01 actions, 605 KB) and reports, measured in the
// same run and interleaved iteration by iteration, how each compares with
// reading that valid graph: issue 10 asks for at most 3× its time and 20×
// its bytes allocated.
//
// Shapes, each one graph document:
//   - invalid-utf8: validations, each with two strings that are not UTF-8
//     (about 12,600 fit; issue 10's quadratic line counting);
//   - empty-objects: one action whose access list holds {} after {} (the
//     2.6-million-issue input);
//   - deep-nesting: actions each carrying an unknown key nested 58 lists
//     deep, as deep as the reader allows;
//   - unknown-keys: one action with tens of thousands of distinct unknown
//     keys.
//
// Metrics: ns/op and B/op (the hostile read), valid-ns/op and valid-B/op
// (the valid graph, same loop), x-valid-time and x-valid-bytes (the ratios:
// hostile ÷ valid) and issues (how many the read returned). Times are timed
// read by read and the time ratio is of the medians, so a burst of load from
// the other jobs on a shared machine skews neither side; run with
// -benchtime 20x or more for a stable median.
func BenchmarkReadAdversarial(b *testing.B) {
	valid := syntheticGraph(b, mustRead(b, "../fixtures/graphs/clinic01.json"), 100)
	if _, issues := Read(valid); issues != nil {
		b.Fatalf("the valid graph does not read: %v", issues)
	}
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"invalid-utf8", adversarialGraph(len(valid), `{"validations":[`, func(i int) string { return badUTF8Validation }, `]}`)},
		{"empty-objects", adversarialGraph(len(valid), `{"access":[`, func(int) string { return "{}" }, `]}`)},
		{"deep-nesting", adversarialGraph(len(valid), ``, func(int) string {
			return `{"x":` + strings.Repeat("[", 58) + strings.Repeat("]", 58) + `}`
		}, ``)},
		{"unknown-keys", adversarialGraph(len(valid), `{`, func(i int) string { return fmt.Sprintf(`"k%d":0`, i) }, `}`)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			_, issues := Read(bc.data)
			if len(issues) == 0 {
				b.Fatal("the hostile document reads without issues")
			}
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			var hostileTimes, validTimes []time.Duration
			var validBytes, hostileBytes uint64
			var ms runtime.MemStats
			for b.Loop() {
				b.StopTimer()
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				b.StartTimer()
				start := time.Now()
				Read(bc.data)
				hostileTimes = append(hostileTimes, time.Since(start))
				b.StopTimer()
				runtime.ReadMemStats(&ms)
				hostileBytes += ms.TotalAlloc - before
				before = ms.TotalAlloc
				start = time.Now()
				Read(valid)
				validTimes = append(validTimes, time.Since(start))
				runtime.ReadMemStats(&ms)
				validBytes += ms.TotalAlloc - before
				b.StartTimer()
			}
			n := len(validTimes)
			validNs := float64(median(validTimes).Nanoseconds())
			b.ReportMetric(validNs, "valid-ns/op")
			b.ReportMetric(float64(validBytes)/float64(n), "valid-B/op")
			b.ReportMetric(float64(median(hostileTimes).Nanoseconds())/validNs, "x-valid-time")
			b.ReportMetric(float64(hostileBytes)/float64(validBytes), "x-valid-bytes")
			b.ReportMetric(float64(len(issues)), "issues")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// adversarialGraph builds a graph document of at least size bytes: one
// action that is open + elem(0),elem(1),… + close, or, when open is empty,
// a list of actions elem(0),elem(1),….
func adversarialGraph(size int, open string, elem func(int) string, close string) []byte {
	var buf bytes.Buffer
	buf.Grow(size + 256)
	buf.WriteString(`{"schemaVersion":"0.1","actions":[` + open)
	for i := 0; buf.Len() < size; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(elem(i))
	}
	buf.WriteString(close + `]}`)
	return buf.Bytes()
}
