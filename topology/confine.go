package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ErrNoOrigin reports a Confined browser context asked for without an
// origin it may reach, or with an origin that is not one (scheme http or
// https, a host, nothing after it).
var ErrNoOrigin = errors.New("topology: a confined browser context needs the origins it may reach")

// tabGuard runs in every frame of a confined tab before the page's
// scripts. It takes WebRTC's peer connections away, drops every message a
// WebSocket would send, and keeps what the page does in the tab:
// window.open opens nothing, a form is submitted in its own tab whatever
// its target, its submitter's formtarget or the page's <base target> (the
// submission's target is read after the submit event, a capturing
// listener of the window's runs first, and form.submit(), which fires no
// event, is wrapped), and a link clicked, by a person or a script, opens
// in the tab. Request interception is a tab's own: a form whose target was
// a new tab reached the site past the sandbox's.
const tabGuard = `(() => {
  const off = function RTCPeerConnection() { throw new DOMException("WebRTC is off in this tab", "NotAllowedError"); };
  const pin = (name, value) => { try { Object.defineProperty(window, name, { value, writable: false, configurable: false }); } catch (e) {} };
  pin("RTCPeerConnection", off);
  pin("webkitRTCPeerConnection", off);
  pin("open", function open() { return null; });
  // A socket's messages are dropped, and counted (Confined.SocketSends,
  // through the binding socketBinding): a socket to the tab's own https
  // origin goes through the proxy's tunnel.
  const told = window.` + socketBinding + `;
  try {
    Object.defineProperty(WebSocket.prototype, "send", { value: function send() {
      try { if (typeof told === "function") told(""); } catch (e) {}
    }, writable: false, configurable: false });
  } catch (e) {}
  const here = (form) => { if (form && form.getAttribute("target") !== "_self") form.setAttribute("target", "_self"); };
  window.addEventListener("submit", (e) => {
    here(e.target);
    if (e.submitter && e.submitter.hasAttribute("formtarget")) e.submitter.removeAttribute("formtarget");
  }, true);
  const submit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function () { here(this); return submit.call(this); };
  window.addEventListener("click", (e) => {
    for (const n of e.composedPath()) {
      if (n.localName === "a" || n.localName === "area") { if (n.getAttribute("target") !== "_self") n.setAttribute("target", "_self"); break; }
    }
  }, true);
})();`

// socketBinding is the name of the DevTools binding (Runtime.addBinding)
// by which a Confined tab's guard tells each dropped WebSocket message: a
// count kept in Go outlives the document that sent it.
const socketBinding = "__frontlatchSocketDropped"

// confineDialTimeout bounds the proxy's connection to an origin.
const confineDialTimeout = 10 * time.Second

// maxRefused bounds the refusals a Confined keeps.
const maxRefused = 100

// confineStepTimeout bounds each DevTools call Confine and NewPage make,
// whatever the caller's context: a browser that stopped answering fails
// the call rather than hanging it.
const confineStepTimeout = 10 * time.Second

// Confined is a browser context of its own whose every connection goes
// through a proxy, on 127.0.0.1, that reaches the given origins and
// nothing else. Request interception (the Fetch domain) sees a page's
// requests but not its WebSockets, nor what its workers open: a page whose
// script sends a form over a WebSocket to another origin, or puts it in
// the socket's URL, is stopped by the proxy, as is every other connection
// to another host. An https origin is reached through a tunnel (CONNECT),
// so what travels inside it — a WebSocket to that same origin among it —
// is the origin's; an http origin is reached by plain requests and no
// tunnel is opened, so a WebSocket is refused there too. The verifier's
// sandbox and the executor's browser door fill forms in confined tabs.
//
// WebRTC's UDP goes past any proxy: a page's RTCPeerConnection sends its
// STUN and TURN requests (a TURN username can carry a form) straight to
// the server it names. And request interception is a tab's own: a form
// whose target is a new tab is submitted there, past it. A tab of the
// context gets a guard, run in every frame before the page's scripts (an
// iframe's realm included), that takes RTCPeerConnection and window.open
// away, drops (and counts: SocketSends) every message a WebSocket
// would send — a socket to the tab's own https origin passes the proxy in
// its tunnel — and submits every form, and follows every link clicked, in
// its own tab. The guard runs before the page's listeners, which can undo
// it, so the Browser also watches every new target before it runs: a tab
// that a page of a confined context opens, however, is closed unrun,
// before its first request (see watchPopups). The watch, begun by the
// first Confine, has every new target of the browser — an embedder's too —
// wait for the Browser's word, one DevTools round trip.
//
// The proxy serves only the browser that asked for it and reaches only
// what any process of the machine reaches already, so it takes no token.
type Confined struct {
	owner *Browser     // whose watch of new tabs closes those the context's pages open
	in    *rod.Browser // the browser within the context: its Page opens tabs there
	proxy *confineProxy

	sockets atomic.Int64 // WebSocket messages the tabs' guards dropped

	// done ends with Close: the watch of each tab's dropped messages.
	done   context.Context
	cancel context.CancelFunc

	closeOnce sync.Once
	closeErr  error
}

// Confine makes a Confined browser context whose connections reach
// origins only (each "scheme://host[:port]"). Close it when done: it
// closes the context's tabs, its cookies and storage with them, and stops
// the proxy.
func (b *Browser) Confine(ctx context.Context, origins ...string) (*Confined, error) {
	rb, err := b.handle()
	if err != nil {
		return nil, err
	}
	p, err := newConfineProxy(origins)
	if err != nil {
		return nil, err
	}
	if err := b.watchPopups(rb); err != nil {
		p.close()
		return nil, err
	}
	bc, err := proto.TargetCreateBrowserContext{
		DisposeOnDetach: true,
		ProxyServer:     "http://" + p.addr(),
		// Chromium sends loopback addresses past a proxy unless told not
		// to; a site under test, or on the machine, is no exception here.
		ProxyBypassList: "<-loopback>",
	}.Call(rb.Context(ctx).Timeout(confineStepTimeout))
	if err != nil {
		p.close()
		return nil, fmt.Errorf("topology: confine a browser context: %w", err)
	}
	b.confine(bc.BrowserContextID, true)
	in := *rb // as rod's Incognito makes a browser of a context
	in.BrowserContextID = bc.BrowserContextID
	done, cancel := context.WithCancel(context.Background())
	return &Confined{owner: b, in: &in, proxy: p, done: done, cancel: cancel}, nil
}

// watchPopups has every new target of the browser wait, before it runs a
// script or sends a request, until the Browser has seen it
// (Target.setAutoAttach on the browser's session, waitForDebuggerOnStart):
// a page that a page of a confined context opened (a target with an
// opener) is closed there, unrun; every other target is let run
// (Runtime.runIfWaitingForDebugger) and left (Target.detachFromTarget).
//
// The guard in the tab cannot do this alone: it sets a form's or a link's
// target to _self as the event is dispatched, but the page's own
// listeners run after it and can set the target back (or a microtask of
// theirs can), a submitter's formtarget likewise, and a realm the guard
// never ran in (a fresh about:blank iframe) has a window.open of its own.
// Each is a new tab the browser opens, which has none of the guards and
// is outside the sending tab's request interception; here the browser
// itself reports the tab before it runs, however the page asked for it.
// Started by the first Confine, it lasts until Close.
func (b *Browser) watchPopups(rb *rod.Browser) error {
	b.popMu.Lock()
	defer b.popMu.Unlock()
	if b.watchStop != nil {
		return nil
	}
	wctx, stop := context.WithCancel(context.Background())
	wait := rb.Context(wctx).EachEvent(func(e *proto.TargetAttachedToTarget, sid proto.TargetSessionID) {
		// Ours are attached to the browser's session and wait; one that
		// does not is a session someone asked for (rod's own, for a page
		// it made), or a target that ran before the watch began.
		if sid == "" && e.WaitingForDebugger {
			go b.admit(rb, e)
		}
	})
	go wait()
	// Pages only: a tab is what a page opens, and the browser's own
	// targets (browser_ui, which come with each new window) do not always
	// answer the resume, which would keep admit waiting out its bound.
	err := proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
		Filter: proto.TargetTargetFilter{{Type: string(proto.TargetTargetInfoTypePage)}}}.Call(rb.Timeout(confineStepTimeout))
	if err != nil {
		stop()
		return fmt.Errorf("topology: confine a browser context: watch new tabs: %w", err)
	}
	b.watchStop = func() {
		_ = proto.TargetSetAutoAttach{AutoAttach: false}.Call(rb.Timeout(5 * time.Second))
		stop()
	}
	return nil
}

// stopWatch ends watchPopups, if it runs; the caller holds b.mu.
func (b *Browser) stopWatch() {
	b.popMu.Lock()
	defer b.popMu.Unlock()
	if b.watchStop != nil {
		b.watchStop()
		b.watchStop = nil
	}
}

// confine adds (on) or removes a confined browser context.
func (b *Browser) confine(id proto.BrowserBrowserContextID, on bool) {
	b.popMu.Lock()
	defer b.popMu.Unlock()
	if b.confined == nil {
		b.confined = map[proto.BrowserBrowserContextID]bool{}
	}
	if on {
		b.confined[id] = true
	} else {
		delete(b.confined, id)
	}
}

// admit decides on a target watchPopups attached to: a page opened by a
// page of a confined context is closed, anything else resumed and left.
// A call that fails leaves a target paused, which a closed Browser, or
// the target's own close, ends.
func (b *Browser) admit(rb *rod.Browser, e *proto.TargetAttachedToTarget) {
	ctx, cancel := context.WithTimeout(context.Background(), confineStepTimeout)
	defer cancel()
	ti := e.TargetInfo
	b.popMu.Lock()
	confined := ti != nil && b.confined[ti.BrowserContextID]
	b.popMu.Unlock()
	if confined && ti.Type == proto.TargetTargetInfoTypePage && ti.OpenerID != "" {
		_, _ = proto.TargetCloseTarget{TargetID: ti.TargetID}.Call(rb.Context(ctx))
		return
	}
	_, _ = rb.Call(ctx, string(e.SessionID), proto.RuntimeRunIfWaitingForDebugger{}.ProtoReq(), nil)
	_ = proto.TargetDetachFromTarget{SessionID: e.SessionID}.Call(rb.Context(ctx))
}

// NewPage opens a blank tab in the context, its guard installed (see
// Confined): set it up — interception, init scripts — and navigate it.
func (c *Confined) NewPage(ctx context.Context) (*rod.Page, error) {
	// The tab's own context ends with the tab (see createPage), so that its
	// Mouse works past the step's bound.
	page, _, err := createPage(ctx, c.in, confineStepTimeout)
	if err != nil {
		return nil, fmt.Errorf("topology: open a confined tab: %w", err)
	}
	page = page.Context(ctx) // the tab outlives the step's bound
	if err := c.guard(page); err != nil {
		_ = page.Context(context.Background()).Timeout(5 * time.Second).Close()
		return nil, fmt.Errorf("topology: open a confined tab: %w", err)
	}
	return page, nil
}

// guard installs a tab's guard before anything loads in it: the binding by
// which the guard tells a dropped WebSocket message (counted until the tab
// or the Confined is closed), then tabGuard, both for every frame and every
// document the tab loads.
func (c *Confined) guard(page *rod.Page) error {
	if err := (proto.RuntimeAddBinding{Name: socketBinding}).Call(page.Timeout(confineStepTimeout)); err != nil {
		return err
	}
	// Enabled here, bounded: EachEvent would enable it under the watch's
	// context, which has no deadline.
	if err := (proto.RuntimeEnable{}).Call(page.Timeout(confineStepTimeout)); err != nil {
		return err
	}
	// The watch ends with the tab — rod ends the context of the page it
	// made (cached: no call) once the target is gone, as a tab's close
	// does (see createPage) — or with Close, whichever comes first.
	root, err := c.in.Timeout(confineStepTimeout).PageFromTarget(page.TargetID)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(root.GetContext())
	stop := context.AfterFunc(c.done, cancel)
	wait := page.Context(wctx).EachEvent(func(e *proto.RuntimeBindingCalled) {
		if e.Name == socketBinding {
			c.sockets.Add(1)
		}
	})
	go func() {
		wait()
		stop()
		cancel()
	}()
	_, err = page.Timeout(confineStepTimeout).EvalOnNewDocument(tabGuard)
	return err
}

// SocketSends returns how many messages the pages of the context tried to
// send over a WebSocket, every one dropped.
func (c *Confined) SocketSends() int { return int(c.sockets.Load()) }

// OpenPage is Browser.OpenPage in the context, its guard installed: a tab
// loads rawURL and settles, with the same errors.
func (c *Confined) OpenPage(ctx context.Context, rawURL string, opts PageOptions) (*rod.Page, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return openPage(ctx, c.in, rawURL, opts.withDefaults(), c.guard)
}

// Refused returns the connections the proxy refused, each once, in the
// order they came (at most 100): "CONNECT host:port" or "METHOD url" (a
// URL clipped to 300 bytes).
func (c *Confined) Refused() []string {
	c.proxy.mu.Lock()
	defer c.proxy.mu.Unlock()
	return append([]string(nil), c.proxy.refused...)
}

// Close closes the browser context and stops the proxy. It returns the
// error of closing the context, if any (the proxy stops all the same);
// closing again does nothing.
func (c *Confined) Close() error {
	c.closeOnce.Do(func() {
		defer c.proxy.close()
		defer c.cancel()
		defer c.owner.confine(c.in.BrowserContextID, false)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := (proto.TargetDisposeBrowserContext{BrowserContextID: c.in.BrowserContextID}).Call(c.in.Context(ctx)); err != nil {
			c.closeErr = fmt.Errorf("topology: close a confined browser context: %w", err)
		}
	})
	return c.closeErr
}

// confineProxy is the proxy of one Confined.
type confineProxy struct {
	ln      net.Listener
	srv     *http.Server
	forward *httputil.ReverseProxy
	origins map[string]bool // weborigin.Of each origin
	tunnels map[string]bool // "host:port" of the https origins, as CONNECT names it

	mu      sync.Mutex
	refused []string
	conns   map[net.Conn]bool // the tunnels' connections, closed with the proxy
	closed  bool
}

func newConfineProxy(origins []string) (*confineProxy, error) {
	if len(origins) == 0 {
		return nil, ErrNoOrigin
	}
	p := &confineProxy{origins: map[string]bool{}, tunnels: map[string]bool{}, conns: map[net.Conn]bool{}}
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || weborigin.Of(u) == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return nil, fmt.Errorf("%w: %q is no origin", ErrNoOrigin, o)
		}
		p.origins[weborigin.Of(u)] = true
		if u.Scheme == "https" {
			port := u.Port()
			if port == "" {
				port = "443"
			}
			p.tunnels[net.JoinHostPort(strings.ToLower(u.Hostname()), port)] = true
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("topology: confine a browser context: start its proxy: %w", err)
	}
	p.ln = ln
	tr := &http.Transport{
		Proxy:                 nil, // the proxy reaches the origin itself
		DialContext:           (&net.Dialer{Timeout: confineDialTimeout}).DialContext,
		TLSHandshakeTimeout:   confineDialTimeout,
		ResponseHeaderTimeout: 60 * time.Second,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
	}
	p.forward = &httputil.ReverseProxy{
		// The request a browser sends a proxy names its whole URL: it is
		// sent on as it is, and a redirect is answered, not followed.
		Rewrite:   func(r *httputil.ProxyRequest) { r.Out.Host = "" },
		Transport: tr,
		ErrorLog:  log.New(io.Discard, "", 0),
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func (p *confineProxy) addr() string { return p.ln.Addr().String() }

func (p *confineProxy) refuse(w http.ResponseWriter, what string) {
	p.note(what)
	http.Error(w, "frontlatch: this page may reach its own origin only", http.StatusForbidden)
}

// note keeps what was refused.
func (p *confineProxy) note(what string) {
	if len(what) > 300 {
		what = what[:300]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.refused) < maxRefused && !slices.Contains(p.refused, what) {
		p.refused = append(p.refused, what)
	}
}

func (p *confineProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		if !p.tunnels[strings.ToLower(r.Host)] {
			p.refuse(w, "CONNECT "+r.Host)
			return
		}
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || !p.origins[weborigin.Of(r.URL)] || strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		p.refuse(w, r.Method+" "+r.URL.String())
		return
	}
	p.forward.ServeHTTP(w, r)
}

// tunnel joins the browser's connection to the origin's, both closed when
// either side ends or the proxy stops.
func (p *confineProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "frontlatch: no tunnel", http.StatusInternalServerError)
		return
	}
	up, err := net.DialTimeout("tcp", r.Host, confineDialTimeout)
	if err != nil {
		http.Error(w, "frontlatch: the origin cannot be reached", http.StatusBadGateway)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(up, down) {
		up.Close()
		down.Close()
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		p.untrack(up, down)
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, io.MultiReader(buf, down)); done <- struct{}{} }()
	go func() { _, _ = io.Copy(down, up); done <- struct{}{} }()
	<-done
	p.untrack(up, down)
	<-done
}

func (p *confineProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *confineProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *confineProxy) close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
	p.mu.Unlock()
	_ = p.srv.Close()
	if tr, ok := p.forward.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
}
