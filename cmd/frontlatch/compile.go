package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/compiler"
)

// formatAll asks for every format at once (only with -o).
const formatAll = "all"

var compileUsage = "frontlatch compile [--format " + formatChoices("|") + "] [--include-unverified] [--mcp-version " + compiler.MCPVersion20251125 + "] GRAPH [-o DIR]"

// formatChoices joins the compiler's formats and "all" with sep, so the
// usage line and the flag's help never drift from compiler.Formats.
func formatChoices(sep string) string {
	var names []string
	for _, f := range compiler.Formats() {
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

func runCompile(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("compile", stderr)
	format := fs.String("format", string(compiler.FormatMCP), "the format to write: "+formatChoices(", ")+" (all needs -o)")
	includeUnverified := fs.Bool("include-unverified", false, "also offer unverified and sandbox-tested actions as tools, marked as such")
	mcpVersion := fs.String("mcp-version", compiler.DefaultMCPVersion, "MCP protocol version of the tools/list result: "+strings.Join(compiler.MCPVersions(), " or "))
	outDir := fs.String("o", "", "write the format's files into `DIR` (atomically) instead of one file to stdout")
	positional, ok := parseInterspersed(fs, args)
	if !ok {
		return exitUsage
	}
	if len(positional) != 1 {
		fmt.Fprintf(stderr, "frontlatch compile: want exactly one GRAPH file, got %d\n", len(positional))
		fs.Usage()
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
	data, err := os.ReadFile(positional[0])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch compile: %v\n", err)
		return exitUsage
	}
	g, err := compiler.ReadGraph(data)
	if err != nil {
		return reportCompileError(stderr, positional[0], err)
	}
	opts := compiler.Options{IncludeUnverified: *includeUnverified, MCPVersion: *mcpVersion}

	if *outDir == "" {
		out, err := compiler.Compile(g, f, opts)
		if err != nil {
			return reportCompileError(stderr, positional[0], err)
		}
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "frontlatch compile: writing to stdout: %v\n", err)
			return exitUsage
		}
		return exitOK
	}

	var files map[string][]byte
	if *format == formatAll {
		files, err = compiler.CompileAll(g, opts)
	} else {
		files, err = compiler.CompileFormat(g, f, opts)
	}
	if err != nil {
		return reportCompileError(stderr, positional[0], err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(*outDir, n)
		if err := writeFileAtomic(path, files[n]); err != nil {
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
		return exitFail
	case errors.Is(err, compiler.ErrUnknownMCPVersion), errors.Is(err, compiler.ErrUnknownFormat):
		fmt.Fprintf(stderr, "frontlatch compile: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "frontlatch compile: %s: %v\n", file, err)
	return exitFail
}
