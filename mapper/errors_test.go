package mapper

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A URL that does not answer, answers with an error status, redirects in
// a loop or serves something other than HTML ends with a typed error that
// names the cause; none of them reaches the browser.
func TestMapErrors(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) })
	mux.HandleFunc("/404", http.NotFound)
	mux.HandleFunc("/loop-a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop-b", http.StatusFound) })
	mux.HandleFunc("/loop-b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop-a", http.StatusFound) })
	mux.HandleFunc("/endless/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound) // a new URL every time
	})
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.7\n"))
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	closed := closedPort(t)

	cases := []struct {
		name   string
		url    string
		kind   error
		status int
	}{
		{"unreachable port", "http://" + closed + "/", ErrUnreachable, 0},
		{"server error", srv.URL + "/500", ErrHTTPStatus, 500},
		{"not found", srv.URL + "/404", ErrHTTPStatus, 404},
		{"redirect loop", srv.URL + "/loop-a", ErrRedirectLoop, 0},
		{"endless redirects", srv.URL + "/endless/", ErrRedirectLoop, 0},
		{"pdf", srv.URL + "/doc.pdf", ErrNotHTML, 200},
		{"json", srv.URL + "/api", ErrNotHTML, 200},
		{"no answer in time", srv.URL + "/slow", ErrUnreachable, 0},
		{"not a URL", "ftp://example.com/", ErrInvalidURL, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			o.FetchTimeout = 2 * time.Second
			g, err := Map(context.Background(), tc.url, o)
			if g != nil || !errors.Is(err, tc.kind) {
				t.Fatalf("Map(%s) = %v, %v; want %v", tc.url, g, err, tc.kind)
			}
			var fe *FetchError
			if !errors.As(err, &fe) || fe.Status != tc.status {
				t.Fatalf("error %v: want a *FetchError with status %d", err, tc.status)
			}
			if fe.Error() == "" || fe.URL == "" {
				t.Errorf("error %q does not name the URL", fe.Error())
			}
		})
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A redirect chain of maxRedirects (10) redirects is followed to its page;
// the 11th redirect is refused as a loop, and its target is not requested.
func TestRedirectChainLength(t *testing.T) {
	cases := []struct {
		redirects int
		err       error
		requested int // requests for the chain's URLs
	}{
		{0, nil, 1},
		{1, nil, 2},
		{maxRedirects, nil, maxRedirects + 1},
		{maxRedirects + 1, ErrRedirectLoop, maxRedirects + 1},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d redirects", tc.redirects), func(t *testing.T) {
			var mu sync.Mutex
			requested := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hop, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
				if err != nil {
					http.NotFound(w, r)
					return
				}
				mu.Lock()
				requested++
				mu.Unlock()
				if hop < tc.redirects {
					http.Redirect(w, r, fmt.Sprintf("/hop/%d", hop+1), http.StatusFound)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(page("Acme", "<h1>Acme</h1>")))
			}))
			defer srv.Close()
			o := testOptions()
			o.NoExplore = true
			g, err := Map(context.Background(), srv.URL+"/hop/0", o)
			if !errors.Is(err, tc.err) || (err == nil) != (g != nil) {
				t.Fatalf("Map = %v, %v; want error %v", g, err, tc.err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tc.requested, requested); diff != "" {
				t.Errorf("requests for the chain (-want +got):\n%s", diff)
			}
		})
	}
}
