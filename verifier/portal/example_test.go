package portal_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/portal"
)

func ExampleBuildReport() {
	data, _ := fixtures.MappedGraph("clinic01", "http://127.0.0.1:8080")
	g, _ := shared.Read(data)
	r := portal.BuildReport(g, nil)
	fmt.Printf("%d of %d complete\n", r.Complete, r.Total)
	for _, a := range r.Actions {
		for _, why := range a.Reasons {
			fmt.Println(a.Label+":", why.Sentence)
		}
	}
	// Output:
	// 1 of 2 complete
	// Contact the business: An agent has no way in that it can use on its own: this action is reachable only by phone, by email, through another company's booking widget or by a link to another page.
	// Contact the business: There is nothing an agent could fill in for a customer: no field of this action is meant to be filled in.
	// Contact the business: The action collects no email address or phone number, so you would have no way to reach the customer back.
}

func ExampleRenderReport() {
	data, _ := fixtures.MappedGraph("webmcp01", "http://127.0.0.1:8080")
	g, _ := shared.Read(data)
	var page bytes.Buffer
	if err := portal.RenderReport(&page, portal.BuildReport(g, nil)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(page.String(), "<!DOCTYPE html>"), strings.Contains(page.String(), "<script"))
	// Output: true false
}

func ExampleReadGraphFile() {
	dir, _ := os.MkdirTemp("", "portal-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "graph.json")
	os.WriteFile(p, []byte(`{"schemaVersion": "0.2"}`), 0o644)
	_, err := portal.ReadGraphFile(context.Background(), p)
	var ge *portal.GraphError
	if errors.As(err, &ge) {
		fmt.Println(ge.Issues[0].Path, ge.Issues[0].Code)
	}
	// Output: $.schemaVersion version.unsupported
}

func ExampleNew() {
	dir, _ := os.MkdirTemp("", "portal-example")
	defer os.RemoveAll(dir)
	graph := filepath.Join(dir, "graph.json")
	data, _ := fixtures.MappedGraph("clinic01", "http://127.0.0.1:8080")
	os.WriteFile(graph, data, 0o644)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	srv, err := portal.New(ctx, portal.Options{GraphPath: graph, Store: store})
	if err != nil {
		fmt.Println(err)
		return
	}
	done := make(chan error)
	go func() { done <- srv.Serve(ctx) }()
	// The owner opens srv.URL() in a browser; it carries the one-time token.
	fmt.Println(strings.HasPrefix(srv.URL(), "http://127.0.0.1:"), strings.Contains(srv.URL(), "?token="))
	stop()
	fmt.Println(<-done)
	// Output:
	// true true
	// <nil>
}
