package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// fieldsPage carries the forms of the compiler's "doors" test graph
// (compiler/testdata/graphs/doors.json): a multipart quote form with a
// honeypot a bot-filler already filled and a nonce, and one enquiry form
// in the header and again in the footer, with radios, a checkbox group and
// a required consent box.
const fieldsPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour Plumbing</title></head><body>
<header>` + enquiryForm + `</header>
<main>
<form id="quote" method="post" enctype="multipart/form-data" action="/wp-admin/admin-ajax.php?action=quote_submit">
  <label>Full name <input name="full-name" minlength="2" maxlength="60" required></label>
  <label>Email <input type="email" name="email" required></label>
  <label>Mobile <input type="tel" name="phone" pattern="04[0-9]{8}"></label>
  <label>Suburb <input name="suburb"></label>
  <label>Service <select name="service" required><option value="">Choose…</option>
    <option value="blocked-drain">Blocked drain</option><option value="hot-water">Hot water</option><option value="leak">leak</option></select></label>
  <label>Preferred date <input type="date" name="preferred-date" min="2026-09-01"></label>
  <label>Preferred time <input type="time" name="preferred-time"></label>
  <label>Budget (AUD) <input type="number" name="budget" min="100" max="5000" step="50"></label>
  <label>Your website <input type="url" name="website"></label>
  <label>Photos <input type="file" name="photos"></label>
  <label>Describe the job <textarea name="message" maxlength="1000" required></textarea></label>
  <label><input type="checkbox" name="news"> Send me offers</label>
  <div style="position:absolute;left:-9999px" aria-hidden="true"><label>Company <input name="company-url" tabindex="-1" autocomplete="off" value="http://bot-filled.example"></label></div>
  <input type="hidden" name="_wpnonce" value="n0nce-42">
  <button type="submit">Get a quote</button>
</form>
</main>
<footer>` + enquiryForm + `</footer>
</body></html>`

const enquiryForm = `
<form class="enquiry" method="post" action="/enquiry">
  <label>Email <input type="email" name="your-email" required></label>
  <fieldset><legend>Reply by</legend>
    <label><input type="radio" name="reply-by" value="email"> Email</label>
    <label><input type="radio" name="reply-by" value="phone"> Phone</label></fieldset>
  <label><input type="checkbox" name="topics" value="gas"> Gas</label>
  <label><input type="checkbox" name="topics" value="water"> Water</label>
  <label><input type="checkbox" name="existing"> I am an existing customer</label>
  <label><input type="checkbox" name="agree" required> I agree to the privacy policy</label>
  <label>Question <textarea name="your-question" required></textarea></label>
  <button type="submit">Ask</button>
</form>`

// received is one request that reached the test site's form endpoints.
type received struct {
	Path   string
	Query  url.Values
	Fields url.Values
	Files  map[string]string // field → "name type content" of each file part with a file name
}

// fieldsSite serves fieldsPage and records every form post.
type fieldsSite struct {
	mu   sync.Mutex
	got  []received
	next chan struct{}
}

func (s *fieldsSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(fieldsPage))
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

func TestWebMCPScriptFillsEveryFieldKind(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Chromium test in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	data, err := os.ReadFile(filepath.Join(fixturestest.MustRepoRoot(t), "compiler", "testdata", "graphs", "doors.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, data)
	script := compiled(t, g, compiler.FormatWebMCP, compiler.Options{})
	tools := toolsByForm(t, g, compiler.Options{})
	site := &fieldsSite{next: make(chan struct{}, 1)}
	srv := httptest.NewServer(site)
	defer srv.Close()
	b := newBrowser(t, ctx)

	tests := []struct {
		name  string
		form  string // the door's locator
		input map[string]any
		want  received
	}{
		{
			name: "quote form: text, select, number, checkbox; honeypot emptied, nonce kept",
			form: "form#quote",
			input: map[string]any{"full-name": "Sam Lee", "email": "sam@example.test", "service": "hot-water",
				"budget": 150, "news": true, "message": "Hot water unit leaking", "preferred-date": "2026-09-14"},
			want: received{Path: "/wp-admin/admin-ajax.php", Query: url.Values{"action": {"quote_submit"}}, Fields: url.Values{
				"full-name": {"Sam Lee"}, "email": {"sam@example.test"}, "phone": {""}, "suburb": {""}, "service": {"hot-water"},
				"preferred-date": {"2026-09-14"}, "preferred-time": {""}, "budget": {"150"}, "website": {""}, "photos": {""}, // an empty file part, as a browser sends it
				"message": {"Hot water unit leaking"},
				"news":    {"on"}, "company-url": {""}, "_wpnonce": {"n0nce-42"},
			}},
		},
		{
			name: "quote form: a file attached from its base64 content",
			form: "form#quote",
			input: map[string]any{"full-name": "Sam Lee", "email": "sam@example.test", "service": "leak", "message": "Leak under the sink",
				"photos": map[string]any{"name": "leak.jpg", "mediaType": "image/jpeg", "content": base64.StdEncoding.EncodeToString([]byte("\xff\xd8\xff\xe0 a photo"))}},
			want: received{Path: "/wp-admin/admin-ajax.php", Query: url.Values{"action": {"quote_submit"}}, Fields: url.Values{
				"full-name": {"Sam Lee"}, "email": {"sam@example.test"}, "phone": {""}, "suburb": {""}, "service": {"leak"},
				"preferred-date": {""}, "preferred-time": {""}, "budget": {""}, "website": {""},
				"message": {"Leak under the sink"}, "company-url": {""}, "_wpnonce": {"n0nce-42"},
			}, Files: map[string]string{"photos": "leak.jpg image/jpeg \xff\xd8\xff\xe0 a photo"}},
		},
		{
			name: "footer enquiry form: radio, checkbox group, required consent",
			form: "footer form.enquiry",
			input: map[string]any{"your-email": "ana@example.test", "reply-by": "phone", "topics": []string{"gas", "water"},
				"agree": true, "your-question": "Do you service Manly?"},
			want: received{Path: "/enquiry", Query: url.Values{}, Fields: url.Values{
				"your-email": {"ana@example.test"}, "reply-by": {"phone"}, "topics": {"gas", "water"}, "agree": {"on"},
				"your-question": {"Do you service Manly?"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := openWithScript(t, ctx, b, srv.URL+"/", script)
			res, err := page.Timeout(10*time.Second).Eval(`async (name, input) => {
			  const tool = window.__webmcpTools.find((t) => t.name === name);
			  try { return await tool.execute(input); } catch (e) { return { error: String(e.message || e) }; }
			}`, tools[tt.form], tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if e := res.Value.Get("error"); !e.Nil() {
				t.Fatalf("execute failed: %s", e.Str())
			}
			select {
			case <-site.next:
			case <-time.After(10 * time.Second):
				t.Fatal("the form's submission never reached the test site")
			}
			site.mu.Lock()
			got := site.got[len(site.got)-1]
			site.mu.Unlock()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("submission (-want +got):\n%s", diff)
			}
		})
	}

	// A file the script cannot read is refused, and nothing is sent.
	for _, bad := range []struct {
		name string
		file any
		want string
	}{
		{"not base64", map[string]any{"name": "x.jpg", "content": "%%%"}, "not base64"},
		{"a bare string", base64.StdEncoding.EncodeToString([]byte("x")), "takes a file"},
	} {
		t.Run("refused: "+bad.name, func(t *testing.T) {
			site.mu.Lock()
			before := len(site.got)
			site.mu.Unlock()
			page := openWithScript(t, ctx, b, srv.URL+"/", script)
			res, err := page.Timeout(10*time.Second).Eval(`async (name, input) => {
			  const tool = window.__webmcpTools.find((t) => t.name === name);
			  try { return await tool.execute(input); } catch (e) { return { error: String(e.message || e) }; }
			}`, tools["form#quote"], map[string]any{"full-name": "Sam Lee", "email": "sam@example.test", "service": "leak", "message": "x", "photos": bad.file})
			if err != nil {
				t.Fatal(err)
			}
			if e := res.Value.Get("error"); e.Nil() || !strings.Contains(e.Str(), bad.want) {
				t.Fatalf("execute = %v, want an error saying %q", res.Value, bad.want)
			}
			time.Sleep(300 * time.Millisecond)
			site.mu.Lock()
			after := len(site.got)
			site.mu.Unlock()
			if after != before {
				t.Errorf("a refused call reached the site (%d submissions, want %d)", after, before)
			}
		})
	}
}

// toolsByForm maps each offered form door's locator to its tool name, as
// the MCP tools compiled with opts record it.
func toolsByForm(t *testing.T, g *shared.ActionGraph, opts compiler.Options) map[string]string {
	t.Helper()
	out := compiled(t, g, compiler.FormatMCP, opts)
	var res struct {
		Tools []struct {
			Name string `json:"name"`
			Meta struct {
				Door struct {
					Locator *struct {
						Value string `json:"value"`
					} `json:"locator"`
				} `json:"dev.frontlatch/door"`
			} `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, tl := range res.Tools {
		if tl.Meta.Door.Locator != nil {
			m[tl.Meta.Door.Locator.Value] = tl.Name
		}
	}
	return m
}
