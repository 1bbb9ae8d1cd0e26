package fleet

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestExportLongURL: a site whose URL is longer than a file name may be
// is exported like any other, and does not stop the export of the sites
// after it (Export failed at it, "file name too long", and wrote none of
// the sites that sort after it).
func TestExportLongURL(t *testing.T) {
	f := openTemp(t)
	long := "https://a.example/" + strings.Repeat("page/", 80) // 418 bytes
	longer := long + "x"                                       // the same first 200 bytes
	sites := []string{long, longer, "https://b.example/"}
	ents := exportMaps(t, f, sites)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	want := []string{exportName(long) + ".json", exportName(longer) + ".json", "b.example.json"}
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exported files (-want +got):\n%s", diff)
	}
	for _, name := range got {
		if len(name) > 255 {
			t.Errorf("%d-byte file name %q", len(name), name)
		}
	}
	if exportName(long) == exportName(longer) {
		t.Errorf("two sites, one name %q", exportName(long))
	}
}

// TestExportCaseInsensitiveNames: two sites whose file names differ only
// by case (a path is case-sensitive, macOS's and Windows's file systems
// are not) get two files there too, not one written over the other.
func TestExportCaseInsensitiveNames(t *testing.T) {
	f := openTemp(t)
	sites := []string{"https://a.example/Menu", "https://a.example/menu", "https://a.example/MENU"}
	ents := exportMaps(t, f, sites)
	folded := map[string]string{}
	for _, e := range ents {
		k := strings.ToLower(e.Name())
		if other, dup := folded[k]; dup {
			t.Errorf("files %q and %q are one file where case does not matter", other, e.Name())
		}
		folded[k] = e.Name()
	}
	if len(ents) != len(sites) {
		t.Errorf("%d files, want %d", len(ents), len(sites))
	}
}

// exportMaps records a map of clinic01's graph for each site, exports
// them to a folder of their own and returns the folder's files.
func exportMaps(t *testing.T, f *Fleet, sites []string) []os.DirEntry {
	t.Helper()
	for i, site := range sites {
		rec := mapRecord{site: site, jobID: int64(i + 1), attempt: 1, at: time.Now().UTC()}
		if err := rec.setGraph(readGraph(t, clinicGraph)); err != nil {
			t.Fatal(err)
		}
		if err := f.record(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	n, err := f.Export(t.Context(), dir)
	if err != nil || n != len(sites) {
		t.Fatalf("Export = %d, %v; want %d, nil", n, err, len(sites))
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ents
}

// TestExportFailureLeavesNoTemporary: a graph that cannot be put in place
// (its name is taken by a folder) fails the export and leaves no
// temporary file behind in the folder.
func TestExportFailureLeavesNoTemporary(t *testing.T) {
	f := openTemp(t)
	rec := mapRecord{site: "https://b.example/", jobID: 1, attempt: 1, at: time.Now().UTC()}
	if err := rec.setGraph(readGraph(t, clinicGraph)); err != nil {
		t.Fatal(err)
	}
	if err := f.record(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "b.example.json", "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if n, err := f.Export(t.Context(), dir); err == nil || n != 0 {
		t.Fatalf("Export = %d, %v; want 0 and an error", n, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff([]string{"b.example.json"}, got); diff != "" {
		t.Errorf("files left in the folder (-want +got):\n%s", diff)
	}
}
