// Command train-classifier trains the classifier's learned field model on
// the dev split of the Formasaurus corpus (never the holdout) and writes
// it as generated Go source to mapper/classify/model_gen.go; then the
// form-purpose model, over the fields that field model reads, to
// mapper/classify/purpose_gen.go.
//
//	go run ./benchmark/cmd/train-classifier [-corpus DIR] [-out FILE] [-purpose-out FILE] [-check] [-explain FILE] [-field-explain FILE]
//
// Training is deterministic (static extraction, fixed order and seed,
// integer weights): running it again on the same corpus writes the same
// bytes, which -check verifies. Choices are made by 5-fold
// cross-validation over dev pages, printed with the rules-only and
// combined cross-validated accuracy.
//
// Exit status: 0 written (or current), 1 failed or -check found the file
// stale, 2 bad usage. Without the corpus it says so and exits 0 leaving the
// committed file alone, so `go generate ./...` works on machines without it.
package main

//go:generate go run . -quiet

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/frontlatch/frontlatch/benchmark/formasaurus"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

// generator names this command in the generated file's header.
const generator = "benchmark/cmd/train-classifier"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train-classifier", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus folder (default ../shared/corpora/formasaurus-dev from the repository root)")
	out := fs.String("out", "", "generated file (default mapper/classify/model_gen.go in the repository root)")
	purposeOut := fs.String("purpose-out", "", "generated purpose model (default mapper/classify/purpose_gen.go in the repository root)")
	explain := fs.String("explain", "", "write the dev forms the purpose model's cross-validation gets wrong to this file")
	fieldExplain := fs.String("field-explain", "", "write the dev fields the field model's cross-validation reads wrong to this file")
	check := fs.Bool("check", false, "compare with the file instead of writing it; exit 1 when it differs")
	quiet := fs.Bool("quiet", false, "print nothing but errors")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "train-classifier: unexpected argument %q (every option is a flag: -corpus, -out, -check, …)\n", fs.Arg(0))
		return 2
	}
	root, rootErr := fixtures.RepoRoot()
	if (*corpus == "" || *out == "" || *purposeOut == "") && rootErr != nil {
		fmt.Fprintln(stderr, "train-classifier:", rootErr, "— or pass -corpus and -out")
		return 1
	}
	if *corpus == "" {
		*corpus, _ = formasaurus.DefaultDir() // the root was found above
	}
	if *out == "" {
		*out = filepath.Join(root, "mapper", "classify", "model_gen.go")
	}
	if *purposeOut == "" {
		*purposeOut = filepath.Join(root, "mapper", "classify", "purpose_gen.go")
	}
	c, err := formasaurus.Load(*corpus)
	if errors.Is(err, formasaurus.ErrNoCorpus) && !*check {
		fmt.Fprintln(stderr, "train-classifier: no corpus at", *corpus, "— the committed model is left as it is")
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "train-classifier:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var ew io.Writer
	if *explain != "" {
		f, err := os.Create(*explain)
		if err != nil {
			fmt.Fprintln(stderr, "train-classifier:", err)
			return 1
		}
		defer f.Close()
		ew = f
	}
	var fw io.Writer
	if *fieldExplain != "" {
		f, err := os.Create(*fieldExplain)
		if err != nil {
			fmt.Fprintln(stderr, "train-classifier:", err)
			return 1
		}
		defer f.Close()
		fw = f
	}
	ms, err := train(ctx, c, ew, fw)
	if err != nil {
		fmt.Fprintln(stderr, "train-classifier:", err)
		return 1
	}
	src, rep, psrc, prep := ms.field, ms.rep, ms.purpose, ms.prep
	if !*quiet {
		fmt.Fprintf(stdout, "dev split: %d pages, %d labelled fields; %d-fold CV over pages chose %d epochs, features seen ≥ %d times, margins %d (over words) / %d (over nothing)\n",
			rep.Pages, rep.Examples, 5, rep.Epochs, rep.MinCount, rep.MinMargin, rep.MinMarginFallback)
		fmt.Fprintf(stdout, "cross-validated field reading on dev: rules %.3f, rules + model %.3f; model: %d features\n", rep.RulesCV, rep.CombinedCV, rep.Features)
		fmt.Fprintln(stdout, purposeSummary(prep))
	}
	files := []struct {
		path string
		src  []byte
	}{{*out, src}, {*purposeOut, psrc}}
	if *check {
		stale := false
		for _, f := range files {
			if have, err := os.ReadFile(f.path); err != nil || !bytes.Equal(have, f.src) {
				fmt.Fprintf(stderr, "train-classifier: %s is not what training writes; run `go generate ./cmd/train-classifier` in benchmark and commit\n", f.path)
				stale = true
			}
		}
		if stale {
			return 1
		}
		return 0
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, f.src, 0o644); err != nil {
			fmt.Fprintln(stderr, "train-classifier:", err)
			return 1
		}
		if !*quiet {
			fmt.Fprintln(stdout, "written to", f.path)
		}
	}
	return 0
}

// models is what one training run writes: the two generated files and
// what the cross-validations inside dev measured.
type models struct {
	field, purpose []byte
	rep            formasaurus.TrainReport
	prep           formasaurus.PurposeTrainReport
}

// train trains the field model on c's dev split, then the purpose model
// over the fields as that model reads them. explain and fieldExplain,
// when not nil, receive the dev forms the purpose cross-validation and the
// dev fields the field cross-validation got wrong.
func train(ctx context.Context, c *formasaurus.Corpus, explain, fieldExplain io.Writer) (models, error) {
	var out models
	src, rep, fm, err := generate(ctx, c, fieldExplain)
	if err != nil {
		return out, err
	}
	out.field, out.rep = src, rep
	out.purpose, out.prep, err = generatePurpose(ctx, c, fm, explain)
	return out, err
}

// goSource is a generated file: the header, comment (lines starting
// "// ", ending with a blank line) and m written as the variable name of
// package classify, gofmt'ed.
func goSource(comment string, m *learn.Model, name string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\n", generator)
	b.WriteString(comment)
	if err := learn.WriteGo(&b, m, "classify", name); err != nil {
		return nil, err
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format the generated source: %w", err)
	}
	return src, nil
}

// generate trains the field model and returns its generated source and the
// model, which the purpose model's training reads the fields with.
func generate(ctx context.Context, c *formasaurus.Corpus, explain io.Writer) ([]byte, formasaurus.TrainReport, *learn.Model, error) {
	m, rep, err := formasaurus.TrainFieldModel(ctx, c, formasaurus.TrainOptions{Explain: explain})
	if err != nil {
		return nil, rep, nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Trained on the dev split of the Formasaurus corpus (%d pages, %d labelled fields;\n", rep.Pages, rep.Examples)
	fmt.Fprintf(&b, "// the holdout is never read). 5-fold cross-validation over dev pages chose %d epochs,\n", rep.Epochs)
	fmt.Fprintf(&b, "// features seen at least %d times and the margins below; cross-validated field reading:\n", rep.MinCount)
	fmt.Fprintf(&b, "// rules %.3f, rules + model %.3f.\n\n", rep.RulesCV, rep.CombinedCV)
	src, err := goSource(b.String(), m, "fieldModel")
	return src, rep, m, err
}
