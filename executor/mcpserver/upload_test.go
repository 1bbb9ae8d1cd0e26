package mcpserver_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// lawfirmEnv serves lawfirm01, whose enquiry form takes supporting
// documents, as an MCP tool.
func lawfirmEnv(t *testing.T) (*env, string) {
	t.Helper()
	const (
		name = "lawfirm01"
		id   = "lawfirm01:enquiry:enquiry"
	)
	e := &env{sites: fixturestest.Serve(t, name), store: audittest.Open(t, audittest.URL(t, audit.DriverSQLite))}
	mapped, err := fixtures.MappedGraph(name, fixturestest.URL(t, e.sites, name))
	if err != nil {
		t.Fatal(err)
	}
	e.graph = executortest.Confirm(t, e.store, mapped, id, executortest.Limits(10, shared.PerDay, "office@lawfirm01.example"))
	e.graphPath = filepath.Join(t.TempDir(), "graph.json")
	writeFile(t, e.graphPath, e.graph)
	e.tool = toolName(t, e.graph, id)
	ex, err := executor.New(executor.Options{Store: e.store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ex.Close() }) // after the server's Close
	srv, err := mcpserver.New(t.Context(), mcpserver.File(e.graphPath), ex, e.store, mcpserver.Options{Interval: testInterval})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	e.server = srv
	return e, name
}

// TestCallWithAFile: an agent attaches a file to a tool call in the shape
// the tool's input schema lists; the site receives it as the form's file
// part, and the result names it by its size and digest. A bare base64
// string, the shape listed before, is refused by the schema: nothing sent.
func TestCallWithAFile(t *testing.T) {
	pdf := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
	digest := sha256.Sum256(pdf)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e, name := lawfirmEnv(t)
			c := e.connect(t, tr)
			list, err := c.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var schema map[string]any
			for _, tool := range list.Tools {
				if tool.Name == e.tool {
					remarshal(t, tool.InputSchema, &schema)
				}
			}
			docs, _ := schema["properties"].(map[string]any)["documents"].(map[string]any)
			if docs["type"] != "object" || cmp.Diff([]any{"content"}, docs["required"]) != "" {
				t.Fatalf("the listed schema of documents is %v, want the file object", docs)
			}

			args := map[string]any{"full_name": "Jo Carter", "email": "jo@example.org", "practice_area": "Employment",
				"message": "I would like advice about a contract.", "privacy_consent": true,
				"documents": map[string]any{"name": "offer letter.pdf", "content": base64.StdEncoding.EncodeToString(pdf)}}
			res, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			out := outputOf(t, res)
			subs, err := e.sites.Submissions(name)
			if err != nil {
				t.Fatal(err)
			}
			if len(subs) != 1 || subs[0].Outcome != fixtures.OutcomeAccepted {
				t.Fatalf("submissions %+v, want one accepted", subs)
			}
			if diff := cmp.Diff([]fixtures.UploadedFile{{Field: "documents", Filename: "offer letter.pdf", Size: int64(len(pdf)), ContentType: "application/pdf"}}, subs[0].Files); diff != "" {
				t.Errorf("files received (-want +got):\n%s", diff)
			}
			want := []executor.SentFile{{Field: "documents", Name: "offer letter.pdf", MediaType: "application/pdf", Size: int64(len(pdf)), SHA256: hex.EncodeToString(digest[:])}}
			if diff := cmp.Diff(want, out.Files); diff != "" {
				t.Errorf("structured content files (-want +got):\n%s", diff)
			}
			if txt := text(res); !strings.Contains(txt, `documents = file "offer letter.pdf" (application/pdf`) {
				t.Errorf("the text content does not name the file:\n%s", txt)
			}

			args["documents"] = base64.StdEncoding.EncodeToString(pdf)
			res, err = c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			r := refusalOf(t, res)
			if len(r.Reasons) == 0 || r.Reasons[0].Field != "documents" {
				t.Errorf("reasons %+v, want one on documents", r.Reasons)
			}
			if subs, _ := e.sites.Submissions(name); len(subs) != 1 {
				t.Errorf("%d submissions after the refused call, want still 1", len(subs))
			}
		})
	}
}

// TestHTTPUploadBound: over HTTP, with the server's default body bound, a
// tool call carrying a 2 MiB file goes through (the bound follows the
// executor's 10 MiB upload cap), and one whose body exceeds the bound is
// refused by the transport with a clear error: the site receives nothing.
func TestHTTPUploadBound(t *testing.T) {
	e, name := lawfirmEnv(t) // e.httpOpts is the zero value: every default
	c := e.connect(t, "http")
	call := func(file []byte) (*mcp.CallToolResult, error) {
		return c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: map[string]any{
			"full_name": "Jo Carter", "email": "jo@example.org", "practice_area": "Employment",
			"message": "The contract bundle is attached.", "privacy_consent": true,
			"documents": map[string]any{"name": "bundle.pdf", "content": base64.StdEncoding.EncodeToString(file)},
		}})
	}
	pdfOf := func(size int) []byte {
		b := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("0123456789abcdef"), size/16+1)...)
		return b[:size]
	}

	two := pdfOf(2 << 20)
	res, err := call(two)
	if err != nil {
		t.Fatalf("a 2 MiB file: %v", err)
	}
	out := outputOf(t, res)
	digest := sha256.Sum256(two)
	want := []executor.SentFile{{Field: "documents", Name: "bundle.pdf", MediaType: "application/pdf", Size: 2 << 20, SHA256: hex.EncodeToString(digest[:])}}
	if diff := cmp.Diff(want, out.Files); diff != "" {
		t.Errorf("files sent (-want +got):\n%s", diff)
	}
	subs, err := e.sites.Submissions(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 || len(subs[0].Files) != 1 || subs[0].Files[0].Size != 2<<20 {
		t.Fatalf("submissions %+v, want one with the 2 MiB file", subs)
	}

	// A file whose base64 alone is over the bound: the transport refuses
	// the request before the SDK or the executor reads it.
	bound := mcpserver.MaxBodyBytesFor(executor.DefaultMaxUploadBytes)
	_, err = call(pdfOf(int(bound/4*3) + 3))
	if err == nil {
		t.Fatal("a call over the body bound succeeded")
	}
	// The SDK's client reports the status; the body says the bound.
	if msg := err.Error(); !strings.Contains(msg, "Request Entity Too Large") {
		t.Errorf("the client's error %q does not say the request was too large", msg)
	}
	endpoint, token := e.serveHTTP(t, mcpserver.HTTPOptions{})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, strings.NewReader(strings.Repeat(" ", int(bound)+1)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	wantBody := fmt.Sprintf("request body exceeds the server's bound of %d bytes; nothing was read and nothing fired\n", bound)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(body) != wantBody {
		t.Errorf("a body of the bound plus one byte: %d %q, want 413 %q", resp.StatusCode, body, wantBody)
	}
	if subs, _ := e.sites.Submissions(name); len(subs) != 1 {
		t.Errorf("%d submissions after the call over the bound, want still 1", len(subs))
	}
}
