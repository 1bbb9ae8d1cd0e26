package extract_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// hugeMarkup is TestHugeForm's page (mapper/hostile_test.go) with n
// labelled inputs.
func hugeMarkup(n int) []byte {
	var b strings.Builder
	b.WriteString(`<html><body><form action="/enquire" method="post">`)
	for i := range n {
		fmt.Fprintf(&b, `<label>F%d<input name=f%d></label>`, i, i)
	}
	b.WriteString(`<label>Email <input type="email" name="email" required></label><button>Send enquiry</button></form></body></html>`)
	return []byte(b.String())
}

// BenchmarkFromHTMLPerControl extracts forms of 100 and of 20,000 inputs
// statically and reports the cost per control of each (best of three,
// after a collection) and their ratio, measured in the same run: static
// extraction is linear when the ratio stays near 1.
func BenchmarkFromHTMLPerControl(b *testing.B) {
	small, big := hugeMarkup(100), hugeMarkup(20000)
	per := func(markup []byte, n, reps int) float64 {
		best := 0.0
		for range 3 {
			runtime.GC()
			start := time.Now()
			for range reps {
				p, err := extract.FromHTML("http://127.0.0.1/", markup)
				if err != nil || len(p.Forms) != 1 || len(p.Forms[0].Fields) != n+1 {
					b.Fatalf("FromHTML: %v", err)
				}
			}
			ns := float64(time.Since(start).Nanoseconds()) / float64(reps*(n+1))
			if best == 0 || ns < best {
				best = ns
			}
		}
		return best
	}
	b.ResetTimer()
	var s, g float64
	for range b.N {
		s = per(small, 100, 50)
		g = per(big, 20000, 1)
	}
	b.ReportMetric(s, "ns/control@100")
	b.ReportMetric(g, "ns/control@20000")
	b.ReportMetric(g/s, "ratio")
}
