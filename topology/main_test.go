package topology

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// One Chromium for the whole package: launching costs far more than a test.
var (
	testBrowser   *Browser
	testSite      *httptest.Server
	testLaunchErr string
)

//go:embed testdata/site
var siteFS embed.FS

// countedLoads counts requests for /counted/modal.html.
var countedLoads atomic.Int64

func TestMain(m *testing.M) {
	testSite = httptest.NewServer(siteHandler())
	ctx := context.Background()
	b, err := NewBrowser(ctx, BrowserOptions{Offline: true})
	if err != nil {
		testLaunchErr = err.Error()
	} else {
		testBrowser = b
	}
	code := m.Run()
	if testBrowser != nil {
		testBrowser.Close()
	}
	testSite.Close()
	os.Exit(code)
}

// browserForTest returns the shared browser; where Chromium is absent the
// test is skipped (failed under CI=true), and a browser that is installed
// but did not launch fails it.
func browserForTest(t testing.TB) *Browser {
	t.Helper()
	needChromium(t)
	if testBrowser == nil {
		t.Fatal("chromium did not launch: " + testLaunchErr)
	}
	return testBrowser
}

// testOptions are short budgets so hostile pages fail fast: a tab's
// PageOptions and a run's ExploreOptions in one value that tests edit.
func testOptions() settings {
	o := settings{PageOptions: PageOptions{
		ActionTimeout:     8 * time.Second,
		NavigationTimeout: 10 * time.Second,
		LoadTimeout:       4 * time.Second,
		Offline:           true,
	}}
	o.RunTimeout = 120 * time.Second
	return o
}

// siteHandler serves testdata/site plus a few endpoints that misbehave on
// purpose (they cannot be static files).
func siteHandler() http.Handler {
	sub, _ := fs.Sub(siteFS, "testdata/site")
	files := http.FileServer(http.FS(sub))
	mux := http.NewServeMux()
	mux.Handle("/", files)
	// A response that never comes: the navigation itself times out.
	mux.HandleFunc("/never-answers", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	// An image that never finishes: the page's load event never fires.
	mux.HandleFunc("/slow.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	// A fragment that answers after 300 ms (fetched.html renders it).
	mux.HandleFunc("/slow-fragment", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<form><label>Message <textarea name="message"></textarea></label><button>Send</button></form>`)
	})
	// One form of 20,000 labelled inputs whose text runs together
	// ("F0F1F2…"): quadratic label lookups and a backtracking id rule
	// once made its extraction take minutes.
	mux.HandleFunc("/huge-form.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><body><form action=/x method=post>`)
		for i := range 20000 {
			fmt.Fprintf(w, `<label>F%d<input name=f%d></label>`, i, i)
		}
		fmt.Fprint(w, `<button>Send</button></form></body></html>`)
	})
	// A 100,000-node DOM: 50,000 list items, each with a text node.
	mux.HandleFunc("/huge-dom.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><title>Huge</title><body><h1>Catalogue</h1><button type="button">Filter</button><ul>`)
		for i := range 50000 {
			fmt.Fprintf(w, "<li>p%d</li>", i%10)
		}
		fmt.Fprint(w, `</ul></body></html>`)
	})
	// Counts the loads of modal.html served under /counted/ (Session tests).
	mux.HandleFunc("/counted/modal.html", func(w http.ResponseWriter, r *http.Request) {
		countedLoads.Add(1)
		data, _ := siteFS.ReadFile("testdata/site/modal.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(data)
	})
	// Volatile markup: a fresh nonce, id and timestamp on every request.
	mux.HandleFunc("/volatile.html", func(w http.ResponseWriter, r *http.Request) {
		n := time.Now().UnixNano()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, volatilePage, n, n%0xffffffffff+0x1000000000, time.Now().UTC().Format(time.RFC3339Nano), n)
	})
	// A cross-origin iframe needs a second origin: the same server under
	// "localhost" is another origin than 127.0.0.1.
	mux.HandleFunc("/cross-frame.html", func(w http.ResponseWriter, r *http.Request) {
		other := strings.Replace(testSite.URL, "127.0.0.1", "localhost", 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><title>Frames</title><body><h1>Map</h1>
<iframe src="%s/plain.html" title="other origin"></iframe><button type="button">Stay</button></body></html>`, other)
	})
	return mux
}

const volatilePage = `<!doctype html><html lang="en"><head><title>Volatile</title>
<meta name="csrf-token" content="%d"></head><body>
<main><h1>Welcome</h1>
<button id="btn-%x" type="button" data-nonce="x">Open menu</button>
<p>Generated at %s</p>
<form action="/contact" method="post"><input type="hidden" name="_token" value="%d">
<label>Email <input type="email" name="email" required></label><button>Send</button></form>
</main></body></html>`

func siteURL(path string) string { return testSite.URL + path }

// needChromium is topologytest.NeedChromium for this package's own tests,
// which cannot import topologytest (it imports topology).
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := ResolveChromium(""); err != nil && os.Getenv("CI") == "true" {
		t.Fatalf("%v (CI=true: make test installs Chromium, so this is a failure)", err)
	} else if err != nil {
		t.Skipf("skipping the browser test: %v", err)
	}
}
