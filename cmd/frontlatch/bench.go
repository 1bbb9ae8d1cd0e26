package main

import (
	"context"
	"io"
	"strings"

	"github.com/frontlatch/frontlatch/benchmark"
)

func init() {
	register(command{
		name:    "bench",
		usage:   benchmark.Usage,
		summary: "serve the fifteen-site set, map every site, write benchmark/results.json and print the table",
		run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return benchmark.Main(ctx, strings.TrimSpace("frontlatch bench "+strings.Join(args, " ")), args, stdout, stderr)
		},
	})
}
