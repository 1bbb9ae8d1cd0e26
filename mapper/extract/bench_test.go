package extract_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/mapper/extract/extracttest"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
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

// BenchmarkFromPagePerControl extracts, in Chromium, a page holding a
// form of 100 and one of 2,000 labelled inputs through FromPage (the
// mapper's one in-page Evaluate: extract.js, submit listeners) and reports
// the cost per control of each (best of three) and their ratio, measured in
// the same run.
//
//	go test -run '^$' -bench BenchmarkFromPagePerControl -benchtime 3x ./extract
func BenchmarkFromPagePerControl(b *testing.B) {
	topologytest.NeedChromium(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(extracttest.HugePage(n))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		b.Fatalf("launch chromium: %v", err)
	}
	defer br.Close()
	per := func(n, reps int) float64 {
		page, err := br.OpenPage(ctx, srv.URL+"/"+strconv.Itoa(n), topology.PageOptions{Offline: true})
		if err != nil {
			b.Fatalf("open: %v", err)
		}
		defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
		return extracttest.NsPerItem(extracttest.HugeFormFields(n), reps, func() {
			p, err := extract.FromPage(ctx, page)
			if err != nil || len(p.Forms) != 1 || len(p.Forms[0].Fields) != extracttest.HugeFormFields(n) {
				b.Fatalf("FromPage: %v", err)
			}
		})
	}
	b.ResetTimer()
	var s, g float64
	for range b.N {
		s = per(100, 20)
		g = per(2000, 2)
	}
	b.ReportMetric(s/1000, "µs/control@100")
	b.ReportMetric(g/1000, "µs/control@2000")
	b.ReportMetric(g/s, "ratio")
}

// BenchmarkFromPage extracts a busy page (extracttest.BusyPage(200)) in
// Chromium: without shadow roots, and with every form inside an open
// shadow root. It reports milliseconds per extraction (the one Evaluate,
// best of the rounds' means).
func BenchmarkFromPage(b *testing.B) {
	topologytest.NeedChromium(b)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	for _, shadow := range []bool{false, true} {
		markup := extracttest.BusyPage(200, shadow)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(markup)
		}))
		name := "plain"
		if shadow {
			name = "shadow"
		}
		b.Run(name, func(b *testing.B) {
			page, err := br.OpenPage(ctx, srv.URL+"/", topology.PageOptions{Offline: true})
			if err != nil {
				b.Fatal(err)
			}
			defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
			extractOnce := func() {
				p, err := extract.FromPage(ctx, page)
				if err != nil || len(p.Forms) != 20 {
					b.Fatalf("FromPage: %d forms, %v", len(p.Forms), err)
				}
			}
			extractOnce() // warm the script's compilation
			b.ResetTimer()
			var ms float64
			for range b.N {
				ms = extracttest.NsPerItem(1, 10, extractOnce) / 1e6
			}
			b.ReportMetric(ms, "ms/page")
		})
		srv.Close()
	}
}
