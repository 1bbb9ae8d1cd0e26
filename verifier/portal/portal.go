package portal

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// Store is what the portal needs of the audit store: to record a
// confirmation, to revoke the one a new confirmation replaces, and to look
// it up as the consent gate does, so a confirmation is checked against the
// gate before the graph is written. *audit.Store implements it.
type Store interface {
	shared.AuditLookup
	RecordConfirmation(ctx context.Context, c audit.Confirmation) (audit.Confirmation, error)
	RecordRevocation(ctx context.Context, r audit.Revocation) error
}

// Options configures a portal Server.
type Options struct {
	// GraphPath is the Action Graph file the portal shows and, on a
	// confirmation, rewrites atomically. Required.
	GraphPath string
	// Store records confirmations (the audit store). Required.
	Store Store
	// Addr is where to listen; "" means 127.0.0.1:0 (loopback, a free port).
	Addr string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// MaxBodyBytes bounds a request body; 0 means 64 KiB.
	MaxBodyBytes int64
	// StoreTimeout bounds each audit store call; 0 means 10 s.
	StoreTimeout time.Duration
}

const (
	cookiePrefix    = "frontlatch_portal_"
	defaultMaxBody  = 64 << 10
	defaultStoreTTL = 10 * time.Second
	nonceTTL        = time.Hour
	maxNonces       = 1024
)

// Server is the owner's portal: the readiness report and a confirmation
// page per action, for the one browser that opened the URL with its
// one-time token.
type Server struct {
	o   Options
	ln  net.Listener
	srv *http.Server

	mu        sync.Mutex
	token     string // one-time: cleared once exchanged for a session
	session   string // the one session's id, "" before the token is used
	csrf      string
	nonces    map[string]issued
	nonceList []string // issue order, to bound the map

	graphMu sync.Mutex // serialises confirmations (read, check, record, write)
}

// issued is a confirm form handed out: it may be sent once, for the action
// and the disclosure it was issued with.
type issued struct {
	ActionID string
	Shown    string // digest of the subject shown, limits not yet set
	Subject  shared.ConsentSubject
	Page     pageDigests // the rest of what the page showed
	At       time.Time
}

// New checks that the graph reads and a store is given, and listens (on
// 127.0.0.1 unless Options.Addr says otherwise). Serve then answers
// requests; URL is what to open.
func New(ctx context.Context, o Options) (*Server, error) {
	if o.Store == nil {
		return nil, ErrNoStore
	}
	if _, err := ReadGraphFile(ctx, o.GraphPath); err != nil {
		return nil, err
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = defaultMaxBody
	}
	if o.StoreTimeout <= 0 {
		o.StoreTimeout = defaultStoreTTL
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("portal: listen on %s: %w", o.Addr, err)
	}
	s := &Server{o: o, ln: ln, token: randomToken(), csrf: randomToken(), nonces: map[string]issued{}}
	s.srv = &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	return s, nil
}

// URL is the address to open, with the one-time token: the first request
// that carries it gets the session cookie; after that it opens nothing.
func (s *Server) URL() string {
	return s.Origin() + "/?token=" + url.QueryEscape(s.token)
}

// Origin is the server's own origin, http://host:port.
func (s *Server) Origin() string { return "http://" + s.ln.Addr().String() }

// Serve answers requests until ctx is done, then shuts down gracefully:
// requests in flight get 5 s to finish, then their connections are closed.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(s.ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(sctx); err != nil {
			// Connections still busy after 5 s are cut.
			s.srv.Close()
		}
		return nil
	}
}

// Close stops the server at once.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.ln.Close()
	return err
}

// Handler is the portal's HTTP handler, with every check of who may use it
// in front of every page.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleReport)
	mux.HandleFunc("GET /action/{id}", s.handleAction)
	mux.HandleFunc("POST /action/{id}", s.handleConfirm)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.message(w, http.StatusNotFound, "Not found", "There is no such page in the owner's portal.", nil)
	})
	return s.guard(mux)
}

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// guard runs before every page: security headers, a bounded body, the Host
// check (a DNS-rebinding defence), the one-time token exchange and the
// session cookie. Without a session every page is 403.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src "+styleHash+"; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes)

		if !s.allowedHost(r.Host) {
			s.message(w, http.StatusForbidden, "Forbidden", "This portal answers only at its own address.", nil)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" {
			s.exchange(w, r, tok)
			return
		}
		if !s.hasSession(r) {
			s.message(w, http.StatusForbidden, "Forbidden", "Open the portal with the address the server printed when it started (it carries a one-time token). If you already used it, restart the server to get a new one.", nil)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedHost accepts the listener's own host:port, and for a loopback or
// unspecified listener any IP literal or localhost with its port: never a
// DNS name that could have been rebound to this machine.
func (s *Server) allowedHost(host string) bool {
	if host == s.ln.Addr().String() {
		return true
	}
	h, port, err := net.SplitHostPort(host)
	_, ownPort, _ := net.SplitHostPort(s.ln.Addr().String())
	if err != nil || port != ownPort {
		return false
	}
	return h == "localhost" || net.ParseIP(h) != nil
}

// exchange trades the one-time token for the session cookie and redirects
// to the same page without the token in its address.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request, tok string) {
	s.mu.Lock()
	ok := s.token != "" && r.Method == http.MethodGet && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1
	var sid string
	if ok {
		s.token = "" // one time
		sid = randomToken()
		s.session = sid
	}
	s.mu.Unlock()
	if !ok {
		s.message(w, http.StatusForbidden, "Forbidden", "This address's token is not valid, or it was already used. Restart the server to get a new address.", nil)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: sid, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	q := r.URL.Query()
	q.Del("token")
	u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// cookieName carries the port: browsers send a host's cookies to every
// port of it, so two portals on one machine must not overwrite each other's
// session.
func (s *Server) cookieName() string {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return cookiePrefix + port
}

func (s *Server) hasSession(r *http.Request) bool {
	c, err := r.Cookie(s.cookieName())
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.session)) == 1
}

// sameOrigin refuses a state-changing request that did not come from a page
// of this server: Sec-Fetch-Site, when sent, must be same-origin, and the
// Origin (or, without one, the Referer) must be this server's.
func sameOrigin(r *http.Request) error {
	if sfs := r.Header.Get("Sec-Fetch-Site"); sfs != "" && sfs != "same-origin" {
		return &RefusedError{Reason: RefuseCrossSite, Detail: "the request came from another site (Sec-Fetch-Site: " + sfs + ")"}
	}
	own := "http://" + r.Host
	if o := r.Header.Get("Origin"); o != "" {
		if o != own {
			return &RefusedError{Reason: RefuseCrossSite, Detail: "the request came from another origin (" + o + ")"}
		}
		return nil
	}
	ref := r.Header.Get("Referer")
	if ref == "" {
		return &RefusedError{Reason: RefuseCrossSite, Detail: "the request says neither where it came from (no Origin, no Referer)"}
	}
	u, err := url.Parse(ref)
	if err != nil || "http://"+u.Host != own || u.Scheme != "http" {
		return &RefusedError{Reason: RefuseCrossSite, Detail: "the request came from another page (Referer is not this server)"}
	}
	return nil
}

// issue hands out a form nonce for an action as shown.
func (s *Server) issue(actionID, shown string, subject shared.ConsentSubject, pd pageDigests) (nonce, csrf string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nonce = randomToken()
	s.nonces[nonce] = issued{ActionID: actionID, Shown: shown, Subject: subject, Page: pd, At: s.o.Now()}
	s.nonceList = append(s.nonceList, nonce)
	for len(s.nonceList) > maxNonces {
		delete(s.nonces, s.nonceList[0])
		s.nonceList = s.nonceList[1:]
	}
	return nonce, s.csrf
}

// redeem uses up a nonce: it is valid once, and for nonceTTL.
func (s *Server) redeem(nonce string) (issued, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is, ok := s.nonces[nonce]
	if !ok {
		return issued{}, false
	}
	delete(s.nonces, nonce)
	return is, s.o.Now().Sub(is.At) <= nonceTTL
}

func (s *Server) checkCSRF(got string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) == 1
}

// message renders a plain page with a status.
func (s *Server) message(w http.ResponseWriter, status int, heading, text string, reasons []string, back ...string) {
	m := messageView{Heading: heading, Text: text, Reasons: reasons}
	if len(back) == 2 {
		m.Back, m.BackText = back[0], back[1]
	}
	s.write(w, status, messagePage, heading, m)
}

type messageView struct {
	Heading, Text  string
	Reasons        []string
	Back, BackText string
}

func (s *Server) write(w http.ResponseWriter, status int, t *template.Template, title string, body any) {
	var buf bytes.Buffer
	if err := render(&buf, t, page{Title: title, Portal: true, Body: body}); err != nil {
		http.Error(w, "portal: internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
