package extract

import (
	"regexp"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Static reading of the page's own <style> elements, for visibility only.
// Plugins hide their honeypots with a rule in the page
// (`.mc4wp-form input[name="_mc4wp_required_but_not_really"]{display:none}`,
// `.trap-wrap{display:none}`), which a browser applies and markup alone
// does not show. FromHTML reads the rules whose selectors it can match
// from markup alone — every selector cascadia parses that has no
// pseudo-class or pseudo-element — outside @media,
// @supports and other conditional blocks, and only the properties
// visibility reads. Later rules win over earlier ones and inline style over
// both; specificity and !important are not weighed. Linked stylesheets
// are not fetched.

// sheetProps are the properties visibility reads.
var sheetProps = map[string]bool{"display": true, "visibility": true, "opacity": true, "position": true, "left": true, "top": true,
	"text-indent": true, "margin-left": true, "margin": true, "height": true, "overflow": true}

type sheetRule struct {
	sels  []cascadia.Sel
	decls map[string]string
}

var cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)

// parseSelector compiles one selector of a rule's list with cascadia. A
// selector with a pseudo-class or pseudo-element (`:hover`, `:focus`,
// `::before`) depends on state or rendering markup does not show, and is
// left out.
func parseSelector(raw string) (cascadia.Sel, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.Contains(raw, ":") {
		return nil, false
	}
	sel, err := cascadia.Parse(raw)
	return sel, err == nil
}

// parseSheets reads the rules of every <style> element under root.
func parseSheets(all []*html.Node) []sheetRule {
	var out []sheetRule
	for _, n := range all {
		// (an inert template's styles are gone: FromHTML empties it; a
		// declarative shadow root's rules are read as the page's, an
		// approximation of their scope)
		if n.DataAtom != atom.Style {
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
		var sels []cascadia.Sel
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
			if sel.Match(n) {
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
