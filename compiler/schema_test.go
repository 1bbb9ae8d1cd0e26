package compiler

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// TestOfficialSchemas validates every output of every golden graph, with
// and without unverified actions, against its official schema.
func TestOfficialSchemas(t *testing.T) {
	v := loadSchemas(t)
	for _, gg := range goldenGraphs() {
		for _, vr := range variants {
			t.Run(gg.name+"/"+vr.name, func(t *testing.T) {
				g := gg.graph(t)
				files := compileForGolden(t, g, vr.opts)

				for file, ver := range map[string]string{FileMCPTools: MCPVersion20260728, fileMCP20251125: MCPVersion20251125} {
					list := instance(t, files[file])
					if err := v.mcpList[ver].Validate(list); err != nil {
						t.Errorf("%s is not a %s ListToolsResult: %v", file, ver, err)
					}
					for _, tool := range list.(map[string]any)["tools"].([]any) {
						name := tool.(map[string]any)["name"].(string)
						if err := v.mcpTool[ver].Validate(tool); err != nil {
							t.Errorf("%s: tool %s is not a %s Tool: %v", file, name, ver, err)
						}
						if !shared.ValidToolName(name) {
							t.Errorf("%s: tool name %q breaks the naming rules", file, name)
						}
						checkSchemaCompiles(t, file+"/"+name, tool.(map[string]any)["inputSchema"])
					}
				}

				for _, base := range openAPIBases {
					if err := v.openapi[base].Validate(instance(t, files[FileOpenAPI])); err != nil {
						t.Errorf("openapi.json does not validate against %s: %v", base, err)
					}
				}

				for _, file := range []string{FileAICatalog, FileARD} {
					cat := instance(t, files[file])
					if err := v.ard.Validate(cat); err != nil {
						t.Errorf("%s does not validate against the ARD schema: %v", file, err)
					}
					for _, e := range cat.(map[string]any)["entries"].([]any) {
						for _, tool := range e.(map[string]any)["data"].(map[string]any)["tools"].([]any) {
							if err := v.mcpTool[MCPVersion20260728].Validate(tool); err != nil {
								t.Errorf("%s: inline server card tool is not an MCP Tool: %v", file, err)
							}
						}
					}
				}

				if err := v.jsonld.Validate(instance(t, files[FileJSONLD])); err != nil {
					t.Errorf("jsonld.json does not validate against schemas/jsonld.schema.json: %v", err)
				}

				checkWebMCPTable(t, files[FileWebMCPScript])
			})
		}
	}
}

// webmcpMembers are the ModelContextTool dictionary members (webmcp.webidl)
// the script passes to registerTool, plus the three keys execute uses.
var webmcpMembers = map[string]bool{
	"name": true, "title": true, "description": true, "inputSchema": true, "annotations": true,
	"form": true, "submit": true, "fields": true,
}

// checkWebMCPTable applies the WebMCP spec's prose rules the IDL cannot
// carry: a name of 1–128 [A-Za-z0-9_.-], a non-empty description, an
// inputSchema that serialises, and only readOnlyHint/untrustedContentHint.
func checkWebMCPTable(t *testing.T, script []byte) {
	t.Helper()
	for _, tool := range webmcpTable(t, script) {
		name, _ := tool["name"].(string)
		if !shared.ValidToolName(name) {
			t.Errorf("WebMCP tool name %q breaks the spec's rules", name)
		}
		if d, _ := tool["description"].(string); d == "" {
			t.Errorf("WebMCP tool %s has an empty description", name)
		}
		for k := range tool {
			if !webmcpMembers[k] {
				t.Errorf("WebMCP tool %s carries %q, which is not a ModelContextTool member", name, k)
			}
		}
		for k := range tool["annotations"].(map[string]any) {
			if k != "readOnlyHint" && k != "untrustedContentHint" {
				t.Errorf("WebMCP tool %s: annotation %q is not in WebMCP's ToolAnnotations", name, k)
			}
		}
		if _, err := json.Marshal(tool["inputSchema"]); err != nil {
			t.Errorf("WebMCP tool %s: inputSchema does not serialise: %v", name, err)
		}
		checkSchemaCompiles(t, "webmcp/"+name, tool["inputSchema"])
	}
}

// TestWebMCPScriptParses checks every golden webmcp.js with node --check
// where node is installed (the browser test in benchmark/e2e runs one).
func TestWebMCPScriptParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: node is not installed (benchmark/e2e runs the script in Chromium)")
	}
	for _, gg := range goldenGraphs() {
		for _, v := range variants {
			t.Run(gg.name+"/"+v.name, func(t *testing.T) {
				script, err := primary(gg.graph(t), FormatWebMCP, v.opts)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), "webmcp.js")
				if err := os.WriteFile(path, script, 0o644); err != nil {
					t.Fatal(err)
				}
				if out, err := exec.Command(node, "--check", path).CombinedOutput(); err != nil {
					t.Errorf("node --check: %v\n%s", err, out)
				}
			})
		}
	}
}
