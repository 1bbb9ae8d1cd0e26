package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/topology"
)

const topologyUsage = "frontlatch topology scan|explore [--offline] [--json] [--timeout D] [--max-states N] [--max-edges N] URL [-o FILE]"

func init() {
	register(command{
		name:    "topology",
		usage:   topologyUsage,
		summary: "drive Chromium over a page and print its Topology Graph v0.2 (scan: entry state; explore: also every safe click)",
		run:     runTopology,
	})
}

func runTopology(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := commands["topology"]
	fs := newFlagSet(c.name, stderr)
	offline := fs.Bool("offline", false, "abort every request outside the URL's origin")
	asJSON := fs.Bool("json", false, "print the graph as JSON instead of a summary")
	out := fs.String("o", "", "also write the graph as JSON to `FILE` (atomically)")
	timeout := fs.Duration("timeout", 2*time.Minute, "bound the whole run (a positive duration such as 90s or 5m)")
	maxStates := fs.Int("max-states", 0, "explore: record at most `N` states (default: the engine's)")
	maxEdges := fs.Int("max-edges", 0, "explore: execute at most `N` actions (default: the engine's)")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fs.Usage() // the usage was asked for: every flag, exit 0
		return exitOK
	}
	if len(args) == 0 || (args[0] != "scan" && args[0] != "explore") {
		fmt.Fprintf(stderr, "usage: %s\n(first argument must be scan or explore)\n", c.usage)
		return exitUsage
	}
	mode := args[0]
	pos, perr := parseInterspersed(fs, args[1:])
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "frontlatch topology: want exactly one URL, got %d\nusage: %s\n", len(pos), c.usage)
		return exitUsage
	}
	// Everything the command line can get wrong is refused here, before a
	// browser is launched: the URL, then the flags.
	if err := topology.ValidateURL(pos[0]); err != nil {
		usageError(stderr, "topology", err)
		return exitUsage
	}
	rules := rulesFor(fs)
	rules.positive("timeout", *timeout)
	rules.only("max-states", mode == "explore", "to explore")
	rules.only("max-edges", mode == "explore", "to explore")
	rules.atLeast("max-states", *maxStates, 1)
	rules.atLeast("max-edges", *maxEdges, 1)
	rules.file("o", *out)
	if !rules.ok("topology", stderr) {
		return exitUsage
	}
	// And what the engine itself would refuse, by its own rules.
	browser := topology.BrowserOptions{Offline: *offline}
	page := topology.PageOptions{Offline: *offline}
	run := topology.ExploreOptions{ScanOptions: topology.ScanOptions{RunTimeout: *timeout}, MaxStates: *maxStates, MaxEdges: *maxEdges}
	if err := errors.Join(browser.Validate(), page.Validate(), run.Validate()); err != nil {
		usageError(stderr, "topology", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "frontlatch topology: %s %s…\n", mode, pos[0])
	b, err := newBrowser(ctx, browser)
	if err != nil {
		return launchFailed(stderr, "topology", err)
	}
	defer b.Close()
	var g *topology.Graph
	if mode == "explore" {
		g, err = b.Explore(ctx, pos[0], page, run)
	} else {
		g, err = b.Scan(ctx, pos[0], page, run.ScanOptions)
	}
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch topology: %v\n", err)
		return exitFail
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // locators hold CSS combinators such as '>'
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		fmt.Fprintf(stderr, "frontlatch topology: encode graph: %v\n", err)
		return exitFail
	}
	data := buf.Bytes()
	if *out != "" {
		if err := writeFileAtomic(*out, data); err != nil {
			fmt.Fprintf(stderr, "frontlatch topology: write %s: %v\n", *out, err)
			return exitUsage
		}
	}
	switch {
	case *asJSON && *out == "":
		if _, err := stdout.Write(data); err != nil {
			fmt.Fprintf(stderr, "frontlatch topology: writing to stdout: %v\n", err)
			return exitUsage
		}
	case !*asJSON:
		printTopologySummary(stdout, g)
	}
	if len(g.States) == 0 {
		for _, f := range g.FailedObservations {
			if f.StateID == nil {
				fmt.Fprintf(stderr, "frontlatch topology: %s: %s\n", f.Reason, f.Message)
				if f.Reason == topology.FailNavigationFailed || f.Reason == topology.FailNavigationTimeout {
					fmt.Fprintf(stderr, "frontlatch topology: %s\n", advice(topology.ErrNavigation))
				}
			}
		}
		return exitFail
	}
	return exitOK
}

func printTopologySummary(w io.Writer, g *topology.Graph) {
	s := g.Summary
	fmt.Fprintf(w, "topology %s %s\n", g.Metadata.Mode, g.Metadata.EntryURL)
	fmt.Fprintf(w, "  %d states, %d elements, %d edges, %d skipped actions, %d failed observations\n",
		s.States, s.Elements, s.Edges, s.SkippedActions, s.FailedObservations)
	perState := map[string]int{}
	for _, e := range g.Elements {
		perState[e.StateID]++
	}
	for _, st := range g.States {
		modal := ""
		if n := len(st.ModalStack); n > 0 {
			modal = fmt.Sprintf(", modal %q", st.ModalStack[n-1].AccessibleName)
		}
		fmt.Fprintf(w, "  %s  %s  %q  (%d elements%s)\n", st.StateID, st.Route, st.Title, perState[st.StateID], modal)
	}
	for _, row := range []struct {
		label  string
		counts map[string]int
	}{
		{"edges by risk", s.EdgesByRiskCategory},
		{"skipped by risk", s.SkippedActionsByRiskCategory},
		{"failed by reason", s.FailedObservationsByReason},
	} {
		if len(row.counts) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", row.label, countList(row.counts))
		}
	}
}

func countList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
