package mapper

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/google/go-cmp/cmp"
)

// MapAll maps several sites on a pool of reused tabs: results in input
// order, the same graphs as one Map each, a failing site reported in its
// own result, and never two sites of one host at once.
func TestMapAll(t *testing.T) {
	topologytest.NeedChromium(t) // MapAll launches its own browser
	form := func(h string) string { return page(h, `<h1>Contact `+h+`</h1>`+contactForm) }
	var urls []string
	for i := range 3 {
		srv := serveSite(t, site{pages: map[string]string{"/": form(fmt.Sprintf("Site %d", i))}})
		urls = append(urls, srv.URL+"/")
	}
	urls = append(urls, urls[0]) // the same host twice
	urls = append(urls, "http://"+closedPort(t)+"/")
	var mu sync.Mutex
	busy := map[string]int{}
	var overlap atomic.Bool
	rs, err := MapAll(context.Background(), urls, testOptions(), PoolOptions{
		Concurrency: 3,
		OnStart: func(i int, u string) {
			mu.Lock()
			defer mu.Unlock()
			busy[hostOfURL(u)]++
			if busy[hostOfURL(u)] > 1 {
				overlap.Store(true)
			}
		},
		OnDone: func(i int, r Result) {
			mu.Lock()
			defer mu.Unlock()
			busy[hostOfURL(r.URL)]--
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if overlap.Load() {
		t.Error("two sites of one host were mapped at once")
	}
	for i, r := range rs[:4] {
		if r.URL != urls[i] || r.Err != nil || r.Graph == nil || len(r.Pages) != 1 {
			t.Fatalf("result %d: url %s err %v pages %v", i, r.URL, r.Err, r.Pages)
		}
		want := mapTest(t, urls[i], nil)
		if len(r.Graph.Actions) != 1 || r.Graph.Actions[0].Label != want.Actions[0].Label {
			t.Errorf("site %d: pooled graph's actions %+v differ from a lone Map's %+v", i, r.Graph.Actions, want.Actions)
		}
	}
	if last := rs[4]; !errors.Is(last.Err, ErrUnreachable) || !strings.Contains(last.URL, "127.0.0.1") {
		t.Errorf("unreachable site: %+v, want ErrUnreachable", last)
	}
}

// A one-page site with no action costs at most two loads of its page: the
// plain HTTP pre-flight and one browser load. Revealing explores the page
// as loaded, so its menu button is clicked without a reload.
func TestOnePageSiteCost(t *testing.T) {
	var loads atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		loads.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page("Gallery", `<header><button type="button" aria-expanded="false" aria-controls="m" onclick="document.getElementById('m').hidden=false">Menu</button>
<nav id="m" hidden><a href="#top">Top</a></nav></header><main><h1>Our gallery</h1><p>Paintings since 1990.</p></main>`))
	}))
	defer srv.Close()
	g := mapTest(t, srv.URL+"/", nil)
	if len(g.Actions) != 0 {
		t.Errorf("%d actions on a site with none", len(g.Actions))
	}
	if n := loads.Load(); n > 2 {
		t.Errorf("the page was loaded %d times, want at most 2 (pre-flight and one browser load)", n)
	}
}

// URLs that cannot be mapped are refused before a browser is launched: with
// a context already ended, launching would fail the whole call.
func TestMapAllRefusesBadURLsFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	urls := []string{"ftp://example.org/", "not a url", ""}
	rs, err := MapAll(ctx, urls, testOptions(), PoolOptions{
		OnStart: func(i int, u string) { t.Errorf("site %d (%q) started", i, u) },
	})
	if err != nil {
		t.Fatalf("MapAll: %v (a browser was launched?)", err)
	}
	if len(rs) != len(urls) {
		t.Fatalf("%d results for %d URLs", len(rs), len(urls))
	}
	for i, r := range rs {
		if r.URL != urls[i] || !errors.Is(r.Err, ErrInvalidURL) {
			t.Errorf("result %d: %q %v, want ErrInvalidURL", i, r.URL, r.Err)
		}
	}
}

// Every result of MapAll carries its URL and a Graph or an Err, also for
// the sites never started: when no tab can be had (a browser handle that
// holds no browser: NewSession fails before anything is launched) or when
// ctx ends while sites are still being handed out.
func TestMapAllEveryResult(t *testing.T) {
	cases := []struct {
		name    string
		browser func(t *testing.T) *topology.Browser
		cancel  bool // ctx ends when the first site starts
		started int  // the most sites that may start
		err     error
	}{
		{"no tab can be had", func(*testing.T) *topology.Browser { return &topology.Browser{} }, false, 0, topology.ErrNilBrowser},
		{"ctx ends during dispatch", func(t *testing.T) *topology.Browser { return testBrowser(t) }, true, 4, context.Canceled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var urls []string
			for i := range 4 {
				srv := serveSite(t, site{pages: map[string]string{"/": page(fmt.Sprintf("Site %d", i), "<h1>Hello</h1>")}})
				urls = append(urls, srv.URL+"/")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := testOptions()
			o.loader, o.Browser = nil, tc.browser(t)
			var started atomic.Int64
			rs, err := MapAll(ctx, urls, o, PoolOptions{Concurrency: 1, OnStart: func(int, string) {
				started.Add(1)
				if tc.cancel {
					cancel()
				}
			}})
			if !errors.Is(err, tc.err) {
				t.Errorf("MapAll error %v, want %v", err, tc.err)
			}
			if n := started.Load(); n > int64(tc.started) {
				t.Errorf("%d sites started, want at most %d", n, tc.started)
			}
			var want, got []string
			for i, r := range rs {
				want = append(want, urls[i]+" graph or error")
				g := r.URL
				switch {
				case r.Graph != nil && r.Err == nil:
					g += " graph or error"
				case r.Graph == nil && r.Err != nil:
					g += " graph or error"
				default:
					g += fmt.Sprintf(" graph %v, error %v", r.Graph != nil, r.Err)
				}
				got = append(got, g)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}
