package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRun(t *testing.T) {
	src := t.TempDir()
	write := func(dir, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(src, "pierce.js", "const x = 1;\n")
	write(src, "norm.js", "const n = 0;\n")
	write(src, "empty.js", "")
	runtimes := t.TempDir()
	write(runtimes, "two.js", "  //pagejs:include pierce\n  //pagejs:include norm\n  //pagejs:include pierce\n")
	write(runtimes, "missing.js", "  //pagejs:include pierce\n  //pagejs:include missing\n")
	write(runtimes, "empty.js", "  //pagejs:include empty\n")
	write(runtimes, "none.js", "x;\n")
	tests := []struct {
		name    string
		runtime string
		want    map[string]string // the out folder's files after the run
		wantErr error
	}{
		{"each included helper: the header, then the source byte for byte; a stale copy removed", "two.js",
			map[string]string{"pierce.js": header("pierce.js") + "const x = 1;\n", "norm.js": header("norm.js") + "const n = 0;\n"}, nil},
		{"a missing source", "missing.js", nil, fs.ErrNotExist},
		{"an empty source", "empty.js", nil, errEmptySource},
		{"a runtime that includes nothing", "none.js", nil, errNoIncludes},
		{"a missing runtime", "absent.js", nil, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			write(out, "locate.js", "stale")
			err := run(filepath.Join(runtimes, tt.runtime), src, out)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("run: %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				tt.want = map[string]string{"locate.js": "stale"} // a failed run writes and removes nothing
			}
			got := map[string]string{}
			entries, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(out, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				got[e.Name()] = string(b)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the out folder (-want +got):\n%s", diff)
			}
		})
	}
}
