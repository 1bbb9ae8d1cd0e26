package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
)

const mapUsage = "frontlatch map [--offline] [--json] [--pages N] [--timeout D] URL [-o FILE]"

func init() {
	register(command{
		name:    "map",
		usage:   mapUsage,
		summary: "map a site into an Action Graph in a real browser; prints a summary (or the graph with --json) and writes the graph with -o",
		run:     runMap,
	})
}

func runMap(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("map", stderr)
	offline := fs.Bool("offline", false, "keep the browser on the site's own origin and loopback: no third-party script runs")
	asJSON := fs.Bool("json", false, "write the graph to standard output (or to -o) instead of a summary")
	out := fs.String("o", "", "write the graph to `FILE` (atomically: a failed run leaves no file)")
	pages := fs.Int("pages", 0, "open at most `N` pages of the site (default 6)")
	timeout := fs.Duration("timeout", 0, "give up on the whole run after `D` (default 2m)")
	urls, ok := parseInterspersed(fs, args)
	if !ok {
		return exitUsage
	}
	if len(urls) != 1 {
		fmt.Fprintln(stderr, "frontlatch map: give exactly one URL")
		fs.Usage()
		return exitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["pages"] && *pages < 1:
		fmt.Fprintf(stderr, "frontlatch map: --pages must be at least 1, got %d\n", *pages)
		fs.Usage()
		return exitUsage
	case set["timeout"] && *timeout <= 0:
		fmt.Fprintf(stderr, "frontlatch map: --timeout must be a positive duration such as 90s or 5m, got %s\n", *timeout)
		fs.Usage()
		return exitUsage
	}
	if *out != "" {
		// Before the run, not after minutes of mapping.
		if st, err := os.Stat(*out); err == nil && st.IsDir() {
			fmt.Fprintf(stderr, "frontlatch map: -o %s is a folder: give the name of the file to write, for example %s\n", *out, filepath.Join(*out, "graph.json"))
			return exitUsage
		}
	}
	g, err := mapper.Map(ctx, urls[0], mapper.Options{Offline: *offline, MaxPages: *pages, RunTimeout: *timeout})
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch map: %v\n", err)
		if a := mapAdvice(err); a != "" {
			fmt.Fprintf(stderr, "frontlatch map: %s\n", a)
		}
		return exitFail
	}
	data, err := shared.Write(g)
	if err != nil {
		// Our bug, not the site's: never write a graph the contract refuses.
		fmt.Fprintf(stderr, "frontlatch map: the mapped graph does not validate (a mapper bug, please report it): %v\n", err)
		return exitFail
	}
	if *out != "" {
		if err := writeFileAtomic(*out, data); err != nil {
			fmt.Fprintf(stderr, "frontlatch map: write %s: %v\n", *out, err)
			return exitUsage
		}
	}
	switch {
	case *asJSON && *out == "":
		stdout.Write(data)
	case !*asJSON:
		printMapSummary(stdout, g, *out)
	}
	return exitOK
}

// mapAdvice is what a person can do about a failed map: the library says
// what went wrong, the command says what to try.
func mapAdvice(err error) string {
	switch {
	case errors.Is(err, mapper.ErrInvalidURL):
		return "give an absolute http:// or https:// URL, for example https://example.com/"
	case errors.Is(err, mapper.ErrHTTPStatus):
		return "check the URL, or that the site is up"
	case errors.Is(err, mapper.ErrRedirectLoop):
		return "open the URL in a browser to see where it goes, then map the final URL"
	case errors.Is(err, mapper.ErrNotHTML):
		return "give the URL of the site's home page"
	case errors.Is(err, mapper.ErrUnreachable):
		return "check the URL and that the server is up and reachable from this machine"
	case errors.Is(err, shared.ErrInvalidGraph):
		return "the mapper built a graph the contract refuses: that is a mapper bug, please report it with the URL"
	case errors.Is(err, mapper.ErrNilPage):
		return "open the page (topology.OpenPage) before calling MapPage"
	}
	return ""
}

// printMapSummary is the human view of a graph: each action with its doors
// and completeness, then the site's mappability.
func printMapSummary(w io.Writer, g *shared.ActionGraph, file string) {
	rep := shared.GraphCompleteness(g)
	fmt.Fprintf(w, "%s  %s  (%d actions, generated %s)\n", g.GraphID, g.Site.URL, len(g.Actions), g.GeneratedAt)
	for i, a := range g.Actions {
		r := rep.PerAction[i].Report
		state := "complete"
		if !r.Complete {
			state = "incomplete: " + strings.Join(r.Missing, ", ")
		}
		if len(r.Blockers) > 0 {
			state += "; blockers: " + strings.Join(r.Blockers, ", ")
		}
		fmt.Fprintf(w, "\n%-9s %s — %s\n", a.Kind, a.ID, a.Label)
		for _, d := range a.Access {
			fmt.Fprintf(w, "  door  %s%s\n", d.Method, doorDetail(d))
		}
		var fields []string
		for _, in := range a.Inputs {
			if in.AgentFillable {
				f := in.Name + ":" + string(in.Semantic)
				if in.Required {
					f += "*"
				}
				fields = append(fields, f)
			}
		}
		if len(fields) > 0 {
			fmt.Fprintf(w, "  needs %s\n", strings.Join(fields, " "))
		}
		fmt.Fprintf(w, "  does  %s\n", a.SideEffects.Summary)
		fmt.Fprintf(w, "  %s\n", state)
	}
	fmt.Fprintf(w, "\nmappability %.0f%% (%d of %d actions complete)\n", rep.Mappability*100, rep.Complete, rep.Actions)
	if len(rep.MissingTally) > 0 {
		codes := make([]string, 0, len(rep.MissingTally))
		for c := range rep.MissingTally {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			fmt.Fprintf(w, "  %-36s %d\n", c, rep.MissingTally[c])
		}
	}
	if g.Notes != nil {
		fmt.Fprintf(w, "notes: %s\n", *g.Notes)
	}
	if file != "" {
		fmt.Fprintf(w, "graph written to %s\n", file)
	} else {
		fmt.Fprintln(w, "(use -o FILE to write the graph, --json to print it)")
	}
}

// doorDetail is the short description of a door in the summary.
func doorDetail(d shared.Access) string {
	var parts []string
	if d.Vendor != nil {
		parts = append(parts, *d.Vendor)
	}
	if d.ToolName != nil {
		parts = append(parts, "tool "+*d.ToolName)
	}
	if d.Submission != nil {
		s := string(d.Submission.Transport)
		if d.Submission.Endpoint != nil {
			s += " " + *d.Submission.Endpoint
		}
		parts = append(parts, s)
	} else if d.Method != shared.AccessHTMLForm {
		parts = append(parts, d.URL)
	}
	if d.Opaque {
		parts = append(parts, "opaque")
	}
	if d.Occurrences > 1 {
		parts = append(parts, fmt.Sprintf("×%d", d.Occurrences))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + strings.Join(parts, ", ")
}
