package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

const checkUsage = "frontlatch check [--json] [--completeness] FILE..."

func init() {
	register(command{
		name:    "check",
		usage:   checkUsage,
		summary: "validate Action Graph files against contract 0.1 (exit 0 valid, 1 invalid, 2 usage or I/O error); --completeness adds each action's report and the mappability",
		run:     runCheck,
	})
}

// stdin is where "-" reads from; tests replace it.
var stdin io.Reader = os.Stdin

// readInput reads a graph document from a file, or standard input for
// "-", at most shared.MaxDocumentBytes of it.
func readInput(name string) ([]byte, error) {
	if name == "-" {
		return shared.ReadDocument(stdin)
	}
	return shared.ReadDocumentFile(name)
}

// checkResult is one file's verdict; --json prints a list of them.
type checkResult struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	// Error is set when the file could not be read (exit 2).
	Error        string              `json:"error,omitempty"`
	Issues       []shared.Issue      `json:"issues"`
	Completeness *shared.GraphReport `json:"completeness,omitempty"`
}

func runCheck(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	asJSON := fs.Bool("json", false, "print one JSON document describing every file instead of text lines")
	completeness := fs.Bool("completeness", false, "for each valid graph, also report each action's completeness and the graph's mappability")
	files, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "frontlatch check: give at least one FILE (- reads standard input)")
		fs.Usage()
		return exitUsage
	}

	code := exitOK
	results := make([]checkResult, 0, len(files))
	for _, file := range files {
		res := checkResult{File: file, Issues: []shared.Issue{}}
		data, err := readInput(file)
		if err != nil {
			res.Error = err.Error()
			results = append(results, res)
			fmt.Fprintf(stderr, "frontlatch check: %v\n", err)
			code = exitUsage
			continue
		}
		g, issues := shared.Read(data)
		res.Issues = append(res.Issues, issues...)
		res.Valid = g != nil
		if !res.Valid && code == exitOK {
			code = exitFail
		}
		if res.Valid && *completeness {
			r := shared.GraphCompleteness(g)
			res.Completeness = &r
		}
		results = append(results, res)
		if !*asJSON {
			printCheckText(stdout, res)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			fmt.Fprintf(stderr, "frontlatch check: %v\n", err)
			return exitUsage
		}
	}
	return code
}

// printCheckText prints one file's verdict: "FILE: PATH: CODE: message" per
// issue, or "FILE: ok" and, with --completeness, one line per action and the
// mappability.
func printCheckText(w io.Writer, res checkResult) {
	w = termSafe(w) // a graph's ids and text may hold escape sequences
	if !res.Valid {
		for _, is := range res.Issues {
			fmt.Fprintf(w, "%s: %s\n", res.File, is) // FILE: PATH: CODE: message
		}
		return
	}
	fmt.Fprintf(w, "%s: ok\n", res.File)
	r := res.Completeness
	if r == nil {
		return
	}
	for _, a := range r.PerAction {
		if a.Report.Complete {
			fmt.Fprintf(w, "%s: %s: complete", res.File, a.ID)
		} else {
			fmt.Fprintf(w, "%s: %s: incomplete (score %d): missing %s", res.File, a.ID, a.Report.Score, strings.Join(a.Report.Missing, ", "))
		}
		if len(a.Report.Blockers) > 0 {
			fmt.Fprintf(w, "; blockers %s", strings.Join(a.Report.Blockers, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s: mappability %.3f (%d of %d actions complete)\n", res.File, r.Mappability, r.Complete, r.Actions)
}
