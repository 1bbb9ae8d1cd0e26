// Package extracttest holds test helpers for the mapper's extraction and
// what reads it (as net/http/httptest does for net/http): the huge form the
// linear-time tests and benchmarks share, and the per-item measurement the
// benchmarks report.
package extracttest

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// HugeFormFields is how many fields HugeForm(n) extracts to: its n
// labelled inputs, the email and the message.
func HugeFormFields(n int) int { return n + 2 }

// HugeForm is the body of a form of n labelled text inputs whose labels
// run together ("F0F1F2…", which once made extraction super-linear), then
// an email, a message and a send button (mapper's TestHugeForm, the
// extraction and classification benchmarks).
func HugeForm(n int) string {
	var b strings.Builder
	b.WriteString(`<form action="/enquire" method="post">`)
	for i := range n {
		fmt.Fprintf(&b, `<label>F%d<input name=f%d></label>`, i, i)
	}
	b.WriteString(`<label>Email <input type="email" name="email" required></label><label>Message <textarea name="message"></textarea></label><button>Send enquiry</button></form>`)
	return b.String()
}

// HugePage is HugeForm(n) as a whole page.
func HugePage(n int) []byte {
	return []byte(`<html><body><h2>Enquiry</h2>` + HugeForm(n) + `</body></html>`)
}

// NsPerItem runs f reps times, three rounds each after a collection, and
// returns the best round's nanoseconds per item (items per call of f).
func NsPerItem(items, reps int, f func()) float64 {
	best := 0.0
	for range 3 {
		runtime.GC()
		start := time.Now()
		for range reps {
			f()
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(reps*items)
		if best == 0 || ns < best {
			best = ns
		}
	}
	return best
}
