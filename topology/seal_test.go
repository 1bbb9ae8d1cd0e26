package topology_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/google/go-cmp/cmp"
)

// closingPage sends by beacon and by keepalive fetch as its tab closes.
const closingPage = `<!doctype html><html><body><p>bye</p><script>
addEventListener("pagehide", () => {
  navigator.sendBeacon("/beacon", "form=1");
  fetch("/keepalive", {method: "POST", keepalive: true, body: "form=1"});
});
</script></body></html>`

// TestSeal: a page closed as it is sends its pagehide beacon and keepalive
// fetch; a sealed page sends nothing.
func TestSeal(t *testing.T) {
	topologytest.NeedChromium(t)
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(closingPage))
			return
		}
		if r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r) // the browser's own read, not the page's
			return
		}
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	received := func(seal bool) []string {
		t.Helper()
		mu.Lock()
		got = nil
		mu.Unlock()
		p, err := b.OpenPage(ctx, srv.URL+"/", topology.PageOptions{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		if seal {
			if err := topology.Seal(ctx, p.Timeout(5*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Timeout(5 * time.Second).Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // what the closed page sent arrives in this time
		mu.Lock()
		defer mu.Unlock()
		return append([]string{}, got...)
	}
	// Unsealed, the page's requests arrive: the test can see a leak.
	if diff := cmp.Diff([]string{"POST /beacon", "POST /keepalive"}, sorted(received(false))); diff != "" {
		t.Errorf("unsealed page (-want +got):\n%s", diff)
	}
	if got := received(true); len(got) != 0 {
		t.Errorf("a sealed page sent %v, want nothing", got)
	}
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
