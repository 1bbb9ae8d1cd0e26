package classify_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
)

// hugeForm is the markup of TestHugeForm (mapper/hostile_test.go): n
// labelled text inputs, then an email, a message and a send button.
func hugeForm(tb testing.TB, n int) (extract.Form, *extract.Page) {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`<html><body><h2>Enquiry</h2><form action="/enquire" method="post">`)
	for i := range n {
		fmt.Fprintf(&b, `<label>F%d<input name=f%d></label>`, i, i)
	}
	b.WriteString(`<label>Email <input type="email" name="email" required></label><label>Message <textarea name="message"></textarea></label><button>Send enquiry</button></form></body></html>`)
	p, err := extract.FromHTML("http://127.0.0.1/", []byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	if len(p.Forms) != 1 || len(p.Forms[0].Fields) != n+2 {
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
		best := 0.0
		for range 3 {
			runtime.GC()
			start := time.Now()
			for range reps {
				classify.Fields(f, p)
			}
			ns := float64(time.Since(start).Nanoseconds()) / float64(reps*len(f.Fields))
			if best == 0 || ns < best {
				best = ns
			}
		}
		return best
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
