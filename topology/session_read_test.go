package topology_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

const readPage = `<!doctype html><html lang="en"><head><title>Book</title></head><body>
<button type="button" aria-haspopup="dialog" onclick="document.getElementById('m').hidden = false">Book now</button>
<div id="m" role="dialog" aria-label="Booking" hidden><form><input name="name"><input name="email"><button>Send</button></form></div>
</body></html>`

func readSite() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Frontlatch-Test", "yes")
		w.Header().Add("Link", `</a>; rel="one"`)
		w.Header().Add("Link", `</b>; rel="two"`)
		fmt.Fprint(w, readPage)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusFound) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":1}`)
	})
	return httptest.NewServer(mux)
}

// readSession serves readSite and opens a Session on a browser whose CDP
// calls are counted; everything is closed when t ends.
func readSession(t *testing.T) (context.Context, *httptest.Server, *topology.Session, *topologytest.Calls) {
	t.Helper()
	srv := readSite()
	t.Cleanup(srv.Close)
	b, calls := topologytest.CountingBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s, err := topology.Attach(b).NewSession(ctx, topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return ctx, srv, s, calls
}

// TestSessionReadOneEvaluatePerState: an embedder reading every state of
// an explored page itself (Session.Read for the entry state,
// ScanOptions.StateScript for the states clicks reveal) costs one in-page
// extraction per state, counted on the browser's CDP connection.
func TestSessionReadOneEvaluatePerState(t *testing.T) {
	ctx, srv, s, calls := readSession(t)
	if _, err := s.Open(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	calls.Reset()
	const script = `() => "fields:" + document.querySelectorAll("form input").length + (document.getElementById("m").hidden ? ":closed" : ":open")`
	entry, err := s.Read(ctx, script, true)
	if err != nil {
		t.Fatal(err)
	}
	var revealed []string
	g, err := s.Explore(ctx, topology.ExploreOptions{
		MaxDepth: 1, ExploreOnly: []topology.RiskCategory{topology.RiskDisclosure},
		ScanOptions: topology.ScanOptions{Light: true, StateScript: script,
			OnStateScript: func(_ context.Context, _ *rod.Page, st *topology.StateNode, result string, scriptErr error) error {
				if scriptErr != nil {
					t.Errorf("state %s: %v", st.StateID, scriptErr)
				}
				revealed = append(revealed, result)
				return nil
			}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"fields:2:closed", "fields:2:closed", "fields:2:open"}, append([]string{entry}, revealed...)); diff != "" {
		t.Errorf("script answers: Read, then each state's (-want +got):\n%s", diff)
	}
	if len(g.States) != 2 {
		t.Fatalf("states = %d, want the entry state and the open dialog", len(g.States))
	}
	// The engine's extraction carries its maxNodes bound: one per state.
	if n := calls.Evaluates(`"maxNodes"`); n != len(g.States) {
		t.Errorf("extractions = %d for %d states, want one per state", n, len(g.States))
	}
	if n := calls.Evaluates(script); n != len(g.States) {
		t.Errorf("evaluations running the script = %d for %d states, want one per state", n, len(g.States))
	}
	if n := calls.Evaluates("() => location.href"); n != 0 {
		t.Errorf("Explore asked the page's URL %d times; Read captured it", n)
	}
}

// TestSessionResponse: the main document's response as the browser got it,
// after redirects, whatever its status or type.
func TestSessionResponse(t *testing.T) {
	ctx, srv, s, _ := readSession(t)
	for _, tc := range []struct {
		path, wantURL string
		status        int
		mime          string
	}{
		{"/moved", "/", 200, "text/html"},
		{"/gone", "/gone", 410, "text/plain"},
		{"/data.json", "/data.json", 200, "application/json"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if _, err := s.Open(ctx, srv.URL+tc.path); err != nil {
				t.Fatal(err)
			}
			r := s.Response()
			if r == nil {
				t.Fatal("no response recorded")
			}
			got := fmt.Sprintf("%s %d %s", strings.TrimPrefix(r.URL, srv.URL), r.Status, r.MIMEType)
			if want := fmt.Sprintf("%s %d %s", tc.wantURL, tc.status, tc.mime); got != want {
				t.Errorf("response = %q, want %q", got, want)
			}
			if tc.path == "/moved" {
				if r.Header.Get("X-Frontlatch-Test") != "yes" {
					t.Errorf("headers %v lack X-Frontlatch-Test", r.Header)
				}
				if diff := cmp.Diff([]string{`</a>; rel="one"`, `</b>; rel="two"`}, r.Header.Values("Link")); diff != "" {
					t.Errorf("repeated Link headers (-want +got):\n%s", diff)
				}
			}
		})
	}
}
