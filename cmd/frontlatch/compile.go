package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/shared"
)

// formatAll asks for every format at once (only with -o).
const formatAll = "all"

var compileUsage = "frontlatch compile [--format " + formatChoices("|") + "] [--include-unverified] [--mcp-version " + compiler.MCPVersion20251125 + "] [--store URL] GRAPH [-o DIR]"

// formatChoices joins the compiler's formats and "all" with sep, so the
// usage line and the flag's help never drift from compiler.FormatValues.
func formatChoices(sep string) string {
	var names []string
	for _, f := range compiler.FormatValues() {
		names = append(names, string(f))
	}
	return strings.Join(append(names, formatAll), sep)
}

func init() {
	register(command{
		name:    "compile",
		usage:   compileUsage,
		summary: "compile an Action Graph into agent formats: MCP tools, WebMCP, OpenAPI 3.1, Schema.org JSON-LD, an ARD catalog, llms.txt",
		run:     runCompile,
	})
}

func runCompile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("compile", stderr)
	format := fs.String("format", string(compiler.FormatMCP), "the format to write: "+formatChoices(", ")+" (all needs -o)")
	includeUnverified := fs.Bool("include-unverified", false, "also offer unverified and sandbox-tested actions as tools, marked as such")
	mcpVersion := fs.String("mcp-version", compiler.DefaultMCPVersion, "MCP protocol version of the tools/list result: "+strings.Join(compiler.MCPVersionValues(), " or "))
	storeURL := fs.String("store", defaultStoreURL(), "the audit store each action the graph says is verified is checked against (one it does not confirm is compiled as unverified), "+storeFlagHelp)
	outDir := fs.String("o", "", "write the format's files into `DIR` (atomically) instead of one file to stdout")
	positional, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(positional) != 1 {
		fmt.Fprintf(stderr, "frontlatch compile: want exactly one GRAPH file, got %d\n", len(positional))
		fs.Usage()
		return exitUsage
	}
	rules := rulesFor(fs)
	rules.dir("o", *outDir)
	rules.rule("mcp-version", !slices.Contains(compiler.MCPVersionValues(), *mcpVersion), *mcpVersion,
		*mcpVersion+": unknown MCP protocol version; use one of "+strings.Join(compiler.MCPVersionValues(), ", "))
	if !rules.ok("compile", stderr) {
		return exitUsage
	}
	if *format == formatAll && *outDir == "" {
		fmt.Fprintln(stderr, "frontlatch compile: --format all writes several files: give -o DIR")
		return exitUsage
	}
	var f compiler.Format
	if *format != formatAll {
		var err error
		if f, err = compiler.ParseFormat(*format); err != nil {
			fmt.Fprintf(stderr, "frontlatch compile: %v, or all\n", err)
			return exitUsage
		}
	}
	data, err := readInput(positional[0])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch compile: %v\n", err)
		return exitUsage
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		return reportCompileError(stderr, positional[0], &compiler.GraphError{Issues: issues, Err: shared.ErrInvalidGraph})
	}
	refused, code := unconfirmed(ctx, g, *storeURL, stderr, "compile")
	if code != exitOK {
		return code
	}
	opts := compiler.Options{IncludeUnverified: *includeUnverified, MCPVersion: *mcpVersion, Unconfirmed: refused}

	if *outDir == "" {
		files, err := compiler.CompileFormat(g, f, opts)
		if err != nil {
			return reportCompileError(stderr, positional[0], err)
		}
		if _, err := stdout.Write(files[0].Data); err != nil {
			fmt.Fprintf(stderr, "frontlatch compile: writing to stdout: %v\n", err)
			return exitUsage
		}
		return exitOK
	}

	var files []compiler.File
	if *format == formatAll {
		files, err = compiler.CompileAll(g, opts)
	} else {
		files, err = compiler.CompileFormat(g, f, opts)
	}
	if err != nil {
		return reportCompileError(stderr, positional[0], err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, file := range files {
		path := filepath.Join(*outDir, file.Name)
		if err := writeFileAtomic(path, file.Data); err != nil {
			fmt.Fprintf(stderr, "frontlatch compile: %v\n", err)
			return exitUsage
		}
		fmt.Fprintln(stdout, path)
	}
	return exitOK
}

// reportCompileError prints why a graph could not be compiled, each issue on
// its own line, and maps the error to an exit code.
func reportCompileError(stderr io.Writer, file string, err error) int {
	var ge *compiler.GraphError
	switch {
	case errors.As(err, &ge):
		fmt.Fprintf(stderr, "frontlatch compile: %s cannot be compiled:\n", file)
		for _, is := range ge.Issues {
			fmt.Fprintf(stderr, "%s: %s\n", file, is)
		}
		if errors.Is(err, compiler.ErrNameCollision) {
			fmt.Fprintln(stderr, "frontlatch compile: give the actions distinct ids")
		} else {
			fmt.Fprintf(stderr, "frontlatch compile: run `frontlatch check %s` and fix what it reports\n", file)
		}
		return exitFail
	case errors.Is(err, compiler.ErrUnknownMCPVersion), errors.Is(err, compiler.ErrUnknownFormat):
		fmt.Fprintf(stderr, "frontlatch compile: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "frontlatch compile: %s: %v\n", file, err)
	return exitFail
}
