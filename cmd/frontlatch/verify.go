package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// verifySub is one subcommand of `frontlatch verify`. Each lives in its own
// file (verify_serve.go, …) and registers itself with registerVerify in an
// init function, so this file never lists them.
type verifySub struct {
	name    string
	usage   string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var verifySubs = map[string]verifySub{}

func registerVerify(s verifySub) {
	if _, dup := verifySubs[s.name]; dup {
		panic("frontlatch: verify subcommand registered twice: " + s.name)
	}
	verifySubs[s.name] = s
}

func init() {
	register(command{
		name:    "verify",
		usage:   "frontlatch verify <subcommand> [flags] GRAPH",
		summary: "the verifier: the owner's portal (serve) and the other verify subcommands; run `frontlatch verify` for the list",
		run:     runVerify,
	})
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if s, ok := verifySubs[args[0]]; ok {
			return s.run(ctx, args[1:], stdout, stderr)
		}
	}
	names := make([]string, 0, len(verifySubs))
	for n := range verifySubs {
		names = append(names, n)
	}
	sort.Strings(names)
	w := stderr
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		w = stdout
	} else if len(args) > 0 {
		fmt.Fprintf(stderr, "frontlatch verify: unknown subcommand %q\n", args[0])
	}
	fmt.Fprintln(w, "usage: frontlatch verify <subcommand> [flags] GRAPH")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "subcommands:")
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, verifySubs[n].summary)
		fmt.Fprintf(w, "  %-*s  %s\n", width, "", strings.TrimSpace(verifySubs[n].usage))
	}
	if w == stdout {
		return exitOK
	}
	return exitUsage
}

// newVerifyFlagSet is newFlagSet for a verify subcommand.
func newVerifyFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	s := verifySubs[name]
	return newFlagSetUsage("verify "+s.name, s.usage, stderr)
}
