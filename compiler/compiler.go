package compiler

import (
	"github.com/frontlatch/frontlatch/shared"
)

// Format names one output family. A format may produce more than one file
// (the ARD catalog is written under two well-known names; WebMCP has a
// script and a declarative alternative); its first file is its primary one.
type Format string

// The formats, in the order FormatValues returns them.
const (
	FormatMCP     Format = "mcp"
	FormatWebMCP  Format = "webmcp"
	FormatOpenAPI Format = "openapi"
	FormatJSONLD  Format = "jsonld"
	FormatARD     Format = "ard"
	FormatLLMs    Format = "llms"
)

// The MCP protocol versions the compiler writes a tools/list result for.
const (
	MCPVersion20260728 = "2026-07-28"
	MCPVersion20251125 = "2025-11-25"
	// DefaultMCPVersion is used when Options.MCPVersion is empty.
	DefaultMCPVersion = MCPVersion20260728
)

// mcpVersions is the one list of the protocol versions above, newest first.
var mcpVersions = [...]string{MCPVersion20260728, MCPVersion20251125}

// MCPVersionValues returns the MCP protocol versions the compiler writes,
// newest first. The slice is a copy.
func MCPVersionValues() []string { return append([]string(nil), mcpVersions[:]...) }

// Output file names, as CompileFormat and CompileAll name their files.
const (
	FileMCPTools           = "mcp-tools.json"
	FileWebMCPScript       = "webmcp.js"
	FileWebMCPDeclarative  = "webmcp-declarative.html"
	FileWebMCPDeclarativeJ = "webmcp-declarative.json"
	FileOpenAPI            = "openapi.json"
	FileJSONLD             = "jsonld.json"
	FileAICatalog          = "ai-catalog.json"
	FileARD                = "ard.json"
	FileLLMsTxt            = "llms.txt"
)

// Options tune what the compiler offers.
type Options struct {
	// IncludeUnverified also offers unverified and sandbox-tested actions in
	// the executable formats, each marked as such in its title, description
	// and metadata. Off by default: only actions the owner confirmed are
	// offered as callable tools.
	IncludeUnverified bool
	// MCPVersion is the protocol version of the tools/list result:
	// MCPVersion20260728 (the default when empty) or MCPVersion20251125.
	MCPVersion string
	// Unconfirmed holds, by action id, why the audit store does not
	// confirm an action the graph says is verified: shared.RefusedActions'
	// answer.
	// Each such action is compiled as unverified — left out of the
	// executable formats (or offered marked, with IncludeUnverified), its
	// status saying that the graph's word was not confirmed, and why. Nil
	// takes the graph's word: run shared.RefusedActions first whenever the
	// file may have been edited by someone other than the owner's portal.
	Unconfirmed map[string]string
}

// fileSpec is one file a format writes.
type fileSpec struct {
	name  string
	build func(*plan) ([]byte, error)
}

// formatSpec is one row of the format table.
type formatSpec struct {
	format Format
	files  []fileSpec
}

// formatTable is the one list of formats and the files each writes.
var formatTable = [...]formatSpec{
	{FormatMCP, []fileSpec{{FileMCPTools, buildMCP}}},
	{FormatWebMCP, []fileSpec{
		{FileWebMCPScript, buildWebMCPScript},
		{FileWebMCPDeclarative, buildWebMCPDeclarativeHTML},
		{FileWebMCPDeclarativeJ, buildWebMCPDeclarativeJSON},
	}},
	{FormatOpenAPI, []fileSpec{{FileOpenAPI, buildOpenAPI}}},
	{FormatJSONLD, []fileSpec{{FileJSONLD, buildJSONLD}}},
	{FormatARD, []fileSpec{{FileAICatalog, buildARD}, {FileARD, buildARD}}},
	{FormatLLMs, []fileSpec{{FileLLMsTxt, buildLLMs}}},
}

// FormatValues returns every format, in a fixed order: the order
// CompileAll writes them in.
func FormatValues() []Format {
	out := make([]Format, len(formatTable))
	for i, f := range formatTable {
		out[i] = f.format
	}
	return out
}

func formatNames() []string {
	out := make([]string, len(formatTable))
	for i, f := range formatTable {
		out[i] = string(f.format)
	}
	return out
}

// ParseFormat returns the format named s, or a *FormatError wrapping
// ErrUnknownFormat.
func ParseFormat(s string) (Format, error) {
	spec, err := lookup(Format(s))
	return spec.format, err
}

// lookup returns the spec of format f, or a *FormatError.
func lookup(f Format) (formatSpec, error) {
	for _, spec := range formatTable {
		if spec.format == f {
			return spec, nil
		}
	}
	return formatSpec{}, &FormatError{Format: string(f)}
}

// File is one compiled file: its name (FileMCPTools, FileWebMCPScript…)
// and its content.
type File struct {
	Name string
	Data []byte
}

// CompileFormat returns the files of format f for g, its primary file first
// (the tools/list result for FormatMCP, the registerTool script for
// FormatWebMCP, and so on).
func CompileFormat(g *shared.ActionGraph, f Format, opts Options) ([]File, error) {
	spec, p, err := prepare(g, f, opts)
	if err != nil {
		return nil, err
	}
	return buildFiles(p, spec, nil)
}

// CompileAll returns every file of every format for g, in FormatValues
// order, each format's primary file first.
func CompileAll(g *shared.ActionGraph, opts Options) ([]File, error) {
	p, err := newPlan(g, opts)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, spec := range formatTable {
		if out, err = buildFiles(p, spec, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// prepare finds format f and plans g's tools, in that order: an unknown
// format is reported before anything is read from the graph.
func prepare(g *shared.ActionGraph, f Format, opts Options) (formatSpec, *plan, error) {
	spec, err := lookup(f)
	if err != nil {
		return spec, nil, err
	}
	p, err := newPlan(g, opts)
	return spec, p, err
}

// buildFiles appends the files of spec to out.
func buildFiles(p *plan, spec formatSpec, out []File) ([]File, error) {
	for _, fs := range spec.files {
		b, err := fs.build(p)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: fs.name, Data: b})
	}
	return out, nil
}
