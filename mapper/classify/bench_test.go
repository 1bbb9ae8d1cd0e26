package classify_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/mapper/extract/extracttest"
)

// hugeForm is extracttest.HugePage(n), extracted.
func hugeForm(tb testing.TB, n int) (extract.Form, *extract.Page) {
	tb.Helper()
	p, err := extract.FromHTML("http://127.0.0.1/", extracttest.HugePage(n))
	if err != nil {
		tb.Fatal(err)
	}
	if len(p.Forms) != 1 || len(p.Forms[0].Fields) != extracttest.HugeFormFields(n) {
		tb.Fatalf("extracted %d forms", len(p.Forms))
	}
	return p.Forms[0], p
}

// BenchmarkFieldsPerField reads forms of 100 and of 20,000 inputs and
// reports the cost per field of each (the best of three rounds, after a
// collection) and their ratio, measured in the same run: classify.Fields
// is linear when the ratio stays near 1.
func BenchmarkFieldsPerField(b *testing.B) {
	small, sp := hugeForm(b, 100)
	big, bp := hugeForm(b, 20000)
	per := func(f extract.Form, p *extract.Page, reps int) float64 {
		return extracttest.NsPerItem(len(f.Fields), reps, func() { classify.Fields(f, p) })
	}
	b.ResetTimer()
	var s, g float64
	for range b.N {
		s = per(small, sp, 200)
		g = per(big, bp, 1)
	}
	b.ReportMetric(s, "ns/field@100")
	b.ReportMetric(g, "ns/field@20000")
	b.ReportMetric(g/s, "ratio")
}
