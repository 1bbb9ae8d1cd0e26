package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const serveMCPUsage = "frontlatch serve-mcp [--store URL] [--http] [--addr HOST:PORT] [--token TOKEN] [--interval D] GRAPH"

// envMCPToken names the environment variable that stands in for --token
// (a token on a command line is visible to every user of the machine).
const envMCPToken = "FRONTLATCH_MCP_TOKEN"

func init() {
	register(command{
		name:  "serve-mcp",
		usage: serveMCPUsage,
		summary: "serve the graph's actions that pass the consent gate now as MCP tools, over stdio (default) or streamable HTTP (--http, " +
			"127.0.0.1 with a bearer token); calls fire through the executor",
		run: runServeMCP,
	})
}

func runServeMCP(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve-mcp", stderr)
	storeURL := fs.String("store", defaultStoreURL(), "the audit store the owner's confirmations are recorded in, "+storeFlagHelp)
	useHTTP := fs.Bool("http", false, "serve streamable HTTP instead of stdio")
	addr := fs.String("addr", mcpserver.DefaultAddr, "with --http: the address to listen on (loopback unless you mean otherwise)")
	token := fs.String("token", "", "with --http: the bearer token clients must send (default $"+envMCPToken+", else a new one, printed)")
	interval := fs.Duration("interval", mcpserver.DefaultInterval, "how often every action is re-checked against the gate and the graph file re-read")
	maxBody := fs.Int64("max-body", mcpserver.MaxBodyBytesFor(executor.DefaultMaxUploadBytes), "with --http: the largest request body accepted, in bytes; by default the executor's upload cap (10 MiB of files) in base64, plus 1 MiB")
	ratePerSec := fs.Float64("rate", mcpserver.DefaultRatePerSecond, "with --http: requests per second allowed per client")
	burst := fs.Int("burst", mcpserver.DefaultBurst, "with --http: requests a client may send at once before the rate applies")
	inFlight := fs.Int("max-in-flight", mcpserver.DefaultMaxInFlight, "with --http: POST requests handled at once across all clients; one more is answered 503")
	verbose := fs.Bool("v", false, "log every re-check's refusals on stderr")
	files, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "frontlatch serve-mcp: give exactly one GRAPH file")
		fs.Usage()
		return exitUsage
	}
	// Before the audit store is opened (or created). The server would take
	// a value of 0 or below as its default: given on the command line, it
	// is a mistake.
	rules := rulesFor(fs)
	rules.positive("interval", *interval)
	rules.rule("max-body", *maxBody < 1, fmt.Sprint(*maxBody), fmt.Sprintf("must be at least 1 byte, got %d", *maxBody))
	rules.rule("rate", !(*ratePerSec > 0), fmt.Sprint(*ratePerSec), fmt.Sprintf("must be a positive number of requests per second, got %v", *ratePerSec))
	rules.atLeast("burst", *burst, 1)
	rules.atLeast("max-in-flight", *inFlight, 1)
	for _, name := range []string{"addr", "token", "max-body", "rate", "burst", "max-in-flight"} {
		rules.only(name, *useHTTP, "with --http")
	}
	if *useHTTP {
		rules.hostPort("addr", *addr, "127.0.0.1:8765")
	}
	if !rules.ok("serve-mcp", stderr) {
		return exitUsage
	}
	if _, err := os.Stat(files[0]); err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
		return exitUsage
	}

	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	store, err := openStore(ctx, *storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: open the audit store: %v\n", err)
		return storeExit(err)
	}
	defer store.Close()
	ex, err := executor.New(executorOptions(store, log))
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
		return exitFail
	}
	defer ex.Close() // after the server: waits for the calls in flight and the webhooks still being tried
	// An earlier process killed between an attempt's two records left it
	// begun: it is marked outcome unknown (it still counts against its
	// cap). The attempts in flight of executors still running on the same
	// store are left alone while their heartbeat leases last; one that dies
	// later, or whose lease still lasts now, is marked by the executor's
	// ticker while this one serves.
	if n, err := ex.RecoverAbandoned(ctx, time.Now()); err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
		return exitFail
	} else if n > 0 {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %d attempt(s) an earlier process began and never completed are marked outcome unknown; they still count against their caps\n", n)
	}
	srv, err := mcpserver.New(ctx, mcpserver.File(files[0]), ex, store, mcpserver.Options{Version: version, Interval: *interval, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
		return exitFail
	}
	defer srv.Close()
	if err := srv.Refresh(ctx); err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v (serving anyway: tools appear once the graph compiles)\n", err)
	}
	fmt.Fprintf(stderr, "frontlatch serve-mcp: %d tool(s) pass the consent gate now: %v\n", len(srv.Tools()), srv.Tools())

	if !*useHTTP {
		// stdout carries the protocol: nothing else is printed there.
		err := srv.MCP().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
			return exitFail
		}
		return exitOK
	}

	tok, generated := bearerToken(*token, envMCPToken)
	warnNotLoopback(stderr, "serve-mcp", *addr, "anyone who can reach it and has the token can fire these actions")
	opts := mcpserver.HTTPOptions{Token: tok, MaxBodyBytes: *maxBody, RatePerSecond: *ratePerSec, Burst: *burst, MaxInFlight: *inFlight}
	err = srv.ListenAndServeHTTP(ctx, *addr, opts, func(endpoint string) {
		fmt.Fprintf(stdout, "MCP endpoint: %s\n", endpoint)
		if generated {
			fmt.Fprintf(stdout, "Bearer token: %s\n", tok)
		} else {
			fmt.Fprintln(stdout, "Bearer token: the one you gave")
		}
		fmt.Fprintf(stdout, "Clients send: Authorization: Bearer <token>. Stop with Ctrl-C. (%s)\n", time.Now().UTC().Format(time.RFC3339))
	})
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch serve-mcp: %v\n", err)
		return exitFail
	}
	return exitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
