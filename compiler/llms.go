package compiler

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
)

// buildLLMs writes llms.txt: what the business offers and how an agent may
// act, every action with its doors and its verification status.
func buildLLMs(p *plan) ([]byte, error) {
	g := p.graph
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", mdText(siteName(g)))
	fmt.Fprintf(&b, "> What %s offers and how an AI agent may act on it, compiled by Frontlatch from %s.\n\n", mdText(g.Site.URL), mdText(provenanceLine(p)))
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
	// The status marker ([UNVERIFIED] …) is the compiler's: "[" followed
	// by a space is no link whatever follows.
	fmt.Fprintf(b, "\n### %s%s\n\n", statusMarker(ap.status), mdText(a.Label))
	item(b, "", mdText("Kind: "+string(a.Kind)))
	item(b, "", mdText(statusSentence(ap)))
	item(b, "", mdText("What happens: "+sentence(a.SideEffects.Summary)+" "+consequences(&a.SideEffects)))
	required, optional := inputNames(a)
	item(b, "", mdText("Required inputs: "+orNone(required)))
	if len(optional) > 0 {
		item(b, "", mdText("Optional inputs: "+strings.Join(optional, ", ")))
	}
	item(b, "", "Ways to do it:")
	if len(a.Access) == 0 {
		item(b, "  ", "none recorded")
	}
	for j := range a.Access {
		item(b, "  ", doorLine(ap, &a.Access[j]))
	}
	if s := barriersSentence(a); s != "" {
		item(b, "", mdText(s))
	}
}

// item writes one list item of llms.txt, indented. Its text is Markdown
// already: every text of the graph in it has passed through mdText.
func item(b *bytes.Buffer, indent, md string) {
	fmt.Fprintf(b, "%s- %s\n", indent, md)
}

// doorLine describes one door and whether an agent may call it, in
// Markdown: the door's text escaped (mdText), the tool's name, which
// shared.ValidToolName keeps to [A-Za-z0-9_.-], as code.
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
			return mdText(s + " — not offered as a tool: not verified by the business")
		case ap.status != shared.StatusVerified:
			return mdText(s) + " — tool `" + t.name + "`, listed with --include-unverified: must not be executed"
		}
		return mdText(s) + " — callable as tool `" + t.name + "`"
	}
	return mdText(doorInfo(d) + " — information only, not a tool")
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

// mdText writes text that holds a site's words as Markdown (CommonMark and
// GitHub's) that shows them as written and adds nothing: on one line
// (oneLine), so that no line break starts a heading or an item of its own,
// and with a backslash before each character that would be read as markup:
// one that opens or closes emphasis, code, a link or an image, raw HTML or
// an autolink, strikethrough or a table cell, and a backslash itself, always;
// an _ unless it stands between two letters or digits (where it is inert,
// as in ag_clinic01); a # that starts the text or follows a space (a
// heading's closing #s); an & that starts a character reference (&amp;).
// A site cannot put a link, a heading or markup into llms.txt; a reader of
// the raw file sees each such character once, after a backslash.
func mdText(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		var escape bool
		switch c {
		case '\\', '`', '*', '[', ']', '<', '>', '~', '|':
			escape = true
		case '_':
			escape = !alnumAround(s, i)
		case '#':
			escape = i == 0 || s[i-1] == ' '
		case '&':
			escape = charRef.MatchString(s[i:])
		}
		if escape {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// alnumAround reports whether the byte at i stands between two letters or
// digits.
func alnumAround(s string, i int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+1:])
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return alnum(before) && alnum(after)
}

// charRef matches a CommonMark entity or numeric character reference at
// the start of a text (&amp; &#38; &#x26;), which Markdown would show as
// the character it names.
var charRef = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});`)
