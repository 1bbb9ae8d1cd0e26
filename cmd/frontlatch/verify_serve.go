package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/portal"
)

const verifyServeUsage = "frontlatch verify serve [--addr 127.0.0.1:0] [--store URL] GRAPH"

func init() {
	registerSub("verify", command{
		name:    "serve",
		usage:   verifyServeUsage,
		summary: "start the owner's portal for GRAPH: the readiness report and a confirmation page per action; prints a one-time address to open",
		run:     runVerifyServe,
	})
}

func runVerifyServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout = termSafe(stdout) // action ids, fields and values came from a site or the file
	fs := newFlagSet("verify serve", stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (loopback by default; port 0 picks a free one)")
	storeURL := fs.String("store", defaultStoreURL(), "the audit store: "+storeFlagHelp)
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "frontlatch verify serve: give exactly one GRAPH file")
		fs.Usage()
		return exitUsage
	}
	// The flags, then the graph, before opening the store, so a mistake
	// creates no database.
	rules := rulesFor(fs)
	rules.hostPort("addr", *addr, "127.0.0.1:0")
	if !rules.ok("verify serve", stderr) {
		return exitUsage
	}
	if _, err := portal.ReadGraphFile(ctx, pos[0]); err != nil {
		return graphFailure(stderr, "verify serve", err)
	}
	store, err := openStore(ctx, *storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch verify serve: %v\n", err)
		fmt.Fprintln(stderr, "  the audit store holds every confirmation: check --store (a writable file path, or a PostgreSQL server that is running and reachable)")
		return storeExit(err)
	}
	defer store.Close()
	srv, err := portal.New(ctx, portal.Options{GraphPath: pos[0], Store: store, Addr: *addr})
	if err != nil {
		return graphFailure(stderr, "verify serve", err)
	}
	fmt.Fprintf(stdout, "The owner's portal for %s is running (audit store: %s).\n", pos[0], store.Driver())
	fmt.Fprintln(stdout, "Open this address in your browser; it works once, for one browser:")
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "    %s\n", srv.URL())
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Press Ctrl-C to stop.")
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(stderr, "frontlatch verify serve: %v\n", err)
		return exitFail
	}
	return exitOK
}

// countIssues says how many issues a read found: "1 issue", "3 issues",
// or "at least 105 issues" when it listed only the first shared.MaxIssues.
func countIssues(issues []shared.Issue) string {
	if more := shared.IssuesNotListed(issues); more > 0 {
		return fmt.Sprintf("at least %d issues", shared.MaxIssues+more)
	}
	if len(issues) == 1 {
		return "1 issue"
	}
	return fmt.Sprintf("%d issues", len(issues))
}

// graphFailure prints why a graph could not be used, with advice, and
// returns the exit code: 1 for an invalid graph, 2 for one that cannot be
// read at all (or any other error).
func graphFailure(stderr io.Writer, cmd string, err error) int {
	var ge *portal.GraphError
	if errors.As(err, &ge) && len(ge.Issues) > 0 {
		fmt.Fprintf(stderr, "frontlatch %s: %s is not a valid Action Graph (%s):\n", cmd, ge.Path, countIssues(ge.Issues))
		for _, is := range ge.Issues {
			fmt.Fprintf(stderr, "  %s: %s\n", ge.Path, is)
		}
		fmt.Fprintf(stderr, "  fix the graph (frontlatch check %s) or map the site again\n", ge.Path)
		return exitFail
	}
	fmt.Fprintf(stderr, "frontlatch %s: %v\n", cmd, err)
	if errors.Is(err, shared.ErrInvalidGraph) {
		return exitFail
	}
	return exitUsage
}
