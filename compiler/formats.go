package compiler

import (
	_ "embed"

	"github.com/frontlatch/frontlatch/shared"
)

// build compiles one file of g with opts.
func build(g *shared.ActionGraph, opts Options, f func(*plan) ([]byte, error)) ([]byte, error) {
	p, err := newPlan(g, opts)
	if err != nil {
		return nil, err
	}
	return f(p)
}

// MCPTools returns the tools/list result of g for opts.MCPVersion: one tool
// per executable door of each offered action (mcp-tools.json).
func MCPTools(g *shared.ActionGraph, opts Options) ([]byte, error) { return build(g, opts, buildMCP) }

// WebMCPScript returns the script a site owner adds to register each
// offered form with document.modelContext.registerTool (webmcp.js).
func WebMCPScript(g *shared.ActionGraph, opts Options) ([]byte, error) {
	return build(g, opts, buildWebMCPScript)
}

// WebMCPDeclarative returns the declarative alternative as an HTML snippet:
// the toolname, tooldescription and toolparamdescription attributes to add
// to each form (webmcp-declarative.html).
func WebMCPDeclarative(g *shared.ActionGraph, opts Options) ([]byte, error) {
	return build(g, opts, buildWebMCPDeclarativeHTML)
}

// WebMCPDeclarativeJSON returns the same attributes as JSON, keyed by each
// form's locator (webmcp-declarative.json).
func WebMCPDeclarativeJSON(g *shared.ActionGraph, opts Options) ([]byte, error) {
	return build(g, opts, buildWebMCPDeclarativeJSON)
}

// OpenAPI returns an OpenAPI 3.1 document with one operation per offered
// form or documented endpoint (openapi.json).
func OpenAPI(g *shared.ActionGraph, opts Options) ([]byte, error) {
	return build(g, opts, buildOpenAPI)
}

// JSONLD returns Schema.org JSON-LD: the site as an Organization whose
// potentialAction lists every door (jsonld.json).
func JSONLD(g *shared.ActionGraph, opts Options) ([]byte, error) { return build(g, opts, buildJSONLD) }

// ARDCatalog returns the ARD catalog listing the site's MCP server card, to
// publish at /.well-known/ai-catalog.json and /.well-known/ard.json.
func ARDCatalog(g *shared.ActionGraph, opts Options) ([]byte, error) { return build(g, opts, buildARD) }

// LLMsTxt returns llms.txt: what the business offers and how an agent may
// act, with every action's verification status.
func LLMsTxt(g *shared.ActionGraph, opts Options) ([]byte, error) { return build(g, opts, buildLLMs) }

//go:embed schemas/jsonld.schema.json
var jsonldSchema []byte

// JSONLDSchema returns the JSON Schema (2020-12) of the exact JSON-LD shape
// JSONLD writes. Schema.org publishes no JSON Schema, so this one is ours.
func JSONLDSchema() []byte { return append([]byte(nil), jsonldSchema...) }
