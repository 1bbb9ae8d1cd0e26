package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// wireLog collects the client's JSON-RPC log.
type wireLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *wireLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// results returns the result of every response the client read.
func (w *wireLog) results() []json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(w.b.Bytes()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "read: ")
		if !ok {
			continue
		}
		var msg struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &msg) == nil && msg.Result != nil {
			out = append(out, msg.Result)
		}
	}
	return out
}

// mcpSchemas compiles the official MCP schema's ListToolsResult and
// CallToolResult for a protocol version, read in place from ../shared.
func mcpSchemas(t *testing.T, version string) (list, call *jsonschema.Schema) {
	t.Helper()
	path := fixturestest.NeedShared(t, "schemas", "mcp", version+".schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	u := "file://" + filepath.ToSlash(path) // the MCP schema files have no $id
	if err := c.AddResource(u, doc); err != nil {
		t.Fatal(err)
	}
	if list, err = c.Compile(u + "#/$defs/ListToolsResult"); err != nil {
		t.Fatal(err)
	}
	if call, err = c.Compile(u + "#/$defs/CallToolResult"); err != nil {
		t.Fatal(err)
	}
	return list, call
}

// What the server puts on the wire — the tools/list result, a fired call,
// a refused one, a call with bad arguments — validates against the
// official MCP schema of the protocol version the client negotiated, over
// each transport.
func TestWireMatchesTheMCPSchema(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			e := newEnv(t, 1)
			log := &wireLog{}
			e.wire = log
			c := e.connect(t, tr)
			version := c.InitializeResult().ProtocolVersion
			listSchema, callSchema := mcpSchemas(t, version)

			if n := len(c.listNames(t)); n != 1 {
				t.Fatalf("listed %d tools, want 1", n)
			}
			for _, args := range []map[string]any{goodArgs(), goodArgs(), {"phone": 5}} { // fires, cap reached, bad arguments
				if _, err := c.CallTool(t.Context(), &mcp.CallToolParams{Name: e.tool, Arguments: args}); err != nil {
					t.Fatal(err)
				}
			}
			var lists, calls int
			for _, raw := range log.results() {
				var probe map[string]json.RawMessage
				if err := json.Unmarshal(raw, &probe); err != nil {
					t.Fatal(err)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				var s *jsonschema.Schema
				switch {
				case probe["tools"] != nil:
					s, lists = listSchema, lists+1
				case probe["content"] != nil:
					s, calls = callSchema, calls+1
				default:
					continue
				}
				if err := s.Validate(inst); err != nil {
					t.Errorf("%s result does not validate against MCP %s: %v\n%s", tr, version, err, raw)
				}
			}
			if lists < 1 || calls != 3 {
				t.Errorf("saw %d list and %d call results on the wire, want ≥1 and 3", lists, calls)
			}
		})
	}
}
