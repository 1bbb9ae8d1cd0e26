package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
)

const mapUsage = "frontlatch map [--offline] [--json] [--pages N] [--timeout D] [--user-agent UA] [--ignore-robots] [--concurrency N] [--per-host N] URL... [-o FILE | --out-dir DIR]"

func init() {
	register(command{
		name:    "map",
		usage:   mapUsage,
		summary: "map sites into Action Graphs in a real browser (several URLs: concurrently); prints a summary (or the graph with --json) and writes the graph with -o",
		run:     runMap,
	})
}

func runMap(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("map", stderr)
	offline := fs.Bool("offline", false, "keep the browser on the site's own origin and loopback: no third-party script runs")
	asJSON := fs.Bool("json", false, "write the graph to standard output (or to -o) instead of a summary; several graphs are written one after the other")
	out := fs.String("o", "", "write the graph to `FILE` (atomically: a failed run leaves no file); one URL only")
	outDir := fs.String("out-dir", "", "write each site's graph to `DIR`/<host>.json (several URLs)")
	pages := fs.Int("pages", 0, "open at most `N` pages of each site (default 6)")
	timeout := fs.Duration("timeout", 0, "give up on a site's run after `D` (default 2m)")
	ua := fs.String("user-agent", "", "the User-Agent of every request (default "+mapper.DefaultUserAgent+"); its product token picks the robots.txt group")
	ignoreRobots := fs.Bool("ignore-robots", false, "open pages robots.txt disallows (only for sites you own)")
	conc := fs.Int("concurrency", mapper.DefaultConcurrency, "with several URLs, how many sites are mapped at once")
	perHost := fs.Int("per-host", 1, "with several URLs, how many sites of one host are mapped at once")
	urls, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	switch {
	case len(urls) == 0:
		fmt.Fprintln(stderr, "frontlatch map: give at least one URL")
		fs.Usage()
		return exitUsage
	case len(urls) > 1 && *out != "":
		fmt.Fprintln(stderr, "frontlatch map: -o takes one URL; with several, use --out-dir DIR")
		return exitUsage
	}
	// Before anything is fetched or launched.
	rules := rulesFor(fs)
	rules.atLeast("concurrency", *conc, 1)
	rules.atLeast("per-host", *perHost, 1)
	rules.atLeast("pages", *pages, 1)
	rules.positive("timeout", *timeout)
	rules.file("o", *out)
	rules.rule("out-dir", *out != "", *outDir, "cannot go with -o (-o writes one file, --out-dir one per site): give one of them")
	rules.dir("out-dir", *outDir)
	if !rules.ok("map", stderr) {
		return exitUsage
	}
	opts := mapper.Options{Offline: *offline, MaxPages: *pages, RunTimeout: *timeout, UserAgent: *ua, IgnoreRobots: *ignoreRobots}
	var results []mapper.Result
	if len(urls) == 1 {
		g, err := mapper.Map(ctx, urls[0], opts)
		results = []mapper.Result{{URL: urls[0], Graph: g, Err: err}}
	} else {
		var err error
		results, err = mapper.MapAll(ctx, urls, opts, mapper.PoolOptions{Concurrency: *conc, PerHost: *perHost})
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch map: %v\n", err)
			return exitFail
		}
	}
	var names []string
	if *outDir != "" {
		names = outDirNames(urls)
	}
	code := exitOK
	for i, r := range results {
		if i > 0 && !*asJSON {
			fmt.Fprintln(stdout)
		}
		path := *out
		if names != nil {
			path = filepath.Join(*outDir, names[i]+".json")
		}
		if c := writeMapResult(r, *asJSON, path, stdout, stderr); c > code {
			code = c
		}
	}
	return code
}

// writeMapResult reports one site: its error, or its graph validated and
// written to out (when not "").
func writeMapResult(r mapper.Result, asJSON bool, out string, stdout, stderr io.Writer) int {
	if r.Err != nil {
		fmt.Fprintf(stderr, "frontlatch map: %v\n", r.Err)
		if a := mapAdvice(r.Err); a != "" {
			fmt.Fprintf(stderr, "frontlatch map: %s\n", a)
		}
		return exitFail
	}
	data, err := shared.Write(r.Graph)
	if err != nil {
		// Our bug, not the site's: never write a graph the contract refuses.
		fmt.Fprintf(stderr, "frontlatch map: the mapped graph of %s does not validate (a mapper bug, please report it): %v\n", r.URL, err)
		return exitFail
	}
	if out != "" {
		if err := writeFileAtomic(out, data); err != nil {
			fmt.Fprintf(stderr, "frontlatch map: write %s: %v\n", out, err)
			return exitUsage
		}
	}
	switch {
	case asJSON && out == "":
		stdout.Write(data)
	case !asJSON:
		printMapSummary(stdout, r.Graph, out)
	}
	return exitOK
}

// outDirNames are the --out-dir file names (without .json) of urls, in
// the order given: fileNameOf each, and "-2", "-3"… after a name already
// given, compared in lower case (the file systems of macOS and Windows
// are not case-sensitive), so that no graph is written over another.
func outDirNames(urls []string) []string {
	used := map[string]bool{}
	names := make([]string, len(urls))
	for i, u := range urls {
		base := fileNameOf(u)
		n := base
		for k := 2; used[strings.ToLower(n)]; k++ {
			n = fmt.Sprintf("%s-%d", base, k)
		}
		used[strings.ToLower(n)] = true
		names[i] = n
	}
	return names
}

// fileNameOf names a site's graph file after its host and path
// (127.0.0.1:8080/shop/ → 127.0.0.1-8080-shop).
func fileNameOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "site"
	}
	name := strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, u.Host+u.Path), "-")
	if name == "" {
		return "site"
	}
	return name
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
	case errors.Is(err, mapper.ErrDisallowed):
		return "the site asks crawlers to stay away from this page; map it with --ignore-robots only if the site is yours"
	case errors.Is(err, shared.ErrInvalidGraph):
		return "the mapper built a graph the contract refuses: that is a mapper bug, please report it with the URL"
	case errors.Is(err, mapper.ErrNilPage):
		return "open the page (topology.Browser.OpenPage) before calling MapPage"
	}
	return advice(err)
}

// printMapSummary is the human view of a graph: each action with its doors
// and completeness, then the site's mappability.
func printMapSummary(w io.Writer, g *shared.ActionGraph, file string) {
	w = termSafe(w) // the graph's text came from the site
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
