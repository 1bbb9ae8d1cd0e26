package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/frontlatch/frontlatch/shared"
)

// unconfirmed checks every action g says is verified against the audit
// store at storeURL (shared.RefusedActions), and says on stderr which of
// them it does not confirm and why, for compiler.Options.Unconfirmed and
// the report. A graph that says no action is verified opens no store.
// The exit code is storeExit's when the store cannot be opened, exitFail
// when ctx ended first.
func unconfirmed(ctx context.Context, g *shared.ActionGraph, storeURL string, stderr io.Writer, cmd string) (map[string]string, int) {
	if !slices.ContainsFunc(g.Actions, func(a shared.Action) bool { return a.Verification.Status() == shared.StatusVerified }) {
		return nil, exitOK
	}
	store, err := openStore(ctx, storeURL)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch %s: the audit store, to check the graph's confirmations: %v\n", cmd, err)
		return nil, storeExit(err)
	}
	defer store.Close()
	refused, err := shared.RefusedActions(ctx, g, store)
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch %s: checking the graph's confirmations: %v\n", cmd, err)
		return nil, exitFail
	}
	for _, a := range g.Actions {
		if why, ok := refused[a.ID]; ok {
			fmt.Fprintf(stderr, "frontlatch %s: action %s: the graph says verified, but the audit store does not confirm it (%s): treated as unverified\n", cmd, a.ID, why)
		}
	}
	return refused, exitOK
}
