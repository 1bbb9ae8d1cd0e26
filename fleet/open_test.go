package fleet

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// TestOpenConcurrently: processes that open one new database at once (two
// `fleet work` started together on a fresh SQLite file, workers of many
// machines on a new PostgreSQL database) all open it; River's migrations
// and the fleet's are applied once.
func TestOpenConcurrently(t *testing.T) {
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			url := filepath.Join(t.TempDir(), "fleet.db")
			if driver == "postgres" {
				url = audittest.PostgresURL(t)
			}
			const n = 6
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() {
					f, err := Open(t.Context(), url)
					if err == nil {
						err = f.Close()
					}
					errs[i] = err
				})
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("Open %d of %d at once: %v", i+1, n, err)
				}
			}
			f, err := Open(t.Context(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var versions, applied int
			if err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(*), COUNT(DISTINCT version) FROM fleet_migrations`).Scan(&applied, &versions); err != nil {
				t.Fatal(err)
			}
			if names, _ := migrationFS.ReadDir("migrations"); applied != len(names) || versions != len(names) {
				t.Errorf("fleet_migrations has %d rows of %d versions, want each of the %d once", applied, versions, len(names))
			}
			if _, err := f.Add(t.Context(), inputs([]string{"https://a.example/"})); err != nil {
				t.Errorf("Add after opening at once: %v", err)
			}
		})
	}
}
