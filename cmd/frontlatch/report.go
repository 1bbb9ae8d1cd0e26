package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/frontlatch/frontlatch/verifier/portal"
)

const reportUsage = "frontlatch report [--store URL] GRAPH [-o report.html]"

func init() {
	register(command{
		name:    "report",
		usage:   reportUsage,
		summary: "write the readiness report of GRAPH as one standalone HTML file (what an AI agent can do on the site today, in the owner's words); -o FILE, or standard output",
		run:     runReport,
	})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("report", stderr)
	out := fs.String("o", "", "write the report to this file (atomically) instead of standard output")
	storeURL := fs.String("store", defaultStoreURL(), "the audit store each action the graph says is verified is checked against (one it does not confirm is reported as not live), "+storeFlagHelp)
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "frontlatch report: give exactly one GRAPH file")
		fs.Usage()
		return exitUsage
	}
	g, err := portal.ReadGraphFile(ctx, pos[0])
	if err != nil {
		return graphFailure(stderr, "report", err)
	}
	refused, code := unconfirmed(ctx, g, *storeURL, stderr, "report")
	if code != exitOK {
		return code
	}
	var buf bytes.Buffer
	if err := portal.RenderReport(&buf, portal.BuildReport(g, refused)); err != nil {
		fmt.Fprintf(stderr, "frontlatch report: %v\n", err)
		return exitFail
	}
	if *out == "" {
		stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := writeFileAtomic(*out, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "frontlatch report: %v\n", err)
		return exitUsage
	}
	return exitOK
}
