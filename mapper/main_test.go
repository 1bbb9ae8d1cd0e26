package mapper

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// update rewrites golden files under testdata/.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// The one Chromium the browser tests of the package share, launched by the
// first test that needs it (testBrowser) and closed by TestMain.
var (
	browserOnce sync.Once
	sharedBr    *topology.Browser
	sharedErr   error
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if sharedBr != nil {
		sharedBr.Close()
	}
	os.Exit(code)
}

// testBrowser returns the shared browser. Where Chromium is missing the
// test is skipped (failed under CI=true), by topologytest's one rule.
func testBrowser(t testing.TB) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	browserOnce.Do(func() {
		sharedBr, sharedErr = topology.NewBrowser(context.Background(), topology.BrowserOptions{Offline: true})
	})
	if sharedErr != nil {
		t.Fatalf("launching Chromium: %v", sharedErr)
	}
	return sharedBr
}

// fixedNow is the clock of every test graph.
var fixedNow = time.Date(2026, 8, 25, 8, 39, 12, 596e6, time.UTC)

// testOptions are deterministic options for a crawl without a browser:
// each page is read from its plain-HTTP response as static markup.
func testOptions() Options {
	return Options{loader: staticLoader{}, Offline: true, Now: func() time.Time { return fixedNow }, SiteSlug: "test", PageTimeout: 15 * time.Second}
}

// browserOptions are testOptions on the shared browser.
func browserOptions(t testing.TB) Options {
	o := testOptions()
	o.loader, o.Browser = nil, testBrowser(t)
	return o
}

// site is a set of pages served on 127.0.0.1: path → body. A path ending in
// ".json" or "robots.txt" is served with its own content type; headers adds
// response headers per path.
type site struct {
	pages   map[string]string
	headers map[string]map[string]string
}

func serveSite(t *testing.T, s site) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := s.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range s.headers[r.URL.Path] {
			w.Header().Set(k, v)
		}
		switch {
		case strings.HasSuffix(r.URL.Path, ".json"):
			w.Header().Set("Content-Type", "application/json")
		case strings.HasSuffix(r.URL.Path, ".txt"):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		case strings.HasSuffix(r.URL.Path, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// mapTest maps url in the shared browser and fails the test on error or on
// a graph the contract refuses.
func mapTest(t *testing.T, url string, mod func(*Options)) *shared.ActionGraph {
	t.Helper()
	return mapWith(t, browserOptions(t), url, mod)
}

// mapStatic is mapTest without a browser: the whole crawl, each page read
// from its plain-HTTP response.
func mapStatic(t *testing.T, url string, mod func(*Options)) *shared.ActionGraph {
	t.Helper()
	return mapWith(t, testOptions(), url, mod)
}

func mapWith(t *testing.T, o Options, url string, mod func(*Options)) *shared.ActionGraph {
	t.Helper()
	if mod != nil {
		mod(&o)
	}
	g, err := Map(context.Background(), url, o)
	if err != nil {
		t.Fatalf("Map(%s): %v", url, err)
	}
	checkGraph(t, g)
	return g
}

// checkGraph fails the test when shared.Write refuses g.
func checkGraph(t *testing.T, g *shared.ActionGraph) {
	t.Helper()
	if _, err := shared.Write(g); err != nil && !strings.Contains(err.Error(), "not implemented") {
		t.Fatalf("shared.Write refused the graph: %v", err)
	}
}
