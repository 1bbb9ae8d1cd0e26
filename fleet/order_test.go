package fleet

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSiteOrderIsTheDatabases: Failures, Changes and Export list and name
// sites in the same order on either database, byte by byte (Go's and
// SQLite's), whatever the PostgreSQL database's collation: under a
// language's collation (here ICU's root locale) /a sorts before /B and _
// before /, so the two databases listed sites in different orders and
// gave the "-2" of two sites of one file name to different sites.
func TestSiteOrderIsTheDatabases(t *testing.T) {
	sites := []string{"https://a.example/B", "https://a.example/a", "https://a.example/x/y", "https://a.example/x_y"}
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			if driver == "postgres" {
				// A database created with a language's locale, as most are.
				var icu int
				if err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM pg_collation WHERE collname = 'und-x-icu'`).Scan(&icu); err != nil {
					t.Fatal(err)
				}
				if icu == 0 {
					t.Skip("this PostgreSQL has no ICU collation")
				}
				if _, err := f.db.ExecContext(t.Context(), `ALTER TABLE fleet_maps ALTER COLUMN site TYPE TEXT COLLATE "und-x-icu"`); err != nil {
					t.Fatal(err)
				}
			}
			then := time.Now().UTC().Add(-time.Hour)
			for i, site := range sites {
				fail := mapRecord{site: site, jobID: int64(100 + i), attempt: 1, at: then, errCode: "unreachable", err: "down"}
				if err := f.record(t.Context(), fail); err != nil {
					t.Fatal(err)
				}
			}
			fails, err := f.Failures(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fl := range fails {
				got = append(got, fl.Site)
			}
			if diff := cmp.Diff(sites, got); diff != "" {
				t.Errorf("Failures' sites (-want +got):\n%s", diff)
			}
			for i, site := range sites {
				rec := mapRecord{site: site, jobID: int64(i + 1), attempt: 1, at: time.Now().UTC()}
				g := readGraph(t, clinicGraph)
				g.Site.URL = site // to tell the exported files apart
				if err := rec.setGraph(g); err != nil {
					t.Fatal(err)
				}
				if err := f.record(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
			}
			changes, err := f.Changes(t.Context(), then)
			if err != nil {
				t.Fatal(err)
			}
			got = nil
			for _, c := range changes {
				got = append(got, c.Site)
			}
			if diff := cmp.Diff(sites, got); diff != "" {
				t.Errorf("Changes' sites (-want +got):\n%s", diff)
			}
			dir := t.TempDir()
			if n, err := f.Export(t.Context(), dir); err != nil || n != len(sites) {
				t.Fatalf("Export = %d, %v; want %d, nil", n, err, len(sites))
			}
			// x/y sorts before x_y, so it has the name, x_y the "-2".
			for _, want := range []struct{ name, site string }{{"a.example_x_y.json", "https://a.example/x/y"}, {"a.example_x_y-2.json", "https://a.example/x_y"}} {
				if got := readGraph(t, filepath.Join(dir, want.name)).Site.URL; got != want.site {
					t.Errorf("%s is the graph of %s, want %s", want.name, got, want.site)
				}
			}
		})
	}
}
