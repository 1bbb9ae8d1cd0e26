package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The words around a tel: or mailto: link (Link.Context, Link.Heading) read
// from markup. extract.js applies the same rule in the browser, where
// computed display says which ancestor is a block.

// staticBlocks are the elements that start a block of text in markup read
// without a browser (no computed display).
var staticBlocks = map[atom.Atom]bool{
	atom.P: true, atom.Li: true, atom.Td: true, atom.Th: true, atom.Dd: true, atom.Dt: true,
	atom.Div: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Address: true, atom.Blockquote: true, atom.Form: true, atom.Nav: true, atom.Main: true,
	atom.Aside: true, atom.Body: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Figure: true, atom.Table: true,
}

// isSectionHeading reports an h1–h6 element. Unlike isHeading (form
// headings), role=heading does not count: a link's heading is the one the
// document outline shows.
func isSectionHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// linkContext fills l.Context and l.Heading for link a, whose nearest
// preceding (or enclosing) h1–h6 in document order is heading (nil when
// none).
func linkContext(l *Link, a, heading *html.Node) {
	block := a.Parent
	for block != nil && !(block.Type == html.ElementNode && staticBlocks[block.DataAtom]) {
		block = block.Parent
	}
	if block == nil {
		return
	}
	l.Context = sentenceAround(clipRaw(collapseSpace(spacedText(block)), MaxLinkContext), collapseSpace(spacedText(a)))
	if heading != nil && onlyLinks(block) {
		l.Heading = clipRaw(collapseSpace(spacedText(heading)), MaxLinkContext)
	}
}

// sentenceAround keeps the sentence of text that holds the link's words:
// "…our service area. For a burst pipe, call (07) 3391 5820 now." says
// nothing about quotes. A sentence ends at . ! or ? followed by a space, so
// the dots of an email address or a domain do not cut it. extract.js has
// the same function.
func sentenceAround(text, linkText string) string {
	at := -1
	if linkText != "" {
		at = strings.Index(text, linkText)
	}
	if at < 0 {
		return text
	}
	start, end := 0, len(text)
	for i := at - 1; i > 0; i-- {
		if strings.ContainsRune(".!?", rune(text[i-1])) && text[i] == ' ' {
			start = i
			break
		}
	}
	for i := at + len(linkText); i < len(text); i++ {
		if strings.ContainsRune(".!?", rune(text[i])) && (i+1 == len(text) || text[i+1] == ' ') {
			end = i + 1
			break
		}
	}
	return strings.TrimSpace(text[start:end])
}

// onlyLinks reports whether a block's text outside its links is nothing but
// separators (linkSeparatorPattern): a footer line of links says nothing of
// its own, so the heading above it does.
func onlyLinks(block *html.Node) bool {
	var rest strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.A || n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode {
			rest.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(block)
	return onlySeparators.MatchString(rest.String())
}

// spacedText is the text of n without scripts and styles, a space after
// each text node so lines split by <br> or tags do not run together (as
// innerText keeps them apart).
func spacedText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

// collapseSpace collapses runs of any Unicode space, no-break space
// included, as JavaScript's \s does: "(02)&nbsp;9247" must read as the
// words the link-placement rules match.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
