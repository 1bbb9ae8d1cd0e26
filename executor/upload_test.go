package executor_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
)

// Files the tests upload: their bytes begin as the formats' own signatures
// do, so net/http.DetectContentType recognises them.
var (
	pngBytes  = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{7}, 300)...)
	pdfBytes  = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
	jpegBytes = append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), bytes.Repeat([]byte{1, 2, 3}, 50)...)
	exeBytes  = append([]byte("MZ\x90\x00\x03\x00\x00\x00"), bytes.Repeat([]byte{0}, 64)...)
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// fileObject is a file as an agent gives it (decision 0007).
func fileObject(name, mediaType string, content []byte) map[string]any {
	f := map[string]any{"content": b64(content)}
	if name != "" {
		f["name"] = name
	}
	if mediaType != "" {
		f["mediaType"] = mediaType
	}
	return f
}

// receivedFile is a file part as the test site read it.
type receivedFile struct {
	Field, Filename, Disposition, ContentType string
	Content                                   []byte
}

// uploadSite records what reaches /callback-request: the form's values and
// each file part with its bytes. It serves page as /callback/.
type uploadSite struct {
	*recorder
	mu     sync.Mutex
	values []url.Values
	files  [][]receivedFile
}

func newUploadSite(t *testing.T, page string) *uploadSite {
	t.Helper()
	us := &uploadSite{}
	us.recorder = newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/callback/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case req.Method == http.MethodPost && req.URL.Path == "/callback-request":
			vals, files := url.Values{}, []receivedFile{}
			if err := req.ParseMultipartForm(1 << 20); err == nil {
				vals = url.Values(req.MultipartForm.Value)
				for field, hs := range req.MultipartForm.File {
					for _, h := range hs {
						f, _ := h.Open()
						b, _ := io.ReadAll(f)
						_ = f.Close()
						files = append(files, receivedFile{field, h.Filename, h.Header.Get("Content-Disposition"), h.Header.Get("Content-Type"), b})
					}
				}
			} else if err := req.ParseForm(); err == nil {
				vals = req.Form
			}
			us.mu.Lock()
			us.values, us.files = append(us.values, vals), append(us.files, files)
			us.mu.Unlock()
			r.record(req)
			fmt.Fprint(w, "Thanks, we will call you.")
		default:
			http.NotFound(w, req)
		}
	})
	return us
}

func (us *uploadSite) last(t *testing.T) (url.Values, []receivedFile) {
	t.Helper()
	us.mu.Lock()
	defer us.mu.Unlock()
	if len(us.values) == 0 {
		t.Fatal("the site received nothing")
	}
	return us.values[len(us.values)-1], us.files[len(us.files)-1]
}

// fileGraph is electrician01's graph served by site, its callback form
// given a photo upload (declared: accept image/* and .pdf, at most 2 KB;
// required when required is set) and sent by transport with enctype.
func fileGraph(t *testing.T, site string, transport shared.Transport, enctype string, required bool, edits ...func(a *shared.Action)) []byte {
	t.Helper()
	return editCallback(t, site, transport, enctype, func(a *shared.Action) {
		for _, edit := range edits {
			edit(a)
		}
		a.Inputs = append(a.Inputs, shared.Input{Name: "photo", Label: ptr("A photo of the problem"), Semantic: shared.SemanticFileAttachment,
			Type: "file", Required: required, AgentFillable: true, ValueSpace: []shared.ValueSpace{}})
		var proto shared.DeclaredValidation
		for _, v := range a.Validations {
			if d, ok := v.(shared.DeclaredValidation); ok {
				proto = d
				break
			}
		}
		rule := func(kind shared.RuleKind, value, attr string) shared.DeclaredValidation {
			d := proto
			d.AppliesTo, d.Rule, d.Attribute, d.Raw = "photo", shared.Rule{Kind: kind, Value: ptr(value)}, attr, value
			return d
		}
		a.Validations = append(a.Validations, rule(shared.RuleAccept, "image/*,.pdf", "accept"), rule(shared.RuleMaxFileSize, "2 KB", "data-max-size"))
		if required {
			r := rule(shared.RuleRequired, "", "required")
			r.Rule.Value = nil
			a.Validations = append(a.Validations, r)
		}
	})
}

func withPhoto(photo any) map[string]any {
	in := goodCallback()
	in["photo"] = photo
	return in
}

// TestUpload: a file reaches the site as a multipart file part with its
// bytes, its safe name and its media type, beside exactly the declared
// fields; Result.Files and the audit record identify it without its bytes.
func TestUpload(t *testing.T) {
	site := newUploadSite(t, "")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, fileGraph(t, site.URL, shared.TransportFormPost, "multipart/form-data", false), callback)
	fields := goodCallbackSent()
	for _, tc := range []struct {
		name  string
		photo any
		want  receivedFile // Content-Disposition checked when set
	}{
		{"name and media type given", fileObject("leak.png", "image/png", pngBytes),
			receivedFile{Field: "photo", Filename: "leak.png", Disposition: `form-data; name="photo"; filename="leak.png"`, ContentType: "image/png", Content: pngBytes}},
		{"only the content: named from what it is", fileObject("", "", pdfBytes),
			receivedFile{Field: "photo", Filename: "upload.pdf", ContentType: "application/pdf", Content: pdfBytes}},
		{"the media type from the extension", fileObject("quote.PDF", "", pdfBytes),
			receivedFile{Field: "photo", Filename: "quote.PDF", ContentType: "application/pdf", Content: pdfBytes}},
		{"a name without extension gets its type's", fileObject("boiler", "image/jpeg", jpegBytes),
			receivedFile{Field: "photo", Filename: "boiler.jpg", ContentType: "image/jpeg", Content: jpegBytes}},
		{"a path is dropped", fileObject(`C:\Users\ana\Pictures\leak 2.png`, "", pngBytes),
			receivedFile{Field: "photo", Filename: "leak 2.png", ContentType: "image/png", Content: pngBytes}},
		{"quotes are percent-encoded as browsers do", fileObject(`the "worst" leak.png`, "", pngBytes),
			receivedFile{Field: "photo", Filename: "the %22worst%22 leak.png", Disposition: `form-data; name="photo"; filename="the %22worst%22 leak.png"`, ContentType: "image/png", Content: pngBytes}},
		{"control characters removed", fileObject("le\r\nak\x00.png", "", pngBytes),
			receivedFile{Field: "photo", Filename: "leak.png", ContentType: "image/png", Content: pngBytes}},
		{"application/octet-stream says nothing against the name", fileObject("leak.png", "application/octet-stream", pngBytes),
			receivedFile{Field: "photo", Filename: "leak.png", ContentType: "image/png", Content: pngBytes}},
		{"an alias of the media type", fileObject("leak.jpg", "image/jpg", jpegBytes),
			receivedFile{Field: "photo", Filename: "leak.jpg", ContentType: "image/jpeg", Content: jpegBytes}},
		{"a list of one", []any{fileObject("leak.png", "", pngBytes)},
			receivedFile{Field: "photo", Filename: "leak.png", ContentType: "image/png", Content: pngBytes}},
		{"a Go File value", executor.File{Name: "leak.png", Content: pngBytes},
			receivedFile{Field: "photo", Filename: "leak.png", ContentType: "image/png", Content: pngBytes}},
		{"exactly the largest size the page takes (2 KB)", executor.File{Name: "big.pdf", Content: append(append([]byte{}, pdfBytes...), make([]byte, 2000-len(pdfBytes))...)},
			receivedFile{Field: "photo", Filename: "big.pdf", ContentType: "application/pdf", Content: append(append([]byte{}, pdfBytes...), make([]byte, 2000-len(pdfBytes))...)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := site.count()
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: withPhoto(tc.photo)})
			if err != nil {
				t.Fatal(err)
			}
			if n := site.count() - before; n != 1 {
				t.Fatalf("the site received %d submissions, want 1", n)
			}
			vals, files := site.last(t)
			if diff := cmp.Diff(fields, vals); diff != "" {
				t.Errorf("fields received (-want +got):\n%s", diff)
			}
			if len(files) != 1 {
				t.Fatalf("the site received %d files, want 1", len(files))
			}
			got := files[0]
			if tc.want.Disposition == "" {
				got.Disposition = ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("file received (-want +got):\n%s", diff)
			}
			wantFile := []executor.SentFile{{Field: "photo", Name: tc.want.Filename, MediaType: tc.want.ContentType, Size: int64(len(tc.want.Content)), SHA256: sum(tc.want.Content)}}
			if strings.Contains(tc.want.Filename, "%22") {
				wantFile[0].Name = strings.ReplaceAll(tc.want.Filename, "%22", `"`) // the name as given; %22 is its wire form
			}
			if diff := cmp.Diff(wantFile, res.Files); diff != "" {
				t.Errorf("Result.Files (-want +got):\n%s", diff)
			}
			assertSent(t, fields, res)
			// The audit record: the file's name, type, size and digest, not its bytes.
			atts, err := st.Attempts(t.Context(), callback)
			if err != nil || len(atts) == 0 {
				t.Fatalf("attempts %v, %v", atts, err)
			}
			var req struct {
				Fields []shared.SubmittedField `json:"fields"`
				Files  []executor.SentFile     `json:"files"`
			}
			last := atts[len(atts)-1]
			if err := json.Unmarshal(last.Request, &req); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantFile, req.Files); diff != "" {
				t.Errorf("audit request files (-want +got):\n%s", diff)
			}
			if b := b64(tc.want.Content); bytes.Contains(last.Request, []byte(b[:40])) || bytes.Contains(last.Request, tc.want.Content[:8]) {
				t.Errorf("the audit record holds the file's bytes: %s", last.Request)
			}
		})
	}
	t.Run("a repeated idempotency key: the first result, its file named", func(t *testing.T) {
		in := withPhoto(fileObject("leak.png", "", pngBytes))
		first, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: in, IdempotencyKey: "photo-1"})
		if err != nil {
			t.Fatal(err)
		}
		before := site.count()
		again, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: in, IdempotencyKey: "photo-1"})
		if err != nil {
			t.Fatal(err)
		}
		if !again.Duplicate || site.count() != before {
			t.Fatalf("duplicate %v, %d sent", again.Duplicate, site.count()-before)
		}
		if diff := cmp.Diff(first.Files, again.Files); diff != "" {
			t.Errorf("the duplicate's files (-first +again):\n%s", diff)
		}
	})
	t.Run("a list of Go File values", func(t *testing.T) {
		res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: withPhoto([]*executor.File{{Name: "a.pdf", Content: pdfBytes}})})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || res.Files[0].Name != "a.pdf" || res.Files[0].SHA256 != sum(pdfBytes) {
			t.Errorf("Result.Files %+v", res.Files)
		}
	})
	t.Run("no file: nothing sent for it", func(t *testing.T) {
		if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()}); err != nil {
			t.Fatal(err)
		}
		vals, files := site.last(t)
		if diff := cmp.Diff(fields, vals); diff != "" {
			t.Errorf("fields received (-want +got):\n%s", diff)
		}
		if len(files) != 0 {
			t.Errorf("files received %+v, want none", files)
		}
	})
}

// TestUploadAuditBounded: a file near the executor's bound leaves an audit
// record of a few hundred bytes.
func TestUploadAuditBounded(t *testing.T) {
	site := newUploadSite(t, "")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	graph := fileGraph(t, site.URL, shared.TransportFormPost, "multipart/form-data", false)
	// Without the page's 2 KB rule, so that only the executor's bound applies.
	g, _ := shared.Read(graph)
	for i := range g.Actions {
		if g.Actions[i].ID == callback {
			var keep []shared.Validation
			for _, v := range g.Actions[i].Validations {
				if v.Target() != "photo" {
					keep = append(keep, v)
				}
			}
			g.Actions[i].Validations = keep
		}
	}
	graph, _ = shared.Write(g)
	action := confirmed(t, st, graph, callback)
	big := append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte("x"), executor.DefaultMaxUploadBytes-len(pdfBytes))...)
	res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: withPhoto(fileObject("plans.pdf", "", big))})
	if err != nil {
		t.Fatal(err)
	}
	_, files := site.last(t)
	if len(files) != 1 || !bytes.Equal(files[0].Content, big) {
		t.Fatalf("the site did not receive the %d bytes", len(big))
	}
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil || len(atts) != 1 {
		t.Fatalf("attempts %v, %v", atts, err)
	}
	if n := len(atts[0].Request); n > 2048 {
		t.Errorf("the audit request is %d bytes for a %d-byte file; want it under 2 KiB", n, len(big))
	}
	if res.Files[0].Size != int64(len(big)) || res.Files[0].SHA256 != sum(big) {
		t.Errorf("Result.Files %+v", res.Files)
	}
}

// TestUploadRefused: every file the page or the executor does not take is
// refused with its field and rule, and nothing reaches the site.
func TestUploadRefused(t *testing.T) {
	site := newUploadSite(t, "")
	multipart := fileGraph(t, site.URL, shared.TransportFormPost, "multipart/form-data", false)
	type call struct {
		graph []byte
		opts  executor.Options
		photo any
		omit  bool
	}
	for _, tc := range []struct {
		name        string
		call        call
		field, rule string
		detail      string // a substring of the reason
	}{
		{"bad base64", call{photo: map[string]any{"name": "a.png", "content": "iVBOR!!!"}}, "photo", "encoding", "not base64"},
		{"the URL alphabet", call{photo: map[string]any{"name": "a.png", "content": strings.NewReplacer("+", "-", "/", "_").Replace(b64(append(pngBytes, 0xfb, 0xff)))}}, "photo", "encoding", "not base64"},
		{"a type the page does not take", call{photo: fileObject("setup.exe", "", exeBytes)}, "photo", "accept", "image/*, .pdf"},
		{"an extension nobody knows", call{photo: fileObject("scan.qqx", "", exeBytes)}, "photo", "accept", "names no type"},
		{"no name, content of no known type", call{photo: fileObject("", "", exeBytes)}, "photo", "accept", "upload.bin"},
		{"a PDF named as a PNG", call{photo: fileObject("leak.png", "", pdfBytes)}, "photo", "media-type", "application/pdf"},
		{"a media type its name contradicts", call{photo: fileObject("leak.pdf", "image/png", pdfBytes)}, "photo", "media-type", "image/png"},
		{"a media type its content contradicts", call{photo: fileObject("", "image/png", jpegBytes)}, "photo", "media-type", "image/jpeg"},
		{"a media type with parameters", call{photo: fileObject("a.txt", "text/plain; charset=utf-8", []byte("hi"))}, "photo", "media-type", "without parameters"},
		{"over the page's max-file-size", call{photo: fileObject("big.png", "", append(append([]byte{}, pngBytes...), make([]byte, 2000)...))}, "photo", "max-file-size", "2 KB"},
		{"over the executor's bound", call{opts: executor.Options{MaxUploadBytes: 100}, photo: fileObject("leak.png", "", pngBytes)}, "photo", "size", "MaxUploadBytes"},
		{"over the executor's bound, before decoding", call{opts: executor.Options{MaxUploadBytes: 100}, photo: fileObject("leak.png", "", bytes.Repeat([]byte("a"), 400))}, "photo", "size", "base64 characters"},
		{"two files for a single input", call{photo: []any{fileObject("a.png", "", pngBytes), fileObject("b.png", "", pngBytes)}}, "photo", "multiple", "takes one file"},
		{"a bare base64 string", call{photo: b64(pngBytes)}, "photo", "type", "{\"name\", \"mediaType\", \"content\": base64}"},
		{"an unknown key", call{photo: map[string]any{"content": b64(pngBytes), "path": "/etc/passwd"}}, "photo", "type", `"path"`},
		{"no content", call{photo: map[string]any{"name": "a.png"}}, "photo", "type", "content must be given"},
		{"a number for the name", call{photo: map[string]any{"name": 3.0, "content": ""}}, "photo", "type", "must be a string"},
		{"required and not given", call{graph: fileGraph(t, site.URL, shared.TransportFormPost, "multipart/form-data", true), omit: true}, "photo", "required", "required"},
		{"required and refused", call{graph: fileGraph(t, site.URL, shared.TransportFormPost, "multipart/form-data", true), photo: "not a file"}, "photo", "type", "is a file upload"},
		{"a urlencoded form", call{graph: fileGraph(t, site.URL, shared.TransportFormPost, "application/x-www-form-urlencoded", false), photo: fileObject("leak.png", "", pngBytes)}, "photo", "transport", "only multipart/form-data"},
		{"a form without enctype", call{graph: fileGraph(t, site.URL, shared.TransportFormPost, "", false), photo: fileObject("leak.png", "", pngBytes)}, "photo", "transport", "application/x-www-form-urlencoded"},
		{"a GET form", call{graph: fileGraph(t, site.URL, shared.TransportFormGet, "", false), photo: fileObject("leak.png", "", pngBytes)}, "photo", "transport", "GET form"},
		{"a JSON endpoint", call{graph: fileGraph(t, site.URL, shared.TransportJSONEndpoint, "application/json", false), photo: fileObject("leak.png", "", pngBytes)}, "photo", "transport", "JSON endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t)
			ex := newExecutor(t, st, tc.call.opts)
			graph := tc.call.graph
			if graph == nil {
				graph = multipart
			}
			action := confirmed(t, st, graph, callback)
			in := goodCallback()
			if !tc.call.omit {
				in["photo"] = tc.call.photo
			}
			before := site.count()
			_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: in})
			var re *executor.RefusedError
			if !errors.As(err, &re) || !errors.Is(err, executor.ErrInvalidInput) {
				t.Fatalf("err = %v, want a refusal for invalid input", err)
			}
			found, onField := false, 0
			for _, r := range re.Reasons {
				found = found || (r.Field == tc.field && r.Rule == tc.rule && strings.Contains(r.Detail, tc.detail))
				if r.Field == tc.field {
					onField++
				}
			}
			if !found || onField != 1 {
				t.Errorf("reasons %v, want exactly one on %s, its rule %s, saying %q", re.Reasons, tc.field, tc.rule, tc.detail)
			}
			if n := site.count() - before; n != 0 {
				t.Errorf("%d requests reached the site", n)
			}
			if atts, err := st.Attempts(t.Context(), callback); err != nil || len(atts) != 0 {
				t.Errorf("attempts %v, %v: want none begun", atts, err)
			}
		})
	}
}

// TestUploadInBrowser: through Chromium (the javascript-only door) the file
// is set on the page's own file input from a private temporary file; the
// site receives its bytes whether the page posts the form itself, its
// script sends a FormData, or the form is inside an open shadow root, and
// the temporary folder is gone afterwards.
func TestUploadInBrowser(t *testing.T) {
	b := browser(t)
	const fields = `<input name="full_name"><input name="phone" type="tel">
<select name="call_window"><option value="">-</option><option>morning</option><option>afternoon</option></select>
<input name="suburb"><textarea name="about"></textarea><input name="website" value="">
<input type="file" name="photo" accept="image/*,.pdf">`
	for _, tc := range []struct{ name, host, page string }{
		{"the form posts itself", "", `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request" enctype="multipart/form-data">` + fields +
			`<button type="submit">Call me</button></form></body></html>`},
		{"its script sends a FormData", "", `<!doctype html><html><body><div id="app"></div><form id="callback-form">` + fields + `<button type="submit">Call me</button></form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new FormData(f)})
    .then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
</script></body></html>`},
		// The graph's locators are shadow-including, as the mapper writes
		// them; the file input is found through the form's mark.
		{"the form is inside an open shadow root", "callback-box", `<!doctype html><html><body><callback-box><template shadowrootmode="open">` +
			`<form id="callback-form" method="post" action="/callback-request" enctype="multipart/form-data">` + fields +
			`<button type="submit">Call me</button></form></template></callback-box></body></html>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newUploadSite(t, tc.page)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			var edits []func(*shared.Action)
			if tc.host != "" {
				edits = append(edits, shadowLocators(tc.host))
			}
			action := confirmed(t, st, fileGraph(t, site.URL, shared.TransportJavascriptOnly, "multipart/form-data", false, edits...), callback)
			staged := func() []string {
				m, _ := filepath.Glob(filepath.Join(os.TempDir(), "frontlatch-upload-*"))
				return m
			}
			before := staged()
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: withPhoto(fileObject(`C:\pics\leak.png`, "", pngBytes))})
			if err != nil {
				t.Fatal(err)
			}
			if site.count() != 1 {
				t.Fatalf("the site received %d submissions, want 1", site.count())
			}
			vals, files := site.last(t)
			want := goodCallbackSent()
			if diff := cmp.Diff(want, vals); diff != "" {
				t.Errorf("fields received (-want +got):\n%s", diff)
			}
			if len(files) != 1 {
				t.Fatalf("files received %+v, want 1", files)
			}
			files[0].Disposition = ""
			if diff := cmp.Diff(receivedFile{Field: "photo", Filename: "leak.png", ContentType: "image/png", Content: pngBytes}, files[0]); diff != "" {
				t.Errorf("file received (-want +got):\n%s", diff)
			}
			wantFiles := []executor.SentFile{{Field: "photo", Name: "leak.png", MediaType: "image/png", Size: int64(len(pngBytes)), SHA256: sum(pngBytes)}}
			if diff := cmp.Diff(wantFiles, res.Files); diff != "" {
				t.Errorf("Result.Files (-want +got):\n%s", diff)
			}
			for _, f := range res.Sent {
				if f.Name == "photo" {
					t.Errorf("Result.Sent lists the file as a field: %+v", f)
				}
			}
			if res.Status != 200 {
				t.Errorf("status %d", res.Status)
			}
			if diff := cmp.Diff(before, staged()); diff != "" {
				t.Errorf("staged files left behind (-before +after):\n%s", diff)
			}
		})
	}
	t.Run("a page without the file input fires nothing", func(t *testing.T) {
		page := `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request" enctype="multipart/form-data">` +
			strings.Replace(fields, `<input type="file" name="photo" accept="image/*,.pdf">`, "", 1) + `<button type="submit">Call me</button></form></body></html>`
		site := newUploadSite(t, page)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{Browser: b})
		action := confirmed(t, st, fileGraph(t, site.URL, shared.TransportJavascriptOnly, "multipart/form-data", false), callback)
		_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: withPhoto(fileObject("leak.png", "", pngBytes))})
		if err == nil || !strings.Contains(err.Error(), `no file input "photo"`) {
			t.Errorf("err = %v, want the missing file input named", err)
		}
		if site.count() != 0 {
			t.Errorf("the site received %d submissions", site.count())
		}
	})
}

// TestUploadFixture fires lawfirm01's enquiry, whose form takes supporting
// documents (.pdf, .doc, .docx, .jpg, .jpeg, .png): the fixture server
// accepts the PDF and records its name, size and type beside the declared
// fields.
func TestUploadFixture(t *testing.T) {
	const action = "lawfirm01:enquiry:enquiry"
	srv, graph := site(t, "lawfirm01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	in := map[string]any{"full_name": "Jo Carter", "email": "jo@example.org", "practice_area": "Employment",
		"message": "I would like advice about a contract.", "privacy_consent": true,
		"documents": fileObject("offer letter.pdf", "", pdfBytes)}
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, action), Input: in})
	if err != nil {
		t.Fatal(err)
	}
	subs := submissions(t, srv, "lawfirm01")
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1", len(subs))
	}
	if subs[0].Outcome != fixtures.OutcomeAccepted {
		t.Errorf("outcome %s (%v), want accepted", subs[0].Outcome, subs[0].Invalid)
	}
	if diff := cmp.Diff([]fixtures.UploadedFile{{Field: "documents", Filename: "offer letter.pdf", Size: int64(len(pdfBytes)), ContentType: "application/pdf"}}, subs[0].Files); diff != "" {
		t.Errorf("files received (-want +got):\n%s", diff)
	}
	for _, k := range []string{"full_name", "email", "practice_area", "message"} {
		if got := subs[0].Fields.Get(k); got != in[k] {
			t.Errorf("%s = %q, want %q", k, got, in[k])
		}
	}
	if _, ok := subs[0].Fields["documents"]; ok {
		t.Errorf("documents also sent as a text field: %v", subs[0].Fields["documents"])
	}
	if len(res.Files) != 1 || res.Files[0].SHA256 != sum(pdfBytes) {
		t.Errorf("Result.Files %+v", res.Files)
	}
	// The page accepts .docx; a .exe is refused before the site sees it.
	in["documents"] = fileObject("setup.exe", "", exeBytes)
	_, err = ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, action), Input: in})
	if !errors.Is(err, executor.ErrInvalidInput) || !strings.Contains(err.Error(), "input.invalid[documents/accept]") {
		t.Errorf("err = %v, want documents/accept refused", err)
	}
	if n := len(submissions(t, srv, "lawfirm01")); n != 1 {
		t.Errorf("%d submissions after the refusal, want still 1", n)
	}
}
