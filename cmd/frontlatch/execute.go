package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

const executeUsage = "frontlatch execute GRAPH ACTION_ID --input '{json}'|@FILE|@- [--store URL] [--idempotency-key K] [--browser]"

// maxInputFile bounds an --input read from a file or standard input: room
// for the executor's largest upload (10 MiB by default) in base64, and more.
const maxInputFile = 64 << 20

// envNotifySecret names the variable holding the webhook signing secret.
const envNotifySecret = "FRONTLATCH_NOTIFY_SECRET"

// executorOptions are the executor's options of every command that fires
// (execute, serve-mcp): the audit store, the webhook signing secret from
// $FRONTLATCH_NOTIFY_SECRET (without it a notification is recorded as not
// sent, never sent unsigned), and the command's logger, for what the
// executor reports where no caller waits (a webhook try the store did not
// take, attempts of dead instances it marked).
func executorOptions(store *audit.Store, log *slog.Logger) executor.Options {
	return executor.Options{Store: store, Logger: log, Notify: executor.NotifyOptions{Secret: []byte(os.Getenv(envNotifySecret))}}
}

func init() {
	register(command{
		name:    "execute",
		usage:   executeUsage,
		summary: "fire one owner-confirmed action of a graph with the agent input --input (JSON); prints what was sent and what the site answered; exit 0 fired, 1 refused or failed",
		run:     runExecute,
	})
}

func runExecute(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("execute", stderr)
	input := fs.String("input", "{}", "the agent's input, a JSON object of input name to value; @FILE reads it from FILE, @- from standard input (a file's base64 content is too long for a command line)")
	storeURL := fs.String("store", defaultStoreURL(), "the audit store: "+storeFlagHelp)
	key := fs.String("idempotency-key", "", "a key that makes a repeat of this call return its first result and fire nothing")
	useBrowser := fs.Bool("browser", false, "launch Chromium, for doors that need one (javascript-only, webmcp-execute)")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 2 {
		fmt.Fprintf(stderr, "frontlatch execute: want GRAPH and ACTION_ID, got %d arguments\n", len(pos))
		fs.Usage()
		return exitUsage
	}
	raw, err := agentInput(*input, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch execute: --input %s: %v\n", *input, err)
		return exitUsage
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil || in == nil || dec.More() {
		fmt.Fprintf(stderr, "frontlatch execute: --input must be one JSON object, like '{\"phone\": \"0412 345 678\"}'\n")
		return exitUsage
	}
	graph, err := readInput(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch execute: %v\n", err)
		return exitUsage
	}
	action, err := executor.ActionBytes(graph, pos[1])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch execute: %v\n", err)
		if errors.Is(err, shared.ErrInvalidGraph) {
			fmt.Fprintf(stderr, "  run `frontlatch check %s` to see every issue\n", pos[0])
			return exitFail
		}
		return exitUsage
	}

	octx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	store, err := openStore(octx, *storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch execute: %v\n", err)
		return storeExit(err)
	}
	defer store.Close()
	opts := executorOptions(store, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if *useBrowser {
		b, err := topology.NewBrowser(ctx, topology.BrowserOptions{})
		if err != nil {
			return launchFailed(stderr, "execute", err)
		}
		defer b.Close()
		opts.Browser = b
	}
	ex, err := executor.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch execute: %v\n", err)
		return exitFail
	}
	defer ex.Close()

	res, err := ex.Execute(ctx, executor.Call{Action: action, Input: in, IdempotencyKey: *key})
	if res != nil {
		out, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	}
	var refused *executor.RefusedError
	switch {
	case errors.As(err, &refused):
		fmt.Fprintf(stderr, "frontlatch execute: refused %s; nothing was sent:\n", pos[1])
		for _, r := range refused.Reasons {
			fmt.Fprintf(stderr, "  - %s\n", r)
		}
		fmt.Fprint(stderr, executeAdvice(err))
		return exitFail
	case err != nil:
		fmt.Fprintf(stderr, "frontlatch execute: %v\n", err)
		return exitFail
	}
	if res.Duplicate {
		fmt.Fprintf(stderr, "frontlatch execute: the idempotency key %q was used before: this is attempt %s's result; nothing was sent now\n", *key, res.AttemptID)
	}
	if res.Status >= 400 {
		fmt.Fprintf(stderr, "frontlatch execute: the site answered %d: the submission reached it but was not accepted\n", res.Status)
		return exitFail
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	return exitOK
}

// executeAdvice says what a person can do about a refusal.
func executeAdvice(err error) string {
	switch {
	case errors.Is(err, shared.ErrUnverifiedAction):
		return "  the owner has to confirm the action as it is now (the verifier's portal) before it can fire\n"
	case errors.Is(err, executor.ErrCapReached):
		return "  the owner's volume cap is used up for this period; wait for the next one or ask the owner to raise it\n"
	case errors.Is(err, executor.ErrBarrier):
		return "  the executor never solves CAPTCHAs or signs in; a person has to use this action\n"
	case errors.Is(err, executor.ErrNoDoor):
		return "  a door that needs script runs with --browser\n"
	case errors.Is(err, executor.ErrIdempotencyConflict):
		return "  repeat an --idempotency-key only to retry the same call; give a new key for a new one\n"
	case errors.Is(err, executor.ErrUnknownInput), errors.Is(err, executor.ErrInvalidInput):
		return "  fix --input: it may hold only the action's agent-fillable inputs, within their declared rules\n"
	}
	return ""
}

// agentInput is --input's JSON: the flag's value, or with @FILE the file's
// content and with @- standard input's (unless the graph is read from there).
func agentInput(v, graph string) ([]byte, error) {
	name, ok := strings.CutPrefix(v, "@")
	if !ok {
		return []byte(v), nil
	}
	var r io.Reader
	switch {
	case name == "-" && graph == "-":
		return nil, errors.New("the graph is already read from standard input")
	case name == "-":
		r = stdin
	case name == "":
		return nil, errors.New("@ names no file")
	default:
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxInputFile+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxInputFile {
		return nil, fmt.Errorf("more than %d MiB", maxInputFile>>20)
	}
	return raw, nil
}
