package main

import (
	"context"
	"fmt"
	"io"

	"github.com/frontlatch/frontlatch/shared"
)

const fmtUsage = "frontlatch fmt [-w] FILE|-"

func init() {
	register(command{
		name:    "fmt",
		usage:   fmtUsage,
		summary: "print the canonical JSON of a valid Action Graph (exit 1 with the issues when it is invalid); -w rewrites the file in place",
		run:     runFmt,
	})
}

func runFmt(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fmt", stderr)
	inPlace := fs.Bool("w", false, "rewrite FILE in place (atomically) instead of printing it")
	files, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "frontlatch fmt: want exactly one FILE or -, got %d\n", len(files))
		fs.Usage()
		return exitUsage
	}
	file := files[0]
	if *inPlace && file == "-" {
		fmt.Fprintln(stderr, "frontlatch fmt: -w needs a FILE, not standard input")
		return exitUsage
	}
	data, err := readInput(file)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch fmt: %v\n", err)
		return exitUsage
	}
	g, issues := shared.Read(data)
	if issues != nil {
		for _, is := range issues {
			fmt.Fprintf(stderr, "%s: %s\n", file, is)
		}
		return exitFail
	}
	out, err := shared.Write(g)
	if err != nil {
		// Read accepted it, so Write refusing it is a bug in shared.
		fmt.Fprintf(stderr, "frontlatch fmt: %s: %v\n", file, err)
		return exitFail
	}
	if *inPlace {
		if err := writeFileAtomic(file, out); err != nil {
			fmt.Fprintf(stderr, "frontlatch fmt: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "frontlatch fmt: %v\n", err)
		return exitUsage
	}
	return exitOK
}
