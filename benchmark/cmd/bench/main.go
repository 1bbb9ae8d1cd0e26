// Command bench serves the fifteen fixture sites, maps each with one browser,
// and writes benchmark/results.json; it is `frontlatch bench` without the CLI.
package main

import (
	"context"
	"os"
	"os/signal"
	"strings"

	"github.com/frontlatch/frontlatch/benchmark"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := benchmark.Main(ctx, "go run ./benchmark/cmd/bench "+strings.Join(os.Args[1:], " "), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
