package portal

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/frontlatch/frontlatch/shared"
)

// ReadGraphFile reads and validates the Action Graph at path. Anything
// short of a valid 0.1 graph is a *GraphError (errors.Is ErrGraphUnreadable)
// naming the path and, for an invalid document, every issue's path and code.
// A done ctx stops it before the file is opened.
func ReadGraphFile(ctx context.Context, path string) (*shared.ActionGraph, error) {
	g, _, err := readGraph(ctx, path)
	return g, err
}

// readGraph also returns the bytes it read, so a writer can tell whether
// the file changed since.
func readGraph(ctx context.Context, path string) (*shared.ActionGraph, []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, &GraphError{Path: path, Err: err}
	}
	data, err := shared.ReadDocumentFile(path)
	if err != nil {
		return nil, nil, &GraphError{Path: path, Err: err}
	}
	g, issues := shared.Read(data)
	if g == nil {
		return nil, nil, &GraphError{Path: path, Issues: issues}
	}
	return g, data, nil
}

// findAction returns the index of the action with id, or an *UnknownActionError.
func findAction(path string, g *shared.ActionGraph, id string) (int, error) {
	for i := range g.Actions {
		if g.Actions[i].ID == id {
			return i, nil
		}
	}
	return -1, &UnknownActionError{Path: path, ID: id}
}

// writeGraphFile writes g (canonical, re-validated by shared.Write) over
// path atomically: a temporary file in the same directory, synced, then
// renamed over the original, so a reader sees the old graph or the new one
// and never half of either, and the directory synced, so the new one is
// there after a crash. When the file on disk is no longer the bytes
// read (was), nothing is replaced and the refusal says so. The file keeps
// its permissions, and a symbolic link keeps pointing where it did: the
// file it names is the one replaced.
func writeGraphFile(path string, g *shared.ActionGraph, was []byte) error {
	data, err := shared.Write(g)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if now, err := shared.ReadDocumentFile(path); err != nil || !bytes.Equal(now, was) {
		os.Remove(tmp)
		return &RefusedError{Reason: RefuseChanged, Detail: "the graph file changed while the confirmation was being recorded; it was left as it is"}
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	// The rename is in the directory: until the directory is synced, a
	// power loss or an OS crash may bring the old graph back, one that
	// does not point at the confirmation just recorded.
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("portal: the graph file was replaced, but its folder could not be synced to disk, so a crash may bring the old one back: %w", err)
	}
	return nil
}

// syncDir fsyncs a directory, making a rename in it durable. A variable so
// that a test can see it called after the rename.
var syncDir = func(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		d.Close()
		return err
	}
	return d.Close()
}
