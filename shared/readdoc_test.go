package shared

import (
	"bytes"
	"errors"
	"io"
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
