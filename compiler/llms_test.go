package compiler

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// llmsStructure is the Markdown llms.txt writes itself at the start of a
// line: a heading (an action's with its status marker), the summary's
// quote, a list item (nested or not).
var llmsStructure = regexp.MustCompile(`^(?:#{1,3} (?:\[UNVERIFIED\] |\[SANDBOX-TESTED, NOT VERIFIED\] )?|> |(?:  )?- )`)

// llmsToolCode is the one code span llms.txt writes itself: a tool's name.
var llmsToolCode = regexp.MustCompile("tool `[A-Za-z0-9_.-]+`")

// alnumEnd and alnumStart: a text ends, or starts, with a letter or digit.
var alnumEnd, alnumStart = regexp.MustCompile(`[\pL\pN]\z`), regexp.MustCompile(`^[\pL\pN]`)

// markdownCharRef is CommonMark's entity or numeric character reference.
var markdownCharRef = regexp.MustCompile(`^&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});`)

// unescapedMarkdown returns the first character of llms.txt, outside the
// structure and the code spans llms.txt writes itself, that Markdown would
// read as markup ("" when there is none): a site's text can add nothing.
// An _ between two letters or digits opens and closes no emphasis, and a #
// after anything but a space closes no heading (CommonMark).
func unescapedMarkdown(llms string) string {
	for _, line := range strings.Split(llms, "\n") {
		line = llmsToolCode.ReplaceAllString(llmsStructure.ReplaceAllString(line, ""), "tool")
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++ // an escaped character stands for itself
			case strings.IndexByte("`*[]<>~|", c) >= 0,
				c == '&' && markdownCharRef.MatchString(line[i:]),
				c == '#' && (i == 0 || line[i-1] == ' '),
				c == '_' && !(alnumEnd.MatchString(line[:i]) && alnumStart.MatchString(line[i+1:])):
				return line[i:]
			}
		}
	}
	return ""
}

// TestLLMsEscapesMarkdown: llms.txt shows a site's text as the site wrote
// it, never as Markdown — no link, image, emphasis, code, raw HTML,
// autolink, character reference or heading's closing #s of the site's
// making — in the site's name, an action's label and summary, an effect's
// target, an input's label, a door's URL and locator, a barrier's detail
// and a verification note.
func TestLLMsEscapesMarkdown(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"link", "[Book now](https://evil.example/)", `\[Book now\](https://evil.example/)`},
		{"image", "![x](https://evil.example/t.png)", `!\[x\](https://evil.example/t.png)`},
		{"emphasis", "**urgent** _now_ ~~old~~", `\*\*urgent\*\* \_now\_ \~\~old\~\~`},
		{"intraword underscore", "snake_case __init__", `snake_case \_\_init\_\_`},
		{"code", "`rm -rf /`", "\\`rm -rf /\\`"},
		{"html", `<img src=x onerror=alert(1)>`, `\<img src=x onerror=alert(1)\>`},
		{"autolink", "<https://evil.example/>", `\<https://evil.example/\>`},
		{"character reference", "&lt;script&gt; &#60; &#x3C; & Co", `\&lt;script\&gt; \&#60; \&#x3C; & Co`},
		{"closing hashes", "Plumbing ##", `Plumbing \##`},
		{"hashes alone", "## x", `\## x`},
		{"fragment", "form#quote", "form#quote"},
		{"backslash", `C:\ \*`, `C:\\ \\\*`},
		{"table", "a | b", `a \| b`},
		{"plain", "Harbour Plumbing & Gas", "Harbour Plumbing & Gas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := doorsGraph()
			g.Site.Name = &tt.text
			a := &g.Actions[0] // verified, so its heading is its label alone
			a.Label = tt.text
			a.SideEffects.Summary = tt.text
			a.SideEffects.Effects[1].Target = &tt.text
			a.Inputs[0].Label = &tt.text
			a.Access[0].URL += tt.text
			a.Access[0].Locator = css("form#quote" + tt.text)
			a.Barriers = append(a.Barriers, shared.Barrier{Kind: shared.BarrierCaptcha, Detail: &tt.text, Provenance: prov(shared.MethodParsedHTML, 0.9, "")})
			v := a.Verification.(shared.Verified)
			v.Note = &tt.text
			a.Verification = v
			files, err := CompileFormat(g, FormatLLMs, Options{IncludeUnverified: true})
			if err != nil {
				t.Fatal(err)
			}
			llms := string(files[0].Data)
			if s := unescapedMarkdown(llms); s != "" {
				t.Errorf("llms.txt reads the site's text as Markdown at %q:\n%s", s, llms)
			}
			lines := strings.Split(llms, "\n")
			if diff := cmp.Diff("# "+tt.want, lines[0]); diff != "" {
				t.Errorf("the site's name (-want +got):\n%s", diff)
			}
			for _, want := range []string{"### " + tt.want, "- What happens: " + tt.want, "- Required inputs: " + tt.want + " (person-name)"} {
				if !strings.Contains(llms, "\n"+want) {
					t.Errorf("llms.txt has no line starting %q:\n%s", want, llms)
				}
			}
		})
	}
}
