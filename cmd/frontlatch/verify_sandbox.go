package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/verifier"
)

func init() {
	registerSub("verify", command{
		name:    "sandbox",
		usage:   "frontlatch verify sandbox [--timeout 90s] GRAPH ACTION_ID... [-o FILE]",
		summary: "run actions in Chromium with every submission intercepted (nothing reaches the business) and record the runs in the graph",
		run:     runVerifySandbox,
	})
}

func runVerifySandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout = termSafe(stdout) // action ids, fields and values came from a site or the file
	fs := newFlagSet("verify sandbox", stderr)
	timeout := fs.Duration("timeout", 90*time.Second, "bound on each run, the browser launch included")
	out := fs.String("o", "", "write the graph with the runs recorded to `FILE` (default: overwrite GRAPH)")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) < 2 {
		fmt.Fprintln(stderr, "frontlatch verify sandbox: want GRAPH and at least one ACTION_ID")
		fs.Usage()
		return exitUsage
	}
	rules := rulesFor(fs)
	rules.positive("timeout", *timeout)
	rules.file("o", *out)
	if !rules.ok("verify sandbox", stderr) {
		return exitUsage
	}
	g, code := readGraphFile(ctx, pos[0], stderr, "verify sandbox")
	if g == nil {
		return code
	}
	// Every id is looked up before Chromium is launched for them.
	for _, id := range pos[1:] {
		if err := knownAction(g, id); err != nil {
			fmt.Fprintf(stderr, "frontlatch verify sandbox: %v (frontlatch check --completeness %s lists the actions)\n", err, pos[0])
			return exitUsage
		}
	}
	// One Chromium for every run, loopback only, like the one Sandbox would
	// launch itself.
	browser, err := newBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		return launchFailed(stderr, "verify sandbox", err)
	}
	defer browser.Close()
	code = exitOK
	for _, id := range pos[1:] {
		fmt.Fprintf(stderr, "sandbox %s …\n", id)
		res, err := verifier.Sandbox(ctx, g, id, verifier.SandboxOptions{Timeout: *timeout, Browser: browser})
		var mismatch *verifier.MismatchError
		switch {
		case errors.As(err, &mismatch) && res != nil:
			g = res.Graph // the run is evidence: keep it
			fmt.Fprintf(stdout, "%s: %s — %v\n  (do not confirm this action until the graph describes the door the page really uses: map the site again)\n", id, res.Run.Outcome, mismatch)
			code = max(code, exitFail)
			continue
		case errors.Is(err, verifier.ErrUnknownAction):
			// Runs already made are kept: the graph is written below.
			fmt.Fprintf(stderr, "frontlatch verify sandbox: %v (frontlatch check --completeness %s lists the actions)\n", err, pos[0])
			code = max(code, exitUsage)
			continue
		case err != nil:
			fmt.Fprintf(stderr, "frontlatch verify sandbox: %s: %v\n", id, err)
			code = max(code, exitFail)
			continue
		}
		g = res.Graph
		note := ""
		if res.Run.Note != nil {
			note = *res.Run.Note
		}
		fmt.Fprintf(stdout, "%s: %s — %s\n", id, res.Run.Outcome, note)
		for _, f := range res.Run.Fields {
			fmt.Fprintf(stdout, "  %s = %q\n", f.Name, f.Value)
		}
		if res.Run.Outcome != shared.SandboxPassed {
			code = max(code, exitFail)
		}
	}
	dest := *out
	if dest == "" {
		dest = pos[0]
	}
	if err := writeGraphFile(dest, g); err != nil {
		fmt.Fprintf(stderr, "frontlatch verify sandbox: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "wrote %s\n", dest)
	return code
}
