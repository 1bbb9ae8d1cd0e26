package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/portal"
)

// subcommands holds the subcommands of commands with several ("verify"),
// keyed by their full name ("verify reconcile"); each registers itself.
var subcommands = map[string]command{}

func registerSub(parent string, c command) {
	c.name = parent + " " + c.name
	if _, dup := subcommands[c.name]; dup {
		panic("frontlatch: subcommand registered twice: " + c.name)
	}
	subcommands[c.name] = c
}

// subcommandNames lists parent's subcommands, sorted.
func subcommandNames(parent string) []string {
	var names []string
	for full := range subcommands {
		if p, sub, ok := strings.Cut(full, " "); ok && p == parent {
			names = append(names, sub)
		}
	}
	sort.Strings(names)
	return names
}

func init() {
	register(command{
		name:    "verify",
		usage:   "frontlatch verify sandbox|serve|reconcile|revoke …",
		summary: "the owner's side: sandbox runs, the confirmation portal, reconciliation after a re-scan, revocation",
		run:     runVerify,
	})
	registerSub("verify", command{
		name:    "reconcile",
		usage:   "frontlatch verify reconcile [--store URL] OLD NEW [-o FILE]",
		summary: "carry the owner's confirmations of OLD over to the re-scan NEW, withdrawing every one whose consequences drifted",
		run:     runReconcile,
	})
	registerSub("verify", command{
		name:    "revoke",
		usage:   "frontlatch verify revoke [--store URL] --by NAME [--reason TEXT] GRAPH ACTION_ID",
		summary: "withdraw the owner's confirmation of one action: an audit record, and the action back to unverified in GRAPH",
		run:     runRevoke,
	})
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runParent(ctx, "verify", args, stdout, stderr)
}

// envStore names the environment variable that stands in for --store.
const envStore = "FRONTLATCH_STORE"

// defaultStoreURL is the audit store every command uses when --store is not
// given: $FRONTLATCH_STORE, else audit.DefaultPath (a SQLite file in the
// user's data directory), else "" — which audit.Open refuses with why.
func defaultStoreURL() string {
	if s := os.Getenv(envStore); s != "" {
		return s
	}
	p, err := audit.DefaultPath()
	if err != nil {
		return ""
	}
	return p
}

const storeFlagHelp = "a SQLite file path or a postgres:// URL ($" + envStore + ", when set, is the default)"

// openStore opens the audit store (audit.Open creates a SQLite file's
// directory).
func openStore(ctx context.Context, url string) (*audit.Store, error) {
	return audit.Open(ctx, url)
}

// storeExit is the exit code of a store openStore could not open, the
// same for every command: exitUsage for a --store that names no store (an
// unknown scheme, none given: audit.ErrInvalid) or names something else —
// a file that is no audit store, another program's database
// (audit.ErrNotAuditStore) —, exitFail for one that cannot be reached (the
// work failed, as for the fleet database).
func storeExit(err error) int {
	if errors.Is(err, audit.ErrInvalid) || errors.Is(err, audit.ErrNotAuditStore) {
		return exitUsage
	}
	return exitFail
}

// readGraphFile reads and validates one graph file: an invalid graph is a
// failure (exit 1) with every issue, a file that cannot be read a usage
// error (exit 2), as graphFailure says.
func readGraphFile(ctx context.Context, path string, stderr io.Writer, cmd string) (*shared.ActionGraph, int) {
	g, err := portal.ReadGraphFile(ctx, path)
	if err != nil {
		return nil, graphFailure(stderr, cmd, err)
	}
	return g, exitOK
}

// knownAction is the verifier's ErrUnknownAction (an *ActionError) when
// g has no action id, checked before anything is opened or launched for it.
func knownAction(g *shared.ActionGraph, id string) error {
	if slices.ContainsFunc(g.Actions, func(a shared.Action) bool { return a.ID == id }) {
		return nil
	}
	return &verifier.ActionError{ActionID: id, Err: verifier.ErrUnknownAction}
}

func writeGraphFile(path string, g *shared.ActionGraph) error {
	data, err := shared.Write(g)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

func runReconcile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout = termSafe(stdout) // action ids, fields and values came from a site or the file
	fs := newFlagSet("verify reconcile", stderr)
	storeURL := fs.String("store", defaultStoreURL(), "the audit store: "+storeFlagHelp)
	out := fs.String("o", "", "write the reconciled graph to `FILE` (default: overwrite NEW)")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 2 {
		fmt.Fprintf(stderr, "frontlatch verify reconcile: want OLD and NEW graph files, got %d arguments\n", len(pos))
		fs.Usage()
		return exitUsage
	}
	// Before the audit store records anything: a reconciled graph that
	// cannot be written would leave the store ahead of the file.
	rules := rulesFor(fs)
	rules.file("o", *out)
	if !rules.ok("verify reconcile", stderr) {
		return exitUsage
	}
	old, code := readGraphFile(ctx, pos[0], stderr, "verify reconcile")
	if old == nil {
		return code
	}
	next, code := readGraphFile(ctx, pos[1], stderr, "verify reconcile")
	if next == nil {
		return code
	}
	store, err := openStore(ctx, *storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch verify reconcile: %v\n  (nothing was changed; is the audit store reachable?)\n", err)
		return storeExit(err)
	}
	defer store.Close()
	g, report, err := verifier.Reconcile(ctx, old, next, store)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch verify reconcile: %v\n  (nothing was changed)\n", err)
		return exitFail
	}
	dest := *out
	if dest == "" {
		dest = pos[1]
	}
	if err := writeGraphFile(dest, g); err != nil {
		fmt.Fprintf(stderr, "frontlatch verify reconcile: %v\n", err)
		return exitUsage
	}
	for _, r := range report {
		if r.Kept {
			fmt.Fprintf(stdout, "%s: confirmation kept\n", r.ActionID)
			continue
		}
		fmt.Fprintf(stdout, "%s: needs the owner's confirmation again\n", r.ActionID)
		for _, c := range r.Changes {
			fmt.Fprintf(stdout, "  %s\n", c)
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", dest)
	return exitOK
}

func runRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout = termSafe(stdout) // action ids, fields and values came from a site or the file
	fs := newFlagSet("verify revoke", stderr)
	storeURL := fs.String("store", defaultStoreURL(), "the audit store: "+storeFlagHelp)
	by := fs.String("by", "", "who revokes (required)")
	reason := fs.String("reason", "", "why, for the audit record")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 2 || strings.TrimSpace(*by) == "" {
		fmt.Fprintln(stderr, "frontlatch verify revoke: want GRAPH and ACTION_ID, and --by NAME")
		fs.Usage()
		return exitUsage
	}
	g, code := readGraphFile(ctx, pos[0], stderr, "verify revoke")
	if g == nil {
		return code
	}
	// Before the audit store is opened (or created).
	if err := knownAction(g, pos[1]); err != nil {
		fmt.Fprintf(stderr, "frontlatch verify revoke: %v (frontlatch check --completeness %s lists the actions)\n", err, pos[0])
		return exitUsage
	}
	store, err := openStore(ctx, *storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch verify revoke: %v\n  (nothing was changed; is the audit store reachable?)\n", err)
		return storeExit(err)
	}
	defer store.Close()
	out, err := verifier.Revoke(ctx, g, pos[1], store, *by, *reason, time.Now())
	switch {
	case errors.Is(err, verifier.ErrUnknownAction):
		fmt.Fprintf(stderr, "frontlatch verify revoke: %v (frontlatch check --completeness %s lists the actions)\n", err, pos[0])
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "frontlatch verify revoke: %v\n  (nothing was changed)\n", err)
		return exitFail
	}
	if err := writeGraphFile(pos[0], out); err != nil {
		fmt.Fprintf(stderr, "frontlatch verify revoke: the revocation is recorded, but %s could not be rewritten: %v\n  (the action no longer passes the consent gate either way)\n", pos[0], err)
		return exitFail
	}
	fmt.Fprintf(stdout, "%s: confirmation revoked; %s rewritten\n", pos[1], pos[0])
	// The executor and serve-mcp refuse it from now on; a file compiled
	// earlier is a copy that does not know.
	fmt.Fprintf(stderr, "frontlatch verify revoke: the executor and serve-mcp refuse it now; files compiled from %s before (a WebMCP script, llms.txt on your site) still offer it: run frontlatch compile again and publish what it writes\n", pos[0])
	return exitOK
}
