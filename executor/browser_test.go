package executor_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

func browser(t *testing.T) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true, LaunchTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// TestWebMCPExecute calls webmcp01's imperative request_callback tool in
// real Chromium: the page's own execute function sends the JSON to the
// site, and the site receives exactly the arguments given.
func TestWebMCPExecute(t *testing.T) {
	b := browser(t)
	srv, graph := site(t, "webmcp01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	action := confirmed(t, st, graph, "webmcp01:callback:request-callback")
	res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: map[string]any{"name": "Pat Doe", "phone": "503-555-0142", "topic": "repair"}})
	if err != nil {
		t.Fatal(err)
	}
	subs := submissions(t, srv, "webmcp01")
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1", len(subs))
	}
	want := url.Values{"name": {"Pat Doe"}, "phone": {"503-555-0142"}, "topic": {"repair"}}
	if diff := cmp.Diff(want, subs[0].Fields); diff != "" {
		t.Errorf("received (-want +got):\n%s", diff)
	}
	if subs[0].Path != "/api/callbacks" || subs[0].Outcome != fixtures.OutcomeAccepted {
		t.Errorf("submission %+v", subs[0])
	}
	if res.Status != 200 || res.Response == "" {
		t.Errorf("status %d response %q", res.Status, res.Response)
	}
	// The tool's door records no endpoint: the result says where the
	// page's script sent (the code before said the tool's page).
	if want := fixturestest.URL(t, srv, "webmcp01") + "/api/callbacks"; res.Endpoint != want {
		t.Errorf("Result.Endpoint = %q, want %q", res.Endpoint, want)
	}
	assertSent(t, want, res)
}

// typedToolPage registers a WebMCP tool whose inputSchema declares typed
// properties; its execute function posts the arguments it receives, as
// JSON, to /callback-request.
const typedToolPage = `<!doctype html><html><body><p>Call-back requests</p><script>
(document.modelContext || navigator.modelContext).registerTool({
  name: "request_callback",
  description: "Ask for a call back.",
  inputSchema: {type: "object", required: ["full_name", "phone", "call_window"], properties: {
    full_name: {type: "string"}, phone: {type: "string"},
    call_window: {type: "string", enum: ["morning", "afternoon", "evening"]},
    urgent: {type: "boolean"}, party: {type: "integer"}, budget: {type: "number"},
    seats: {type: "integer", enum: [1, 2, 3]},
    services: {type: "array", items: {type: "string", enum: ["wiring", "lighting", "solar"]}}
  }},
  execute: async (input) => {
    const r = await fetch("/callback-request", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(input)});
    return {content: [{type: "text", text: await r.text()}]};
  }
});
</script></body></html>`

// TestWebMCPTypedArguments: a WebMCP tool is called with the agent's
// arguments typed as its inputSchema declares them — a boolean true or
// false, numbers as JSON numbers (an integer enum too), a list for an
// array — and the tool receives exactly that (on the code before, a
// boolean was never passed and numbers were strings).
func TestWebMCPTypedArguments(t *testing.T) {
	b := browser(t)
	var mu sync.Mutex
	var got []map[string]any
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/callback/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, typedToolPage)
		case req.Method == http.MethodPost && req.URL.Path == "/callback-request":
			var args map[string]any
			body, _ := io.ReadAll(req.Body)
			if err := json.Unmarshal(body, &args); err != nil {
				t.Errorf("the tool posted %q: %v", body, err)
			}
			mu.Lock()
			got = append(got, args)
			mu.Unlock()
			fmt.Fprint(w, "Thanks, we will call you.")
		default:
			http.NotFound(w, req)
		}
	})
	str := func(s string) *string { return &s }
	opts := func(vs ...string) []shared.ValueSpace {
		var o []shared.Option
		for _, v := range vs {
			o = append(o, shared.Option{Value: v})
		}
		return []shared.ValueSpace{shared.OneOfSpace{Options: o}}
	}
	g := callbackGraph(t, site.URL, func(a *shared.Action) {
		a.Inputs = append(a.Inputs,
			shared.Input{Name: "urgent", Semantic: shared.SemanticUnknown, Type: "checkbox", AgentFillable: true},
			shared.Input{Name: "party", Semantic: shared.SemanticUnknown, Type: "number", AgentFillable: true},
			shared.Input{Name: "budget", Semantic: shared.SemanticUnknown, Type: "number", AgentFillable: true},
			shared.Input{Name: "seats", Semantic: shared.SemanticUnknown, Type: "select", AgentFillable: true, ValueSpace: opts("1", "2", "3")},
			shared.Input{Name: "services", Semantic: shared.SemanticServiceRequested, Type: "select-multiple", AgentFillable: true, ValueSpace: opts("wiring", "lighting", "solar")},
		)
		a.Access = []shared.Access{{Method: shared.AccessWebMCPTool, URL: site.URL + "/callback/", Occurrences: 1, ToolName: str("request_callback"),
			Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Provenance: a.Access[0].Provenance}}
	})
	raw, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	action := confirmed(t, st, raw, callback)
	base := map[string]any{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name  string
		input map[string]any
		want  map[string]any
	}{
		{"typed", with("urgent", true, "party", 4.0, "budget", 2.5, "seats", "2", "services", []any{"solar", "wiring"}),
			with("urgent", true, "party", 4.0, "budget", 2.5, "seats", 2.0, "services", []any{"wiring", "solar"})},
		{"false and numbers given as text", with("urgent", false, "party", "7", "budget", "-0.5e1"),
			with("urgent", false, "party", 7.0, "budget", -5.0, "services", []any{})},
		{"left out", with(), with("services", []any{})},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: tt.input}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != i+1 {
				t.Fatalf("the tool posted %d times, want %d", len(got), i+1)
			}
			if diff := cmp.Diff(tt.want, got[i]); diff != "" {
				t.Errorf("the tool's arguments (-want +got):\n%s", diff)
			}
		})
	}
}

// callbackSite serves page as electrician01's /callback/ and records what
// is posted to /callback-request, answering reply.
func callbackSite(t *testing.T, page, reply string) *recorder {
	t.Helper()
	return pagesSite(t, map[string]string{"/callback/": page}, "/callback-request", reply)
}

// pagesSite serves pages (path → HTML) and records every POST to postPath
// ("": to any path), answering reply.
func pagesSite(t *testing.T, pages map[string]string, postPath, reply string) *recorder {
	t.Helper()
	return newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		page, ok := pages[req.URL.Path]
		switch {
		case req.Method == http.MethodGet && ok:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case req.Method == http.MethodPost && (postPath == "" || req.URL.Path == postPath):
			r.record(req)
			fmt.Fprint(w, reply)
		default:
			http.NotFound(w, req)
		}
	})
}

// TestJavaScriptOnly fills and submits a script-rendered form in real
// Chromium; what the page loads from another origin is blocked.
func TestJavaScriptOnly(t *testing.T) {
	b := browser(t)
	other := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
	page := `<!doctype html><html><body><div id="app"></div>
<img src="` + other.URL + `/pixel.gif">
<script>
const f = document.createElement("form");
f.id = "callback-form";
f.innerHTML = '<input name="full_name"><input name="phone" type="tel"><select name="call_window"><option value="">-</option><option>morning</option><option>afternoon</option><option>evening</option></select><input name="suburb"><textarea name="about"></textarea><input name="website" value=""><button type="submit">Call me</button>';
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))})
    .then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
  fetch("` + other.URL + `/leak", {method: "POST", body: "x"}).catch(() => {});
});
document.getElementById("app").appendChild(f);
</script></body></html>`
	site := callbackSite(t, page, "Thanks, we will call you.")
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	if err != nil {
		t.Fatal(err)
	}
	site.wantGoodCallback(t)
	if res.Status != 200 || res.Response != "Thanks, we will call you." {
		t.Errorf("status %d response %q", res.Status, res.Response)
	}
	// The page's send to the other origin races the submission; one let
	// through while the page is torn down would arrive after Execute
	// returned, so give it time to arrive before asserting it never does.
	time.Sleep(500 * time.Millisecond)
	if other.count() != 0 {
		t.Errorf("another origin received %d requests", other.count())
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "blocked") && strings.Contains(w, other.URL) }) {
		t.Errorf("warnings %q do not report the blocked request", res.Warnings)
	}
}

// TestBrowserSendsNothingAsItCloses: a page that sends its form again as
// its tab closes (a pagehide beacon and keepalive fetch, as analytics do)
// reaches the site once: the executor seals the tab (topology.Seal) before
// closing it, and a request made as a tab closes outlives the tab's
// interception.
func TestBrowserSendsNothingAsItCloses(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><div id="app"></div>
<form id="callback-form">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
const body = () => new URLSearchParams(new FormData(f));
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: body()}).then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
addEventListener("pagehide", () => {
  navigator.sendBeacon("/callback-request?beacon=1", body());
  fetch("/callback-request?keepalive=1", {method: "POST", keepalive: true, body: body()});
});
</script></body></html>`
	site := pagesSite(t, map[string]string{"/callback/": page}, "", "Thanks, we will call you.")
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // what the closing page sent arrives in this time
	if diff := cmp.Diff([]string{"POST /callback-request"}, site.paths()); diff != "" {
		t.Errorf("requests the site received (-want +got):\n%s", diff)
	}
}

// TestBrowserFiresOnce: a page that sends its submission twice at once
// (a double submit) reaches the site once; the second is refused while the
// first still waits for its answer.
func TestBrowserFiresOnce(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><div id="app"></div>
<form id="callback-form"><input name="full_name"><input name="phone" type="tel">
<select name="call_window"><option value="">-</option><option>morning</option></select>
<input name="suburb"><textarea name="about"></textarea><input name="website" value="">
<button type="submit">Call me</button></form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  const send = () => fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))});
  Promise.allSettled([send(), send()]).then(() => { document.getElementById("app").textContent = "sent"; });
});
</script></body></html>`
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/callback/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case req.Method == http.MethodPost && req.URL.Path == "/callback-request":
			r.record(req)
			time.Sleep(500 * time.Millisecond) // the second send arrives while the first waits
			fmt.Fprint(w, "Thanks.")
		default:
			http.NotFound(w, req)
		}
	})
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond) // a second send let through would arrive by now
	if n := site.count(); n != 1 {
		t.Errorf("the site received %d submissions, want 1", n)
	}
	if res.Status != 200 {
		t.Errorf("status %d", res.Status)
	}
}

// TestBrowserDoorSendsOnlyToTheEndpoint: a browser door that records its
// endpoint lets the page send to no other path of the origin. A page whose
// script now posts the form elsewhere sends nothing and the attempt fails
// saying where the page sent; a page that posts to a tracker first and
// then to the endpoint fires once, to the endpoint, the tracker's send
// blocked and reported. (On the code before, the page's first send on the
// origin, wherever it went, was taken for the submission and sent.)
func TestBrowserDoorSendsOnlyToTheEndpoint(t *testing.T) {
	b := browser(t)
	page := func(sends string) string {
		return `<!doctype html><html><body><div id="app"></div><form id="callback-form">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", async (e) => {
  e.preventDefault();
  for (const path of [` + sends + `]) {
    try {
      const r = await fetch(path, {method: "POST", body: new URLSearchParams(new FormData(f))});
      document.getElementById("app").textContent = await r.text();
    } catch (err) {}
  }
});
</script></body></html>`
	}
	tests := []struct {
		name     string
		endpoint string // the confirmed endpoint's path and query
		sends    string // the paths the page's script posts to, in turn
		stray    string // the blocked send the error or a warning names
		want     []string
	}{
		{"the script posts elsewhere now", "/callback-request", `"/newsletter/subscribe"`, "/newsletter/subscribe", nil},
		{"a tracker first, then the endpoint", "/callback-request", `"/track", "/callback-request"`, "/track", []string{"POST /callback-request"}},
		{"the same path, another route", "/callback-request?op=enquire", `"/callback-request?op=subscribe", "/callback-request"`, "op=subscribe", nil},
		{"the endpoint's query, and a parameter of the page's", "/callback-request?op=enquire", `"/callback-request?op=enquire&all=1", "/callback-request?op=enquire"`,
			"all=1", []string{"POST /callback-request?op=enquire"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
				if req.Method == http.MethodGet && req.URL.Path == "/callback/" {
					w.Header().Set("Content-Type", "text/html")
					fmt.Fprint(w, page(tt.sends))
					return
				}
				if req.Method == http.MethodGet { // the browser's own reads (favicon)
					http.NotFound(w, req)
					return
				}
				r.record(req)
				fmt.Fprint(w, "Thanks, we will call you.")
			})
			graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", func(a *shared.Action) {
				for j := range a.Access {
					if s := a.Access[j].Submission; s != nil {
						s.Endpoint = ptr(site.URL + tt.endpoint)
					}
				}
			})
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), "the page sent to POST ") || !strings.Contains(err.Error(), tt.stray) {
					t.Fatalf("Execute = %+v, %v; want a failure naming the stray send", res, err)
				}
				if paths := site.paths(); len(paths) != 0 {
					t.Errorf("the site received %v, want nothing", paths)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if paths := site.paths(); !slices.Equal(paths, tt.want) {
				t.Errorf("the site received %v, want only %v", paths, tt.want)
			}
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "confirmed endpoint") && strings.Contains(w, tt.stray) }) {
				t.Errorf("warnings %q do not report the blocked send to %s", res.Warnings, tt.stray)
			}
		})
	}
}

// TestBrowserDoorAuditsWhatThePageSent: a page that adds a token of its
// own as it sends (a nonce the graph does not record) is audited with what
// it really sent — the attempt's completion keeps it beside the plan
// recorded before the call — and a repeated idempotency key answers with
// it too.
func TestBrowserDoorAuditsWhatThePageSent(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><div id="app"></div>
<script>
const f = document.createElement("form");
f.id = "callback-form";
f.innerHTML = '<input name="full_name"><input name="phone" type="tel"><select name="call_window"><option value="">-</option><option>morning</option><option>afternoon</option><option>evening</option></select><input name="suburb"><textarea name="about"></textarea><input name="website" value=""><button type="submit">Call me</button>';
f.addEventListener("submit", (e) => {
  e.preventDefault();
  const body = new URLSearchParams(new FormData(f));
  body.append("_page_nonce", "n-4711");
  fetch("/callback-request", {method: "POST", body})
    .then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
document.getElementById("app").appendChild(f);
</script></body></html>`
	site := callbackSite(t, page, "Thanks, we will call you.")
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	action := confirmed(t, st, graph, callback)
	res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "k-1"})
	if err != nil {
		t.Fatal(err)
	}
	nonce := func(fields []shared.SubmittedField) string {
		for _, f := range fields {
			if f.Name == "_page_nonce" {
				return f.Value
			}
		}
		return ""
	}
	if got := nonce(res.Sent); got != "n-4711" {
		t.Fatalf("Result.Sent has _page_nonce %q, want n-4711: %+v", got, res.Sent)
	}
	att, err := st.Attempt(t.Context(), res.AttemptID)
	if err != nil || att.Completed == nil {
		t.Fatalf("attempt %+v (%v)", att, err)
	}
	var planned, sent struct {
		Fields []shared.SubmittedField `json:"fields"`
	}
	if err := json.Unmarshal(att.Request, &planned); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(att.Completed.Sent, &sent); err != nil {
		t.Fatalf("the completion records no sent request: %q (%v)", att.Completed.Sent, err)
	}
	if nonce(planned.Fields) != "" || nonce(sent.Fields) != "n-4711" {
		t.Errorf("the plan has _page_nonce %q (want none), the completion %q (want n-4711)", nonce(planned.Fields), nonce(sent.Fields))
	}
	again, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "k-1"})
	if err != nil || !again.Duplicate || nonce(again.Sent) != "n-4711" {
		t.Errorf("the repeated key: %+v (%v), want the first result with what the page sent", again, err)
	}
}

// TestBrowserSendBeforeTheFill: a send the page makes as it loads, before
// the executor fills and submits it (an analytics or nonce request, here
// a synchronous POST to the very endpoint), is not the submission: it is
// blocked, and the form the executor fills is what reaches the site, as the
// verifier's sandbox takes only what is sent after the submit. Before, the
// load's POST was taken for the submission and sent, the outcome recorded
// fired, and the form's own submission blocked as a second one; with no
// recorded endpoint (a WebMCP tool's door), any POST of the load was.
func TestBrowserSendBeforeTheFill(t *testing.T) {
	b := browser(t)
	const early = `<script>
try { const x = new XMLHttpRequest(); x.open("POST", "/callback-request", false); x.send("analytics=load"); } catch (e) {}
</script>`
	tests := []struct {
		name, page string
		door       func(a *shared.Action)
	}{
		{name: "javascript-only, to the endpoint", page: `<!doctype html><html><body>` + early + `<div id="app"></div>
<form id="callback-form">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))}).then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
</script></body></html>`},
		{name: "webmcp-execute, no endpoint", page: `<!doctype html><html><body>` + early + `<script>
(document.modelContext || navigator.modelContext).registerTool({
  name: "request_callback", description: "Ask for a call back.",
  inputSchema: {type: "object", properties: {full_name: {type: "string"}, phone: {type: "string"}, call_window: {type: "string"}}},
  execute: async (input) => {
    const r = await fetch("/callback-request", {method: "POST", body: new URLSearchParams(input)});
    return {content: [{type: "text", text: await r.text()}]};
  }
});
</script></body></html>`, door: func(a *shared.Action) {
			a.Access = []shared.Access{{Method: shared.AccessWebMCPTool, URL: a.Access[0].URL, Occurrences: 1, ToolName: ptr("request_callback"),
				Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Provenance: a.Access[0].Provenance}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := callbackSite(t, tt.page, "Thanks, we will call you.")
			transport := shared.TransportJavascriptOnly
			if tt.door != nil {
				transport = shared.TransportWebMCPExecute
			}
			graph := editCallback(t, site.URL, transport, "application/x-www-form-urlencoded", tt.door)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			if n := site.count(); n != 1 {
				t.Fatalf("the site received %d submissions, want 1: %v", n, site.forms)
			}
			if got := site.forms[0].Get("full_name"); got != "Ana Ruiz" || site.forms[0].Has("analytics") {
				t.Errorf("the site received %v, want the filled form", site.forms[0])
			}
			if !slices.ContainsFunc(res.Sent, func(f shared.SubmittedField) bool { return f.Name == "full_name" && f.Value == "Ana Ruiz" }) {
				t.Errorf("Result.Sent = %v, want the filled form", res.Sent)
			}
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "before") && strings.Contains(w, "/callback-request") }) {
				t.Errorf("warnings %q do not report the blocked send of the load", res.Warnings)
			}
		})
	}
}

// TestBrowserSendDuringTheFill: a send the page makes while the executor
// fills it (an autosave, a partial-entry plugin posting each field as it
// is typed, here a synchronous POST to the very endpoint on every input
// event) is not the submission: it is blocked as early, and the form the
// executor fills and then presses is what reaches the site, as in the
// verifier's sandbox, which arms its interception only after the fill.
// Before, the page counted as pressed from the first keystroke: the
// autosave was taken for the submission, sent, and the form's own
// submission blocked as a second one.
func TestBrowserSendDuringTheFill(t *testing.T) {
	b := browser(t)
	const autosave = `<script>
for (const el of document.querySelectorAll("#callback-form [name]")) {
  el.addEventListener("input", () => {
    try { const x = new XMLHttpRequest(); x.open("POST", "/callback-request", false); x.send("autosave=" + encodeURIComponent(el.name)); } catch (e) {}
  });
}
</script>`
	tests := []struct {
		name, page string
		door       func(a *shared.Action)
	}{
		{name: "pressed by the mouse", page: `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request">` + callbackFields + `</form>` + autosave + `</body></html>`},
		{name: "pressed by a script", page: `<!doctype html><html><body><style>button { display: none }</style><form id="callback-form" method="post" action="/callback-request">` + callbackFields + `</form>` + autosave + `</body></html>`},
		{name: "declarative WebMCP tool", page: `<!doctype html><html><body><form id="callback-form" toolname="request_callback" tooldescription="Ask for a call back." method="post" action="/callback-request">` + callbackFields + `</form>` + autosave + `</body></html>`,
			door: func(a *shared.Action) {
				a.Access = []shared.Access{{Method: shared.AccessWebMCPTool, URL: a.Access[0].URL, Occurrences: 1, ToolName: ptr("request_callback"),
					Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Provenance: a.Access[0].Provenance}}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := callbackSite(t, tt.page, "Thanks, we will call you.")
			transport := shared.TransportJavascriptOnly
			if tt.door != nil {
				transport = shared.TransportWebMCPExecute
			}
			graph := editCallback(t, site.URL, transport, "application/x-www-form-urlencoded", tt.door)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			site.wantGoodCallback(t)
			if !slices.ContainsFunc(res.Sent, func(f shared.SubmittedField) bool { return f.Name == "full_name" && f.Value == "Ana Ruiz" }) {
				t.Errorf("Result.Sent = %v, want the filled form", res.Sent)
			}
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "before it was filled and submitted") }) {
				t.Errorf("warnings %q do not report the blocked autosave", res.Warnings)
			}
		})
	}
}

// TestDeclarativeToolGETForm: a declarative WebMCP tool whose form is a
// GET form is submitted through the executor, which sees the answer and
// records the attempt fired. Before, the browser's navigation with the
// fields in its query went to the site unseen, and the call was recorded
// failed ("went to … without sending the form") though the site had it.
func TestDeclarativeToolGETForm(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form toolname="request_callback" tooldescription="Ask for a call back." method="get" action="/callback-request">` + callbackFields + `</form></body></html>`
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/callback/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case req.URL.Path == "/favicon.ico":
			http.NotFound(w, req)
		default:
			r.record(req)
			fmt.Fprint(w, "Thanks, we will call you.")
		}
	})
	g := doorGraph(t, site.URL, func(form shared.Access) []shared.Access {
		return []shared.Access{{Method: shared.AccessWebMCPTool, URL: site.URL + "/callback/", Occurrences: 1, ToolName: ptr("request_callback"),
			Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Provenance: form.Provenance}}
	})
	raw, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, raw, callback), Input: goodCallback()})
	if err != nil {
		t.Fatal(err)
	}
	site.wantGoodCallback(t)
	if res.Status != http.StatusOK || res.Response != "Thanks, we will call you." {
		t.Errorf("the site answered %d %q, want 200 and its thanks", res.Status, res.Response)
	}
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil || len(atts) != 1 || atts[0].Completed == nil || atts[0].Completed.Outcome != "fired" {
		t.Errorf("attempts = %+v (%v), want one, fired", atts, err)
	}
}
