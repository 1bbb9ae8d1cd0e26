package benchmark_test

import (
	"context"
	"fmt"
	"os"

	"github.com/frontlatch/frontlatch/benchmark"
)

// Run maps the fixture set (here two of the fifteen sites) with one
// Chromium and scores what it found; WriteResults and PrintTable are what
// `frontlatch bench` does with the results.
func ExampleRun() {
	res, err := benchmark.Run(context.Background(), benchmark.Options{
		Sites:          []string{"plumber01", "clinic01"},
		SkipThroughput: true,
		Progress:       os.Stderr,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	a := res.Agreement
	fmt.Printf("%d sites, %d of %d named actions found\n", res.SiteCount, a.Found, a.Named)
	benchmark.PrintTable(os.Stdout, res)
	if err := benchmark.WriteResults("results.json", res); err != nil {
		fmt.Println(err)
	}
	// Run needs Chromium, so this example is compiled, not run; the
	// TestRunProducesValidGraphs runs the same call on two fixture sites.
}
