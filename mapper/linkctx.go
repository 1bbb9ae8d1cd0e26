package mapper

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Link context tells a phone number offered "to book" from the general
// contact number. extract.Link carries only the link's own text (a request
// for Context/Heading fields is open); until it does, this file reads the
// words around tel: and mailto: links, in the browser (linkctx.js) or from
// static markup, with the same rule: the text of the link's nearest block,
// and the heading above it when the block holds nothing but links.

//go:embed linkctx.js
var linkContextJS string

// linkCtx is what a person reads around one tel:/mailto: link.
type linkCtx struct {
	Href    string `json:"href"`
	Context string `json:"context"`
	Heading string `json:"heading"`
}

// linkContexts maps an href to the contexts of its occurrences, in
// document order.
type linkContexts map[string][]string

func newLinkContexts(items []linkCtx) linkContexts {
	lc := linkContexts{}
	for _, it := range items {
		if k := directKey(it.Href); k != "" {
			lc[k] = append(lc[k], strings.TrimSpace(it.Context+" "+it.Heading))
		}
	}
	return lc
}

// next returns the context of the next occurrence of a link with key
// (directKey) — "" when unknown.
func (lc linkContexts) next(key string) string {
	q := lc[key]
	if len(q) == 0 {
		return ""
	}
	lc[key] = q[1:]
	return q[0]
}

// directKey is "tel:<digits>" or "mailto:<address>" for a tel:/mailto: href,
// so one number written two ways is one door; "" for any other href.
func directKey(href string) string {
	lh := strings.ToLower(strings.TrimSpace(href))
	switch {
	case strings.HasPrefix(lh, "tel:"):
		if n := telNumber(strings.TrimSpace(href)); n != "" {
			return "tel:" + n
		}
	case strings.HasPrefix(lh, "mailto:"):
		if a := mailAddress(strings.TrimSpace(href)); a != "" {
			return "mailto:" + a
		}
	}
	return ""
}

// readLinkContexts runs linkctx.js on a live page.
func readLinkContexts(ctx context.Context, page *rod.Page, d time.Duration) linkContexts {
	res, err := page.Context(ctx).Timeout(d).Eval(linkContextJS)
	if err != nil {
		return linkContexts{}
	}
	var items []linkCtx
	if json.Unmarshal([]byte(res.Value.Str()), &items) != nil {
		return linkContexts{}
	}
	return newLinkContexts(items)
}

// staticBlocks are the elements that start a block of text in markup read
// without a browser (no computed display).
var staticBlocks = map[atom.Atom]bool{
	atom.P: true, atom.Li: true, atom.Td: true, atom.Th: true, atom.Dd: true, atom.Dt: true,
	atom.Div: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Address: true, atom.Blockquote: true, atom.Form: true, atom.Nav: true, atom.Main: true,
	atom.Aside: true, atom.Body: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Figure: true, atom.Table: true,
}

var headingAtoms = map[atom.Atom]bool{atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true}

// staticLinkContexts reads the same contexts from markup.
func staticLinkContexts(markup []byte) linkContexts {
	doc, err := html.Parse(bytes.NewReader(markup))
	if err != nil {
		return linkContexts{}
	}
	var items []linkCtx
	lastHeading := ""
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && headingAtoms[n.DataAtom] {
			lastHeading = clip(collapse(textOf(n)), 300)
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			href := strings.TrimSpace(attr(n, "href"))
			lh := strings.ToLower(href)
			if strings.HasPrefix(lh, "tel:") || strings.HasPrefix(lh, "mailto:") {
				block := n.Parent
				for block != nil && !(block.Type == html.ElementNode && staticBlocks[block.DataAtom]) {
					block = block.Parent
				}
				it := linkCtx{Href: href}
				if block != nil {
					it.Context = sentenceAround(clip(collapse(textOf(block)), 300), collapse(textOf(n)))
					if onlyLinks(block) {
						it.Heading = lastHeading
					}
				}
				items = append(items, it)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return newLinkContexts(items)
}

// sentenceAround keeps the sentence of text that holds the link's words
// (linkctx.js has the same rule): a sentence ends at . ! or ? followed by a
// space, so the dots of an email address or a domain do not cut it.
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

// onlyLinks reports whether a block's text is all inside links.
func onlyLinks(n *html.Node) bool {
	var rest strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.A || n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode {
			rest.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Trim(rest.String(), " \t\r\n:|·•,.-") == ""
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
			sb.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return sb.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
