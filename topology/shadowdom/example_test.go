package shadowdom_test

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"

	"github.com/frontlatch/frontlatch/topology/shadowdom"
)

// Visit a parsed page's templates in document order and ask Roots which
// the browser's parser attached as shadow roots.
func ExampleRoots() {
	page := `<contact-form><template shadowrootmode="open"><form id="a"></form></template></contact-form>
<contact-form><template shadowrootmode="closed"></template><template shadowrootmode="open"></template></contact-form>
<ul><li><template shadowrootmode="open"></template></li></ul>
<div><template><form id="copy"></form></template></div>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	var roots shadowdom.Roots
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "template" {
				if mode, ok := roots.Attach(c); ok {
					fmt.Printf("<%s><template %v>: a shadow root, %s\n", c.Parent.Data, c.Attr, mode)
				} else {
					fmt.Printf("<%s><template %v>: inert\n", c.Parent.Data, c.Attr)
				}
			}
			walk(c)
		}
	}
	walk(doc)
	// Output:
	// <contact-form><template [{ shadowrootmode open}]>: a shadow root, open
	// <contact-form><template [{ shadowrootmode closed}]>: a shadow root, closed
	// <contact-form><template [{ shadowrootmode open}]>: inert
	// <li><template [{ shadowrootmode open}]>: inert
	// <div><template []>: inert
}
