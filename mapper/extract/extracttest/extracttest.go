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

// BusyPage is a page of n sections — a heading, a paragraph, a few links
// (one tel:) and, every tenth section, a contact form of six labelled
// fields — the size of a long small-business home page at n = 200
// (BenchmarkFromPage). With shadow, every form sits in the open shadow
// root of a custom element its script attaches, so the same controls are
// read through shadow roots.
func BusyPage(n int, shadow bool) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><title>Busy</title></head><body><h1>Busy page</h1>`)
	for i := range n {
		fmt.Fprintf(&b, `<section class="s%d"><h2>Section %d</h2><p>Some words about service %d, <a href="/s/%d">more</a>, <a href="/t/%d">details</a> or call <a href="tel:+6130000%04d">03 0000 %04d</a>.</p>`, i, i, i, i, i, i, i)
		if i%10 == 0 {
			form := fmt.Sprintf(`<form id="f%d" action="/enquire" method="post"><label for="n%d">Name</label><input id="n%d" name="name" required><label for="e%d">Email</label><input id="e%d" name="email" type="email"><label for="p%d">Phone</label><input id="p%d" name="phone" type="tel"><label for="m%d">Message</label><textarea id="m%d" name="message"></textarea><label><input type="checkbox" name="news" value="y"> Send news</label><select name="svc"><option>A</option><option>B</option></select><button>Send</button></form>`, i, i, i, i, i, i, i, i, i)
			if shadow {
				fmt.Fprintf(&b, `<busy-form data-i="%d"></busy-form><template id="t%d">%s</template>`, i, i, form)
			} else {
				b.WriteString(form)
			}
		}
		b.WriteString(`</section>`)
	}
	if shadow {
		b.WriteString(`<script>customElements.define("busy-form", class extends HTMLElement { connectedCallback() { if (this.shadowRoot) return; this.attachShadow({ mode: "open" }).appendChild(document.getElementById("t" + this.dataset.i).content.cloneNode(true)); } });</script>`)
	}
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}
