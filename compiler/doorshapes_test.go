package compiler

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// webmcpFormPostGraph is doorsGraph with its WebMCP tool door recording a
// form-post submission without an endpoint, a graph shared.Read accepts
// (the reviewer's webmcp-formpost.json): the door is executable by its tool
// name alone, and is no HTTP request.
func webmcpFormPostGraph() *shared.ActionGraph {
	g := doorsGraph()
	g.Actions[0].Access[3].Submission = &shared.Submission{Transport: shared.TransportFormPost}
	return g
}

// compileEvery compiles g into every format, a panic reported as an error.
func compileEvery(g *shared.ActionGraph, opts Options) (files []File, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return CompileAll(g, opts)
}

// allFileNames is every file CompileAll writes, sorted.
var allFileNames = []string{FileAICatalog, FileARD, FileJSONLD, FileLLMsTxt, FileMCPTools, FileOpenAPI, FileWebMCPDeclarative, FileWebMCPDeclarativeJ, FileWebMCPScript}

func sortedNames(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Name)
	}
	sort.Strings(out)
	return out
}

// TestWebMCPDoorWithoutEndpoint: a WebMCP tool door whose submission names
// form-post but no endpoint compiles into every format; it stays an MCP
// tool, and neither OpenAPI nor JSON-LD describes it as an HTTP request.
func TestWebMCPDoorWithoutEndpoint(t *testing.T) {
	const webmcpTool = "plumber.quote.job.webmcp"
	g := webmcpFormPostGraph()
	data, err := shared.Write(g)
	if err != nil {
		t.Fatalf("the graph does not validate: %v", err)
	}
	if _, issues := shared.Read(data); len(issues) > 0 {
		t.Fatalf("shared.Read: %v", issues)
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			files, err := compileEvery(g, v.opts)
			if err != nil {
				t.Fatalf("CompileAll: %v", err)
			}
			if diff := cmp.Diff(allFileNames, sortedNames(files)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			out := byName(files)
			var mcp mcpResultView
			if err := json.Unmarshal(out[FileMCPTools], &mcp); err != nil {
				t.Fatal(err)
			}
			var openapi struct {
				Paths map[string]map[string]struct {
					OperationID string `json:"operationId"`
				} `json:"paths"`
			}
			if err := json.Unmarshal(out[FileOpenAPI], &openapi); err != nil {
				t.Fatal(err)
			}
			var jsonld struct {
				PotentialAction []struct {
					Identifier string `json:"identifier"`
					Target     struct {
						URLTemplate string `json:"urlTemplate"`
						HTTPMethod  string `json:"httpMethod"`
					} `json:"target"`
				} `json:"potentialAction"`
			}
			if err := json.Unmarshal(out[FileJSONLD], &jsonld); err != nil {
				t.Fatal(err)
			}
			type view struct {
				MCPTool         bool
				OpenAPIOp       bool
				JSONLDTarget    string
				JSONLDMethod    string
				JSONLDInfoEntry bool
			}
			want := view{MCPTool: true, JSONLDTarget: "https://harbour-plumbing.example/quote/", JSONLDInfoEntry: true}
			var got view
			for _, tl := range mcp.Tools {
				got.MCPTool = got.MCPTool || tl.Name == webmcpTool
			}
			for _, item := range openapi.Paths {
				for _, op := range item {
					got.OpenAPIOp = got.OpenAPIOp || op.OperationID == webmcpTool
				}
			}
			for _, e := range jsonld.PotentialAction {
				if e.Identifier == "plumber:quote:job#webmcp-tool" {
					got.JSONLDInfoEntry, got.JSONLDTarget, got.JSONLDMethod = true, e.Target.URLTemplate, e.Target.HTTPMethod
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the WebMCP door without an endpoint (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDoorShapesCompile: every door shape a valid graph may hold (each
// access method × transport × endpoint absent, empty or present, and each
// method without a submission, with a locator, a submit control and a tool
// name so that as many as can be are executable) compiles into every format, in every variant, without a
// panic or an error.
func TestDoorShapesCompile(t *testing.T) {
	const site = "https://shapes.example/"
	endpoints := []struct {
		name string
		ep   *string
	}{{"endpoint-nil", nil}, {"endpoint-empty", ptr("")}, {"endpoint-set", ptr(site + "submit/?a=1")}}
	valid := 0
	for _, m := range shared.AccessMethodValues() {
		for _, tr := range append(shared.TransportValues(), "") {
			for _, ep := range endpoints {
				if tr == "" && ep.ep != nil {
					continue
				}
				name := string(m) + "/" + string(tr) + "/" + ep.name
				if tr == "" {
					name = string(m) + "/no-submission"
				}
				t.Run(name, func(t *testing.T) {
					g := shared.NewGraph("ag_shapes", shared.Site{Domain: "shapes.example", URL: site}, testAt, shared.Generator{Name: "test", Version: "0.1.0"})
					a := newAction("shapes:contact:door", shared.KindContact, "Contact us", site)
					a.Access = []shared.Access{{
						Method: m, URL: site, Locator: css("form#c"), Occurrences: 1, ToolName: ptr("contact_us"),
						Submission: &shared.Submission{Transport: tr, Endpoint: ep.ep, SubmitControl: css("form#c [type=submit]")},
						Provenance: prov(shared.MethodParsedHTML, 0.9, "door"),
					}}
					if tr == "" {
						a.Access[0].Submission = nil
					}
					a.Inputs = []shared.Input{field("form#c", "email", "Email", shared.SemanticEmail, "email", true)}
					a.SideEffects = sideEffects("Emails the office.", effect(shared.EffectSendsEmailToBusiness, nil, false))
					g.Actions = []shared.Action{a}
					if _, err := shared.Write(g); err != nil {
						t.Skipf("not a graph the contract accepts: %v", err)
					}
					valid++
					for _, v := range variants {
						files, err := compileEvery(g, v.opts)
						if err != nil {
							t.Fatalf("%s: CompileAll: %v", v.name, err)
						}
						if diff := cmp.Diff(allFileNames, sortedNames(files)); diff != "" {
							t.Errorf("%s: files (-want +got):\n%s", v.name, diff)
						}
					}
				})
			}
		}
	}
	if valid == 0 {
		t.Fatal("no door shape made a valid graph")
	}
}
