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
	dir := t.TempDir()
	src, empty := filepath.Join(dir, "pierce.js"), filepath.Join(dir, "empty.js")
	if err := os.WriteFile(src, []byte("const x = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		src     string
		want    string
		wantErr error
	}{
		{"the header, then the source byte for byte", src, header("pierce.js") + "const x = 1;\n", nil},
		{"a missing source", filepath.Join(dir, "missing.js"), "", fs.ErrNotExist},
		{"an empty source", empty, "", errEmptySource},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "webmcp_pierce.js")
			err := run(tt.src, out)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("run: %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("a failed run wrote %s (stat: %v)", out, err)
				}
				return
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("copy (-want +got):\n%s", diff)
			}
		})
	}
}
