package compiler

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// webmcpRuntime is the body of the generated script after its tool table:
// it finds the form, fills it, and registers each tool. It is
// webmcp_runtime.js with each include line replaced by the helper it names
// (pagejsCopies).
//
// It is the other side of topology's hookRegisterTool (topology/pagejs,
// which the mapper's recorder and the executor's hook share): this script
// registers tools, on a site's own pages, through document.modelContext or
// else navigator.modelContext; the hook sees what pages register. It shares
// no Go source with the hook on purpose: the compiler imports shared only,
// and its output is a standalone file site owners publish (its goldens pin
// it). The helpers it shares with topology it takes from generated copies.
var webmcpRuntime = mustInline(webmcpRuntimeSource, pagejsCopies)

//go:embed webmcp_runtime.js
var webmcpRuntimeSource string

// pagejsCopies holds pagejs/NAME.js, a copy of topology/pagejs/NAME.js for
// each helper an include line of webmcp_runtime.js names, written by go
// generate, because the compiler does not import topology
// (TestPagejsCopiesFresh keeps each copy equal to its source; the include
// lines are the one list of them). The runtime includes:
//
//   - pierce: the rule for the mapper's shadow-including CSS locators
//     (queryAllPiercing) and the open shadow roots of a page (openTrees,
//     queryAllIn);
//   - norm: the white-space rule the mapper reads text with;
//   - locate: the contract's locators resolved in the page (locate) and
//     the door an action runs through (doorOf), the rule the verifier's
//     sandbox and the executor's browser door follow, so that the form an
//     agent fills through the published script is the form the owner saw
//     run;
//   - control: a control set as a person sets it (the prototype's setter,
//     a click), so that a page keeping its own state of its controls, as
//     React does, sends what the script filled, as the sandbox and the
//     executor fill.
//
//go:generate go run ./internal/pagejscopy -runtime webmcp_runtime.js -src ../topology/pagejs -out pagejs
//go:embed pagejs/*.js
var pagejsCopies embed.FS

// includeLine matches the runtime's lines that stand for a helper, written
// as topology/pagejs's include lines are (the compiler expands them
// itself): its groups are the line's indent and the helper's name.
var includeLine = regexp.MustCompile(`(?m)^( *)//pagejs:include ([a-z]+)\n`)

// mustInline returns runtime with each include line replaced by the helper
// it names, from copies (pagejs/NAME.js): the copy's generated-file header
// dropped, each line indented as the include line is. It panics when a
// line names a helper copies lacks or one already included, when a copy
// has no line, or when a copy has no header: all are files of this
// package.
func mustInline(runtime string, copies fs.FS) string {
	seen := map[string]bool{}
	out := includeLine.ReplaceAllStringFunc(runtime, func(line string) string {
		m := includeLine.FindStringSubmatch(line)
		indent, name := m[1], m[2]
		helperCopy, err := fs.ReadFile(copies, "pagejs/"+name+".js")
		switch {
		case err != nil:
			panic(fmt.Sprintf("compiler: webmcp_runtime.js includes %q, which has no generated copy: run go generate ./... in compiler (%v)", name, err))
		case seen[name]:
			panic(fmt.Sprintf("compiler: webmcp_runtime.js includes %q twice", name))
		}
		seen[name] = true
		header, body, ok := strings.Cut(string(helperCopy), "\n")
		if !ok || !strings.HasPrefix(header, "// Code generated ") || !strings.HasSuffix(header, "DO NOT EDIT.") {
			panic(fmt.Sprintf("compiler: pagejs/%s.js does not start with its generated-file header: run go generate ./... in compiler", name))
		}
		var b strings.Builder
		for _, l := range strings.SplitAfter(body, "\n") {
			if strings.TrimSpace(l) != "" {
				b.WriteString(indent)
			}
			b.WriteString(l)
		}
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		return b.String()
	})
	entries, err := fs.ReadDir(copies, "pagejs")
	if err != nil {
		panic(fmt.Sprintf("compiler: the generated copies: %v", err))
	}
	for _, e := range entries {
		if name, _ := strings.CutSuffix(e.Name(), ".js"); !seen[name] {
			panic(fmt.Sprintf("compiler: webmcp_runtime.js has no line %q for pagejs/%s: run go generate ./... in compiler", "//pagejs:include "+name, e.Name()))
		}
	}
	return out
}

// webmcpTool is one entry of the script's tool table: the registerTool
// dictionary members (name, title, description, inputSchema, annotations)
// plus what execute needs to drive the real form.
type webmcpTool struct {
	Name        string             `json:"name"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	InputSchema objectSchema       `json:"inputSchema"`
	Annotations webmcpAnnotations  `json:"annotations"`
	Form        *shared.Locator    `json:"form"`
	Submit      *shared.Locator    `json:"submit"`
	Fields      []webmcpFieldDrive `json:"fields"`
}

// webmcpAnnotations are the only annotations WebMCP defines.
type webmcpAnnotations struct {
	ReadOnlyHint         bool `json:"readOnlyHint"`
	UntrustedContentHint bool `json:"untrustedContentHint"`
}

// webmcpFieldDrive tells execute what to do with one field.
type webmcpFieldDrive struct {
	Name    string          `json:"name"`
	Locator *shared.Locator `json:"locator"`
	// Role: "fill" from the agent's input, "empty" (a honeypot, left
	// empty), "keep" (a system token, sent back as the page has it).
	Role string `json:"role"`
}

// fieldRole is what the script does with an input.
func fieldRole(in *shared.Input) string {
	switch {
	case in.Semantic == shared.SemanticHoneypot:
		return "empty"
	case agentFillable(in):
		return "fill"
	}
	return "keep"
}

// webmcpForms returns the offered doors the script can drive: html forms.
// A webmcp-tool door is already WebMCP on the site, and a documented
// endpoint has no form to fill.
func webmcpForms(p *plan) []toolRef {
	var out []toolRef
	for _, r := range p.offeredTools() {
		if r.t.door.Method == shared.AccessHTMLForm {
			out = append(out, r)
		}
	}
	return out
}

func webmcpToolOf(r toolRef) webmcpTool {
	a := r.ap.action
	t := webmcpTool{
		Name:        r.t.name,
		Title:       title(r.ap),
		Description: actionDescription(r.ap),
		InputSchema: inputsSchema(a, agentInputs),
		Form:        r.t.door.Locator,
		Submit:      r.t.door.Submission.SubmitControl,
		Fields:      []webmcpFieldDrive{},
	}
	for i := range a.Inputs {
		in := &a.Inputs[i]
		t.Fields = append(t.Fields, webmcpFieldDrive{Name: in.Name, Locator: in.Locator, Role: fieldRole(in)})
	}
	return t
}

// commentSafe keeps graph text from ending a /* */ or <!-- --> comment
// early, and on one line; "</" becomes "<\/" so that a comment of a script
// pasted inside an inline <script> cannot end it ("</script" in any case).
// It replaces until nothing is left to replace: each replacement alone
// let the text around it make another ("<!-->" was "<! -->", "<!--!>"
// was "<! --!>").
func commentSafe(s string) string {
	for {
		t := commentEscaper.Replace(s)
		if t == s {
			return t
		}
		s = t
	}
}

// commentEscaper is one pass of commentSafe.
var commentEscaper = strings.NewReplacer("*/", "* /", "-->", "- ->", "<!--", "<! --", "--!>", "- -!>", "</", "<\\/", "\n", " ", "\r", " ")

// statusLines states every action's status, one line each, for a comment.
func statusLines(p *plan) []string {
	var out []string
	for _, st := range p.statuses() {
		line := fmt.Sprintf("%s (%s, %q): %s — %s", st.ID, st.Kind, st.Label, st.Status, st.Reason)
		if len(st.Tools) > 0 {
			line += " [" + strings.Join(st.Tools, ", ") + "]"
		}
		out = append(out, commentSafe(line))
	}
	return out
}

// provenanceLine names the graph an output was compiled from, as the graph
// writes it: a comment that quotes it passes it through commentSafe, a
// JSON string or llms.txt through their own escaping.
func provenanceLine(p *plan) string {
	g := p.graph
	return fmt.Sprintf("Action Graph %s (schema %s) of %s, generated %s", g.GraphID, g.SchemaVersion, g.Site.URL, g.GeneratedAt)
}

func buildWebMCPScript(p *plan) ([]byte, error) {
	refs := webmcpForms(p)
	tools := make([]webmcpTool, len(refs))
	for i, r := range refs {
		tools[i] = webmcpToolOf(r)
	}
	// HTML escaping stays on: the table must be safe to paste inside an
	// inline <script> (no "</script>" can survive encoding).
	table, err := json.MarshalIndent(tools, "  ", "  ")
	if err != nil {
		return nil, fmt.Errorf("compiler: encoding the WebMCP tool table: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("/*\n * WebMCP tools for " + commentSafe(p.graph.Site.URL) + ", generated by Frontlatch from " + commentSafe(provenanceLine(p)) + ".\n")
	b.WriteString(" * Add this script to every page that carries one of the forms below. It registers each\n")
	b.WriteString(" * action with document.modelContext.registerTool (or navigator.modelContext in older\n")
	b.WriteString(" * builds); execute fills the real form, leaves honeypots empty, keeps system tokens as\n")
	b.WriteString(" * the page has them, and presses the form's own submit control.\n")
	b.WriteString(" * Do not edit: recompile the Action Graph (frontlatch compile --format webmcp) instead.\n")
	b.WriteString(" *\n * Actions and their verification status:\n")
	for _, l := range statusLines(p) {
		b.WriteString(" *   - " + l + "\n")
	}
	b.WriteString(" */\n(function () {\n  \"use strict\";\n  var tools = ")
	b.Write(table)
	b.WriteString(";\n\n")
	b.WriteString(webmcpRuntime)
	b.WriteString("})();\n")
	return b.Bytes(), nil
}

// declarativeForm is the declarative alternative for one form: the
// attributes to add to the form and to each of its controls.
type declarativeForm struct {
	URL        string               `json:"url"`
	Locator    *shared.Locator      `json:"locator"`
	Status     string               `json:"status"`
	Attributes declarativeFormAttrs `json:"attributes"`
	Fields     []declarativeField   `json:"fields"`
}

type declarativeFormAttrs struct {
	ToolName        string `json:"toolname"`
	ToolDescription string `json:"tooldescription"`
}

type declarativeField struct {
	Name       string                `json:"name"`
	Element    string                `json:"element"`
	Locator    *shared.Locator       `json:"locator"`
	Attributes declarativeFieldAttrs `json:"attributes"`
}

type declarativeFieldAttrs struct {
	ToolParamDescription string `json:"toolparamdescription"`
}

// declarativeDoc is webmcp-declarative.json: forms keyed by their locator.
type declarativeDoc struct {
	Graph   graphMeta      `json:"graph"`
	Actions []actionStatus `json:"actions"`
	Forms   object         `json:"forms"`
}

func declarativeForms(p *plan) []declarativeForm {
	refs := webmcpForms(p)
	out := make([]declarativeForm, len(refs))
	for i, r := range refs {
		a := r.ap.action
		f := declarativeForm{
			URL: r.t.door.URL, Locator: r.t.door.Locator, Status: string(r.ap.status),
			Attributes: declarativeFormAttrs{ToolName: r.t.name, ToolDescription: actionDescription(r.ap)},
			Fields:     []declarativeField{},
		}
		declared := declaredRules(a)
		for _, in := range agentInputsOf(a) {
			ps, _ := inputSchema(in, declared[in.Name], agentInputs)
			f.Fields = append(f.Fields, declarativeField{Name: in.Name, Element: elementOf(in), Locator: in.Locator,
				Attributes: declarativeFieldAttrs{ToolParamDescription: paramDescription(ps)}})
		}
		out[i] = f
	}
	return out
}

// paramDescription is a field's title and description in one sentence run.
func paramDescription(ps propSchema) string {
	return strings.Join(nonEmpty([]string{sentence(ps.Title), ps.Description}), " ")
}

func buildWebMCPDeclarativeJSON(p *plan) ([]byte, error) {
	doc := declarativeDoc{Graph: p.graphMeta(), Actions: p.statuses(), Forms: object{}}
	for _, f := range declarativeForms(p) {
		key := f.Locator.Value
		for _, m := range doc.Forms {
			if m.Key == key {
				key += " (" + f.Attributes.ToolName + ")"
				break
			}
		}
		doc.Forms.set(key, f)
	}
	return marshalDocument(doc)
}

func buildWebMCPDeclarativeHTML(p *plan) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("<!--\n  WebMCP declarative attributes for " + commentSafe(p.graph.Site.URL) + ", generated by Frontlatch from\n  " + commentSafe(provenanceLine(p)) + ".\n")
	b.WriteString("  The alternative to webmcp.js: add these attributes to each form the locator finds, and\n")
	b.WriteString("  toolparamdescription to each named control. Without toolautosubmit the browser fills the\n")
	b.WriteString("  form and the person submits it. Only the attributes are new: keep every other attribute,\n")
	b.WriteString("  option and element as the page has it. Give honeypot and system-token fields no attribute.\n\n")
	b.WriteString("  Actions and their verification status:\n")
	for _, l := range statusLines(p) {
		b.WriteString("    - " + l + "\n")
	}
	b.WriteString("-->\n")
	for _, f := range declarativeForms(p) {
		fmt.Fprintf(&b, "\n<!-- %s — form %s=%s on %s (%s) -->\n", commentSafe(f.Attributes.ToolName),
			f.Locator.Strategy, commentSafe(f.Locator.Value), commentSafe(f.URL), f.Status)
		fmt.Fprintf(&b, "<form toolname=\"%s\"\n      tooldescription=\"%s\">\n", html.EscapeString(f.Attributes.ToolName), html.EscapeString(f.Attributes.ToolDescription))
		for _, fl := range f.Fields {
			fmt.Fprintf(&b, "  <%s name=\"%s\" toolparamdescription=\"%s\">%s\n", fl.Element, html.EscapeString(fl.Name),
				html.EscapeString(fl.Attributes.ToolParamDescription), closingTag(fl.Element))
		}
		b.WriteString("</form>\n")
	}
	return b.Bytes(), nil
}

// closingTag closes an element whose content the snippet leaves out.
func closingTag(element string) string {
	switch element {
	case "select":
		return "<!-- the options as they are --></select>"
	case "textarea":
		return "</textarea>"
	}
	return ""
}

// elementOf is the element a control is written as in the HTML snippet.
func elementOf(in *shared.Input) string {
	switch typ := controlType(in); {
	case strings.HasPrefix(typ, "select"):
		return "select"
	case typ == "textarea":
		return "textarea"
	}
	return "input"
}
