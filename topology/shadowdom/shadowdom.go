package shadowdom

import (
	"regexp"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Mode is a shadow root's mode.
type Mode string

// The two modes of a shadow root.
const (
	Open   Mode = "open"
	Closed Mode = "closed"
)

// Roots decides, for the templates of one parsed document visited in
// document order, which the parser attached as shadow roots. The zero
// value is ready to use; a Roots is for one document and one goroutine.
type Roots struct {
	hosted map[*html.Node]bool
}

// Attach reports whether t, a node of the document visited in document
// order, is a declarative shadow root, and its mode. It answers false for
// a node that is not a <template> element, and for the second declarative
// template of a host (the parser leaves it inert), which is why the
// templates must be visited in order and each once.
func (r *Roots) Attach(t *html.Node) (Mode, bool) {
	if t == nil || t.Type != html.ElementNode || t.DataAtom != atom.Template || t.Namespace != "" {
		return "", false
	}
	mode, ok := modeOf(t)
	h := t.Parent
	if !ok || !CanHost(h) || r.hosted[h] {
		return "", false
	}
	if r.hosted == nil {
		r.hosted = map[*html.Node]bool{}
	}
	r.hosted[h] = true
	return mode, true
}

// CanHost reports whether the parser attaches a declarative shadow root to
// h: an HTML element that is a custom element or one of the elements
// attachShadow accepts.
func CanHost(h *html.Node) bool {
	if h == nil || h.Type != html.ElementNode || h.Namespace != "" {
		return false
	}
	return hosts[h.DataAtom] || (customElementName.MatchString(h.Data) && !reservedNames[h.Data])
}

func modeOf(t *html.Node) (Mode, bool) {
	for _, a := range t.Attr {
		if a.Namespace != "" || a.Key != "shadowrootmode" {
			continue
		}
		switch {
		// ASCII case-insensitive, as HTML's enumerated attributes are
		// (strings.EqualFold folds Unicode: "clo\u017fed" is no mode).
		case asciiEqualFold(a.Val, string(Open)):
			return Open, true
		case asciiEqualFold(a.Val, string(Closed)):
			return Closed, true
		}
		return "", false
	}
	return "", false
}

// asciiEqualFold reports a and b equal under ASCII case folding only.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// hosts are the elements attachShadow accepts besides custom elements
// (DOM's "valid shadow host name").
var hosts = map[atom.Atom]bool{
	atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Body: true, atom.Div: true, atom.Footer: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Main: true, atom.Nav: true, atom.P: true, atom.Section: true, atom.Span: true,
}

// customElementName is HTML's valid custom element name, as far as the
// parser's lower-cased tag names go: a lower-case ASCII letter first, a
// hyphen somewhere, no upper-case letters or white space.
var customElementName = regexp.MustCompile(`^[a-z][^A-Z\s]*-[^A-Z\s]*$`)

// reservedNames match customElementName but are no custom element names
// (SVG and MathML elements of those names).
var reservedNames = map[string]bool{
	"annotation-xml": true, "color-profile": true, "font-face": true, "font-face-src": true,
	"font-face-uri": true, "font-face-format": true, "font-face-name": true, "missing-glyph": true,
}
