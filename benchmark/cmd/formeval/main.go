// Command formeval measures the mapper's field and form classifier on the
// Formasaurus development corpus and records the figures under the
// "classifier" key of benchmark/results.json.
//
//	go run ./benchmark/cmd/formeval [-corpus DIR] [-out FILE] [-static] [-workers N] [-only dev|holdout]
//
// Exit status: 0 measured and written, 1 the run failed, 2 bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/frontlatch/frontlatch/fixtures"

	"github.com/frontlatch/frontlatch/benchmark/formasaurus"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("formeval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus folder (default ../shared/corpora/formasaurus-dev from the repository root)")
	out := fs.String("out", "", "results file to update (default benchmark/results.json in the repository root); - prints only")
	static := fs.Bool("static", false, "extract with the static parser instead of Chromium (no computed visibility)")
	workers := fs.Int("workers", 2, "pages loaded at once")
	only := fs.String("only", "", "score only the dev or holdout split")
	explain := fs.String("explain", "", "write every wrong field and form of the dev split to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "formeval: unexpected argument %q (every option is a flag: -corpus, -out, -only, …)\n", fs.Arg(0))
		return 2
	}
	if *workers < 1 {
		fmt.Fprintf(stderr, "formeval: -workers must be at least 1, got %d\n", *workers)
		return 2
	}
	if *only != "" && *only != "dev" && *only != "holdout" {
		fmt.Fprintln(stderr, "formeval: -only must be dev or holdout")
		return 2
	}
	root, rootErr := fixtures.RepoRoot()
	if *corpus == "" {
		dir, err := formasaurus.DefaultDir()
		if err != nil {
			fmt.Fprintln(stderr, "formeval:", err, "— or pass -corpus")
			return 1
		}
		*corpus = dir
	}
	if *out == "" {
		if rootErr != nil {
			fmt.Fprintln(stderr, "formeval:", rootErr, "— or pass -out")
			return 1
		}
		*out = filepath.Join(root, "benchmark", "results.json")
	}
	c, err := formasaurus.Load(*corpus)
	if err != nil {
		fmt.Fprintln(stderr, "formeval:", err)
		if errors.Is(err, formasaurus.ErrNoCorpus) {
			fmt.Fprintln(stderr, "formeval: pass -corpus DIR, a folder with index.json and html/ (default ../shared/corpora/formasaurus-dev beside the repository)")
		}
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := formasaurus.Options{Static: *static, Workers: *workers, Progress: stderr, Only: *only}
	if *explain != "" {
		f, err := os.Create(*explain)
		if err != nil {
			fmt.Fprintln(stderr, "formeval:", err)
			return 1
		}
		defer f.Close()
		opts.Explain = f
	}
	rep, err := formasaurus.Run(ctx, c, opts)
	if err != nil {
		fmt.Fprintln(stderr, "formeval:", err)
		return 1
	}
	rep.Command = "go run ./benchmark/cmd/formeval " + strings.Join(args, " ")
	rep.Command = strings.TrimSpace(rep.Command)
	rep.Corpus = "../shared/corpora/formasaurus-dev"
	if abs, err := filepath.Abs(*corpus); err == nil && root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil {
			rep.Corpus = rel
		}
	}
	printSummary(stdout, rep)
	if *out == "-" {
		return 0
	}
	if err := formasaurus.WriteResults(*out, rep); err != nil {
		fmt.Fprintln(stderr, "formeval:", err)
		return 1
	}
	fmt.Fprintf(stdout, "written to %s (key \"classifier\")\n", *out)
	return 0
}

func printSummary(w io.Writer, rep *formasaurus.Report) {
	fmt.Fprintf(w, "Formasaurus corpus, %d pages, %s mode (%s), %.0fs\n", rep.Pages, rep.Mode, rep.Chromium, rep.Seconds)
	fmt.Fprintf(w, "%-14s %6s %6s %9s %8s %9s %8s %8s %6s %8s\n", "split (rules+model; rules: rules alone)", "pages", "failed", "fields", "n", "unknownOK", "hpRecall", "purpose", "caF1", "caStrict")
	for _, set := range []struct {
		name   string
		splits map[string]formasaurus.Figures
	}{{"", rep.Splits}, {"rules ", rep.RulesOnly}} {
		for _, k := range []string{"all", "dev", "holdout"} {
			f, ok := set.splits[k]
			if !ok {
				continue
			}
			fmt.Fprintf(w, "%-14s %6d %6d %9.3f %8d %9.3f %8.3f %8.3f %6.3f %8.3f\n", set.name+k, f.Pages, f.PagesFailed+f.PagesStaticFallback, f.FieldAccuracy, f.FieldsScored,
				f.UnknownLabelAccuracy, f.HoneypotRecall, f.PurposeAccuracy, f.CustomerAction.F1, f.CustomerActionStrict.F1)
		}
	}
	for _, set := range []struct {
		name   string
		splits map[string]formasaurus.Figures
	}{{"", rep.Splits}, {"rules ", rep.RulesOnly}} {
		for _, k := range []string{"all", "dev", "holdout"} {
			if f, ok := set.splits[k]; ok {
				iv := f.Intervals95
				fmt.Fprintf(w, "%-14s 95%% bootstrap intervals: fields %s, customer-action F1 %s, honeypot recall %s\n", set.name+k,
					interval(iv, "fieldAccuracy"), interval(iv, "customerActionF1"), interval(iv, "honeypotRecall"))
			}
		}
	}
	if f, ok := rep.Splits["all"]; ok && f.PagesStaticFallback > 0 {
		fmt.Fprintf(w, "%d pages the browser could not render were scored from their markup\n", f.PagesStaticFallback)
	}
	// Confusions name single fields and forms: dev only, never the holdout.
	if f, ok := rep.Splits["dev"]; ok {
		fmt.Fprintf(w, "dev field confusions: %s\n", strings.Join(f.TopFieldConfusions, ", "))
		fmt.Fprintf(w, "dev form confusions: %s\n", strings.Join(f.TopFormConfusions, ", "))
	}
}

func interval(iv map[string][2]float64, name string) string {
	v, ok := iv[name]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("[%.3f, %.3f]", v[0], v[1])
}
