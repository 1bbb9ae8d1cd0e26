package portal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// writeGraphFile replaces the graph's bytes and nothing else about the
// file: a 0600 graph stays 0600, a link to it stays a link (it used to be
// replaced by a regular file, the file it named left as it was), and a
// file changed since it was read is left alone.
func TestWriteGraphFileKeepsTheFile(t *testing.T) {
	was := graphBytes(t, "clinic01", testOrigin, nil)
	g, issues := shared.Read(was)
	if g == nil {
		t.Fatal(issues)
	}
	g.Site.Domain = "renamed." + g.Site.Domain
	want, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, viaLink := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "link"}[viaLink], func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "graph.json")
			if err := os.WriteFile(file, was, 0o600); err != nil {
				t.Fatal(err)
			}
			path := file
			if viaLink {
				path = filepath.Join(t.TempDir(), "link.json")
				if err := os.Symlink(file, path); err != nil {
					t.Fatal(err)
				}
			}
			if err := writeGraphFile(path, g, was); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
				t.Errorf("the file was not rewritten:\n%s", got)
			}
			if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v (%v), want 0600", st.Mode().Perm(), err)
			}
			if lst, err := os.Lstat(path); err != nil || (lst.Mode()&os.ModeSymlink != 0) != viaLink {
				t.Errorf("%s: link %v, want %v (%v)", path, lst.Mode()&os.ModeSymlink != 0, viaLink, err)
			}
			// Read again: "was" is no longer what is on disk.
			err := writeGraphFile(path, g, was)
			var re *RefusedError
			if !errors.As(err, &re) || re.Reason != RefuseChanged {
				t.Errorf("writing over a changed file: %v, want a RefuseChanged refusal", err)
			}
		})
	}
}

// The rename that replaces the graph is made durable: the directory the
// file is in (a link's target's) is synced after the rename, and a sync
// that fails is an error, not a silent success.
func TestWriteGraphFileSyncsTheDirectory(t *testing.T) {
	was := graphBytes(t, "clinic01", testOrigin, nil)
	g, issues := shared.Read(was)
	if g == nil {
		t.Fatal(issues)
	}
	g.Site.Domain = "renamed." + g.Site.Domain
	want, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	real := syncDir
	t.Cleanup(func() { syncDir = real })
	tests := []struct {
		name    string
		viaLink bool
		fail    error
	}{
		{"file", false, nil},
		{"link", true, nil},
		{"the sync fails", false, errors.New("input/output error")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "graph.json")
			if err := os.WriteFile(file, was, 0o600); err != nil {
				t.Fatal(err)
			}
			path := file
			if tt.viaLink {
				path = filepath.Join(t.TempDir(), "link.json")
				if err := os.Symlink(file, path); err != nil {
					t.Fatal(err)
				}
			}
			var synced []string
			syncDir = func(d string) error {
				// Called after the rename: the file already holds the new graph.
				if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
					t.Errorf("the directory was synced before the rename")
				}
				synced = append(synced, d)
				if tt.fail != nil {
					return tt.fail
				}
				return real(d)
			}
			err := writeGraphFile(path, g, was)
			if !errors.Is(err, tt.fail) || (tt.fail != nil) != (err != nil) {
				t.Errorf("writeGraphFile: %v, want %v", err, tt.fail)
			}
			if diff := cmp.Diff([]string{dir}, synced); diff != "" {
				t.Errorf("directories synced (-want +got):\n%s", diff)
			}
		})
	}
}
