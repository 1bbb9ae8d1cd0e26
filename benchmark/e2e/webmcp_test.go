package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/go-cmp/cmp"
)

// modelContextShim stands in for a browser's WebMCP: it records every
// registerTool call. It is installed before any page script runs.
const modelContextShim = `(() => {
  const tools = [];
  const errors = [];
  window.__webmcpTools = tools;
  window.__webmcpErrors = errors;
  window.addEventListener("error", (e) => errors.push(String(e.message)));
  const mc = { registerTool(tool, options) { tools.push(tool); return Promise.resolve(); } };
  Object.defineProperty(Document.prototype, "modelContext", { configurable: true, get() { return mc; } });
})();`

// registered is what the test reads back of each registerTool call.
type registered struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	Annotations map[string]any `json:"annotations"`
	Keys        []string       `json:"keys"`
	HasExecute  bool           `json:"hasExecute"`
}

// readRegistered returns the tools the page registered.
const readRegistered = `() => window.__webmcpTools.map((t) => ({
  name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema,
  annotations: t.annotations, keys: Object.keys(t).sort(), hasExecute: typeof t.execute === "function",
}))`

// callTool calls one tool's execute and, before the form is submitted
// (execute submits on the next task), reads every copy of the form.
const callTool = `async (name, input) => {
  const tool = window.__webmcpTools.find((t) => t.name === name);
  let result = null, error = null;
  try { result = await tool.execute(input); } catch (e) { error = String(e.message || e); }
  const forms = [...document.querySelectorAll("form#appointment-form")].map((f) => ({
    visible: !!(f.offsetWidth || f.offsetHeight || f.getClientRects().length),
    unit: f.elements["_wpcf7_unit_tag"].value,
    name: f.elements["patient-name"].value,
    phone: f.elements["phone"].value,
  }));
  return { result, error, forms };
}`

type callResult struct {
	Result map[string]any `json:"result"`
	Error  *string        `json:"error"`
	Forms  []struct {
		Visible bool   `json:"visible"`
		Unit    string `json:"unit"`
		Name    string `json:"name"`
		Phone   string `json:"phone"`
	} `json:"forms"`
}

// webmcpDictionaryMembers are ModelContextTool's members (webmcp.webidl).
var webmcpDictionaryMembers = []string{"annotations", "description", "execute", "inputSchema", "name", "title"}

func newBrowser(t *testing.T, ctx context.Context) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatalf("launching Chromium: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestWebMCPScriptInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Chromium test in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	data, err := os.ReadFile(filepath.Join(fixturestest.MustRepoRoot(t), "fixtures", "graphs", "clinic01.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, data)
	// clinic01 is unverified: the owner's script only carries it when asked.
	opts := compiler.Options{IncludeUnverified: true}
	script := compiled(t, g, compiler.FormatWebMCP, opts)
	var mcp struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	mcpOut := compiled(t, g, compiler.FormatMCP, opts)
	if err := json.Unmarshal(mcpOut, &mcp); err != nil {
		t.Fatal(err)
	}

	srv, err := fixtures.Serve(ctx, "clinic01")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base, err := srv.URL("clinic01")
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, ctx)
	// The graph names harbourside-dental.com.au; the fixture is on
	// 127.0.0.1. The script finds the form by the graph's CSS locators,
	// which are origin-free.
	page := openWithScript(t, ctx, b, strings.TrimSuffix(base, "/")+"/", script)

	t.Run("the script parses and registers the graph's tools", func(t *testing.T) {
		var tools []registered
		evalInto(t, page, readRegistered, &tools)
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name)
		}
		var want []string
		for _, tl := range mcp.Tools {
			want = append(want, tl.Name)
		}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Fatalf("registered tools (-want +got):\n%s", diff)
		}
		a := &g.Actions[0]
		var inputs []string
		for _, in := range a.Inputs {
			if in.AgentFillable && in.Semantic != shared.SemanticHoneypot && in.Semantic != shared.SemanticSystemToken {
				inputs = append(inputs, in.Name)
			}
		}
		sort.Strings(inputs)
		for _, tl := range tools {
			if !shared.ValidToolName(tl.Name) || tl.Description == "" || !tl.HasExecute {
				t.Errorf("tool %q: invalid name, empty description or no execute", tl.Name)
			}
			if diff := cmp.Diff(webmcpDictionaryMembers, tl.Keys); diff != "" {
				t.Errorf("registerTool dictionary members (-want +got):\n%s", diff)
			}
			var props []string
			for p := range tl.InputSchema["properties"].(map[string]any) {
				props = append(props, p)
			}
			sort.Strings(props)
			if diff := cmp.Diff(inputs, props); diff != "" {
				t.Errorf("inputSchema properties are not the agent-fillable inputs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]any{"readOnlyHint": false, "untrustedContentHint": false}, tl.Annotations); diff != "" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(tl.Title, "[UNVERIFIED] ") {
				t.Errorf("title %q is not marked unverified", tl.Title)
			}
		}
	})

	tool := mcp.Tools[0].Name
	refusals := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"input the form's pattern refuses", map[string]any{"patient-name": "Jane Citizen", "phone": "12345"}, "phone"},
		{"unknown input", map[string]any{"patient-name": "Jane Citizen", "phone": "0291234567", "_wpcf7": "1"}, `unknown input "_wpcf7"`},
	}
	for _, tt := range refusals {
		t.Run("execute refuses "+tt.name, func(t *testing.T) {
			var got callResult
			evalInto(t, page, callTool, &got, tool, tt.input)
			if got.Error == nil || !strings.Contains(*got.Error, tt.want) {
				t.Errorf("execute error = %v, want one naming %q", got.Error, tt.want)
			}
		})
	}

	t.Run("execute fills and submits the real form", func(t *testing.T) {
		before, err := srv.Submissions("clinic01")
		if err != nil {
			t.Fatal(err)
		}
		var got callResult
		evalInto(t, page, callTool, &got, tool, map[string]any{"patient-name": "Jane Citizen", "phone": "0291234567"})
		if got.Error != nil {
			t.Fatalf("execute failed: %s", *got.Error)
		}
		if got.Result["submitted"] != true {
			t.Errorf("execute result %v, want submitted: true", got.Result)
		}
		var filledUnit string
		for _, f := range got.Forms {
			if f.Visible {
				filledUnit = f.Unit
				if f.Name != "Jane Citizen" || f.Phone != "0291234567" {
					t.Errorf("visible form %s holds name %q phone %q", f.Unit, f.Name, f.Phone)
				}
			} else if f.Name != "" || f.Phone != "" {
				t.Errorf("hidden copy %s of the form was filled too", f.Unit)
			}
		}
		if filledUnit == "" {
			t.Fatalf("no visible copy of the form: %+v", got.Forms)
		}
		sub := waitSubmission(t, srv, len(before))
		for field, want := range map[string]string{
			"patient-name": "Jane Citizen", "phone": "0291234567",
			"_wpcf7": "57", "_wpcf7_unit_tag": filledUnit, // system tokens kept as the page had them
		} {
			if got := sub.Fields.Get(field); got != want {
				t.Errorf("submitted %s = %q, want %q", field, got, want)
			}
		}
		if sub.Path != "/wp-admin/admin-ajax.php" || sub.Method != "POST" {
			t.Errorf("submitted %s %s, want POST /wp-admin/admin-ajax.php", sub.Method, sub.Path)
		}
	})
}

// openWithScript opens url in a new tab with the modelContext shim
// installed before any page script, then adds the compiled script the way a
// site owner would (a script element at the end of the body).
func openWithScript(t *testing.T, ctx context.Context, b *topology.Browser, url string, script []byte) *rod.Page {
	t.Helper()
	page, err := b.Rod().Timeout(10 * time.Second).Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	page = page.Context(ctx)
	t.Cleanup(func() { page.Close() })
	go page.EachEvent(func(e *proto.PageJavascriptDialogOpening) {
		_ = proto.PageHandleJavaScriptDialog{Accept: true}.Call(page)
	})()
	if _, err := page.Timeout(5 * time.Second).EvalOnNewDocument(modelContextShim); err != nil {
		t.Fatal(err)
	}
	if err := page.Timeout(15 * time.Second).Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := page.Timeout(15 * time.Second).WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if _, err := page.Timeout(5*time.Second).Eval(`(src) => {
	  const s = document.createElement("script");
	  s.textContent = src;
	  document.body.appendChild(s);
	}`, string(script)); err != nil {
		t.Fatal(err)
	}
	res, err := page.Timeout(5 * time.Second).Eval(`() => window.__webmcpErrors`)
	if err != nil {
		t.Fatal(err)
	}
	if errs := res.Value.Arr(); len(errs) > 0 {
		t.Fatalf("the page or the script threw: %v", errs)
	}
	return page
}

// evalInto runs js with args on the page and decodes its result into v.
func evalInto(t *testing.T, page *rod.Page, js string, v any, args ...any) {
	t.Helper()
	res, err := page.Timeout(10*time.Second).Eval(js, args...)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := res.Value.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}

// waitSubmission waits (bounded) for a submission beyond the first n.
func waitSubmission(t *testing.T, srv *fixtures.Server, n int) fixtures.Submission {
	t.Helper()
	for i := 0; i < 100; i++ {
		subs, err := srv.Submissions("clinic01")
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) > n {
			return subs[n]
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the form's submission never reached the fixture server")
	return fixtures.Submission{}
}

// readGraph reads an Action Graph document with shared.Read.
func readGraph(t *testing.T, data []byte) *shared.ActionGraph {
	t.Helper()
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatalf("the graph does not validate: %v", issues)
	}
	return g
}

// compiled is the primary file of format f for g.
func compiled(t *testing.T, g *shared.ActionGraph, f compiler.Format, opts compiler.Options) []byte {
	t.Helper()
	files, err := compiler.CompileFormat(g, f, opts)
	if err != nil {
		t.Fatal(err)
	}
	return files[0].Data
}
