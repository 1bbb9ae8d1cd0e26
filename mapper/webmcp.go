package mapper

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

//go:embed webmcp.js
var webmcpInitScript string

// WebMCPInitScript returns the script that records WebMCP tools registered
// by a page. Map adds it to every page it opens; an embedder calling
// MapPage must add it before the page loads (topology.Options.InitScripts,
// or Page.addScriptToEvaluateOnNewDocument) for imperative tools to be seen.
func WebMCPInitScript() string { return webmcpInitScript }

// webmcpTool is one tool a page registered, as the init script recorded it.
type webmcpTool struct {
	Where string `json:"where"` // "document" or "navigator"
	tool
}

// webmcpReadJS reads the tools the init script recorded on a live page
// ("[]" when it was not installed); it runs in the page's one read
// (extract.PageScript).
const webmcpReadJS = `() => typeof window.__frontlatchWebMCP === "function" ? window.__frontlatchWebMCP() : "[]"`

// decodeWebMCPTools reads webmcpReadJS's answer; none when it is not a
// list of tools (a page that broke the recorder).
func decodeWebMCPTools(raw string) []webmcpTool {
	var tools []webmcpTool
	if json.Unmarshal([]byte(raw), &tools) != nil {
		return nil
	}
	return tools
}

// addWebMCPTools maps tools registered imperatively on a page.
func (b *builder) addWebMCPTools(pageURL string, tools []webmcpTool) {
	for _, t := range tools {
		if !shared.ValidToolName(t.Name) {
			b.note("a WebMCP tool with an invalid name %q on %s is left out.", t.Name, b.relPath(pageURL))
			continue
		}
		kind, word, why := t.intent()
		if why != "" {
			b.note("WebMCP tool %s on %s %s.", t.Name, b.relPath(pageURL), why)
			continue
		}
		d, isNew := b.draftFor("webmcp|"+t.Name, kind, t.label(), pageURL, slugify(t.Name))
		ev := t.Where + ".modelContext.registerTool({name: \"" + t.Name + "\"})"
		d.addDoor("webmcp|"+t.Name, shared.Access{
			Method: shared.AccessWebMCPTool, URL: pageURL,
			Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute},
			ToolName:   strPtr(t.Name),
			Provenance: b.prov(shared.MethodParsedWebMCP, confToolDoor, ev),
		}, pageURL)
		if !isNew {
			continue
		}
		d.action.Provenance = ptr(b.prov(shared.MethodParsedWebMCP, 0.8, "tool name and description say “"+word+"”"))
		d.action.Inputs, d.action.Validations = b.schemaInputs(t.InputSchema, shared.MethodParsedWebMCP, "inputSchema", "WebMCP tool "+t.Name+" on "+b.relPath(pageURL))
		d.effects.text = t.Description
	}
}

// addDeclarativeTool adds the webmcp-tool door of a <form toolname>.
func (b *builder) addDeclarativeTool(d *draft, p *extract.Page, f *extract.Form, loc shared.Locator, sub shared.Submission) {
	ev := "form[toolname=" + cssValue(f.ToolName) + "]"
	if f.ToolDescription != "" {
		ev += "[tooldescription]"
	}
	if f.ToolAutoSubmit {
		ev += "[toolautosubmit]: the browser submits when the agent calls the tool"
	} else {
		ev += ": without toolautosubmit the browser fills the form and the person submits"
	}
	s := sub
	s.Transport = shared.TransportWebMCPExecute
	d.addDoor("webmcp|"+f.ToolName, shared.Access{
		Method: shared.AccessWebMCPTool, URL: p.URL, Locator: &loc, Submission: &s,
		ToolName:   strPtr(f.ToolName),
		Provenance: b.prov(shared.MethodParsedWebMCP, confToolDoor, ev),
	}, p.URL)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
