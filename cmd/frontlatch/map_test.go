package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// mapTestSite serves a one-page site with a contact form and the error
// cases of `frontlatch map`.
func mapTestSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><title>Acme</title></head><body><h1>Contact us</h1>
<form id="contact" action="/send" method="post"><label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="email" type="email" required><label for="m">Message</label><textarea id="m" name="message" required></textarea>
<button type="submit">Send</button></form></body></html>`))
	})
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/file.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.7"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Each failure ends with exit 1, a message naming the cause, and no file.
func TestMapErrors(t *testing.T) {
	srv := mapTestSite(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	cases := []struct{ name, url, says string }{
		{"unreachable", closed, "does not answer"},
		{"error status", srv.URL + "/500", "HTTP 500"},
		{"redirect loop", srv.URL + "/loop", "redirects in a loop"},
		{"not html", srv.URL + "/file.pdf", "application/pdf"},
		{"not a web URL", "ftp://example.com/", `"ftp://example.com/" is not an absolute http(s) URL`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "graph.json")
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"map", "--offline", tc.url, "-o", out}, &stdout, &stderr)
			if code != exitFail {
				t.Errorf("exit %d, want %d", code, exitFail)
			}
			if !strings.Contains(stderr.String(), tc.says) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.says)
			}
			// The library says what went wrong once; the command says what to do.
			first, advice, _ := strings.Cut(stderr.String(), "\n")
			if strings.Count(first, "mapper:") != 1 {
				t.Errorf("error %q does not carry the mapper's prefix exactly once", first)
			}
			if !strings.HasPrefix(advice, "frontlatch map: ") || len(advice) < len("frontlatch map: x\n") {
				t.Errorf("no advice after the error: %q", stderr.String())
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed run left %s behind", out)
			}
		})
	}
}

// `map --json -o FILE` writes a graph that `check` accepts; without --json
// the summary goes to standard output.
func TestMapWritesValidGraph(t *testing.T) {
	srv := mapTestSite(t)
	out := filepath.Join(t.TempDir(), "graph.json")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"map", "--offline", srv.URL + "/", "-o", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	for _, want := range []string{"contact", "html-form", "mappability", "graph written to"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary does not mention %q:\n%s", want, stdout.String())
		}
	}
	g := graphAt(t, out)
	if len(g.Actions) != 1 || g.Actions[0].Kind != shared.KindContact {
		t.Errorf("graph has %d actions, want one contact action", len(g.Actions))
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"check", out}, &stdout, &stderr); code != exitOK {
		t.Errorf("check exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	// --json without -o: the canonical graph on standard output.
	stdout.Reset()
	if code := run(context.Background(), []string{"map", "--json", "--offline", srv.URL + "/"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("map --json exit %d, stderr:\n%s", code, stderr.String())
	}
	if g, issues := shared.Read(stdout.Bytes()); g == nil {
		t.Errorf("map --json output does not read: %v", issues)
	}
}

// Flags that make no sense are refused before anything is fetched, and so
// is an -o that names a folder.
func TestMapFlags(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		says string
	}{
		{"timeout 0", []string{"--timeout", "0"}, "--timeout must be a positive duration"},
		{"negative timeout", []string{"--timeout", "-1s"}, "--timeout must be a positive duration"},
		{"pages 0", []string{"--pages", "0"}, "--pages must be at least 1, got 0"},
		{"negative pages", []string{"--pages", "-1"}, "--pages must be at least 1, got -1"},
		{"-o names a folder", []string{"-o", dir}, "-o " + dir + " is a folder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			// Nothing answers on port 1: a run that got as far as fetching
			// would fail with exit 1, not 2.
			code := run(context.Background(), append([]string{"map", "http://127.0.0.1:1/"}, tc.args...), &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit %d, want %d (usage)", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.says) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.says)
			}
		})
	}
}

// writeFileAtomic refuses a path that is a folder with an error naming it,
// not the name of its temporary file.
func TestWriteFileAtomicFolder(t *testing.T) {
	dir := t.TempDir()
	err := writeFileAtomic(dir, []byte("{}"))
	if err == nil || err.Error() != dir+" is a folder, not a file" {
		t.Fatalf("writeFileAtomic(folder) = %v, want an error naming the folder", err)
	}
}

// Several URLs are mapped concurrently: each graph lands in --out-dir,
// each summary is printed, and one site that fails makes the exit 1
// without losing the others.
func TestMapSeveralURLs(t *testing.T) {
	a, b := mapTestSite(t), mapTestSite(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"map", "--offline", "--concurrency", "2", a.URL + "/", b.URL + "/", closed, "--out-dir", dir}, &stdout, &stderr)
	if code != exitFail {
		t.Errorf("exit %d, want %d (one site is unreachable)", code, exitFail)
	}
	if !strings.Contains(stderr.String(), "does not answer") {
		t.Errorf("stderr %q does not name the unreachable site", stderr.String())
	}
	for _, srv := range []string{a.URL, b.URL} {
		file := filepath.Join(dir, fileNameOf(srv+"/")+".json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("graph of %s: %v", srv, err)
		}
		if g, issues := shared.Read(data); g == nil || len(g.Actions) != 1 {
			t.Errorf("graph of %s does not read as one action: %v", srv, issues)
		}
	}
	if n := strings.Count(stdout.String(), "mappability"); n != 2 {
		t.Errorf("%d summaries printed, want 2:\n%s", n, stdout.String())
	}
	if code := run(context.Background(), []string{"map", a.URL + "/", b.URL + "/", "-o", filepath.Join(dir, "x.json")}, &stdout, &stderr); code != exitUsage {
		t.Errorf("-o with several URLs: exit %d, want %d", code, exitUsage)
	}
}

// writeFileAtomic replaces a file's bytes and nothing else about it: its
// permissions stay, and a symbolic link to it stays a link (fmt -w on a
// 0600 graph, or on a link into another folder, used to leave a 0644
// regular file in its place).
func TestWriteFileAtomicKeepsTheFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     os.FileMode // 0: no file before
		viaLink  bool
		wantMode os.FileMode
	}{
		{"new file", 0, false, 0o644},
		{"private file", 0o600, false, 0o600},
		{"read-only file", 0o444, false, 0o444},
		{"through a link", 0o640, true, 0o640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "graph.json")
			if tc.mode != 0 {
				if err := os.WriteFile(file, []byte("old"), tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			path := file
			if tc.viaLink {
				path = filepath.Join(t.TempDir(), "link.json")
				if err := os.Symlink(file, path); err != nil {
					t.Fatal(err)
				}
			}
			if err := writeFileAtomic(path, []byte("new")); err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(file); err != nil || string(got) != "new" {
				t.Errorf("file holds %q (%v), want %q", got, err, "new")
			}
			st, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != tc.wantMode {
				t.Errorf("mode %v, want %v", st.Mode().Perm(), tc.wantMode)
			}
			if tc.viaLink {
				if lst, err := os.Lstat(path); err != nil || lst.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link (%v)", path, err)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestMapOutDirNamesApart: two sites whose --out-dir file names would be
// one (127.0.0.1-PORT-x-y for /x-y/ and /x/y/) get a file each; the
// second used to be written over the first, the exit 0.
func TestMapOutDirNamesApart(t *testing.T) {
	mux := http.NewServeMux()
	for p, field := range map[string]string{"/x-y/": "email", "/x/y/": "phone"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><title>Acme</title></head><body><h1>Call back</h1>
<form action="/send" method="post"><label for="f">Your ` + field + `</label><input id="f" name="` + field + `" autocomplete="` + field + `" required>
<button type="submit">Send</button></form></body></html>`))
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"map", "--offline", "--pages", "1", srv.URL + "/x-y/", srv.URL + "/x/y/", "--out-dir", dir}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	graphs := map[string]bool{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, issues := shared.Read(data); len(issues) > 0 {
			t.Fatalf("%s: %v", e.Name(), issues)
		}
		graphs[string(data)] = true
	}
	if len(ents) != 2 || len(graphs) != 2 {
		t.Errorf("--out-dir holds %d files of %d graphs (%v), want one of each site's", len(ents), len(graphs), ents)
	}
}
