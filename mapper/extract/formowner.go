package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parserOwners finds the controls a browser's parser gives to a form they
// are not inside: a <form> opened in a table is popped at once (it keeps
// no children) while the parser's form element pointer stays set, so the
// rows' controls up to </form> belong to it (form.elements lists them);
// likewise a form closed early by its wrapper's end tag. The markup is
// tokenised once to follow that pointer; its controls are lined up with
// the tree's by document order, and only when both agree on the number of
// forms and controls (foster-parented or template content would break the
// line-up: then nothing is claimed, as before).
func parserOwners(markup []byte, forms, all []*html.Node) map[*html.Node]*html.Node {
	var owners []int // per control start tag without form=: index of its form, or -1
	nForms, open := 0, -1
	z := html.NewTokenizer(bytes.NewReader(markup))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken && tt != html.EndTagToken {
			continue
		}
		name, hasAttrs := z.TagName()
		a := atom.Lookup(name)
		switch {
		case a == atom.Form && tt == html.EndTagToken:
			open = -1
		case a == atom.Form:
			if open < 0 {
				open = nForms
				nForms++
			}
		case a == atom.Template:
			return nil // template content lives in its own fragment
		case tt != html.EndTagToken && isControlAtom(a):
			formAttr := false
			for hasAttrs {
				var k []byte
				k, _, hasAttrs = z.TagAttr()
				if strings.EqualFold(string(k), "form") {
					formAttr = true
				}
			}
			if !formAttr {
				owners = append(owners, open)
			}
		}
	}
	if nForms != len(forms) {
		return nil
	}
	var controls []*html.Node
	for _, n := range all {
		if isControl(n) && !hasAttr(n, "form") {
			controls = append(controls, n)
		}
	}
	if len(controls) != len(owners) {
		return nil
	}
	out := map[*html.Node]*html.Node{}
	for i, n := range controls {
		if k := owners[i]; k >= 0 && !hasAncestor(n, atom.Form) {
			out[n] = forms[k]
		}
	}
	return out
}

func isControlAtom(a atom.Atom) bool {
	switch a {
	case atom.Input, atom.Select, atom.Textarea, atom.Button, atom.Fieldset, atom.Output, atom.Object:
		return true
	}
	return false
}
