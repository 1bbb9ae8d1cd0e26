package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Small helpers over x/net/html nodes for FromHTML.

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func getAttr(n *html.Node, key string) string { v, _ := attrOK(n, key); return v }

func hasAttr(n *html.Node, key string) bool { _, ok := attrOK(n, key); return ok }

// norm is pagejs's norm, the browser extraction's: each run of white
// space one space, leading and trailing space trimmed, white space being
// what JavaScript's \s matches (jsSpace) — a no-break space among it,
// which Go's regexp \s is not.
func norm(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		if jsSpace(r) {
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteByte(' ')
			gap = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// jsSpace reports the characters JavaScript's \s matches (ECMA-262
// WhiteSpace and LineTerminator): ASCII tab, line feed, vertical tab, form
// feed, carriage return and space, the no-break space, the byte order
// mark, the Unicode space separators (Zs), and the line and paragraph
// separators. U+0085, white space to Go's unicode.IsSpace, is not.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\ufeff', '\u2028', '\u2029':
		return true
	}
	return r > 0xff && unicode.Is(unicode.Zs, r)
}

// clip collapses whitespace and keeps at most n runes.
func clip(s string, n int) string { return clipRaw(norm(s), n) }

// clipRaw keeps at most n runes without touching whitespace.
func clipRaw(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// walk visits n and its descendants in document order within n's own
// tree, as querySelectorAll does: the content of a <template> — a
// declarative shadow root (another tree), or an inert template, whose
// children FromHTML removes — is not entered. visit returns false to skip
// a node's children.
func walk(n *html.Node, visit func(*html.Node) bool) { walkTrees(n, visit, false) }

// walkDeep is walk entering declarative shadow roots too (the composed
// tree: a host's shadow content where its template stands).
func walkDeep(n *html.Node, visit func(*html.Node) bool) { walkTrees(n, visit, true) }

func walkTrees(n *html.Node, visit func(*html.Node) bool, deep bool) {
	if n.Type == html.ElementNode || n.Type == html.DocumentNode {
		if n.Type == html.ElementNode && n.DataAtom == atom.Template {
			if !deep {
				return
			}
		} else if n.Type == html.ElementNode && !visit(n) {
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walkTrees(c, visit, deep)
	}
}

// textOf is the text content of n (script and style included, as
// textContent does; a shadow root's text is not its host's).
func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Template {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

// nameText is the text a label contributes to a control's name: text and
// image alternatives, without controls, scripts, styles and the control
// itself (exclude).
func nameText(n, exclude *html.Node) string {
	var b strings.Builder
	root := n
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if n == exclude {
				return
			}
			switch a := n.DataAtom; {
			case n == root && (a == atom.Button || a == atom.Option):
				// a button's or option's own text is its name
			case a == atom.Input, a == atom.Select, a == atom.Textarea, a == atom.Button, a == atom.Script, a == atom.Style, a == atom.Noscript, a == atom.Template, a == atom.Option:
				return
			case a == atom.Img:
				b.WriteString(" " + getAttr(n, "alt") + " ")
				return
			}
			b.WriteString(" ")
			defer b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return norm(b.String())
}

func imgAlt(n *html.Node) string {
	var alt string
	walk(n, func(c *html.Node) bool {
		if alt == "" && c.DataAtom == atom.Img {
			alt = getAttr(c, "alt")
		}
		return alt == ""
	})
	return alt
}

func dataOf(n *html.Node) map[string]string {
	d := map[string]string{}
	for _, a := range n.Attr {
		if strings.HasPrefix(a.Key, "data-") && len(d) < 30 {
			d[strings.TrimPrefix(a.Key, "data-")] = clipRaw(a.Val, 500)
		}
	}
	return d
}

var absURL = regexp.MustCompile(`(?i)^https?://`)

func isWidget(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if hasAttr(n, "data-sitekey") || widgetClass.MatchString(getAttr(n, "class")) {
		return true
	}
	for _, a := range n.Attr {
		if strings.HasPrefix(a.Key, "data-") && absURL.MatchString(a.Val) {
			return true
		}
	}
	return false
}

// inBody: n is in the body, through the hosts of the shadow roots it is in.
func inBody(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Body {
			return true
		}
	}
	return false
}

// hasAncestor and isAncestor look up n's own tree only: a declarative
// shadow root's <template> is the top of its tree, as a ShadowRoot is
// in a browser (a form around the host does not own the controls of its
// shadow root).
func hasAncestor(n *html.Node, a atom.Atom) bool {
	for p := n.Parent; p != nil && p.DataAtom != atom.Template; p = p.Parent {
		if p.DataAtom == a {
			return true
		}
	}
	return false
}

func isAncestor(anc, n *html.Node) bool {
	for p := n.Parent; p != nil && p.DataAtom != atom.Template; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}

// isAncestorDeep is isAncestor in the composed tree (through hosts).
func isAncestorDeep(anc, n *html.Node) bool {
	for p := parentOf(n); p != nil; p = parentOf(p) {
		if p == anc {
			return true
		}
	}
	return false
}

// parentOf is n's parent element in the composed tree: at the top of a
// declarative shadow root, its host (the template's parent).
func parentOf(n *html.Node) *html.Node {
	p := n.Parent
	if p != nil && p.DataAtom == atom.Template {
		p = p.Parent
	}
	return p
}

// isControl: a form-associated listed element.
func isControl(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Input, atom.Select, atom.Textarea, atom.Button, atom.Fieldset, atom.Output, atom.Object:
		return true
	}
	return false
}

// controlType is the type a browser reports: the input type attribute
// lower-cased, "text" when absent or unknown; select-one/select-multiple;
// textarea; a button's type (submit by default).
func controlType(n *html.Node) string {
	switch n.DataAtom {
	case atom.Select:
		if hasAttr(n, "multiple") {
			return "select-multiple"
		}
		return "select-one"
	case atom.Textarea:
		return "textarea"
	case atom.Button:
		t := strings.ToLower(strings.TrimSpace(getAttr(n, "type")))
		if t != "button" && t != "reset" {
			return "submit"
		}
		return t
	case atom.Input:
		t := strings.ToLower(strings.TrimSpace(getAttr(n, "type")))
		if inputTypes[t] {
			return t
		}
		return "text"
	}
	return strings.ToLower(getAttr(n, "type"))
}

var inputTypes = map[string]bool{"hidden": true, "text": true, "search": true, "tel": true, "url": true, "email": true, "password": true, "date": true, "month": true, "week": true, "time": true, "datetime-local": true, "number": true, "range": true, "color": true, "checkbox": true, "radio": true, "file": true, "submit": true, "image": true, "reset": true, "button": true}

func isVisibleControl(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Select, atom.Textarea:
		return true
	case atom.Input:
		return controlType(n) != "hidden"
	}
	return false
}

func hasVisibleControl(n *html.Node) bool {
	found := false
	walk(n, func(c *html.Node) bool {
		if isVisibleControl(c) {
			found = true
		}
		return !found
	})
	return found
}

func countVisibleControls(n *html.Node) int {
	k := 0
	walk(n, func(c *html.Node) bool {
		if isVisibleControl(c) {
			k++
		}
		return true
	})
	return k
}

// fieldWrapper is the nearest ancestor holding this control and no other
// (other than same-name group members) — a plugin's field container.
func fieldWrapper(c, stop *html.Node) *html.Node {
	var w *html.Node
	name := getAttr(c, "name")
	for n := c.Parent; n != nil && n != stop && n.DataAtom != atom.Body && n.DataAtom != atom.Template; n = n.Parent {
		other := false
		walk(n, func(o *html.Node) bool {
			if o != c && isVisibleControl(o) && !(name != "" && getAttr(o, "name") == name) {
				other = true
			}
			return !other
		})
		if other {
			break
		}
		w = n
	}
	return w
}

func tabIndex(n *html.Node) *int {
	v, ok := attrOK(n, "tabindex")
	if !ok {
		return nil
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return nil
	}
	return &i
}

func isButtonLike(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Button:
		return true
	case atom.Input:
		t := controlType(n)
		return t == "submit" || t == "image" || t == "button"
	}
	if getAttr(n, "role") == "button" {
		return true
	}
	if (n.DataAtom == atom.A || n.DataAtom == atom.Div || n.DataAtom == atom.Span) && buttonClass.MatchString(getAttr(n, "class")) {
		return sendWords.MatchString(clipRaw(norm(textOf(n)), 60))
	}
	return false
}

func inDialog(n *html.Node) bool {
	for p := n.Parent; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if p.DataAtom == atom.Dialog || getAttr(p, "role") == "dialog" || getAttr(p, "role") == "alertdialog" || getAttr(p, "aria-modal") == "true" {
			return true
		}
		if p.DataAtom != atom.Body && dialogClass.MatchString(getAttr(p, "class")) {
			return true
		}
	}
	return false
}

// requiredBy names the attribute that makes a control required
// (Field.RequiredAttr) from the presence of required and the raw value of
// aria-required: required wins; "" when neither. extract.js has the same
// rule.
func requiredBy(required bool, ariaRequired string) string {
	switch {
	case required:
		return RequiredAttribute
	case ariaRequired == AriaRequiredTrue:
		return AriaRequired
	}
	return ""
}
