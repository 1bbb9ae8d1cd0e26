package executor_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/verifier"
)

// callbackFields is electrician01's callback form, written into a shadow
// root by the pages below.
const callbackFields = `<input name="full_name"><input name="phone" type="tel"><select name="call_window"><option value="">-</option><option>morning</option><option>evening</option></select><input name="suburb"><textarea name="about"></textarea><input name="website" value=""><button type="submit">Call me</button>`

// shadowLocators points electrician01's callback action at the form
// inside host's open shadow root, with the shadow-including locators the
// mapper writes (mapper/forms.go, shadowLocator): the host's selector,
// then the form's within its root.
func shadowLocators(host string) func(a *shared.Action) {
	return func(a *shared.Action) {
		form := host + " form#callback-form"
		for j := range a.Access {
			ac := &a.Access[j]
			ac.Locator = &shared.Locator{Strategy: shared.StrategyCSS, Value: form, Stability: shared.StabilityUnknown}
			if ac.Submission != nil {
				ac.Submission.SubmitControl = &shared.Locator{Strategy: shared.StrategyCSS, Value: form + " button[type=submit]", Stability: shared.StabilityUnknown}
			}
		}
		for i := range a.Inputs {
			in := &a.Inputs[i]
			if in.Locator != nil {
				in.Locator = &shared.Locator{Strategy: shared.StrategyCSS, Value: host + " " + in.Locator.Value, Stability: shared.StabilityUnknown}
			}
		}
	}
}

// TestJavaScriptOnlyShadowDOM: the browser door fills and submits a form
// inside an open shadow root, found through its shadow-including submit
// locator — a root built by script and a declarative one — or, with no
// submit locator, as the form of the page (any open tree) that holds the
// most of the action's fields. The document's own form with the
// callback's first two fields is not taken for it (on the code before
// pagejs's pierce helper it was: the call failed, that form having no
// call_window).
func TestJavaScriptOnlyShadowDOM(t *testing.T) {
	b := browser(t)
	// The page's script sends the form it is given, wherever it is.
	send := `<script>
for (const f of [document.getElementById("newsletter"), ...document.querySelectorAll("[data-host]")].map((e) => e.shadowRoot ? e.shadowRoot.querySelector("form") : e)) {
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    fetch(f.getAttribute("action"), {method: "POST", body: new URLSearchParams(new FormData(f))})
      .then((r) => r.text()).then((t) => { document.getElementById("app").textContent = t; });
  });
}
</script>`
	newsletter := `<form id="newsletter" action="/newsletter"><input name="full_name"><input name="phone"><button type="submit">Subscribe</button></form>`
	tests := []struct {
		name, host, page string // host "": the form is the document's, its locators as mapped
		noSubmit         bool   // the graph names no submit control
	}{
		{"an open root built by script", "callback-box", `<!doctype html><html><body><div id="app"></div>` + newsletter + `
<callback-box data-host></callback-box>
<script>
document.querySelector("callback-box").attachShadow({mode: "open"}).innerHTML =
  '<form id="callback-form" action="/callback-request">` + callbackFields + `</form>';
</script>` + send + `</body></html>`, false},
		{"a declarative open root, its host by id", "#callback", `<!doctype html><html><body><div id="app"></div>` + newsletter + `
<section id="callback" data-host><template shadowrootmode="open"><form id="callback-form" action="/callback-request">` + callbackFields + `</form></template></section>
` + send + `</body></html>`, false},
		{"no submit locator: the form holding the fields", "callback-box", `<!doctype html><html><body><div id="app"></div>` + newsletter + `
<callback-box data-host><template shadowrootmode="open"><form id="callback-form" action="/callback-request">` + callbackFields + `</form></template></callback-box>
` + send + `</body></html>`, true},
		// On the code before, the browser door took the form holding the
		// most of the fields, the first of equals: the newsletter.
		{"the door's locator, not the first form holding the fields", "", `<!doctype html><html><body><div id="app"></div>
<form id="newsletter" action="/newsletter">` + callbackFields + `</form>
<form id="callback-form" data-host action="/callback-request">` + callbackFields + `</form>
` + send + `</body></html>`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var newsletterPosts int
			site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
				switch {
				case req.Method == http.MethodGet && req.URL.Path == "/callback/":
					w.Header().Set("Content-Type", "text/html")
					fmt.Fprint(w, tt.page)
				case req.Method == http.MethodPost && req.URL.Path == "/callback-request":
					r.record(req)
					fmt.Fprint(w, "Thanks, we will call you.")
				case req.Method == http.MethodPost && req.URL.Path == "/newsletter":
					r.mu.Lock()
					newsletterPosts++
					r.mu.Unlock()
					fmt.Fprint(w, "Subscribed.")
				default:
					http.NotFound(w, req)
				}
			})
			edit := func(a *shared.Action) {
				if tt.host != "" {
					shadowLocators(tt.host)(a)
				}
				for j := range a.Access {
					if tt.noSubmit && a.Access[j].Submission != nil {
						a.Access[j].Submission.SubmitControl = nil
					}
				}
			}
			graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", edit)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			site.mu.Lock()
			defer site.mu.Unlock()
			if newsletterPosts != 0 {
				t.Errorf("the document's newsletter form was sent %d times", newsletterPosts)
			}
			if len(site.forms) != 1 {
				t.Fatalf("the site received %d callback submissions, want 1 (outcome %+v)", len(site.forms), res)
			}
			want := goodCallbackSent()
			if diff := cmp.Diff(want, site.forms[0]); diff != "" {
				t.Errorf("received (-want +got):\n%s", diff)
			}
			if res.Status != 200 || !strings.Contains(res.Response, "we will call you") {
				t.Errorf("status %d response %q", res.Status, res.Response)
			}
		})
	}
}

// TestShadowFormSandboxThenExecutor: the owner's sandbox run and the
// agent's call go through the same form inside an open shadow root,
// declared with the mapper's shadow-including locators. The sandbox finds,
// fills and intercepts it (nothing reaches the site; on the code before,
// the form was "not on the page"); the executor fires
// it, and the site receives what the sandbox showed would be sent, at the
// same endpoint.
func TestShadowFormSandboxThenExecutor(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><div id="app"></div>
<callback-box></callback-box>
<script>
const root = document.querySelector("callback-box").attachShadow({mode: "open"});
root.innerHTML = '<form id="callback-form" action="/callback-request">` + callbackFields + `</form>';
const f = root.querySelector("form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))})
    .then((r) => r.text()).then((t) => { document.getElementById("app").textContent = t; });
});
</script></body></html>`
	site := callbackSite(t, page, "Thanks, we will call you.")
	raw := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", shadowLocators("callback-box"))
	res, shown, graph := sandboxRun(t, b, raw, site)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	// The values the sandbox typed, so that what the site receives can be
	// set beside what the owner was shown.
	in := map[string]any{}
	for _, k := range []string{"full_name", "phone", "call_window", "suburb", "about"} {
		in[k] = shown.Get(k)
	}
	if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: in}); err != nil {
		t.Fatal(err)
	}
	if site.count() != 1 {
		t.Fatalf("the site received %d submissions, want 1", site.count())
	}
	sent, err := url.Parse(*res.Run.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if got := site.posts[0].URL.Path; got != sent.Path {
		t.Errorf("the executor fired %s, the sandbox showed %s", got, sent.Path)
	}
	if diff := cmp.Diff(shown, site.forms[0]); diff != "" {
		t.Errorf("received beside what the sandbox showed (-shown +received):\n%s", diff)
	}
}

// TestDeclarativeToolInShadowRoot: a webmcp-execute door whose tool is a
// declarative one (a form carrying toolname) inside an open shadow root
// is found there, filled and submitted (on the code before, "no form on
// the page holds the action's fields").
func TestDeclarativeToolInShadowRoot(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><callback-box><template shadowrootmode="open">
<form toolname="request_callback" tooldescription="Ask for a call back." action="/callback-request" method="post">` + callbackFields + `</form>
</template></callback-box></body></html>`
	site := callbackSite(t, page, "Thanks, we will call you.")
	str := func(s string) *string { return &s }
	g := doorGraph(t, site.URL, func(form shared.Access) []shared.Access {
		return []shared.Access{{Method: shared.AccessWebMCPTool, URL: site.URL + "/callback/", Occurrences: 1, ToolName: str("request_callback"),
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
	if res.Status != 200 {
		t.Errorf("status %d", res.Status)
	}
}

// TestBrowserDoorNamesNothing: when the door's locator names no element of
// the live page, the browser door submits nothing — not the page's other
// form holding every field (on the code before, it submitted that one) —
// and the attempt fails saying so; the sandbox would not find the form
// either.
func TestBrowserDoorNamesNothing(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><form id="renamed-form" method="post" action="/callback-request">` + callbackFields + `</form></body></html>`
	site := pagesSite(t, map[string]string{"/callback/": page}, "", "Thanks, we will call you.")
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	if err == nil || !strings.Contains(err.Error(), `the door's form (css "form#callback-form") is not on the page`) {
		t.Fatalf("Execute = %+v, %v; want the door's form reported missing", res, err)
	}
	if res == nil || len(res.Sent) != 0 {
		t.Errorf("Result = %+v, want one that sent nothing", res)
	}
	if n := site.count(); n != 0 {
		t.Errorf("the site received %d submissions, want 0", n)
	}
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil || len(atts) != 1 || atts[0].Completed == nil || atts[0].Completed.Outcome != "failed" {
		t.Errorf("attempts = %+v (%v), want one, failed", atts, err)
	}
}

// TestBrowserDoorFormlessGroup: a javascript-only door whose controls are
// outside any form — a group a script built, in the document or in an
// open shadow root whose host is the door — is filled by name within the
// group and sent by a click on its submit control, as the verifier's
// sandbox runs it (on the code before, "no form on the page holds the
// action's fields": the executor could not fire what the owner saw run).
// A group without a submit control fails the call and sends nothing.
func TestBrowserDoorFormlessGroup(t *testing.T) {
	b := browser(t)
	group := `<div id="callback-group">` + strings.Replace(callbackFields, `<button type="submit">Call me</button>`, `<button type="button">Call me</button>`, 1) + `</div>`
	// The page's script posts the group's named controls when its button is clicked.
	send := `<script>
for (const host of document.querySelectorAll("[data-group]")) {
  const root = host.shadowRoot || host;
  root.querySelector("button").addEventListener("click", () => {
    const body = new URLSearchParams();
    for (const el of root.querySelectorAll("[name]")) body.append(el.name, el.value);
    fetch("/callback-request", {method: "POST", body}).then((r) => r.text()).then((t) => { document.getElementById("app").textContent = t; });
  });
}
</script>`
	tests := []struct {
		name, page, door, submit string
		fired                    bool
	}{
		{"a group in the document", `<div id="app"></div>` + strings.Replace(group, `<div id="callback-group">`, `<div id="callback-group" data-group>`, 1), "div#callback-group", "div#callback-group button", true},
		{"a group in an open root, its host the door", `<div id="app"></div><callback-box data-group><template shadowrootmode="open">` + group + `</template></callback-box>`, "callback-box", "callback-box div#callback-group button", true},
		{"a group without a submit control", `<div id="app"></div>` + strings.Replace(group, `<div id="callback-group">`, `<div id="callback-group" data-group>`, 1), "div#callback-group", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := callbackSite(t, `<!doctype html><html><body>`+tt.page+send+`</body></html>`, "Thanks, we will call you.")
			graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", func(a *shared.Action) {
				for j := range a.Access {
					ac := &a.Access[j]
					ac.Locator = &shared.Locator{Strategy: shared.StrategyCSS, Value: tt.door, Stability: shared.StabilityUnknown}
					if ac.Submission != nil {
						ac.Submission.SubmitControl = nil
						if tt.submit != "" {
							ac.Submission.SubmitControl = &shared.Locator{Strategy: shared.StrategyCSS, Value: tt.submit, Stability: shared.StabilityUnknown}
						}
					}
				}
			})
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if !tt.fired {
				if err == nil || !strings.Contains(err.Error(), "outside any form") {
					t.Fatalf("Execute = %+v, %v; want the missing submit control reported", res, err)
				}
				if n := site.count(); n != 0 {
					t.Errorf("the site received %d submissions, want 0", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			site.wantGoodCallback(t)
			if res.Status != 200 || !strings.Contains(res.Response, "we will call you") {
				t.Errorf("status %d response %q", res.Status, res.Response)
			}
		})
	}
}

// sandboxRun runs the verifier's sandbox on the call-back action of raw,
// whose page site serves, and returns the result, the fields its run shows
// and the graph it wrote. The graph says javascript-only, which the
// sandbox reads as a mismatch with the form post it sees the script send
// (as for the script-sent form of TestSandboxAndExecutorShareTheDoor): the
// run still shows the request, and nothing reaches the site.
func sandboxRun(t *testing.T, b *topology.Browser, raw []byte, site *recorder) (*verifier.SandboxResult, url.Values, []byte) {
	t.Helper()
	g, issues := shared.Read(raw)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	res, err := verifier.Sandbox(t.Context(), g, callback, verifier.SandboxOptions{Browser: b})
	if err != nil && !errors.Is(err, verifier.ErrMismatch) {
		t.Fatalf("Sandbox: %v", err)
	}
	if res.Run.Endpoint == nil || !strings.HasPrefix(*res.Run.Note, "intercepted: ") {
		t.Fatalf("sandbox run %s: %s", res.Run.Outcome, *res.Run.Note)
	}
	if n := site.count(); n != 0 {
		t.Fatalf("the sandbox let %d requests reach the site", n)
	}
	shown := url.Values{}
	for _, f := range res.Run.Fields {
		shown.Add(f.Name, f.Value)
	}
	graph, err := shared.Write(res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	return res, shown, graph
}
