package portal

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"github.com/frontlatch/frontlatch/shared"
	"golang.org/x/net/html"
)

// Markup a hostile page could put in its labels, summary, names and
// addresses, to script the owner's browser through the portal.
const (
	scriptTag = `<script>alert("label")</script>`
	breakout  = `"><img src=x onerror=alert(1)>`
	svgLoad   = `<svg onload=alert(2)>`
)

func hostileGraph(t *testing.T) []byte {
	return graphBytes(t, "clinic01", testOrigin, func(g *shared.ActionGraph) {
		g.Site.Name = strp(scriptTag + " Dental")
		a := &g.Actions[0]
		a.Label = scriptTag + breakout
		a.SideEffects.Summary = "Books you in " + breakout + svgLoad
		a.Inputs[6].Label = strp(svgLoad + "Your name")
		extra := a.Inputs[6]
		extra.Name, extra.ValueSpace = `patient"><script>x()</script>`, []shared.ValueSpace{}
		a.Inputs = append(a.Inputs, extra)
		a.Access[0].Submission.Endpoint = strp(`https://forms.example.net/"><script>alert(3)</script>`)
		a.Access[0].Vendor = strp(breakout)
		tgt := `inbox"><iframe src=javascript:alert(4)>`
		a.SideEffects.Effects[0].Target = &tgt
		a.Verification = shared.Unverified{Note: strp("drifted: " + scriptTag)}
		g.Actions[1].ID = `clinic01:x/y"><script>alert(5)</script> ?#`
	})
}

// liveMarkup lists every element or attribute in doc that could run script
// or load something: script, iframe, img, object, embed elements, any on*
// attribute, a javascript: URL, and any svg but the report's own chart.
func liveMarkup(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "iframe", "img", "object", "embed", "frame", "link", "base", "meta":
			if n.Data == "meta" && (attr(n, "charset") != "" || attr(n, "name") == "viewport") {
				break
			}
			found = append(found, "<"+n.Data+">")
		case "svg":
			if attr(n, "role") != "img" || attr(n, "aria-labelledby") != "chart-title" {
				found = append(found, "<svg> that is not the chart")
			}
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				found = append(found, n.Data+" "+a.Key+"=")
			}
			if strings.Contains(strings.ToLower(a.Val), "javascript:") {
				found = append(found, n.Data+" "+a.Key+"="+a.Val)
			}
		}
	}
	return found
}

func TestHostileMarkupIsShownAsText(t *testing.T) {
	data := hostileGraph(t)
	g, issues := shared.Read(data)
	if g == nil {
		t.Fatal(issues)
	}
	var report bytes.Buffer
	if err := RenderReport(&report, BuildReport(g, nil)); err != nil {
		t.Fatal(err)
	}
	h := startPortal(t, data)
	h.login(t)
	_, portalReport := h.get(t, h.srv.Origin()+"/")
	resp, actionPage := h.get(t, h.srv.Origin()+actionPath(g.Actions[0].ID))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("action page: %d", resp.StatusCode)
	}
	resp, otherPage := h.get(t, h.srv.Origin()+actionPath(g.Actions[1].ID))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("page of the action with a hostile id: %d", resp.StatusCode)
	}
	for name, page := range map[string]string{"report file": report.String(), "portal report": portalReport, "action page": actionPage, "hostile-id page": otherPage} {
		t.Run(name, func(t *testing.T) {
			if live := liveMarkup(t, page); len(live) > 0 {
				t.Errorf("live markup from the site: %q", live)
			}
			// What the site wrote is still there, as text the owner can read.
			text := html.UnescapeString(page)
			for _, s := range []string{scriptTag, breakout} {
				if name != "hostile-id page" && !strings.Contains(text, s) {
					t.Errorf("the page does not show %q as text", s)
				}
			}
		})
	}
}

// The detector itself finds what it looks for, so a pass above means
// something.
func TestLiveMarkupDetectorFindsMarkup(t *testing.T) {
	for _, page := range []string{
		"<p>" + breakout + "</p>", "<p>" + scriptTag + "</p>", "<div>" + svgLoad + "</div>",
		`<a href="javascript:alert(1)">x</a>`, `<iframe src="https://x"></iframe>`,
	} {
		if len(liveMarkup(t, page)) == 0 {
			t.Errorf("liveMarkup(%q) found nothing", page)
		}
	}
}

// Characters that change how the text around them reads, or show nothing:
// a right-to-left override makes "moc.elpmaxe" read "example.com", and an
// unclosed one turns what follows it on the line around too.
const (
	rlo     = "\u202e"
	isolate = "\u2067"
	bell    = "\a"
	escape  = "\x1b"
	c1      = "\u0085"
)

func bidiGraph(t *testing.T) []byte {
	return graphBytes(t, "clinic01", testOrigin, func(g *shared.ActionGraph) {
		g.Site.Name = strp("Harbour " + rlo + "latneD")
		a := &g.Actions[0]
		a.Label = "Book " + isolate + "an appointment" + bell
		a.SideEffects.Summary = "Books you in. " + rlo + ".yenom on segrahc tI" + escape
		a.Inputs[0].Label = strp(c1 + "Your name" + rlo)
		tgt := "reception" + rlo + "@clinic"
		a.SideEffects.Effects[0].Target = &tgt
		a.Access[0].Vendor = strp("Forms" + rlo)
		withSandboxRun(0)(g)
		vs := a.Verification.(shared.SandboxTested)
		vs.SandboxRuns[0].Fields[0].Value = "Test" + rlo + "nosreP"
		vs.SandboxRuns[0].Note = strp("intercepted" + bell + rlo)
		a.Verification = vs
	})
}

// Every bidi control and control character (but tab and line breaks) a
// site put in its strings is shown as its code point, never passed to the
// owner's browser to reorder or hide text.
func TestBidiAndControlCharactersAreShownAsCodePoints(t *testing.T) {
	data := bidiGraph(t)
	g, issues := shared.Read(data)
	if g == nil {
		t.Fatal(issues)
	}
	var report bytes.Buffer
	if err := RenderReport(&report, BuildReport(g, nil)); err != nil {
		t.Fatal(err)
	}
	h := startPortal(t, data)
	h.login(t)
	_, portalReport := h.get(t, h.srv.Origin()+"/")
	resp, actionPage := h.get(t, h.srv.Origin()+actionPath(g.Actions[0].ID))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("action page: %d", resp.StatusCode)
	}
	for name, page := range map[string]string{"report file": report.String(), "portal report": portalReport, "action page": actionPage} {
		t.Run(name, func(t *testing.T) {
			for _, r := range page {
				if unicode.Is(unicode.Bidi_Control, r) || (unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r') {
					t.Errorf("the page holds %U as it is", r)
				}
			}
			text := html.UnescapeString(page)
			if !strings.Contains(text, "Books you in. [U+202E].yenom on segrahc tI[U+001B]") {
				t.Errorf("the page does not show the summary with its code points")
			}
			if name != "action page" && !strings.Contains(text, "Harbour [U+202E]latneD") {
				t.Errorf("the report does not show the site's name with its code points")
			}
			if name == "action page" {
				for _, want := range []string{"[U+0085]Your name[U+202E]", "reception[U+202E]@clinic", "Test[U+202E]nosreP", "intercepted[U+0007][U+202E]", "Book [U+2067]an appointment[U+0007]"} {
					if !strings.Contains(text, want) {
						t.Errorf("the action page does not show %q", want)
					}
				}
			}
		})
	}
}
