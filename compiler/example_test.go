package compiler_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/shared"
)

// graph reads the committed clinic01 fixture graph (unverified).
func graph() []byte {
	data, err := os.ReadFile("../fixtures/graphs/clinic01.json")
	if err != nil {
		log.Fatal(err)
	}
	return data
}

// readGraph reads the committed clinic01 fixture graph with shared.Read,
// the one reader every stage uses.
func readGraph() *shared.ActionGraph {
	g, issues := shared.Read(graph())
	if len(issues) > 0 {
		log.Fatal(issues)
	}
	return g
}

// primary is the primary file of format f: the first CompileFormat returns.
func primary(g *shared.ActionGraph, f compiler.Format, opts compiler.Options) []byte {
	files, err := compiler.CompileFormat(g, f, opts)
	if err != nil {
		log.Fatal(err)
	}
	return files[0].Data
}

func ExampleCompileFormat() {
	g := readGraph()
	// clinic01 is unverified: by default no tool is offered.
	files, err := compiler.CompileFormat(g, compiler.FormatMCP, compiler.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(files[0].Name, strings.Contains(string(files[0].Data), `"tools": []`))
	// With IncludeUnverified it is offered, marked.
	files, _ = compiler.CompileFormat(g, compiler.FormatMCP, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(files[0].Data), `"title": "[UNVERIFIED] Book a dental appointment"`))
	// A format may write several files, its primary one first.
	files, _ = compiler.CompileFormat(g, compiler.FormatWebMCP, compiler.Options{})
	for _, f := range files {
		fmt.Println(f.Name)
	}
	// Output:
	// mcp-tools.json true
	// true
	// webmcp.js
	// webmcp-declarative.html
	// webmcp-declarative.json
}

// A graph that does not validate is refused with a *compiler.GraphError
// that matches shared.ErrInvalidGraph.
func ExampleCompileFormat_invalidGraph() {
	g := readGraph()
	g.Actions[0].SideEffects.Effects = nil // every action must state its effects
	_, err := compiler.CompileFormat(g, compiler.FormatMCP, compiler.Options{})
	var ge *compiler.GraphError
	fmt.Println(errors.Is(err, shared.ErrInvalidGraph), errors.As(err, &ge))
	// Output: true true
}

func ExampleCompileAll() {
	files, err := compiler.CompileAll(readGraph(), compiler.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		fmt.Println(f.Name)
	}
	// Output:
	// mcp-tools.json
	// webmcp.js
	// webmcp-declarative.html
	// webmcp-declarative.json
	// openapi.json
	// jsonld.json
	// ai-catalog.json
	// ard.json
	// llms.txt
}

func ExampleFormatValues() {
	fmt.Println(compiler.FormatValues())
	// Output: [mcp webmcp openapi jsonld ard llms]
}

// MCPVersionValues lists the protocol versions Options.MCPVersion accepts;
// the first is the default.
func ExampleMCPVersionValues() {
	fmt.Println(compiler.MCPVersionValues(), compiler.DefaultMCPVersion)
	// Output: [2026-07-28 2025-11-25] 2026-07-28
}

func ExampleParseFormat() {
	f, _ := compiler.ParseFormat("openapi")
	_, err := compiler.ParseFormat("pdf")
	fmt.Println(f, errors.Is(err, compiler.ErrUnknownFormat))
	// Output: openapi true
}

// FormatMCP for an older protocol version: 2025-11-25 has no ttlMs,
// cacheScope or resultType.
func ExampleCompileFormat_mcp() {
	out := primary(readGraph(), compiler.FormatMCP, compiler.Options{MCPVersion: compiler.MCPVersion20251125, IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), "ttlMs"), strings.Contains(string(out), `"name": "clinic01.booking.appointment.form"`))
	// Output: false true
}

// FormatWebMCP: the registerTool script, then the declarative alternative
// as an HTML snippet and as JSON keyed by each form's locator.
func ExampleCompileFormat_webMCP() {
	files, _ := compiler.CompileFormat(readGraph(), compiler.FormatWebMCP, compiler.Options{IncludeUnverified: true})
	js, html, js2 := string(files[0].Data), string(files[1].Data), string(files[2].Data)
	fmt.Println(strings.Contains(js, "document.modelContext"), strings.Contains(js, "navigator.modelContext"))
	for _, line := range strings.Split(html, "\n") {
		if strings.HasPrefix(line, "  <input") {
			fmt.Println(line)
		}
	}
	fmt.Println(strings.Contains(js2, `"form#appointment-form": {`))
	// Output:
	// true true
	//   <input name="patient-name" toolparamdescription="Your name. First and last name. Semantic type: person-name. Length as the site counts it: in UTF-16 code units, so a character outside the Basic Multilingual Plane (most emoji) counts as two.">
	//   <input name="phone" toolparamdescription="Phone. Australian number, no spaces. Semantic type: phone.">
	// true
}

func ExampleCompileFormat_openAPI() {
	out := primary(readGraph(), compiler.FormatOpenAPI, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"operationId": "clinic01.booking.appointment.form"`))
	// Output: true
}

func ExampleCompileFormat_jsonLD() {
	out := primary(readGraph(), compiler.FormatJSONLD, compiler.Options{IncludeUnverified: true})
	fmt.Println(strings.Contains(string(out), `"@type": "ScheduleAction"`), strings.Contains(string(out), `"patient-name-input"`))
	// Output: true true
}

func ExampleJSONLDSchema() {
	fmt.Println(strings.Contains(string(compiler.JSONLDSchema()), `"$id": "urn:frontlatch:compiler:jsonld:0.1"`))
	// Output: true
}

// FormatARD writes the same catalog under both well-known names.
func ExampleCompileFormat_ard() {
	files, _ := compiler.CompileFormat(readGraph(), compiler.FormatARD, compiler.Options{})
	fmt.Println(len(files), string(files[0].Data) == string(files[1].Data))
	fmt.Println(strings.Contains(string(files[0].Data), `"identifier": "urn:air:harbourside-dental.com.au:mcp:actions"`))
	// Output:
	// 2 true
	// true
}

func ExampleCompileFormat_llms() {
	out := primary(readGraph(), compiler.FormatLLMs, compiler.Options{})
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "- Verification:") {
			fmt.Println(line)
		}
	}
	// Output:
	// - Verification: UNVERIFIED — mapped only and not confirmed by the business, so an agent must not execute it. Note: Mapped only. Nothing here has been confirmed by the practice and nothing may execute.
}

// A graph file says what its last writer wanted it to say. Check its
// confirmations against the audit store (shared.RefusedActions) before
// compiling: here the store knows none of them (say the file came from
// somewhere else), so no action is offered and every format says why.
func ExampleOptions_unconfirmed() {
	data, err := os.ReadFile("testdata/graphs/doors.json")
	if err != nil {
		log.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		log.Fatal(issues)
	}
	store := shared.AuditLookupFunc(func(context.Context, shared.AuditQuery) (shared.AuditAnswer, error) {
		return shared.AuditAnswer{}, nil // no such record
	})
	unconfirmed, err := shared.RefusedActions(context.Background(), g, store)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(unconfirmed), "actions the file says are verified are not confirmed")
	tools := primary(g, compiler.FormatMCP, compiler.Options{Unconfirmed: unconfirmed})
	fmt.Println(strings.Contains(string(tools), `"tools": []`))
	// Output:
	// 3 actions the file says are verified are not confirmed
	// true
}
