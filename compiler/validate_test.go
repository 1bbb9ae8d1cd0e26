package compiler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
)

// The official schemas are read from <repo root>/../shared/schemas, never
// copied into the repository (fixturestest.NeedShared: where that folder is
// absent the schema tests skip, naming it; under CI=true they fail).

// validators are the compiled official schemas.
type validators struct {
	mcpTool, mcpList map[string]*jsonschema.Schema // by MCP protocol version
	openapi          map[string]*jsonschema.Schema // by schema-base id
	ard              *jsonschema.Schema
	jsonld           *jsonschema.Schema
}

var (
	validatorsOnce sync.Once
	validatorsVal  *validators
	validatorsErr  error
)

// openAPIBases are the two OpenAPI 3.1 iterations every document must pass,
// each checking Schema Objects against its dialect.
var openAPIBases = []string{
	"https://spec.openapis.org/oas/3.1/schema-base/2022-10-07",
	"https://spec.openapis.org/oas/3.1/schema-base/2025-11-23",
}

// openAPIFiles are the eight files of those two iterations, registered
// under their own $id.
var openAPIFiles = []string{
	"schema.json", "schema-base.json", "dialect/base.schema.json", "meta/base.schema.json",
	"2025-11-23/schema.json", "2025-11-23/schema-base.json", "2025-11-23/dialect-2024-11-10.json", "2025-11-23/meta-2024-11-10.json",
}

func loadSchemas(t testing.TB) *validators {
	t.Helper()
	dir := fixturestest.NeedShared(t, "schemas")
	validatorsOnce.Do(func() { validatorsVal, validatorsErr = compileSchemas(dir) })
	if validatorsErr != nil {
		t.Fatal(validatorsErr)
	}
	return validatorsVal
}

// compileSchemas compiles the schemas under dir; a file missing from a
// present shared/schemas folder is an error, not a skip.
func compileSchemas(dir string) (*validators, error) {
	v := &validators{mcpTool: map[string]*jsonschema.Schema{}, mcpList: map[string]*jsonschema.Schema{}, openapi: map[string]*jsonschema.Schema{}}
	c := jsonschema.NewCompiler()
	add := func(path, id string) (string, error) {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if id == "" {
			id, _ = doc.(map[string]any)["$id"].(string)
		}
		return id, c.AddResource(id, doc)
	}
	for _, ver := range []string{MCPVersion20260728, MCPVersion20251125} {
		path := filepath.Join(dir, "mcp", ver+".schema.json")
		// The MCP schema files have no $id: register them under their file URL.
		u, err := add(path, "file://"+filepath.ToSlash(path))
		if err != nil {
			return nil, err
		}
		if v.mcpTool[ver], err = c.Compile(u + "#/$defs/Tool"); err != nil {
			return nil, err
		}
		if v.mcpList[ver], err = c.Compile(u + "#/$defs/ListToolsResult"); err != nil {
			return nil, err
		}
	}
	for _, f := range openAPIFiles {
		if _, err := add(filepath.Join(dir, "openapi-3.1", filepath.FromSlash(f)), ""); err != nil {
			return nil, err
		}
	}
	for _, id := range openAPIBases {
		s, err := c.Compile(id)
		if err != nil {
			return nil, err
		}
		v.openapi[id] = s
	}
	id, err := add(filepath.Join(dir, "ard", "ai-catalog.schema.json"), "")
	if err != nil {
		return nil, err
	}
	if v.ard, err = c.Compile(id); err != nil {
		return nil, err
	}
	// Our own schema of the JSON-LD we write lives in this module.
	if id, err = add(filepath.Join("schemas", "jsonld.schema.json"), ""); err != nil {
		return nil, err
	}
	if v.jsonld, err = c.Compile(id); err != nil {
		return nil, err
	}
	return v, nil
}

// instance decodes output the way the validator expects (json.Number).
func instance(t *testing.T, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return v
}

// checkSchemaCompiles asserts that s is itself a valid JSON Schema 2020-12.
func checkSchemaCompiles(t *testing.T, where string, s any) {
	t.Helper()
	c := jsonschema.NewCompiler()
	u := "mem://" + strings.NewReplacer("/", "_", " ", "_").Replace(where) + ".json"
	if err := c.AddResource(u, s); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if _, err := c.Compile(u); err != nil {
		t.Errorf("%s: inputSchema is not a valid JSON Schema 2020-12: %v", where, err)
	}
}

// webmcpTable extracts the tool table from a generated script.
func webmcpTable(t *testing.T, script []byte) []map[string]any {
	t.Helper()
	s := string(script)
	start := strings.Index(s, "var tools = ")
	end := strings.Index(s, ";\n\n")
	if start < 0 || end < start {
		t.Fatalf("no tool table in the WebMCP script:\n%s", s)
	}
	var tools []map[string]any
	if err := json.Unmarshal([]byte(s[start+len("var tools = "):end]), &tools); err != nil {
		t.Fatalf("the WebMCP tool table is not JSON: %v", err)
	}
	return tools
}

// TestMissingSchemasAreNamed: a schema folder with a file missing fails
// naming the file, instead of failing obscurely.
func TestMissingSchemasAreNamed(t *testing.T) {
	tests := []struct {
		name  string
		setup func(dir string) string
		want  string
	}{
		{"no folder", func(dir string) string { return filepath.Join(dir, "schemas") }, "schemas"},
		{"no MCP schema", func(dir string) string { os.MkdirAll(filepath.Join(dir, "mcp"), 0o755); return dir }, filepath.Join("mcp", "2026-07-28.schema.json")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compileSchemas(tt.setup(t.TempDir()))
			if !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("err = %v, want a missing file", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to name %q", err, tt.want)
			}
		})
	}
}
