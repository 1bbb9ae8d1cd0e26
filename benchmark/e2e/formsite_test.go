package e2e

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// received is one request that reached a formSite's form endpoints.
type received struct {
	Path   string
	Query  url.Values
	Fields url.Values
	Files  map[string]string // field → "name type content" of each file part with a file name
	JSON   map[string]any    // a JSON body
}

// formSite serves its page on every GET and records every other request:
// the form fields and files it carries, urlencoded or multipart.
type formSite struct {
	page string
	mu   sync.Mutex
	got  []received
	next chan struct{}
}

func newFormSite(page string) *formSite {
	return &formSite{page: page, next: make(chan struct{}, 1)}
}

func (s *formSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(s.page))
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		var body map[string]any
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.keep(w, received{Path: r.URL.Path, Query: r.URL.Query(), JSON: body})
		return
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil && err != http.ErrNotMultipart {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	got := received{Path: r.URL.Path, Query: r.URL.Query(), Fields: r.PostForm}
	if r.MultipartForm != nil {
		for field, parts := range r.MultipartForm.File {
			for _, fh := range parts {
				f, err := fh.Open()
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
				body, err := io.ReadAll(f)
				f.Close()
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadRequest)
					return
				}
				if got.Files == nil {
					got.Files = map[string]string{}
				}
				got.Files[field] = fh.Filename + " " + fh.Header.Get("Content-Type") + " " + string(body)
			}
		}
	}
	s.keep(w, got)
}

// keep records got and answers the request.
func (s *formSite) keep(w http.ResponseWriter, got received) {
	s.mu.Lock()
	s.got = append(s.got, got)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte("<p>Thanks</p>"))
	select {
	case s.next <- struct{}{}:
	default:
	}
}

// await waits for the site to record a request and returns the last one.
func (s *formSite) await(t *testing.T) received {
	t.Helper()
	select {
	case <-s.next:
	case <-time.After(10 * time.Second):
		t.Fatal("the form's submission never reached the test site")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[len(s.got)-1]
}

// count is how many requests the site has recorded.
func (s *formSite) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.got)
}

// executeTool calls the execute of the WebMCP tool named tool, as the
// page's script registered it, with input, and returns its error message
// ("" when it resolved).
func executeTool(t *testing.T, page *rod.Page, tool string, input map[string]any) string {
	t.Helper()
	res, err := page.Timeout(10*time.Second).Eval(`async (name, input) => {
	  const tool = window.__webmcpTools.find((t) => t.name === name);
	  try { await tool.execute(input); return ""; } catch (e) { return String(e.message || e) || "an empty error"; }
	}`, tool, input)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.Str()
}
