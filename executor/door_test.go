package executor_test

import (
	"errors"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
)

// The pages of doorSite: the same callback form, sent by the browser
// (/callback/) or by the page's script (/callback-js/, which also registers
// a WebMCP tool that posts JSON to /api/tool).
const (
	plainCallbackPage = `<!doctype html><html><body>
<form id="callback-form" action="/callback-request" method="post">
<input name="full_name" required><input name="phone" type="tel" required>
<select name="call_window" required><option value="">-</option><option>morning</option><option>afternoon</option><option>evening</option></select>
<input name="suburb"><textarea name="about"></textarea><input name="website" value="">
<button type="submit">Call me</button></form></body></html>`

	scriptCallbackPage = `<!doctype html><html><body><div id="app"></div>
<form id="callback-form">
<input name="full_name" required><input name="phone" type="tel" required>
<select name="call_window" required><option value="">-</option><option>morning</option><option>afternoon</option><option>evening</option></select>
<input name="suburb"><textarea name="about"></textarea><input name="website" value="">
<button type="submit">Call me</button></form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))})
    .then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
const mc = document.modelContext || navigator.modelContext;
if (mc && mc.registerTool) mc.registerTool({
  name: "request_callback", description: "Ask for a call back.",
  inputSchema: {type: "object"},
  execute: (input) => fetch("/api/tool", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(input || {})})
    .then(r => r.text()).then(t => ({content: [{type: "text", text: t}]})),
});
</script></body></html>`
)

// doorSite serves the two callback pages and records every POST, whatever
// its path.
func doorSite(t *testing.T) *recorder {
	t.Helper()
	return pagesSite(t, map[string]string{"/callback/": plainCallbackPage, "/callback-js/": scriptCallbackPage}, "", "Thanks, we will call you.")
}

// doorGraph is electrician01's graph on site with the callback action's
// doors made by doors from the fixture's own html-form door.
func doorGraph(t *testing.T, site string, doors func(form shared.Access) []shared.Access) *shared.ActionGraph {
	t.Helper()
	return callbackGraph(t, site, func(a *shared.Action) { a.Access = doors(a.Access[0]) })
}

// TestSandboxAndExecutorShareTheDoor: an action with several doors, the
// html-form one not first. The verifier's sandbox runs one door and the
// owner is shown that run; the executor must fire that same door — the
// request the sandbox intercepted is the request the site receives — or
// refuse, never another door.
func TestSandboxAndExecutorShareTheDoor(t *testing.T) {
	b := browser(t)
	site := doorSite(t)
	str := func(s string) *string { return &s }
	api := func(form shared.Access) shared.Access {
		return shared.Access{Method: shared.AccessDocumentedEndpoint, URL: site.URL + "/callback/", Occurrences: 1,
			Submission: &shared.Submission{Transport: shared.TransportJSONEndpoint, Endpoint: str(site.URL + "/api/callback"), Enctype: str("application/json")},
			Provenance: form.Provenance}
	}
	webmcp := func(form shared.Access) shared.Access {
		return shared.Access{Method: shared.AccessWebMCPTool, URL: site.URL + "/callback-js/", Occurrences: 1, ToolName: str("request_callback"),
			Submission: &shared.Submission{Transport: shared.TransportWebMCPExecute}, Provenance: form.Provenance}
	}
	scripted := func(form shared.Access) shared.Access {
		form.URL = site.URL + "/callback-js/"
		sub := *form.Submission
		sub.Transport, sub.Enctype = shared.TransportJavascriptOnly, str("application/x-www-form-urlencoded")
		form.Submission = &sub
		return form
	}
	unknown := func(form shared.Access) shared.Access {
		sub := *form.Submission
		sub.Transport = shared.TransportUnknown
		form.Submission = &sub
		return form
	}
	tests := []struct {
		name  string
		doors func(form shared.Access) []shared.Access
		// door is the index of the action's door; refused: the executor
		// cannot fire it and fires nothing else.
		door    int
		refused bool
	}{
		{"a json-endpoint door first", func(f shared.Access) []shared.Access { return []shared.Access{api(f), f} }, 1, false},
		{"a webmcp-execute door first", func(f shared.Access) []shared.Access { return []shared.Access{webmcp(f), scripted(f)} }, 1, false},
		{"a json-endpoint door before a script-sent form", func(f shared.Access) []shared.Access { return []shared.Access{api(f), scripted(f)} }, 1, false},
		{"a form whose transport is unknown before a json endpoint", func(f shared.Access) []shared.Access { return []shared.Access{api(f), unknown(f)} }, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site.mu.Lock()
			site.posts, site.forms = nil, nil
			site.mu.Unlock()
			g := doorGraph(t, site.URL, tt.doors)

			res, err := verifier.Sandbox(t.Context(), g, callback, verifier.SandboxOptions{Browser: b})
			if err != nil && !errors.Is(err, verifier.ErrMismatch) {
				t.Fatalf("Sandbox: %v", err)
			}
			if res.Door != tt.door {
				t.Errorf("the sandbox ran door %d, want %d", res.Door, tt.door)
			}
			if n := site.count(); n != 0 {
				t.Fatalf("the sandbox let %d requests reach the site: %v", n, site.paths())
			}
			graph, err := shared.Write(res.Graph)
			if err != nil {
				t.Fatal(err)
			}

			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			_, err = ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if tt.refused {
				var refused *executor.RefusedError
				if !errors.As(err, &refused) || !errors.Is(err, executor.ErrNoDoor) {
					t.Fatalf("Execute: %v; want a refusal for door.none", err)
				}
				if diff := cmp.Diff([]string{executor.ReasonNoDoor}, reasonCodes(refused)); diff != "" {
					t.Errorf("reasons (-want +got):\n%s", diff)
				}
				if n := site.count(); n != 0 {
					t.Errorf("the site received %d requests; a refused call sends nothing", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if n := site.count(); n != 1 {
				t.Fatalf("the site received %d requests, want 1", n)
			}
			fired := site.posts[0].URL.Path
			door := res.Action.Access[tt.door]
			want, err := url.Parse(*door.Submission.Endpoint)
			if err != nil {
				t.Fatal(err)
			}
			if fired != want.Path {
				t.Errorf("the executor fired %s; the sandbox ran door %d (%s), which sends to %s", fired, res.Door, door.Method, want.Path)
			}
			// What the owner was shown went where the call went.
			if res.Run.Endpoint == nil {
				t.Fatalf("the sandbox intercepted nothing: %s", *res.Run.Note)
			}
			shown, err := url.Parse(*res.Run.Endpoint)
			if err != nil {
				t.Fatal(err)
			}
			if shown.Path != fired {
				t.Errorf("the sandbox showed a request to %s, the executor fired %s", shown.Path, fired)
			}
		})
	}
}

func reasonCodes(e *executor.RefusedError) []string {
	var out []string
	for _, r := range e.Reasons {
		out = append(out, r.Code)
	}
	return out
}
