package mapper

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/go-rod/rod"
)

// update rewrites golden files under testdata/.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// testBrowser is the one Chromium every test of the package shares.
var testBrowser *rod.Browser

func TestMain(m *testing.M) {
	flag.Parse()
	ctx := context.Background()
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mapper tests need Chromium:", err)
		os.Exit(1)
	}
	testBrowser = br.Rod
	code := m.Run()
	br.Close()
	os.Exit(code)
}

// fixedNow is the clock of every test graph.
var fixedNow = time.Date(2026, 8, 25, 8, 39, 12, 596e6, time.UTC)

// testOptions are deterministic options on the shared browser.
func testOptions() Options {
	return Options{Browser: testBrowser, Offline: true, Now: func() time.Time { return fixedNow }, SiteSlug: "test", PageTimeout: 15 * time.Second}
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

// mapTest maps url with testOptions and fails the test on error or on a
// graph the contract refuses.
func mapTest(t *testing.T, url string, mod func(*Options)) *shared.ActionGraph {
	t.Helper()
	o := testOptions()
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
