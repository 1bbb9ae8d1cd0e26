package benchmark

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/fixtures"
)

// Usage is the command line both `frontlatch bench` and `go run ./benchmark/cmd/bench` take.
const Usage = "frontlatch bench [--json] [--out DIR] [--results FILE] [--site NAME[,NAME...]] [--concurrency N] [--scaling 1,2,4,8]"

// Main runs the benchmark as a command: progress on stderr, the table (or
// with --json the results) on stdout, results.json written. It returns the
// exit code: 0 ok, 1 a site failed to map, 2 usage or I/O error.
func Main(ctx context.Context, command string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the results as JSON instead of a table")
	out := fs.String("out", "", "write out/<site>/graph.json and every compiled format under this directory")
	resultsPath := fs.String("results", "", "results file (default <repo>/benchmark/results.json, or ./results.json outside the repo; with --site, none unless given)")
	sites := fs.String("site", "", "comma-separated fixture sites to run (default all)")
	conc := fs.Int("concurrency", DefaultConcurrency, "sites mapped at once, each in its own reused tab")
	scaling := fs.String("scaling", "", "also map the set at each of these comma-separated concurrencies and record pages/s and peak memory (e.g. 1,2,4,8)")
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: %s\n", Usage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	start := time.Now()
	o := Options{OutDir: *out, Progress: stderr, Command: command, Concurrency: *conc}
	if *sites != "" {
		o.Sites = strings.Split(*sites, ",")
	}
	if *conc <= 0 {
		fmt.Fprintf(stderr, "frontlatch bench: --concurrency must be at least 1\n")
		return 2
	}
	for _, f := range strings.Split(*scaling, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "frontlatch bench: --scaling %q: give concurrencies such as 1,2,4,8\n", *scaling)
			return 2
		}
		o.Scaling = append(o.Scaling, n)
	}
	// A subset's figures are not the set's: --site writes no results file
	// unless one is named, so that the committed fifteen-site figures are
	// never replaced by one site's.
	write := *resultsPath != "" || *sites == ""
	if *resultsPath == "" && write {
		*resultsPath = DefaultResultsPath()
	}
	res, err := Run(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch bench: %v\n", err)
		return 2
	}
	// The end-to-end wall time: everything but writing results.json itself.
	res.Performance.WallSeconds = seconds(time.Since(start))
	res.Performance.ProductSeconds = round(res.Performance.WallSeconds - res.Performance.ArtefactSeconds)
	if write {
		if err := WriteResults(*resultsPath, res); err != nil {
			fmt.Fprintf(stderr, "frontlatch bench: write results: %v\n", err)
			return 2
		}
	} else {
		fmt.Fprintf(stderr, "frontlatch bench: no results file written: --site maps a subset of the set (--results FILE writes one)\n")
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return 2
		}
	} else {
		fmt.Fprintln(stdout)
		PrintTable(stdout, res)
		fmt.Fprintln(stdout)
		if write {
			fmt.Fprintf(stdout, "results: %s\n", *resultsPath)
		}
		if *out != "" {
			fmt.Fprintf(stdout, "outputs: %s/<site>/graph.json and compiled formats (%s/<site>/include-unverified/ shows unconfirmed actions as tools)\n", *out, *out)
		}
	}
	for _, s := range res.Sites {
		if s.Error != "" {
			return 1
		}
	}
	return 0
}

// DefaultResultsPath is benchmark/results.json in the checkout, or
// results.json in the working directory outside one.
func DefaultResultsPath() string {
	if root, err := fixtures.RepoRoot(); err == nil {
		return filepath.Join(root, "benchmark", "results.json")
	}
	return "results.json"
}
