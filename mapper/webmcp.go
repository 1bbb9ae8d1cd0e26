package mapper

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology/pagejs"
)

//go:embed webmcp.js
var webmcpSource string

// webmcpInitScript is webmcp.js with topology's hookRegisterTool inlined.
var webmcpInitScript = pagejs.MustInline(webmcpSource)

// WebMCPInitScript returns the script that records WebMCP tools registered
// by a page. Map adds it to every page it opens; an embedder calling
// MapPage must add it before the page loads (topology.PageOptions.InitScripts,
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

// decodeWebMCPTools reads webmcpReadJS's answer; an error when it is not
// a list of tools (a page that broke the recorder).
func decodeWebMCPTools(raw string) ([]webmcpTool, error) {
	var tools []webmcpTool
	if err := json.Unmarshal([]byte(raw), &tools); err != nil {
		return nil, fmt.Errorf("the recorder's answer is not a list of tools: %w", err)
	}
	return tools, nil
}

// toolDoor is one tool as the doors stage reads it — a tool a page
// registered through WebMCP, or one an MCP server card lists: its door,
// the action it opens (head), and its parameters, read from its
// inputSchema (problems: notes about a schema that could not be read,
// recorded when the tool makes its action). A tool that is not a customer
// action is a toolDoor with only a note.
type toolDoor struct {
	note     string // why the tool is left out; "" for a door
	head     actionHead
	door     keyedDoor
	doorPage string // the page the door counts as seen on
	params   toolParams
	problems []string
	text     string // the tool's description, for effects
}

// invalidToolNote is the note about a tool whose name breaks
// shared.ValidToolName, the one WebMCP and MCP name rule: the mapper
// applies it to every tool it reads (registered, declared by a
// <form toolname> or listed by an MCP server card) and leaves the tool out.
// what is the kind of tool ("a WebMCP tool"), where the place it was read.
func invalidToolNote(what, name, where string) string {
	return fmt.Sprintf("%s with an invalid name %q %s is left out.", what, name, where)
}

// webmcpDoors reads the tools a page registered imperatively.
func webmcpDoors(s signer, site *url.URL, cls classifier, pageURL string, tools []webmcpTool) []toolDoor {
	var out []toolDoor
	rel := relPath(site, pageURL)
	for _, t := range tools {
		if !shared.ValidToolName(t.Name) {
			out = append(out, toolDoor{note: invalidToolNote("a WebMCP tool", t.Name, "on "+rel)})
			continue
		}
		kind, word, why := t.intent()
		if why != "" {
			out = append(out, toolDoor{note: fmt.Sprintf("WebMCP tool %s on %s %s.", t.Name, rel, why)})
			continue
		}
		ev := t.Where + ".modelContext.registerTool({name: \"" + t.Name + "\"})"
		params, problems := readSchema(cls, t.InputSchema, shared.MethodParsedWebMCP, "inputSchema", "WebMCP tool "+t.Name+" on "+rel)
		out = append(out, toolDoor{
			head: actionHead{key: "webmcp|" + t.Name, kind: kind, label: t.label(), page: pageURL, idPart: slugify(t.Name),
				provenance: s.prov(shared.MethodParsedWebMCP, 0.8, "tool name and description say “"+word+"”")},
			door: keyedDoor{"webmcp|" + t.Name, shared.Access{
				Method: shared.AccessWebMCPTool, URL: pageURL,
				Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute},
				ToolName:   strPtr(t.Name),
				Provenance: s.prov(shared.MethodParsedWebMCP, confToolDoor, ev),
			}},
			doorPage: pageURL, params: params, problems: problems, text: t.Description,
		})
	}
	return out
}

// declarativeToolDoor is the webmcp-tool door of a <form toolname>.
func declarativeToolDoor(s signer, p *extract.Page, f *extract.Form, loc shared.Locator, sub shared.Submission) keyedDoor {
	ev := "form[toolname=" + cssValue(f.ToolName) + "]"
	if f.ToolDescription != "" {
		ev += "[tooldescription]"
	}
	if f.ToolAutoSubmit {
		ev += "[toolautosubmit]: the browser submits when the agent calls the tool"
	} else {
		ev += ": without toolautosubmit the browser fills the form and the person submits"
	}
	sub.Transport = shared.TransportWebMCPExecute
	return keyedDoor{"webmcp|" + f.ToolName, shared.Access{
		Method: shared.AccessWebMCPTool, URL: p.URL, Locator: &loc, Submission: &sub,
		ToolName:   strPtr(f.ToolName),
		Provenance: s.prov(shared.MethodParsedWebMCP, confToolDoor, ev),
	}}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
