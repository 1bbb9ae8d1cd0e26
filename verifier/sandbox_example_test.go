package verifier_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/verifier"
)

// Sandbox every html-form action of a mapped site in one Chromium, and keep
// the runs in the graph. It needs Chromium and a site to talk to, so it is
// compiled but not run by go test; TestSandboxFixtureSites runs the same
// calls against the fifteen fixture sites.
func ExampleSandbox() {
	ctx := context.Background()
	data, err := os.ReadFile("graph.json") // e.g. written by `frontlatch map URL -o graph.json`
	if err != nil {
		log.Fatal(err)
	}
	g, issues := shared.Read(data)
	if g == nil {
		log.Fatal(issues)
	}

	// One browser for every run; Offline resolves only loopback hosts.
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if errors.Is(err, topology.ErrChromiumNotFound) {
		log.Fatal("install chromium first: ", err)
	} else if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	for _, a := range g.Actions {
		res, err := verifier.Sandbox(ctx, g, a.ID, verifier.SandboxOptions{Browser: b})
		var mm *verifier.MismatchError
		switch {
		case errors.Is(err, verifier.ErrNoFormDoor):
			continue // a phone link, a booking widget: nothing to fill
		case errors.As(err, &mm):
			// The run is evidence: keep it, and have the site mapped again
			// before anyone confirms this door.
			fmt.Println(a.ID, "does not work as mapped:", mm.Differences)
		case err != nil:
			log.Fatal(err) // site down, browser broken: nothing changed
		}
		fmt.Println(a.ID, res.Run.Outcome, *res.Run.Note)
		for _, f := range res.Run.Fields {
			fmt.Printf("  would have sent %s=%q\n", f.Name, f.Value)
		}
		g = res.Graph // the action is now sandbox-tested, its run appended
	}
	out, err := shared.Write(g)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("graph.json", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
