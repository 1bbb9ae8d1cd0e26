package compiler_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/compiler"
)

// graph reads the committed clinic01 fixture graph (unverified).
func graph() []byte {
	data, err := os.ReadFile("../fixtures/graphs/clinic01.json")
	if err != nil {
		log.Fatal(err)
	}
	return data
}

func ExampleReadGraph() {
	_, err := compiler.ReadGraph([]byte(`{"schemaVersion": "0.2"}`))
	fmt.Println(errors.Is(err, compiler.ErrInvalidGraph))
	// Output: true
}

func ExampleCompile() {
	g, err := compiler.ReadGraph(graph())
	if err != nil {
		log.Fatal(err)
	}
	// clinic01 is unverified: by default no tool is offered.
	out, _ := compiler.Compile(g, compiler.FormatMCP, compiler.Options{})
	fmt.Println(strings.Contains(string(out), `"tools": []`))
	// With IncludeUnverified it is offered, marked.
	out, _ = compiler.Compile(g, compiler.FormatMCP, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"title": "[UNVERIFIED] Book a dental appointment"`))
	// Output:
	// true
	// true
}

func ExampleCompileAll() {
	g, _ := compiler.ReadGraph(graph())
	files, err := compiler.CompileAll(g, compiler.Options{})
	if err != nil {
		log.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Println(strings.Join(names, "\n"))
	// Output:
	// ai-catalog.json
	// ard.json
	// jsonld.json
	// llms.txt
	// mcp-tools.json
	// openapi.json
	// webmcp-declarative.html
	// webmcp-declarative.json
	// webmcp.js
}

func ExampleCompileFormat() {
	g, _ := compiler.ReadGraph(graph())
	files, _ := compiler.CompileFormat(g, compiler.FormatARD, compiler.Options{})
	fmt.Println(len(files), string(files["ai-catalog.json"]) == string(files["ard.json"]))
	// Output: 2 true
}

func ExampleFormats() {
	fmt.Println(compiler.Formats())
	// Output: [mcp webmcp openapi jsonld ard llms]
}

// MCPVersions lists the protocol versions Options.MCPVersion accepts; the
// first is the default.
func ExampleMCPVersions() {
	fmt.Println(compiler.MCPVersions(), compiler.DefaultMCPVersion)
	// Output: [2026-07-28 2025-11-25] 2026-07-28
}

func ExampleParseFormat() {
	f, _ := compiler.ParseFormat("openapi")
	_, err := compiler.ParseFormat("pdf")
	fmt.Println(f, errors.Is(err, compiler.ErrUnknownFormat))
	// Output: openapi true
}

func ExampleFileNames() {
	names, _ := compiler.FileNames(compiler.FormatWebMCP)
	fmt.Println(names)
	// Output: [webmcp.js webmcp-declarative.html webmcp-declarative.json]
}

func ExampleMCPTools() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.MCPTools(g, compiler.Options{MCPVersion: compiler.MCPVersion20251125, IncludeUnverified: true})
	// 2025-11-25 has no ttlMs, cacheScope or resultType.
	fmt.Println(strings.Contains(string(out), "ttlMs"), strings.Contains(string(out), `"name": "clinic01.booking.appointment.form"`))
	// Output: false true
}

func ExampleWebMCPScript() {
	g, _ := compiler.ReadGraph(graph())
	js, _ := compiler.WebMCPScript(g, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(js), "document.modelContext"), strings.Contains(string(js), "navigator.modelContext"))
	// Output: true true
}

func ExampleWebMCPDeclarative() {
	g, _ := compiler.ReadGraph(graph())
	html, _ := compiler.WebMCPDeclarative(g, compiler.Options{IncludeUnverified: true})
	for _, line := range strings.Split(string(html), "\n") {
		if strings.HasPrefix(line, "  <input") {
			fmt.Println(line)
		}
	}
	// Output:
	//   <input name="patient-name" toolparamdescription="Your name. First and last name. Semantic type: person-name.">
	//   <input name="phone" toolparamdescription="Phone. Australian number, no spaces. Semantic type: phone.">
}

func ExampleWebMCPDeclarativeJSON() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.WebMCPDeclarativeJSON(g, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"form#appointment-form": {`))
	// Output: true
}

func ExampleOpenAPI() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.OpenAPI(g, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"operationId": "clinic01.booking.appointment.form"`))
	// Output: true
}

func ExampleJSONLD() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.JSONLD(g, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"@type": "ScheduleAction"`), strings.Contains(string(out), `"patient-name-input"`))
	// Output: true true
}

func ExampleJSONLDSchema() {
	fmt.Println(strings.Contains(string(compiler.JSONLDSchema()), `"$id": "urn:frontlatch:compiler:jsonld:0.1"`))
	// Output: true
}

func ExampleARDCatalog() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.ARDCatalog(g, compiler.Options{})
	fmt.Println(strings.Contains(string(out), `"identifier": "urn:air:harbourside-dental.com.au:mcp:actions"`))
	// Output: true
}

func ExampleLLMsTxt() {
	g, _ := compiler.ReadGraph(graph())
	out, _ := compiler.LLMsTxt(g, compiler.Options{})
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "- Verification:") {
			fmt.Println(line)
		}
	}
	// Output:
	// - Verification: UNVERIFIED — mapped only and not confirmed by the business, so an agent must not execute it. Note: Mapped only. Nothing here has been confirmed by the practice and nothing may execute.
}
