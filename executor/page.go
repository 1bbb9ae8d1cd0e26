package executor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/frontlatch/frontlatch/topology/shadowdom"
)

// maxPageBytes bounds the live page read for system tokens.
const maxPageBytes = 4 << 20

// pageFields is what the live page's form holds, in the form that best
// matches the action.
type pageFields struct {
	// values is the value attribute of each named input (the first of a
	// name): a token's.
	values map[string]string
	// boxes is the value of each name's first checkbox: what a checkbox
	// the agent checks sends (not the value of a hidden input of the same
	// name before it, which Rails and others write for an unticked box).
	boxes map[string]string
	// sent is what a browser sends for each name as the page has it: an
	// input's value, but for checkboxes and radio buttons, which send
	// only when checked: the first checked one's value. A name whose
	// every input is an unchecked checkbox or radio button is not in it.
	sent map[string]string
}

// fetchPage GETs the door's page with client (same origin only, redirects
// included) and reads the form that carries the action's fields.
func (e *Executor) fetchPage(ctx context.Context, client *http.Client, pageURL, endpoint string, names []string) (*pageFields, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pageURL, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrPage, pageURL, err)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrPage, pageURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		if resp.StatusCode < 400 && redirectOffOrigin(resp) {
			return nil, fmt.Errorf("%w: GET %s redirected to %q, another origin, which is not followed", ErrOffOrigin, pageURL, resp.Header.Get("Location"))
		}
		if resp.StatusCode < 400 {
			return nil, fmt.Errorf("%w: GET %s answered %s, a redirect to %q that was not followed: %s", ErrPage, pageURL, resp.Status, resp.Header.Get("Location"), redirectsOnOrigin)
		}
		return nil, fmt.Errorf("%w: GET %s answered %s", ErrPage, pageURL, resp.Status)
	}
	doc, err := html.Parse(io.LimitReader(resp.Body, maxPageBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: parse %s: %w", ErrPage, pageURL, err)
	}
	base := resp.Request.URL
	return readForm(doc, base, endpoint, names), nil
}

// readForm picks the form that submits to endpoint and holds most of names
// (the whole document when there is no form) and collects its inputs'
// values.
func readForm(doc *html.Node, base *url.URL, endpoint string, names []string) *pageFields {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var forms []*html.Node
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom == atom.Form {
			forms = append(forms, n)
			return false
		}
		return true
	})
	best, bestScore := doc, -1
	for _, f := range forms {
		score := 0
		vals := inputValues(f).values
		for n := range want {
			if _, ok := vals[n]; ok {
				score++
			}
		}
		if sameEndpoint(base, attr(f, "action"), endpoint) {
			score += 1000
		}
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	pf := inputValues(best)
	if best != doc {
		// A token outside the chosen form (form="id" association, or a
		// formless group) is still the page's.
		all := inputValues(doc)
		for k, v := range all.values {
			if _, ok := pf.values[k]; !ok {
				pf.values[k] = v
				if s, on := all.sent[k]; on {
					pf.sent[k] = s
				}
				if b, ok := all.boxes[k]; ok {
					pf.boxes[k] = b
				}
			}
		}
	}
	return pf
}

func sameEndpoint(base *url.URL, action, endpoint string) bool {
	u, err := base.Parse(action)
	if err != nil {
		return false
	}
	ep, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	return u.Scheme == ep.Scheme && u.Host == ep.Host && u.Path == ep.Path
}

// inputValues reads the named <input>s under n: each name's value
// attribute (the first one of a name; a checkbox without one has the
// value "on"), its first checkbox's, and what a browser sends for it as
// the page has it (pageFields).
func inputValues(n *html.Node) *pageFields {
	values, sent, boxes := map[string]string{}, map[string]string{}, map[string]string{}
	walk(n, func(c *html.Node) bool {
		if c.DataAtom != atom.Input {
			return true
		}
		name := attr(c, "name")
		if name == "" {
			return true
		}
		v, has := attrOK(c, "value")
		t := strings.ToLower(attr(c, "type"))
		if !has && checkable(t) {
			v = "on"
		}
		if _, seen := values[name]; !seen {
			values[name] = v
		}
		if _, on := sent[name]; !on && (!checkable(t) || hasAttr(c, "checked")) {
			sent[name] = v
		}
		if _, seen := boxes[name]; !seen && t == "checkbox" {
			boxes[name] = v
		}
		return true
	})
	return &pageFields{values: values, sent: sent, boxes: boxes}
}

func hasAttr(n *html.Node, key string) bool {
	_, ok := attrOK(n, key)
	return ok
}

// walk visits element nodes depth-first, as the browser builds the page;
// visit returns whether to descend. The content of a <template> is inert —
// the browser renders none of it, and a page may keep a copy of its form
// there, with a placeholder for the token — unless the parser attaches the
// template as its parent's shadow root (topology's shadowdom rule, which
// the mapper follows too), open or closed: a closed root's form is as real
// to the page as an open one's.
func walk(n *html.Node, visit func(*html.Node) bool) {
	var roots shadowdom.Roots
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Template {
				if _, ok := roots.Attach(c); !ok {
					continue
				}
			}
			if c.Type == html.ElementNode && !visit(c) {
				continue
			}
			rec(c)
		}
	}
	rec(n)
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
