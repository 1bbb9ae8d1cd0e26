package pagejs_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/go-rod/rod"
	"github.com/google/go-cmp/cmp"
)

func TestInline(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		has     []string // substrings the result holds
		lacks   []string // substrings it must not hold
		wantErr error
	}{
		{name: "no include", src: "() => 1", has: []string{"() => 1"}},
		{name: "one include", src: "() => {\n  //pagejs:include labels\n  return labelsIn;\n}",
			has: []string{"const labelsIn = ", "return labelsIn;"}, lacks: []string{"//pagejs:include"}},
		{name: "two helpers", src: "//pagejs:include norm\n//pagejs:include modelcontext\n",
			has: []string{"const norm = ", "const hookRegisterTool = "}, lacks: []string{"//pagejs:include"}},
		{name: "not alone on its line", src: "x(); //pagejs:include labels\n",
			has: []string{"x(); //pagejs:include labels"}, lacks: []string{"const labelsIn"}},
		{name: "unknown helper", src: "//pagejs:include nothing\n", wantErr: pagejs.ErrUnknownHelper},
		{name: "a path is no helper", src: "//pagejs:include ../extract\n", wantErr: pagejs.ErrUnknownHelper},
		{name: "included twice", src: "//pagejs:include norm\n//pagejs:include norm\n", wantErr: pagejs.ErrDuplicateInclude},
		{name: "a helper after those it needs", src: "//pagejs:include pierce\n//pagejs:include norm\n//pagejs:include labels\n//pagejs:include accname\n//pagejs:include locate\n",
			has: []string{"const { locate, isVisible, doorOf, locateTrees }", "const norm = ", "queryAllPiercing"}},
		{name: "a helper without one it needs", src: "//pagejs:include pierce\n//pagejs:include locate\n", wantErr: pagejs.ErrMissingHelper},
		{name: "a helper before one it needs", src: "//pagejs:include norm\n//pagejs:include labels\n//pagejs:include accname\n//pagejs:include locate\n//pagejs:include pierce\n", wantErr: pagejs.ErrMissingHelper},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pagejs.Inline(tt.src)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Inline error = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "pagejs: ") {
					t.Errorf("error %q lacks the package prefix", err)
				}
				return
			}
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("Inline result lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(got, s) {
					t.Errorf("Inline result holds %q:\n%s", s, got)
				}
			}
		})
	}
}

func TestMustInlinePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("MustInline of an unknown helper did not panic")
		}
	}()
	pagejs.MustInline("//pagejs:include nothing\n")
}

// labelsPage holds every way a control gets (or does not get) a label.
const labelsPage = `<!doctype html><html><body>
<form id="a">
  <label for="dup">Your name</label><input id="dup" name="dup-a"><input id="dup" name="dup-b">
  <label for="email">Email</label><label>(work) <input id="email" name="email"></label>
  <label>Outer <label>Inner <input name="nested"></label></label>
  <label for="other">Other <input name="wrapped"></label><input id="other" name="other">
  <label for="tok">Token</label><input type="hidden" id="tok" name="tok">
  <label for="later">Later</label><input id="later" name="later" hidden>
  <label>Service <select name="service"><option>Clean</option></select></label>
  <label for="msg">Message</label><textarea id="msg" name="msg"></textarea>
  <label for="nothing">Dangling</label>
  <label for="out">Out</label><output id="out" name="out"></output>
  <label>Send <button name="send">Go</button></label>
</form>
<form id="b"><label for="dup">Your name</label><input id="dup" name="dup-c"></form>
</body></html>`

// browserPage opens html, served on loopback, with initScripts.
func browserPage(t testing.TB, html string, initScripts ...string) (*topology.Browser, string) {
	t.Helper()
	topologytest.NeedChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(html))
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	t.Cleanup(func() { br.Close() })
	return br, srv.URL
}

// openTestPage opens html, served on loopback, in a Chromium of its own;
// the context bounds the test's calls on the page.
func openTestPage(t testing.TB, html string) (context.Context, *rod.Page) {
	t.Helper()
	br, url := browserPage(t, html)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	page, err := br.OpenPage(ctx, url, topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, page
}

// TestLabelsOfIsElLabels: labelsOf answers what the browser's own
// el.labels does, for every element of a page of tricky labels.
func TestLabelsOfIsElLabels(t *testing.T) {
	ctx, page := openTestPage(t, labelsPage)
	js := pagejs.MustInline(`() => {
  //pagejs:include labels
  const labelsOf = labelsIn([document]);
  const text = (ls) => ls.map((l) => l.textContent.trim());
  const out = {};
  for (const el of document.querySelectorAll("*")) {
    const key = el.getAttribute("name");
    if (!key) continue;
    out[key] = { shared: text(labelsOf(el)), browser: el.labels ? text([...el.labels]) : [] };
  }
  return JSON.stringify(out);
}`)
	res, err := page.Context(ctx).Timeout(10 * time.Second).Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ Shared, Browser []string }
	var got map[string]pair
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	// What the browser binds (el.labels), so the comparison below is not
	// of two empty answers.
	want := map[string][]string{
		"dup-a":   {"Your name", "Your name"}, // label[for] binds to the first element with the id, in any form
		"dup-b":   {},
		"dup-c":   {},
		"email":   {"Email", "(work)"},
		"nested":  {"Outer Inner", "Inner"},
		"wrapped": {}, // its wrapping label names another control
		"other":   {"Other"},
		"tok":     {}, // a hidden input is not labelable
		"later":   {"Later"},
		"service": {"Service Clean"},
		"msg":     {"Message"},
		"out":     {"Out"},
		"send":    {"Send Go"},
	}
	browser := map[string][]string{}
	for name, p := range got {
		if diff := cmp.Diff(p.Browser, p.Shared); diff != "" {
			t.Errorf("labelsOf(%s) differs from el.labels (-el.labels +labelsOf):\n%s", name, diff)
		}
		browser[name] = p.Browser
	}
	if diff := cmp.Diff(want, browser); diff != "" {
		t.Errorf("el.labels (-want +got):\n%s", diff)
	}
}

// TestHookRegisterTool: two hooks on one page each see every registration
// once through the stand-ins (document and the legacy navigator); a
// polyfill the page assigns later is wrapped by the first hook installed
// only, and its own registerTool still runs; a hook that throws costs the
// page nothing.
func TestHookRegisterTool(t *testing.T) {
	hook := func(mark, list string, throws bool) string {
		th := ""
		if throws {
			th = "throw new Error('hook broke');"
		}
		return pagejs.MustInline(`(() => {
  //pagejs:include modelcontext
  window.` + list + ` = [];
  hookRegisterTool("` + mark + `", (where, tool) => { window.` + list + `.push(where + ":" + tool.name); ` + th + ` });
})();`)
	}
	br, url := browserPage(t, `<!doctype html><html><body><script>
window.polyfill = [];
window.errors = [];
try { document.modelContext.registerTool({ name: "one" }); } catch (e) { errors.push(String(e)); }
try { navigator.modelContext.registerTool({ name: "two" }); } catch (e) { errors.push(String(e)); }
document.modelContext = { registerTool(tool) { window.polyfill.push(tool.name); return "poly"; } };
try { window.answer = document.modelContext.registerTool({ name: "three" }); } catch (e) { errors.push(String(e)); }
</script></body></html>`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	page, err := br.OpenPage(ctx, url, topology.PageOptions{Offline: true,
		InitScripts: []string{hook("__testA", "seenA", false), hook("__testB", "seenB", true)}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := page.Context(ctx).Timeout(10 * time.Second).Eval(`() => JSON.stringify({a: window.seenA, b: window.seenB, polyfill: window.polyfill, errors: window.errors, answer: window.answer})`)
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		A, B, Polyfill, Errors []string
		Answer                 string
	}
	var got seen
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	regs := []string{"document:one", "navigator:two", "document:three"}
	want := seen{A: regs, B: regs[:2], Polyfill: []string{"three"}, Errors: []string{}, Answer: "poly"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("registrations (-want +got):\n%s", diff)
	}
}
