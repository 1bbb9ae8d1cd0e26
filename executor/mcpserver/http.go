package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/frontlatch/frontlatch/executor"
)

// DefaultAddr is where the HTTP transport listens unless told otherwise:
// loopback only.
const DefaultAddr = "127.0.0.1:7330"

// Defaults of HTTPOptions.
const (
	DefaultRatePerSecond  = 5
	DefaultBurst          = 20
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxInFlight    = 8
)

// BodyMargin is what a request body may hold besides the base64 of its
// files: the JSON-RPC envelope, the tool's name, every text argument, the
// files' names and media types. A tool call without files is a few
// kilobytes.
const BodyMargin = 1 << 20

// MaxBodyBytesFor is the request body bound that lets one tool call carry
// maxUpload bytes of files (executor.Options.MaxUploadBytes): their base64,
// 4 bytes for every 3 rounded up, plus BodyMargin. It is the default of
// HTTPOptions.MaxBodyBytes, for the server's own executor; a maxUpload of 0
// or below is the executor's default, executor.DefaultMaxUploadBytes (10
// MiB of files: a bound of 15,029,592 bytes, about 14.3 MiB).
func MaxBodyBytesFor(maxUpload int64) int64 {
	if maxUpload <= 0 {
		maxUpload = executor.DefaultMaxUploadBytes
	}
	maxUpload = min(maxUpload, (math.MaxInt64-BodyMargin)/4*3-2) // no overflow
	return 4*((maxUpload+2)/3) + BodyMargin
}

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"). Required; see NewToken.
	Token string
	// MaxBodyBytes bounds a request body; a larger body is answered 413
	// and reaches neither the SDK nor the executor. The default,
	// MaxBodyBytesFor the executor's MaxUploadBytes, admits a call with
	// as many bytes of files as the executor uploads, so a file is
	// refused by one rule — the executor's, as a tool error naming the
	// field — rather than by the transport first.
	MaxBodyBytes int64
	// RatePerSecond and Burst limit each client — keyed by its remote
	// address, and by whether it presented the token — with a token bucket
	// (defaults DefaultRatePerSecond, DefaultBurst); over it, 429.
	RatePerSecond float64
	Burst         int
	// SessionTimeout closes a session idle that long (default
	// DefaultSessionTimeout).
	SessionTimeout time.Duration
	// MaxInFlight bounds the POST requests — each a JSON-RPC message, a
	// tool call among them — handled at once across every client (default
	// DefaultMaxInFlight); one more is answered 503 with Retry-After. With
	// MaxBodyBytes it bounds the memory bodies can take: the per-client
	// rate alone lets each client hold up to Burst bodies at once.
	MaxInFlight int
}

// NewToken returns a random bearer token (256 bits, base32).
func NewToken() string { return rand.Text() + rand.Text() }

// HTTPHandler returns the MCP streamable HTTP endpoint, guarded: a request
// whose Origin is not a loopback origin of the port it arrived on is
// answered 403 (the MCP specification's DNS-rebinding defence; no Origin at
// all is allowed, as non-browser clients send none), one over its client's
// rate 429, one without the bearer token 401, one with a body over
// MaxBodyBytes 413, a POST beyond MaxInFlight at once 503 — all before the
// SDK reads a byte of it. The SDK's own
// check refuses a non-loopback Host header on a loopback connection.
func (s *Server) HTTPHandler(opts HTTPOptions) (http.Handler, error) {
	if opts.Token == "" {
		return nil, ErrNoToken
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = MaxBodyBytesFor(s.exec.MaxUploadBytes())
	}
	if opts.RatePerSecond <= 0 {
		opts.RatePerSecond = DefaultRatePerSecond
	}
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: opts.MaxBodyBytes,
		SessionTimeout:      opts.SessionTimeout,
		Logger:              s.log,
	})
	g := &guard{
		next:     sdk,
		token:    sha256.Sum256([]byte(opts.Token)),
		maxBody:  opts.MaxBodyBytes,
		authed:   newLimiters(rate.Limit(opts.RatePerSecond), opts.Burst),
		anon:     newLimiters(rate.Limit(opts.RatePerSecond), opts.Burst),
		inFlight: make(chan struct{}, opts.MaxInFlight),
	}
	return g, nil
}

// idleTimeout closes a kept-alive connection that sends no request for
// that long, as the portal does: without it a client could hold any number
// of idle connections open for ever. No read or write timeout bounds a
// request: a session's event stream (a GET) stays open for as long as the
// client likes.
var idleTimeout = 2 * time.Minute

// ListenAndServeHTTP serves the HTTP transport on addr (DefaultAddr when
// empty) until ctx is done. ready, when not nil, is called with the
// endpoint's URL once the listener is open.
func (s *Server) ListenAndServeHTTP(ctx context.Context, addr string, opts HTTPOptions, ready func(endpoint string)) error {
	h, err := s.HTTPHandler(opts)
	if err != nil {
		return err
	}
	if addr == "" {
		addr = DefaultAddr
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("mcpserver: listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mcpserver: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mcpserver: serve: %w", err)
	}
	return nil
}

// guard checks Origin, rate, token, size and the POSTs in flight, in that
// order, before the SDK.
type guard struct {
	next    http.Handler
	token   [32]byte
	maxBody int64
	// authed and anon are the rate limits of the clients that presented
	// the token and of those that did not, apart: no number of clients
	// without it takes a place of a client with it.
	authed, anon *limiters
	inFlight     chan struct{} // one token per POST being handled
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !originAllowed(r) {
		http.Error(w, "forbidden: the Origin header is not a loopback origin of this server", http.StatusForbidden)
		return
	}
	authed := g.authorized(r)
	limits := g.anon
	if authed {
		limits = g.authed
	}
	if !limits.allow(clientHost(r)) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many requests", http.StatusTooManyRequests)
		return
	}
	if !authed {
		w.Header().Set("WWW-Authenticate", `Bearer realm="frontlatch-mcp"`)
		http.Error(w, "unauthorized: send the server's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > g.maxBody {
		http.Error(w, tooLarge(g.maxBody), http.StatusRequestEntityTooLarge)
		return
	}
	if r.Method == http.MethodPost {
		// A GET holds the session's event stream open for as long as the
		// client likes and carries no body: only POSTs count.
		select {
		case g.inFlight <- struct{}{}:
			defer func() { <-g.inFlight }()
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy: too many requests in flight, retry in a moment", http.StatusServiceUnavailable)
			return
		}
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, g.maxBody)
	}
	if r.Method == http.MethodPost && r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody {
		// A POST without a Content-Length (chunked) is read here, up to
		// the bound, under its in-flight slot (the SDK would hold it in
		// memory all the same): one over the bound gets this guard's
		// answer, not the SDK's.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				http.Error(w, tooLargeRead(g.maxBody), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "bad request: the body could not be read; nothing fired", http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	g.next.ServeHTTP(w, r)
}

// authorized compares the bearer token in constant time (over digests, so
// that not even its length leaks).
func (g *guard) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], g.token[:]) == 1
}

// originAllowed: no Origin, or an http(s) origin on a loopback host whose
// port is the port the request arrived on.
func originAllowed(r *http.Request) bool {
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return true
	}
	if len(origins) > 1 {
		return false
	}
	u, err := url.Parse(origins[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	if !isLoopbackHost(u.Hostname()) {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	_, lport, err := net.SplitHostPort(local.String())
	return err == nil && lport == port
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// clientHost identifies a client for the rate limit: its remote address.
// Clients with and without the token are limited apart (guard.authed,
// guard.anon), so that unauthenticated noise from an address does not
// spend an authenticated client's budget.
func clientHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return host
}

// limiters is a bounded map of per-client token buckets. A new client is
// never refused for want of room: when the map is full, the clients idle
// for a minute are dropped and, if none is, the one seen least recently
// (which then starts again with a full bucket).
type limiters struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	m     map[string]*limiterEntry
}

type limiterEntry struct {
	l    *rate.Limiter
	seen time.Time
}

// maxClients bounds each map; past it, clients idle for a minute are
// dropped, else the one seen least recently.
const maxClients = 4096

func newLimiters(r rate.Limit, burst int) *limiters {
	return &limiters{rate: r, burst: burst, m: map[string]*limiterEntry{}}
}

func (l *limiters) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	e := l.m[key]
	if e == nil {
		if len(l.m) >= maxClients {
			l.evict(now)
		}
		e = &limiterEntry{l: rate.NewLimiter(l.rate, l.burst)}
		l.m[key] = e
	}
	e.seen = now
	return e.l.AllowN(now, 1)
}

// evict makes room for one client: it drops the clients idle for a
// minute and, when none is, the one seen least recently. l.mu is held.
func (l *limiters) evict(now time.Time) {
	oldest, at := "", now
	for k, v := range l.m {
		switch {
		case now.Sub(v.seen) > time.Minute:
			delete(l.m, k)
		case !v.seen.After(at):
			oldest, at = k, v.seen
		}
	}
	if len(l.m) >= maxClients {
		delete(l.m, oldest)
	}
}

// tooLarge is the 413's text for a body whose Content-Length is over the
// bound.
func tooLarge(limit int64) string {
	return fmt.Sprintf("request body exceeds the server's bound of %d bytes; nothing was read and nothing fired", limit)
}

// tooLargeRead is the 413's text for a body without a Content-Length
// (chunked), read up to the bound.
func tooLargeRead(limit int64) string {
	return fmt.Sprintf("request body exceeds the server's bound of %d bytes; it was read no further and nothing fired", limit)
}
