package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/frontlatch/frontlatch/topology"
)

// noArgs refuses positional arguments to a command that takes none, with
// hint (what to do instead, or ""), before any I/O; it reports whether
// there were none.
func noArgs(fs *flag.FlagSet, stderr io.Writer, cmd string, pos []string, hint string) bool {
	if len(pos) == 0 {
		return true
	}
	if hint != "" {
		hint = " (" + hint + ")"
	}
	fmt.Fprintf(stderr, "frontlatch %s: takes no arguments, got %q%s\n", cmd, pos, hint)
	fs.Usage()
	return false
}

// A flagError is a flag value no run can use. Every command checks its
// flags with flagRules before any I/O — a browser launched, a database
// opened, a page fetched, a port bound — and reports the first refusal as
// a usage error (exit 2).
type flagError struct {
	Flag   string // as typed: "--timeout", "-o"
	Value  string // the value given
	Reason string // what is wrong with it and what would do
}

func (e *flagError) Error() string {
	return e.Flag + " " + e.Reason
}

// flagRules collects the refusals of one command's flags, in order; the
// first one is reported. A rule on a flag applies only when the flag was
// given on the command line, so a default — including 0 for "the
// library's default" — is never refused.
type flagRules struct {
	fs  *flag.FlagSet
	set map[string]bool
	err error
}

// rulesFor starts the checks of fs, which has been parsed.
func rulesFor(fs *flag.FlagSet) *flagRules {
	r := &flagRules{fs: fs, set: map[string]bool{}}
	fs.Visit(func(f *flag.Flag) { r.set[f.Name] = true })
	return r
}

// given reports whether the flag name was on the command line.
func (r *flagRules) given(name string) bool { return r.set[name] }

func (r *flagRules) refuse(name, value, reason string) {
	if r.err == nil {
		r.err = &flagError{Flag: dashes(name), Value: value, Reason: reason}
	}
}

func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// positive refuses a duration that is zero or negative.
func (r *flagRules) positive(name string, d time.Duration) {
	if r.given(name) && d <= 0 {
		r.refuse(name, d.String(), fmt.Sprintf("must be a positive duration such as 90s or 5m, got %s", d))
	}
}

// notNegative refuses a negative duration (zero means off).
func (r *flagRules) notNegative(name string, d time.Duration) {
	if r.given(name) && d < 0 {
		r.refuse(name, d.String(), fmt.Sprintf("must not be negative (0 turns it off), got %s", d))
	}
}

// atLeast refuses a count below min.
func (r *flagRules) atLeast(name string, n, min int) {
	if r.given(name) && n < min {
		r.refuse(name, fmt.Sprint(n), fmt.Sprintf("must be at least %d, got %d", min, n))
	}
}

// only refuses a flag given where it means nothing (when ok is false).
func (r *flagRules) only(name string, ok bool, where string) {
	if r.given(name) && !ok {
		r.refuse(name, "", "applies "+where+" only")
	}
}

// needs refuses a flag given without the one it depends on.
func (r *flagRules) needs(name, other, why string) {
	if r.given(name) && !r.given(other) {
		r.refuse(name, "", why+": give "+dashes(other)+" too")
	}
}

// rule refuses a flag's value when bad, for reason (a command's own rule).
func (r *flagRules) rule(name string, bad bool, value, reason string) {
	if r.given(name) && bad {
		r.refuse(name, value, reason)
	}
}

// engine refuses a flag whose value the browser engine refused (err, from
// an options type's Validate): the flag is named, with the engine's reason.
func (r *flagRules) engine(name, value string, err error) {
	var oe *topology.OptionsError
	if r.given(name) && errors.As(err, &oe) {
		r.refuse(name, value, value+": "+oe.Reason)
	}
}

// file refuses an output file that names an existing folder, before the
// run rather than after minutes of work.
func (r *flagRules) file(name, path string) {
	if path == "" {
		return
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		r.refuse(name, path, fmt.Sprintf("%s is a folder: give the name of the file to write, for example %s", path, filepath.Join(path, "graph.json")))
	}
}

// dir refuses an output folder that names an existing file (or anything
// else that is not a folder), before any work.
func (r *flagRules) dir(name, path string) {
	if reason := notAFolder(path); reason != "" {
		r.refuse(name, path, reason)
	}
}

// notAFolder says why path, an output folder, cannot be one (it names an
// existing file), or "" when it can ("" and a path not there yet can).
func notAFolder(path string) string {
	if path == "" {
		return ""
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return fmt.Sprintf("%s is a file, not a folder: give the folder to write the files into", path)
	}
	return ""
}

// hostPort refuses an address to listen on that is not HOST:PORT, with
// example (say 127.0.0.1:9464) as one that is.
func (r *flagRules) hostPort(name, addr, example string) {
	_, _, err := net.SplitHostPort(addr)
	r.rule(name, err != nil, addr, fmt.Sprintf("%s is not HOST:PORT (for example %s): %v", addr, example, err))
}

// ok reports the first refusal, if any, on stderr with the command's usage
// ("frontlatch CMD: --timeout must be …") and says whether there was none.
func (r *flagRules) ok(cmd string, stderr io.Writer) bool {
	if r.err == nil {
		return true
	}
	usageError(stderr, cmd, r.err)
	r.fs.Usage()
	return false
}

// usageError prints a refusal of the command line: the error, then what to
// do about it when the CLI knows.
func usageError(stderr io.Writer, cmd string, err error) {
	fmt.Fprintf(stderr, "frontlatch %s: %v\n", cmd, err)
	if a := advice(err); a != "" {
		fmt.Fprintf(stderr, "frontlatch %s: %s\n", cmd, a)
	}
}
