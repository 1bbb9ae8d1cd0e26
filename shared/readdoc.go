package shared

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxDocumentBytes is the largest document ReadDocument reads: 64 MiB, over
// two thousand times the largest graph the fifteen fixture sites map to
// (28 KB), and the bound on what a program that reads graph files or
// streams it did not write holds in memory for one.
const MaxDocumentBytes = 64 << 20

// ErrDocumentTooLarge is returned, wrapped, by ReadDocument when its reader
// holds more than MaxDocumentBytes.
var ErrDocumentTooLarge = errors.New("shared: document too large")

// ReadDocument reads a document from r for Read, ReadAction or any reader
// of graph files: all of r when it holds at most MaxDocumentBytes, and
// otherwise an error matching ErrDocumentTooLarge after reading one byte
// more than that, never the rest (a /dev/zero or an endless pipe ends
// there too). An error of r is returned as it is.
func ReadDocument(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrDocumentTooLarge, MaxDocumentBytes)
	}
	return data, nil
}

// ReadDocumentFile is ReadDocument of the file name, as os.ReadFile is
// io.ReadAll of it: a file larger than MaxDocumentBytes is an
// *fs.PathError naming it that matches ErrDocumentTooLarge.
func ReadDocumentFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadDocument(f)
	if errors.Is(err, ErrDocumentTooLarge) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, err
}
