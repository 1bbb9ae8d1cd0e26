package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

// Exit codes shared by every command.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// command is one subcommand. Each lives in its own file and registers itself
// in an init function, so this file never lists them.
type command struct {
	name    string
	usage   string // one line: "frontlatch check [--json] FILE..."
	summary string // one sentence for the command list
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("frontlatch: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			// help COMMAND [SUBCOMMAND]: what it does, then its usage line
			// and every flag, as its own -h prints them (before any I/O).
			c, err := helpFor(args[1:])
			if err != nil {
				fmt.Fprintf(stderr, "frontlatch help: %v; run `frontlatch help` for the list\n", err)
				return exitUsage
			}
			fmt.Fprintf(stdout, "%s\n\n", c.summary)
			c.run(ctx, []string{"-h"}, io.Discard, stdout)
			return exitOK
		}
		printUsage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "frontlatch", version)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "frontlatch: unknown command %q; run `frontlatch help` for the list\n", args[0])
		return exitUsage
	}
	// Whatever a command says on stderr is for a person, and may quote a
	// site: escape sequences in it are written out, not run (termSafe).
	return c.run(ctx, args[1:], stdout, termSafe(stderr))
}

// helpFor is the command that words (COMMAND [SUBCOMMAND]) name for help,
// or why they name none.
func helpFor(words []string) (command, error) {
	c, ok := commands[words[0]]
	if !ok {
		return command{}, fmt.Errorf("unknown command %q", words[0])
	}
	if len(words) == 1 {
		return c, nil
	}
	if len(words) > 2 {
		return command{}, fmt.Errorf("want COMMAND [SUBCOMMAND], got %d words", len(words))
	}
	subs := subcommandNames(words[0])
	if len(subs) == 0 {
		return command{}, fmt.Errorf("%s has no subcommands, got %q", words[0], words[1])
	}
	sub, ok := subcommands[words[0]+" "+words[1]]
	if !ok {
		return command{}, fmt.Errorf("unknown subcommand %q; use one of %s", words[0]+" "+words[1], strings.Join(subs, ", "))
	}
	return sub, nil
}

func printUsage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: frontlatch <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit codes: 0 ok, 1 the work failed, 2 usage or I/O error")
	fmt.Fprintln(w, "run `frontlatch help <command>` for a command's flags")
}

// chromiumAdvice is what to do when no Chromium is found: the library only
// says it is missing.
const chromiumAdvice = "install Debian's chromium (`make chromium`, or apt-get install -y chromium) or set " + topology.EnvChromium + " to a Chromium binary"

// launchFailed reports a browser that could not be started, with advice
// where there is some, and returns the exit code.
func launchFailed(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "frontlatch %s: %v\n", cmd, err)
	if a := advice(err); a != "" {
		fmt.Fprintf(stderr, "  %s\n", a)
	}
	return exitFail
}

// advice is what a person can do about an error of the browser engine
// (the libraries say only what went wrong; the CLI says what to try), or
// "" when there is nothing to add.
func advice(err error) string {
	switch {
	case errors.Is(err, topology.ErrChromiumNotFound):
		return chromiumAdvice
	case errors.Is(err, topology.ErrInvalidURL):
		return "give an absolute http://, https:// or file:// URL, for example https://example.com/"
	case errors.Is(err, topology.ErrNavigation):
		return "check the URL is reachable from this machine"
	}
	return ""
}

// newBrowser launches the browser of a command (a variable so tests can
// prove a command refused its input before launching anything).
var newBrowser = topology.NewBrowser

// version is the workspace's one release number; versions.yaml is checked
// against it (TestVersionsYAML).
const version = shared.ModuleVersion
