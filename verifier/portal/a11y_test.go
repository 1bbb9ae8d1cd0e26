package portal

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// accessibilityProblems checks what a page's markup can show of WCAG:
// a language, one h1 and no skipped heading level, a skip link first that
// targets main, a label tied to every visible form control, a text
// alternative for the chart, and no script needed (there is none).
func accessibilityProblems(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	labels, ids := map[string]bool{}, map[string]bool{}
	var controls []*html.Node
	var firstLink *html.Node
	h1s, last := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id := attr(n, "id"); id != "" {
			if ids[id] {
				problems = append(problems, "duplicate id "+id)
			}
			ids[id] = true
		}
		switch n.Data {
		case "html":
			if attr(n, "lang") == "" {
				problems = append(problems, "html has no lang")
			}
		case "h1", "h2", "h3", "h4", "h5", "h6":
			level, _ := strconv.Atoi(n.Data[1:])
			if level == 1 {
				h1s++
			}
			if level > last+1 {
				problems = append(problems, "heading "+n.Data+" after h"+strconv.Itoa(last))
			}
			last = level
		case "a":
			if firstLink == nil {
				firstLink = n
			}
		case "label":
			labels[attr(n, "for")] = true
		case "input", "select", "textarea":
			if attr(n, "type") != "hidden" {
				controls = append(controls, n)
			}
		case "svg":
			if attr(n, "role") != "img" || attr(n, "aria-labelledby") == "" {
				problems = append(problems, "svg without role=img and a title")
			}
		case "script":
			problems = append(problems, "a script element")
		}
	}
	if h1s != 1 {
		problems = append(problems, strconv.Itoa(h1s)+" h1 elements")
	}
	if firstLink == nil || attr(firstLink, "href") != "#main" || !ids["main"] {
		problems = append(problems, "the first link is not a skip link to #main")
	}
	for _, c := range controls {
		if id := attr(c, "id"); id == "" || !labels[id] {
			problems = append(problems, c.Data+" "+attr(c, "name")+" has no label")
		}
	}
	return problems
}

func TestPagesAreAccessible(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, withSandboxRun(0)))
	h.login(t)
	pages := map[string]string{}
	var file bytes.Buffer
	if err := RenderReport(&file, BuildReport(mapped(t, "clinic01", testOrigin), nil)); err != nil {
		t.Fatal(err)
	}
	pages["report file"] = file.String()
	_, pages["portal report"] = h.get(t, h.srv.Origin()+"/")
	_, pages["confirmation page"] = h.get(t, h.srv.Origin()+actionPath(clinicBooking))
	_, pages["not found"] = h.get(t, h.srv.Origin()+actionPath("nope"))
	bad := h.confirmForm(t, clinicBooking)
	bad.Set("capMax", "0")
	_, pages["form with errors"] = h.post(t, actionPath(clinicBooking), bad, nil)
	_, pages["confirmed"] = h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil)
	_, pages["refused"] = h.post(t, actionPath(clinicBooking), url.Values{}, nil)
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			if p := accessibilityProblems(t, page); len(p) > 0 {
				t.Errorf("%q", p)
			}
		})
	}
}

// The checker finds what it looks for.
func TestAccessibilityCheckerFindsProblems(t *testing.T) {
	for _, page := range []string{
		`<html><body><a href="#main">skip</a><main id="main"><h1>a</h1><h3>b</h3></main></body></html>`,
		`<html lang="en"><body><a href="#main">skip</a><main id="main"><h1>a</h1><input name="x"></main></body></html>`,
		`<html lang="en"><body><a href="/">home</a><main id="main"><h1>a</h1></main></body></html>`,
		`<html lang="en"><body><a href="#main">skip</a><main id="main"><h1>a</h1><h1>b</h1></main></body></html>`,
	} {
		if len(accessibilityProblems(t, page)) == 0 {
			t.Errorf("no problem found in %s", page)
		}
	}
}
