package fleet

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

func openTemp(t *testing.T) *Fleet {
	t.Helper()
	f, err := Open(t.Context(), filepath.Join(t.TempDir(), "fleet.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// drivers are the databases a test runs on: SQLite always, PostgreSQL
// inside scripts/with-postgres.sh (skipped otherwise).
var drivers = []string{"sqlite", "postgres"}

// openFor opens a fresh fleet on driver, closed in Cleanup.
func openFor(t *testing.T, driver string) *Fleet {
	t.Helper()
	if driver == "sqlite" {
		return openTemp(t)
	}
	f, err := Open(t.Context(), audittest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestSiteURL(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"https://Example.com", "https://example.com/", true},
		{"  http://example.com/contact#form ", "http://example.com/contact", true},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/", true},
		{"ftp://example.com/", "", false},
		{"example.com", "", false},
		{"", "", false},
		{"https://user:pw@example.com/", "", false},
		{"http://", "", false},
		{"http://%zz/", "", false},
		// The spellings of one site are one site.
		{"https://a.example:443/", "https://a.example/", true},
		{"http://a.example:80/x", "http://a.example/x", true},
		{"https://a.example:80/", "https://a.example:80/", true},
		{"http://a.example:443/", "http://a.example:443/", true},
		{"https://a.example./", "https://a.example/", true},
		{"HTTPS://A.Example.:443", "https://a.example/", true},
		{"https://Bücher.example/", "https://xn--bcher-kva.example/", true},
		{"https://B%C3%BCcher.example/", "https://xn--bcher-kva.example/", true},
		{"https://my_site.example/", "https://my_site.example/", true},
		{"http://[::1]:80/", "http://[::1]/", true},
		{"http://[0:0::1]:8080/", "http://[::1]:8080/", true},
		{"https://a..example/", "", false},
		{"https://./", "", false},
		{"https://a.example../", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := SiteURL(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("SiteURL(%q) = %q, %v; want %q, ok %t", tt.in, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestReadList(t *testing.T) {
	in := "# sites\nhttps://a.example/\n\n  https://b.example/  \nnot a url\n"
	got, err := ReadList(strings.NewReader(in), "sites.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Input{
		{URL: "https://a.example/", Source: "line 2 of sites.txt"},
		{URL: "https://b.example/", Source: "line 4 of sites.txt"},
		{URL: "not a url", Source: "line 5 of sites.txt"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadList (-want +got):\n%s", diff)
	}
	// A byte order mark is not part of the first URL (a list saved by
	// Notepad or exported by a spreadsheet); elsewhere it is kept.
	got, err = ReadList(strings.NewReader("\ufeffhttps://a.example/\n\ufeffhttps://b.example/\n"), "bom.txt")
	if err != nil {
		t.Fatal(err)
	}
	want = []Input{
		{URL: "https://a.example/", Source: "line 1 of bom.txt"},
		{URL: "\ufeffhttps://b.example/", Source: "line 2 of bom.txt"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadList with a byte order mark (-want +got):\n%s", diff)
	}
	if _, err := SiteURL(got[0].URL); err != nil {
		t.Errorf("the first URL after a byte order mark: %v", err)
	}
	// A list saved as UTF-16 (Notepad's and Excel's "Unicode" text, with
	// its byte order mark) is read as the text it is, little- or
	// big-endian, with its lines' numbers.
	for _, enc := range []struct {
		name string
		bom  []byte
		unit func(r rune) []byte
	}{
		{"utf16le.txt", []byte{0xff, 0xfe}, func(r rune) []byte { return []byte{byte(r), byte(r >> 8)} }},
		{"utf16be.txt", []byte{0xfe, 0xff}, func(r rune) []byte { return []byte{byte(r >> 8), byte(r)} }},
	} {
		data := enc.bom
		for _, r := range "# sites\r\nhttps://a.example/\r\n\r\nhttps://b.example/\r\n" {
			data = append(data, enc.unit(r)...)
		}
		got, err := ReadList(bytes.NewReader(data), enc.name)
		if err != nil {
			t.Fatal(err)
		}
		want := []Input{
			{URL: "https://a.example/", Source: "line 2 of " + enc.name},
			{URL: "https://b.example/", Source: "line 4 of " + enc.name},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ReadList of %s (-want +got):\n%s", enc.name, diff)
		}
	}
	// A line longer than any URL (a binary file, a minified page named by
	// mistake) is named by its number.
	long := "https://a.example/\n" + strings.Repeat("x", 100_000) + "\n"
	if _, err := ReadList(strings.NewReader(long), "sites.txt"); !errors.Is(err, bufio.ErrTooLong) || !strings.Contains(err.Error(), "line 2 is longer than 65536 bytes") {
		t.Errorf("ReadList of an overlong line: %v, want bufio.ErrTooLong naming line 2", err)
	}
}

// TestAdd: invalid input queues nothing and names each bad line; the same
// site is queued once; what is queued survives a bad add.
func TestAdd(t *testing.T) {
	ctx := t.Context()
	f := openTemp(t)
	res, err := f.Add(ctx, []Input{
		{URL: "https://a.example/", Source: "argument 1"},
		{URL: "https://A.example", Source: "argument 2"}, // the same site
		{URL: "https://b.example/", Source: "argument 3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://a.example/", "https://b.example/"}, res.Queued); diff != "" {
		t.Errorf("queued (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"https://a.example/"}, res.Duplicates); diff != "" {
		t.Errorf("duplicates (-want +got):\n%s", diff)
	}

	_, err = f.Add(ctx, []Input{
		{URL: "https://c.example/", Source: "line 1 of s.txt"},
		{URL: "ftp://d.example/", Source: "line 2 of s.txt"},
		{URL: "nope", Source: "line 3 of s.txt"},
	})
	var inv *InvalidInputError
	if !errors.As(err, &inv) || !errors.Is(err, ErrInvalidURL) || len(inv.Errs) != 2 {
		t.Fatalf("err = %v, want an *InvalidInputError naming 2 lines", err)
	}
	if !strings.Contains(err.Error(), "line 2 of s.txt") || !strings.Contains(err.Error(), "line 3 of s.txt") {
		t.Errorf("the error does not name the lines: %v", err)
	}

	// Queued again within the window: duplicates, nothing new.
	res, err = f.Add(ctx, []Input{{URL: "https://a.example/"}, {URL: "https://b.example/"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Queued) != 0 || len(res.Duplicates) != 2 {
		t.Errorf("re-add = %+v, want two duplicates", res)
	}
	st, err := f.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Queued != 2 || st.Total() != 2 {
		t.Errorf("status = %+v, want exactly the 2 first sites queued (c.example must not be)", st)
	}
}

func TestOpenBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := Open(ctx, "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=2"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unreachable PostgreSQL: err = %v, want ErrUnavailable", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("an unreachable database took %s to report", time.Since(start))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "junk.db"), []byte("this is not a database, but it is long enough to have a header"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "junk.db")); !errors.Is(err, ErrNotDatabase) || errors.Is(err, ErrUnavailable) {
		t.Errorf("a file that is not a SQLite database: err = %v, want ErrNotDatabase", err)
	}
	if _, err := Open(ctx, dir); !errors.Is(err, ErrNotDatabase) || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: err = %v, want ErrNotDatabase saying it is a folder", err)
	}
	if _, err := Open(ctx, filepath.Join(dir, "missing", "dir", "f.db")); err == nil {
		t.Error("a path in a missing directory opened")
	}
}

// TestHostKey: the per-host limit's key is the site's canonical host and
// port, so the spellings of one host share its slots.
func TestHostKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://a.example/", "a.example"},
		{"https://a.example:443/x", "a.example"},
		{"https://A.Example./", "a.example"},
		{"http://a.example:80/", "a.example"},
		{"http://a.example:8080/", "a.example:8080"},
		{"http://127.0.0.1:8080/", "127.0.0.1:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := hostKey(tt.in); got != tt.want {
				t.Errorf("hostKey(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExportName(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/":         "example.com",
		"http://127.0.0.1:8080/":       "127.0.0.1_8080",
		"https://example.com/a/b?x=1/": "example.com_a_b_x_1",
	} {
		if got := exportName(in); got != want {
			t.Errorf("exportName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckDatabaseURL: a SQLite path or a postgres:// URL is a fleet
// database; anything else with a scheme is refused, and Open creates
// nothing for it (postgres:/typo/x.db made a SQLite file under ./postgres:).
func TestCheckDatabaseURL(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"fleet.db", true},
		{"/var/lib/frontlatch/fleet.db", true},
		{"sqlite:fleet.db", true},
		{"postgres://fleet@db.example/fleet", true},
		{"postgresql://db.example/fleet?sslmode=require", true},
		{`C:\frontlatch\fleet.db`, true},
		{"./postgres:/typo/x.db", true},
		{"postgres:/typo/x.db", false},
		{"postgres:fleet", false},
		{"POSTGRES://db.example/fleet", false},
		{"mysql://db.example/fleet", false},
		{"http://db.example/fleet", false},
		{"file:fleet.db", false},
		{"SQLite:fleet.db", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := CheckDatabaseURL(tt.in)
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrDatabaseURL)) {
				t.Errorf("CheckDatabaseURL(%q) = %v; want ok %t (else ErrDatabaseURL)", tt.in, err, tt.ok)
			}
			if tt.ok {
				return
			}
			t.Chdir(t.TempDir())
			if _, err := Open(t.Context(), tt.in); !errors.Is(err, ErrDatabaseURL) {
				t.Errorf("Open(%q) = %v, want ErrDatabaseURL", tt.in, err)
			}
			if names, _ := os.ReadDir("."); len(names) != 0 {
				t.Errorf("Open(%q) created %v", tt.in, names)
			}
		})
	}
}
