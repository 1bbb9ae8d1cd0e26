package portal

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"golang.org/x/net/html"
)

// harness is a running portal over a temporary copy of a graph, with a
// real SQLite audit store and a logged-in client.
type harness struct {
	srv    *Server
	path   string
	store  *audit.Store
	client *http.Client
	// form, when a test sets it, replaces the form a table case prepared.
	form url.Values
}

// startPortal serves graph (bytes of a valid graph) until the test ends.
func startPortal(t *testing.T, graph []byte) *harness {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.json")
	if err := os.WriteFile(path, graph, 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := audit.Open(t.Context(), filepath.Join(dir, "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return startPortalStore(t, graph, path, store)
}

// startPortalStore serves the graph file at path with store.
func startPortalStore(t *testing.T, graph []byte, path string, store *audit.Store) *harness {
	t.Helper()
	return startPortalOn(t, graph, path, store, store)
}

// startPortalOn serves the graph file at path with the portal's Store
// through (a wrapper of store, say), with the options tweak sets; the
// harness's store is store.
func startPortalOn(t *testing.T, graph []byte, path string, through Store, store *audit.Store, tweak ...func(*Options)) *harness {
	t.Helper()
	if err := os.WriteFile(path, graph, 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{GraphPath: path, Store: through}
	for _, f := range tweak {
		f(&o)
	}
	srv, err := New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	jar, _ := cookiejar.New(nil)
	return &harness{srv: srv, path: path, store: store, client: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

// login opens the printed URL, as the owner's browser does.
func (h *harness) login(t *testing.T) {
	t.Helper()
	resp, body := h.get(t, h.srv.URL())
	if resp.StatusCode != http.StatusOK || resp.Request.URL.RawQuery != "" {
		t.Fatalf("opening the printed URL: %d at %s: %s", resp.StatusCode, resp.Request.URL, body)
	}
}

func (h *harness) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := h.client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// post sends form values to path with the headers a same-origin form
// submission carries, overridden by hdr ("" deletes a header).
func (h *harness) post(t *testing.T, path string, form url.Values, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.srv.Origin()+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", h.srv.Origin())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// confirmForm opens an action's page and returns its form's fields, with
// the owner's entries filled in.
func (h *harness) confirmForm(t *testing.T, id string) url.Values {
	t.Helper()
	resp, body := h.get(t, h.srv.Origin()+actionPath(id))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d: %s", actionPath(id), resp.StatusCode, body)
	}
	v := url.Values{}
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "input" && attr(n, "type") == "hidden" {
			v.Set(attr(n, "name"), attr(n, "value"))
		}
	}
	for _, k := range []string{"csrf", "nonce", "shown"} {
		if v.Get(k) == "" {
			t.Fatalf("the confirm form has no %s field", k)
		}
	}
	v.Set("confirmedBy", "Dr Mira Lee")
	v.Set("capMax", "5")
	v.Set("capPer", "day")
	v.Set("notify", "https://hooks.example.com/frontlatch")
	return v
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// actionBytes returns the canonical bytes of one action of the graph file.
func actionBytes(t *testing.T, path, id string) []byte {
	t.Helper()
	g, err := ReadGraphFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	i, err := findAction(path, g, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := shared.WriteAction(&g.Actions[i])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// graphBytes returns a fixture site's mapped graph with its origin, the
// first action moved to sandbox-tested with one run when runs is true.
func graphBytes(t *testing.T, site, origin string, edit func(g *shared.ActionGraph)) []byte {
	t.Helper()
	g := mapped(t, site, origin)
	if edit != nil {
		edit(g)
	}
	b, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withSandboxRun gives action i a recorded sandbox run.
func withSandboxRun(i int) func(g *shared.ActionGraph) {
	return func(g *shared.ActionGraph) {
		status := 200
		g.Actions[i].Verification = shared.SandboxTested{SandboxRuns: []shared.SandboxRun{{
			RunID: "run_test_1", At: "2026-12-01T21:00:00.000Z", By: "verifier@test", Outcome: shared.SandboxPassed,
			Endpoint: g.Actions[i].Access[0].Submission.Endpoint, ResponseStatus: &status,
			Fields: []shared.SubmittedField{{Name: "patient-name", Value: "Test Person"}, {Name: "phone", Value: "0298765432"}},
			Note:   strp("intercepted: nothing reached the business"),
		}}}
	}
}
