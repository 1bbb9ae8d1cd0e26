package shared

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// zeros is an endless reader, as /dev/zero is.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

func TestReadDocument(t *testing.T) {
	errDisk := errors.New("disk on fire")
	for _, tc := range []struct {
		name    string
		r       io.Reader
		wantLen int
		wantErr error
	}{
		{"empty", bytes.NewReader(nil), 0, nil},
		{"a document", bytes.NewReader([]byte(`{"schemaVersion":"0.1"}`)), 23, nil},
		{"exactly the bound", bytes.NewReader(make([]byte, MaxDocumentBytes)), MaxDocumentBytes, nil},
		{"one byte more", bytes.NewReader(make([]byte, MaxDocumentBytes+1)), 0, ErrDocumentTooLarge},
		{"endless", &zeros{}, 0, ErrDocumentTooLarge},
		{"the reader fails", iotest.ErrReader(errDisk), 0, errDisk},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadDocument(tc.r)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if len(data) != tc.wantLen {
				t.Errorf("read %d bytes, want %d", len(data), tc.wantLen)
			}
			if z, ok := tc.r.(*zeros); ok && z.n > 2*MaxDocumentBytes {
				t.Errorf("read %d bytes of an endless reader, want about %d", z.n, MaxDocumentBytes)
			}
		})
	}
}

func TestReadDocumentFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(small, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxDocumentBytes+1); err != nil { // sparse
		t.Fatal(err)
	}
	if data, err := ReadDocumentFile(small); err != nil || string(data) != "{}" {
		t.Errorf("ReadDocumentFile(small) = %q, %v", data, err)
	}
	for _, tc := range []struct {
		name, path string
		is         error
	}{
		{"too large", huge, ErrDocumentTooLarge},
		{"missing", filepath.Join(dir, "none.json"), fs.ErrNotExist},
		{"a directory", dir, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadDocumentFile(tc.path)
			var pe *fs.PathError
			if data != nil || !errors.As(err, &pe) || pe.Path != tc.path {
				t.Fatalf("ReadDocumentFile = %d bytes, %v; want an *fs.PathError naming %s", len(data), err, tc.path)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v does not match %v", err, tc.is)
			}
		})
	}
}
