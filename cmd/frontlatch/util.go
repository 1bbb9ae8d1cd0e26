package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// newFlagSet returns the flag set of the registered command name: it reports
// usage errors on stderr with the command's registered usage line and does
// not exit, so every command maps them to exitUsage the same way.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	c, ok := commands[name]
	if !ok {
		c = subcommands[name] // "verify reconcile" and the like
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", c.usage)
		fs.PrintDefaults()
	}
	return fs
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, synced before it is renamed over path, so neither a failed
// run nor a crash leaves a half-written or empty file behind. A file that
// exists keeps its permissions (a new one is 0644), and a symbolic link
// keeps pointing where it did: the file it names is the one replaced.
func writeFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a folder, not a file", path)
		}
		mode = st.Mode().Perm()
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Chmod(mode); err != nil { // CreateTemp makes it 0600
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
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (`compile GRAPH -o DIR`), which package flag alone
// stops at. After "--" every argument is positional (a file named -x.json).
// Its error is the flag set's, already reported (parseExit).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if endedFlags(fs, args[:len(args)-len(rest)]) {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// endedFlags reports whether the arguments one Parse of fs consumed end
// with the "--" that ends the flags, not with a flag's value "--"
// (-o --).
func endedFlags(fs *flag.FlagSet, consumed []string) bool {
	n := len(consumed)
	if n == 0 || consumed[n-1] != "--" {
		return false
	}
	if n == 1 {
		return true
	}
	prev := consumed[n-2]
	if !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") || prev == "--" {
		return true
	}
	f := fs.Lookup(strings.TrimLeft(prev, "-"))
	if f == nil {
		return true
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseExit is the exit code of a command line its flag set refused: 0
// for -h or --help (the usage was asked for, and printed), 2 otherwise.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}
