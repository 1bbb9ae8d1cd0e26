package fleet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOpenSQLiteFileName: a SQLite path is the file of that very name,
// whatever characters it holds, and is opened with the fleet's pragmas
// (WAL); fleet#1.db and fleet#2.db are two fleets, not both the file
// "fleet".
func TestOpenSQLiteFileName(t *testing.T) {
	for _, name := range []string{"fleet#1.db", "a?b.db", "100%41.db", "sp ace.db", "plain.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, path := range []string{filepath.Join(dir, name), "/" + filepath.Join(dir, "abs", name)} {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				f, err := Open(t.Context(), path)
				if err != nil {
					t.Fatalf("Open(%q): %v", path, err)
				}
				var mode string
				if err := f.db.QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
					t.Errorf("Open(%q): journal_mode %q (%v), want wal", path, mode, err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
				ents, err := os.ReadDir(filepath.Dir(path))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range ents {
					if e.Type().IsRegular() {
						got = append(got, e.Name())
					}
				}
				if diff := cmp.Diff([]string{name}, got); diff != "" {
					t.Errorf("Open(%q): the files in its directory (-want +got):\n%s", path, diff)
				}
			}
		})
	}
}
