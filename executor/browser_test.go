package executor_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
	gotSent := url.Values{}
	for _, f := range res.Sent {
		gotSent.Add(f.Name, f.Value)
	}
	if diff := cmp.Diff(want, gotSent); diff != "" {
		t.Errorf("Result.Sent (-want +got):\n%s", diff)
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
