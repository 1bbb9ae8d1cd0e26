package compiler

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// buildLLMs writes llms.txt: what the business offers and how an agent may
// act, every action with its doors and its verification status.
func buildLLMs(p *plan) ([]byte, error) {
	g := p.graph
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", oneLine(siteName(g)))
	fmt.Fprintf(&b, "> What %s offers and how an AI agent may act on it, compiled by Frontlatch from %s.\n\n", oneLine(g.Site.URL), oneLine(provenanceLine(p)))
	b.WriteString("How an agent may act:\n\n")
	b.WriteString("- Execute only an action whose verification is \"verified\", and only through the callable tool named under it (MCP: mcp-tools.json or the ARD catalog at /.well-known/ai-catalog.json; WebMCP on the page; OpenAPI: openapi.json).\n")
	b.WriteString("- An action that is \"unverified\" or \"sandbox-tested\" must not be executed: the business has not confirmed what it does. Tell the person how to do it themselves instead.\n")
	b.WriteString("- Phone numbers, email addresses and third-party schedulers are information for the person, not tools.\n")
	b.WriteString("- Never fill a honeypot field and never invent a system token: send the token the live page carries.\n\n")
	b.WriteString("## Actions\n")
	if len(p.actions) == 0 {
		b.WriteString("\nThis site offers no action an agent or a person can take online.\n")
	}
	for i := range p.actions {
		writeLLMsAction(&b, &p.actions[i])
	}
	return b.Bytes(), nil
}

func writeLLMsAction(b *bytes.Buffer, ap *actionPlan) {
	a := ap.action
	fmt.Fprintf(b, "\n### %s\n\n", oneLine(title(ap)))
	item(b, "", "Kind: "+string(a.Kind))
	item(b, "", statusSentence(ap))
	item(b, "", "What happens: "+sentence(a.SideEffects.Summary)+" "+consequences(&a.SideEffects))
	required, optional := inputNames(a)
	item(b, "", "Required inputs: "+orNone(required))
	if len(optional) > 0 {
		item(b, "", "Optional inputs: "+strings.Join(optional, ", "))
	}
	item(b, "", "Ways to do it:")
	if len(a.Access) == 0 {
		item(b, "  ", "none recorded")
	}
	for j := range a.Access {
		item(b, "  ", doorLine(ap, &a.Access[j]))
	}
	if s := barriersSentence(a); s != "" {
		item(b, "", s)
	}
}

// item writes one list item of llms.txt, indented: its whole text passes
// through oneLine, so that no text of the graph in it (a label, an effect's
// target, a door's URL, a barrier's detail) breaks the line and starts a
// Markdown line of its own.
func item(b *bytes.Buffer, indent, text string) {
	fmt.Fprintf(b, "%s- %s\n", indent, oneLine(text))
}

// doorLine describes one door and whether an agent may call it.
func doorLine(ap *actionPlan, d *shared.Access) string {
	for _, t := range ap.tools {
		if t.door != d {
			continue
		}
		s := words(d.Method) + " on " + d.URL
		if d.Locator != nil {
			s += " (" + d.Locator.Value + ")"
		}
		if d.Submission != nil && d.Submission.Endpoint != nil {
			s += ", sent to " + *d.Submission.Endpoint
		}
		switch {
		case !ap.offered:
			return s + " — not offered as a tool: not verified by the business"
		case ap.status != shared.StatusVerified:
			return s + " — tool `" + t.name + "`, listed with --include-unverified: must not be executed"
		}
		return s + " — callable as tool `" + t.name + "`"
	}
	return doorInfo(d) + " — information only, not a tool"
}

// inputNames lists an action's agent-fillable inputs as "Label (semantic)",
// required first.
func inputNames(a *shared.Action) (required, optional []string) {
	s := inputsSchema(a, agentInputs)
	req := map[string]bool{}
	for _, n := range s.Required {
		req[n] = true
	}
	for _, in := range agentInputsOf(a) {
		label := in.Name
		if in.Label != nil && *in.Label != "" {
			label = *in.Label
		}
		item := label + " (" + string(in.Semantic) + ")"
		if req[in.Name] {
			required = append(required, item)
		} else {
			optional = append(optional, item)
		}
	}
	return required, optional
}

func orNone(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(ss, ", ")
}

// oneLine keeps graph text from breaking the Markdown structure.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
