package extract_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/mapper/extract/extracttest"
)

// BenchmarkFromHTMLPerControl extracts forms of 100 and of 20,000 inputs
// statically and reports the cost per control of each (best of three,
// after a collection) and their ratio, measured in the same run: static
// extraction is linear when the ratio stays near 1.
func BenchmarkFromHTMLPerControl(b *testing.B) {
	per := func(n, reps int) float64 {
		markup := extracttest.HugePage(n)
		return extracttest.NsPerItem(extracttest.HugeFormFields(n), reps, func() {
			p, err := extract.FromHTML("http://127.0.0.1/", markup)
			if err != nil || len(p.Forms) != 1 || len(p.Forms[0].Fields) != extracttest.HugeFormFields(n) {
				b.Fatalf("FromHTML: %v", err)
			}
		})
	}
	b.ResetTimer()
	var s, g float64
	for range b.N {
		s = per(100, 50)
		g = per(20000, 1)
	}
	b.ReportMetric(s, "ns/control@100")
	b.ReportMetric(g, "ns/control@20000")
	b.ReportMetric(g/s, "ratio")
}
