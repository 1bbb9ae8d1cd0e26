package compiler

import (
	"strings"
	"testing"
)

// TestCommentSafe: no text of the graph ends a /* */ or <!-- --> comment,
// opens one, or ends an inline <script>, however it mixes the sequences
// commentSafe breaks: "<!-->" became "<! -->" and "<!--!>" "<! --!>",
// each of which closes the HTML comment of webmcp-declarative.html, so a
// label could put live markup into the snippet the owner pastes.
func TestCommentSafe(t *testing.T) {
	for _, s := range []string{"<!-->", "<!--!>", "<<!--->", "-<!-->", "<!--->", "--->", "**//", "*/", "</script>", "<!-- x -->", "a\nb\rc"} {
		t.Run(s, func(t *testing.T) {
			got := commentSafe(s)
			for _, bad := range []string{"-->", "--!>", "<!--", "*/", "</", "\n", "\r"} {
				if strings.Contains(got, bad) {
					t.Errorf("commentSafe(%q) = %q, which holds %q", s, got, bad)
				}
			}
		})
	}
	g := doorsGraph()
	g.Actions[0].Label = "<!--><img src=x onerror=alert(1)>"
	files, err := CompileFormat(g, FormatWebMCP, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(byName(files)[FileWebMCPDeclarative])
	if outside := htmlComment.ReplaceAllString(html, ""); strings.Contains(outside, "<img") {
		t.Errorf("the label's <img> stands outside a comment in %s:\n%s", FileWebMCPDeclarative, html)
	}
}
