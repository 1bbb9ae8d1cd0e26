package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// exampleServer serves the electrician's mapped graph — never confirmed by
// its owner — with a fresh audit store.
func exampleServer(ctx context.Context) (*mcpserver.Server, func(), error) {
	sites, err := fixtures.Serve(ctx, "electrician01")
	if err != nil {
		return nil, nil, err
	}
	origin, _ := sites.URL("electrician01")
	graph, err := fixtures.MappedGraph("electrician01", origin)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "mcpserver-example")
	if err != nil {
		return nil, nil, err
	}
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		return nil, nil, err
	}
	exec, err := executor.New(executor.Options{Store: store})
	if err != nil {
		return nil, nil, err
	}
	srv, err := mcpserver.New(ctx, mcpserver.Bytes("electrician01", graph), exec, store, mcpserver.Options{})
	if err != nil {
		return nil, nil, err
	}
	return srv, func() { srv.Close(); exec.Close(); store.Close(); sites.Close(); os.RemoveAll(dir) }, nil
}

// A graph straight from the mapper has no owner confirmation, so the server
// offers an agent nothing to call.
func ExampleNew() {
	ctx := context.Background()
	srv, done, err := exampleServer(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		fmt.Println(err)
		return
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("tools offered:", len(res.Tools))
	fmt.Println("list_changed advertised:", cs.InitializeResult().Capabilities.Tools.ListChanged)
	// Output:
	// tools offered: 0
	// list_changed advertised: true
}

// The HTTP transport answers nothing without the bearer token, and nothing
// to a foreign Origin.
func ExampleServer_HTTPHandler() {
	ctx := context.Background()
	srv, done, err := exampleServer(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()

	token := mcpserver.NewToken()
	h, err := srv.HTTPHandler(mcpserver.HTTPOptions{Token: token})
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := httptest.NewServer(h)
	defer hs.Close()

	send := func(hdr map[string]string) int {
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	fmt.Println("no token:", send(nil))
	fmt.Println("foreign origin:", send(map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}))
	fmt.Println("token:", send(map[string]string{"Authorization": "Bearer " + token}))
	// Output:
	// no token: 401
	// foreign origin: 403
	// token: 200
}

// The HTTP transport's default body bound follows the executor's upload
// cap: a tool call may carry as many bytes of files as the executor
// uploads, in base64, with a margin for the rest of the call.
func ExampleMaxBodyBytesFor() {
	fmt.Println(mcpserver.MaxBodyBytesFor(executor.DefaultMaxUploadBytes)) // the default: 10 MiB of files
	fmt.Println(mcpserver.MaxBodyBytesFor(25 << 20))                       // executor.Options{MaxUploadBytes: 25 << 20}
	// Output:
	// 15029592
	// 36001112
}
