package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Static reading of the page's own <style> elements, for visibility only.
// Plugins hide their honeypots with a rule in the page
// (`.mc4wp-form input[name="_mc4wp_required_but_not_really"]{display:none}`,
// `.trap-wrap{display:none}`), which a browser applies and markup alone
// does not show. FromHTML reads the rules whose selectors it can match
// exactly — compound selectors of a tag, #id, .class and [attr] / [attr=v]
// tests joined by descendant or child combinators — outside @media,
// @supports and other conditional blocks, and only the properties
// visibility reads. Later rules win over earlier ones and inline style over
// both; specificity and !important are not weighed. Linked stylesheets
// are not fetched.

// sheetProps are the properties visibility reads.
var sheetProps = map[string]bool{"display": true, "visibility": true, "opacity": true, "position": true, "left": true, "top": true,
	"text-indent": true, "margin-left": true, "margin": true, "height": true, "overflow": true}

type sheetRule struct {
	sels  []selector
	decls map[string]string
}

// selector is a chain of compounds, rightmost last; child[i] says compound
// i+1 is a child (not any descendant) of compound i.
type selector struct {
	parts []compound
	child []bool
}

type compound struct {
	tag     string
	id      string
	classes []string
	attrs   []attrTest
}

type attrTest struct {
	name, value string
	has         bool // [name] alone
}

var (
	cssComment  = regexp.MustCompile(`(?s)/\*.*?\*/`)
	compoundRun = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9-]*)?((?:#[\w-]+|\.[\w-]+|\[\s*[\w-]+\s*(?:=\s*(?:"[^"]*"|'[^']*'|[\w-]+)\s*)?\])*)$`)
	simplePart  = regexp.MustCompile(`#[\w-]+|\.[\w-]+|\[\s*([\w-]+)\s*(?:=\s*("[^"]*"|'[^']*'|[\w-]+)\s*)?\]`)
)

// parseSheets reads the rules of every <style> element under root.
func parseSheets(all []*html.Node) []sheetRule {
	var out []sheetRule
	for _, n := range all {
		if n.DataAtom != atom.Style || hasAncestor(n, atom.Template) {
			continue
		}
		if m := strings.ToLower(getAttr(n, "media")); m != "" && m != "all" && m != "screen" {
			continue
		}
		out = append(out, parseSheet(textOf(n))...)
	}
	return out
}

func parseSheet(css string) []sheetRule {
	css = cssComment.ReplaceAllString(css, " ")
	var out []sheetRule
	for i := 0; i < len(css); {
		open := strings.IndexAny(css[i:], "{;}")
		if open < 0 {
			break
		}
		open += i
		prelude := strings.TrimSpace(css[i:open])
		switch css[open] {
		case ';', '}': // @import …; or a stray brace
			i = open + 1
			continue
		}
		// the block's end, nested blocks included
		depth, end := 0, -1
		for j := open; j < len(css); j++ {
			if css[j] == '{' {
				depth++
			} else if css[j] == '}' {
				depth--
				if depth == 0 {
					end = j
					break
				}
			}
		}
		if end < 0 {
			break
		}
		body := css[open+1 : end]
		i = end + 1
		if strings.HasPrefix(prelude, "@") || strings.Contains(body, "{") {
			continue // conditional or nested: not what every screen applies
		}
		decls := map[string]string{}
		for _, d := range styleDecl.FindAllStringSubmatch(body, -1) {
			if k := strings.ToLower(d[1]); sheetProps[k] {
				decls[k] = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d[2]), "!important")))
			}
		}
		if len(decls) == 0 {
			continue
		}
		var sels []selector
		for _, raw := range strings.Split(prelude, ",") {
			if sel, ok := parseSelector(raw); ok {
				sels = append(sels, sel)
			}
		}
		if len(sels) > 0 {
			out = append(out, sheetRule{sels, decls})
		}
	}
	return out
}

func parseSelector(raw string) (selector, bool) {
	raw = strings.TrimSpace(strings.ReplaceAll(raw, ">", " > "))
	var sel selector
	child := false
	for _, tok := range strings.Fields(raw) {
		if tok == ">" {
			if len(sel.parts) == 0 || child {
				return selector{}, false
			}
			child = true
			continue
		}
		c, ok := parseCompound(tok)
		if !ok {
			return selector{}, false
		}
		if len(sel.parts) > 0 {
			sel.child = append(sel.child, child)
		}
		sel.parts = append(sel.parts, c)
		child = false
	}
	return sel, len(sel.parts) > 0 && !child
}

func parseCompound(tok string) (compound, bool) {
	m := compoundRun.FindStringSubmatch(tok)
	if m == nil || m[1] == "" && m[2] == "" {
		return compound{}, false
	}
	c := compound{tag: strings.ToLower(m[1])}
	for _, p := range simplePart.FindAllStringSubmatch(m[2], -1) {
		switch p[0][0] {
		case '#':
			c.id = p[0][1:]
		case '.':
			c.classes = append(c.classes, p[0][1:])
		default:
			v := strings.Trim(p[2], `"'`)
			c.attrs = append(c.attrs, attrTest{name: strings.ToLower(p[1]), value: v, has: p[2] == ""})
		}
	}
	return c, true
}

func (c compound) matches(n *html.Node) bool {
	if n.Type != html.ElementNode || c.tag != "" && n.Data != c.tag || c.id != "" && getAttr(n, "id") != c.id {
		return false
	}
	if len(c.classes) > 0 {
		have := strings.Fields(getAttr(n, "class"))
		for _, w := range c.classes {
			if !contains(have, w) {
				return false
			}
		}
	}
	for _, a := range c.attrs {
		v, ok := attrOK(n, a.name)
		if !ok || !a.has && v != a.value {
			return false
		}
	}
	return true
}

// matches reports whether the selector matches n, right to left.
func (s selector) matches(n *html.Node) bool {
	last := len(s.parts) - 1
	if !s.parts[last].matches(n) {
		return false
	}
	return s.matchUp(last-1, n)
}

// matchUp: compounds 0..i match ancestors of n in order.
func (s selector) matchUp(i int, n *html.Node) bool {
	if i < 0 {
		return true
	}
	for p := n.Parent; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if s.parts[i].matches(p) && s.matchUp(i-1, p) {
			return true
		}
		if s.child[i] {
			return false
		}
	}
	return false
}

// sheetStyle is the properties the page's rules give n (nil for none),
// computed once per element.
func (s *static) sheetStyle(n *html.Node) map[string]string {
	if len(s.sheet) == 0 {
		return nil
	}
	if st, ok := s.sheetMemo[n]; ok {
		return st
	}
	var st map[string]string
	for _, r := range s.sheet {
		for _, sel := range r.sels {
			if sel.matches(n) {
				if st == nil {
					st = map[string]string{}
				}
				for k, v := range r.decls {
					st[k] = v
				}
				break
			}
		}
	}
	s.sheetMemo[n] = st
	return st
}
