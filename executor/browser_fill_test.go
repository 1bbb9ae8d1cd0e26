package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// A javascript-only door on a page that keeps its own state of its form,
// as a React page does, and sends that state as JSON: the executor fills
// the form as a person does, so the page sends what the agent gave. A
// browser door that assigned el.value (as it did) sent the page's old,
// empty state.
func TestBrowserDoorFillsAReactPage(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>
<script>` + topologytest.TrackLikeReact + `
document.getElementById("callback-form").addEventListener("submit", (e) => {
  e.preventDefault();
  window.sendPageState("/callback-request");
});
</script></body></html>`
	var (
		mu  sync.Mutex
		got []map[string]any
	)
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet && req.URL.Path == "/callback/" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
			return
		}
		if req.Method != http.MethodPost || req.URL.Path != "/callback-request" {
			http.NotFound(w, req)
			return
		}
		var state map[string]any
		body, _ := io.ReadAll(req.Body)
		if err := json.Unmarshal(body, &state); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, state)
		mu.Unlock()
		fmt.Fprint(w, `{"ok":true}`)
	})
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/json", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []map[string]any{{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the page sent (-want +got):\n%s", diff)
	}
}

// A javascript-only door whose page sends the form from its submit
// button's click handler (preventDefault, then fetch), as many a jQuery
// page does, and has no action of its own: the executor presses the
// button, as the sandbox does, and the page sends to the endpoint. The
// door that called requestSubmit ran no click handler, and the browser's
// own post of the form went to the page's address, which was blocked.
func TestBrowserDoorPressesTheSubmitControl(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
f.querySelector("button").addEventListener("click", (e) => {
  e.preventDefault();
  fetch("/callback-request", { method: "POST", body: new URLSearchParams(new FormData(f)) });
});
</script></body></html>`
	site, err := fireCallbackPage(t, b, page)
	if err != nil {
		t.Fatalf("%v (the site received %v)", err, site.paths())
	}
	site.wantGoodCallback(t)
}

// A javascript-only door whose page's form, as the site has it now, is a
// plain GET form to another path: the browser's own submission of it is a
// send to an address the owner did not confirm, blocked like any other,
// and the call fails naming it. The door that let it through sent the
// agent's input to /search and waited out its timeout.
func TestBrowserDoorBlocksTheFormsOwnGETElsewhere(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form id="callback-form" method="get" action="/search">` + callbackFields + `</form></body></html>`
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/callback/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case req.URL.Path == "/favicon.ico":
			http.NotFound(w, req)
		default:
			r.record(req)
			fmt.Fprint(w, "<p>Results</p>")
		}
	})
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	if err == nil || !strings.Contains(err.Error(), "the page sent to GET ") || !strings.Contains(err.Error(), "/search?") {
		t.Fatalf("Execute = %v; want a failure naming the GET to /search", err)
	}
	if paths := site.paths(); len(paths) != 0 {
		t.Errorf("the site received %v, want nothing", paths)
	}
}

// A control that already holds what the call gives it — the honeypot, an
// optional field left empty — is not touched, as a person leaves it: a
// page that flags a form whose honeypot saw an input event, as some
// anti-spam scripts do, does not flag the call. The door that set every
// field sent bot=1.
func TestBrowserDoorLeavesTheHoneypotAlone(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
for (const type of ["input", "change", "focus", "blur"]) f.website.addEventListener(type, () => {
  if (!f.bot) f.insertAdjacentHTML("beforeend", '<input type="hidden" name="bot" value="1">');
});
</script></body></html>`
	site, err := fireCallbackPage(t, b, page)
	if err != nil {
		t.Fatalf("%v (the site received %v)", err, site.paths())
	}
	site.wantGoodCallback(t)
}

// The sandbox and the executor run a React page's form alike: the page
// keeps its own state of its controls and sends that state from its
// button's click handler. The sandbox's run shows the fields the page
// would send; the executor, given the values the sandbox typed, makes the
// page send the same to the same endpoint.
func TestReactPageSandboxThenExecutor(t *testing.T) {
	b := browser(t)
	const page = `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>
<script>` + topologytest.TrackLikeReact + `
document.querySelector("#callback-form button").addEventListener("click", (e) => {
  e.preventDefault();
  fetch("/callback-request", { method: "POST", body: new URLSearchParams(window.pageState) });
});
</script></body></html>`
	site := callbackSite(t, page, "Thanks, we will call you.")
	raw := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	_, shown, graph := sandboxRun(t, b, raw, site)
	if shown.Get("full_name") == "" || shown.Get("phone") == "" {
		t.Fatalf("the sandbox's run shows %v: the page's state did not follow its fill", shown)
	}
	in := map[string]any{}
	for k := range shown {
		in[k] = shown.Get(k)
	}
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: in}); err != nil {
		t.Fatal(err)
	}
	if site.count() != 1 {
		t.Fatalf("the site received %d submissions, want 1", site.count())
	}
	if diff := cmp.Diff(shown, site.forms[0]); diff != "" {
		t.Errorf("received beside what the sandbox showed (-shown +received):\n%s", diff)
	}
}

// A page whose button sends the form only on a trusted click (a person's,
// as some anti-bot scripts demand): the executor presses the button with
// the mouse, as the sandbox does, so the page sends. A button under a
// banner is pressed by script, and its page, which asks no more, sends
// too. The door that pressed by script only (el.click) sent nothing to
// the first page.
func TestBrowserDoorPressesWithTheMouse(t *testing.T) {
	b := browser(t)
	page := func(trustedOnly bool, cover string) string {
		check := ""
		if trustedOnly {
			check = "if (!e.isTrusted) return;"
		}
		return `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>` + cover + `
<script>
const f = document.getElementById("callback-form");
f.querySelector("button").addEventListener("click", (e) => {
  e.preventDefault();
  ` + check + `
  fetch("/callback-request", { method: "POST", body: new URLSearchParams(new FormData(f)) });
});
</script></body></html>`
	}
	for _, tt := range []struct {
		name, page string
	}{
		{"a trusted click only", page(true, "")},
		{"a button under a banner", page(false, `<div style="position:fixed;inset:0;background:#fff">We use cookies</div>`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			site, err := fireCallbackPage(t, b, tt.page)
			if err != nil {
				t.Fatalf("%v (the site received %v)", err, site.paths())
			}
			site.wantGoodCallback(t)
		})
	}
}

// A page whose button, as the site has it now, takes the visitor to
// another page, or to another route or fragment of the same one (a
// single-page app), without sending the form: the call fails after a
// moment, naming where the page went, rather than waiting out its 60 s
// timeout for a send that cannot come (the route and fragment cases did,
// the context's 30 s ending them first); nothing reaches the site.
func TestBrowserDoorPageLeavesWithoutSending(t *testing.T) {
	b := browser(t)
	for _, tc := range []struct{ name, leave, to string }{
		{"to another document", `location.href = "/book-online/"`, "/book-online/"},
		{"to another route of the same document", `history.pushState({}, "", "/book-online/thanks")`, "/book-online/thanks"},
		{"to a fragment", `location.hash = "thanks"`, "/callback/#thanks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>
<script>
document.querySelector("#callback-form button").addEventListener("click", (e) => {
  e.preventDefault();
  ` + tc.leave + `;
});
</script></body></html>`
			site := pagesSite(t, map[string]string{"/callback/": page, "/book-online/": "<p>Book with our new system</p>"}, "/callback-request", "Thanks")
			graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{Browser: b})
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // the call's own timeout is 60 s
			defer cancel()
			_, err := ex.Execute(ctx, executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
			if err == nil || !strings.Contains(err.Error(), "the page went to "+site.URL+tc.to+" without sending the form") {
				t.Fatalf("Execute = %v; want a failure naming where the page went", err)
			}
			if n := site.count(); n != 0 {
				t.Errorf("the site received %d submissions, want none", n)
			}
		})
	}
}

// fireCallbackPage serves page as the call-back form's page (callbackSite)
// and fires the call-back action through it as a javascript-only door,
// with goodCallback: the site, and Execute's error.
func fireCallbackPage(t *testing.T, b *topology.Browser, page string) (*recorder, error) {
	t.Helper()
	site, _, err := fireCallbackPageIn(t.Context(), t, b, page)
	return site, err
}

// wantSentOnce fails t unless the call (its result and error) sent the
// form, answered 200, and the site received it once.
func wantSentOnce(t *testing.T, site *recorder, res *executor.Result, err error) {
	t.Helper()
	if err != nil || res.Status != http.StatusOK {
		t.Fatalf("Execute = %+v, %v; want the form sent", res, err)
	}
	if got := site.paths(); !slices.Equal(got, []string{"POST /callback-request"}) {
		t.Errorf("the site received %v, want the one submission", got)
	}
}

// fireCallbackPageIn is fireCallbackPage within ctx, with the call's result.
func fireCallbackPageIn(ctx context.Context, t *testing.T, b *topology.Browser, page string) (*recorder, *executor.Result, error) {
	t.Helper()
	site := callbackSite(t, page, "Thanks, we will call you.")
	graph := editCallback(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded", nil)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	res, err := ex.Execute(ctx, executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	return site, res, err
}

// A page that puts the form in a WebSocket to another origin — from its
// own realm and from an iframe's — sends it nowhere: request interception
// does not see a socket (the door that relied on it sent both handshakes,
// the fields in their URLs, to the other origin), the confined page's
// proxy refuses them. The form itself is sent, once, to the endpoint, and
// the result says what was stopped.
func TestBrowserDoorStopsSocketsElsewhere(t *testing.T) {
	b := browser(t)
	other := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
	ws := "ws" + strings.TrimPrefix(other.URL, "http")
	page := `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", () => {
  const q = "?" + new URLSearchParams(new FormData(f));
  new WebSocket("` + ws + `/page" + q);
  const fr = document.createElement("iframe");
  document.body.appendChild(fr);
  new fr.contentWindow.WebSocket("` + ws + `/iframe" + q);
});
</script></body></html>`
	site, res, err := fireCallbackPageIn(t.Context(), t, b, page)
	wantSentOnce(t, site, res, err)
	if got := other.paths(); len(got) != 0 {
		t.Errorf("the other origin received %v, want nothing", got)
	}
	want := "stopped a connection off the confirmed origin: CONNECT " + strings.TrimPrefix(other.URL, "http://")
	if !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// A form whose target is a new tab is submitted in the door's own tab: the
// executor's interception is that tab's, and the form submitted into a
// new tab reached the site past it while the call waited out its timeout
// and reported that nothing was sent.
func TestBrowserDoorSubmitsInItsOwnTab(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request" target="_blank">` + callbackFields + `</form></body></html>`
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	site, res, err := fireCallbackPageIn(ctx, t, b, page)
	wantSentOnce(t, site, res, err)
}

// A page that sends nothing and goes nowhere once pressed fails the call
// when its wait ends, and the error names what ended it: the caller's
// deadline, when it comes before the door's 60 s (the error named the 60 s
// it did not wait).
func TestBrowserDoorNamesTheCallersDeadline(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><form id="callback-form">` + callbackFields + `</form>
<script>document.getElementById("callback-form").addEventListener("submit", (e) => e.preventDefault());</script></body></html>`
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Second)
	defer cancel()
	site, _, err := fireCallbackPageIn(ctx, t, b, page)
	if err == nil || !strings.Contains(err.Error(), "the page submitted nothing before the call's deadline (") {
		t.Fatalf("Execute = %v; want a failure naming the call's deadline", err)
	}
	if n := site.count(); n != 0 {
		t.Errorf("the site received %d submissions, want none", n)
	}
}

// A page that also sends the form over a WebSocket to its own origin (a
// socket the proxy's tunnel would carry on an https site) has every message
// dropped by the tab's guard, and the result says so; the form itself is
// sent, once, to the endpoint.
func TestBrowserDoorDropsSocketMessages(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><form id="callback-form" method="post" action="/callback-request">` + callbackFields + `</form>
<script>
const sock = new WebSocket(location.origin.replace(/^http/, "ws") + "/live");
const f = document.getElementById("callback-form");
f.addEventListener("submit", () => { try { sock.send(JSON.stringify(Object.fromEntries(new FormData(f)))); } catch (e) { window.sendFailed = String(e); } });
</script></body></html>`
	site, res, err := fireCallbackPageIn(t.Context(), t, b, page)
	wantSentOnce(t, site, res, err)
	if !slices.Contains(res.Warnings, "dropped 1 message(s) the page tried to send over a WebSocket") {
		t.Errorf("warnings %q, want the dropped message", res.Warnings)
	}
}

// A submit button the page keeps disabled until the form is filled, and
// that sends the form from its click handler, is pressed once the form is
// filled: the door chose it before filling, found it disabled and called
// requestSubmit, which runs no click handler, and nothing was sent.
func TestBrowserDoorPressesAButtonEnabledByTheFill(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><form id="callback-form" action="/nowhere">` + callbackFields + `</form>
<script>
const f = document.getElementById("callback-form"), send = f.querySelector("button");
send.disabled = true;
f.addEventListener("input", () => { send.disabled = !f.elements.full_name.value; });
f.addEventListener("submit", (e) => e.preventDefault());
send.addEventListener("click", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))});
});
</script></body></html>`
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	site, res, err := fireCallbackPageIn(ctx, t, b, page)
	wantSentOnce(t, site, res, err)
}
