package portal

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"unicode"
	"unicode/utf8"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// page is what every template gets: the layout's fields and the page's own
// view in Body.
type page struct {
	Title string
	CSS   template.CSS
	// Portal is true in the owner's portal (pages link to each other) and
	// false in the standalone report file.
	Portal bool
	Body   any
}

var funcs = template.FuncMap{
	"actionURL": actionPath,
	"anchor":    anchor,
	"last":      func(runs []runView) int { return len(runs) - 1 },
}

// actionPath is the portal path of an action's confirmation page.
func actionPath(id string) string { return "/action/" + url.PathEscape(id) }

// anchor is an HTML id for an action, made only of safe characters
// whatever the action's id holds.
func anchor(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "action-" + hex.EncodeToString(sum[:6])
}

// mustPage parses the layout with one page's content template. The
// templates are embedded, so a parse error is a build defect caught by
// every test.
func mustPage(name string) *template.Template {
	return template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.tmpl", "templates/"+name))
}

var (
	reportPage    = mustPage("report.tmpl")
	actionPage    = mustPage("action.tmpl")
	confirmedPage = mustPage("confirmed.tmpl")
	messagePage   = mustPage("message.tmpl")
)

// render executes t into a buffer first, so a template error never leaves
// half a page on the wire, and shows every bidi control and control
// character in it as its code point (showCodePoints).
func render(w io.Writer, t *template.Template, p page) error {
	p.CSS = styleCSS
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "page", p); err != nil {
		return &RenderError{Page: t.Name(), Err: err}
	}
	_, err := w.Write(showCodePoints(buf.Bytes()))
	return err
}

// showCodePoints writes each bidi control (U+202E RIGHT-TO-LEFT OVERRIDE,
// the isolates, the marks…) and each control character but tab and line
// breaks of page as "[U+XXXX]". html/template escapes markup, not these:
// passed on, a site's override makes "moc.elpmaxe" read "example.com" and
// turns the text after it around, and a control character shows nothing,
// so the owner would read something else than what they confirm. The
// templates hold none, so every one is from the site (or the owner's
// entries), and none is inside markup: tags, attribute names and the
// portal's URLs are ASCII.
func showCodePoints(page []byte) []byte {
	hidden := func(r rune) bool {
		return unicode.Is(unicode.Bidi_Control, r) || (unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r')
	}
	if bytes.IndexFunc(page, hidden) < 0 {
		return page
	}
	out := make([]byte, 0, len(page)+64)
	for len(page) > 0 {
		r, n := utf8.DecodeRune(page)
		if hidden(r) {
			out = fmt.Appendf(out, "[U+%04X]", r)
		} else {
			out = append(out, page[:n]...)
		}
		page = page[n:]
	}
	return out
}

// RenderReport writes r as a standalone HTML file: one document with its
// stylesheet inline, no script, no link to anything outside it.
func RenderReport(w io.Writer, r Report) error {
	return render(w, reportPage, page{Title: "Readiness report for " + r.SiteName, Body: r})
}
