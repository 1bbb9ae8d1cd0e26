package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/topologytest"
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

// doorsScript is the WebMCP script compiled from the compiler's "doors"
// test graph, whose forms fieldsPage carries, and its tools by form.
func doorsScript(t *testing.T) ([]byte, map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixturestest.MustRepoRoot(t), "compiler", "testdata", "graphs", "doors.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, data)
	return compiled(t, g, compiler.FormatWebMCP, compiler.Options{}), toolsByForm(t, g, compiler.Options{})
}

func TestWebMCPScriptFillsEveryFieldKind(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Chromium test in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	script, tools := doorsScript(t)
	site := newFormSite(fieldsPage)
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
			if msg := executeTool(t, page, tools[tt.form], tt.input); msg != "" {
				t.Fatalf("execute failed: %s", msg)
			}
			got := site.await(t)
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
			before := site.count()
			page := openWithScript(t, ctx, b, srv.URL+"/", script)
			msg := executeTool(t, page, tools["form#quote"], map[string]any{"full-name": "Sam Lee", "email": "sam@example.test", "service": "leak", "message": "x", "photos": bad.file})
			if !strings.Contains(msg, bad.want) {
				t.Fatalf("execute = %q, want an error saying %q", msg, bad.want)
			}
			time.Sleep(300 * time.Millisecond)
			if after := site.count(); after != before {
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

// The script fills a page that keeps its own state of its form, as a React
// page does, and sends that state: the page's state holds what the agent
// gave (a script that assigns el.value or el.checked leaves it empty), and
// the honeypot a bot filled is emptied in it too.
func TestWebMCPScriptFillsAReactPage(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Chromium test in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	script, tools := doorsScript(t)
	page := strings.Replace(fieldsPage, "</body>", "<script>"+topologytest.TrackLikeReact+`
document.getElementById("quote").addEventListener("submit", (e) => { e.preventDefault(); window.sendPageState("/state"); });
</script></body>`, 1)
	site := newFormSite(page)
	srv := httptest.NewServer(site)
	defer srv.Close()
	b := newBrowser(t, ctx)

	p := openWithScript(t, ctx, b, srv.URL+"/", script)
	if msg := executeTool(t, p, tools["form#quote"], map[string]any{"full-name": "Sam Lee", "email": "sam@example.test", "service": "hot-water",
		"budget": 150, "news": true, "message": "Hot water unit leaking", "preferred-date": "2026-09-14"}); msg != "" {
		t.Fatalf("execute failed: %s", msg)
	}
	want := received{Path: "/state", Query: url.Values{}, JSON: map[string]any{
		"full-name": "Sam Lee", "email": "sam@example.test", "service": "hot-water", "budget": "150", "news": []any{"on"},
		"message": "Hot water unit leaking", "preferred-date": "2026-09-14", "company-url": "",
	}}
	if diff := cmp.Diff(want, site.await(t)); diff != "" {
		t.Errorf("the page sent (-want +got):\n%s", diff)
	}
}
