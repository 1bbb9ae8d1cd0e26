package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/mcpserver"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends one raw JSON-RPC POST and returns the status.
func post(t *testing.T, endpoint string, body io.Reader, length int64, hdr map[string]string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode
}

// The HTTP guard: Origin, token, size, then the SDK's Host check — each
// refused before the SDK reads the request, none fires anything, and a
// request that fails several is refused by the first in that order (rate
// comes between Origin and token: TestHTTPRateLimit).
func TestHTTPGuard(t *testing.T) {
	e := newEnv(t, 10)
	endpoint, token := e.serveHTTP(t, mcpserver.HTTPOptions{MaxBodyBytes: 64 << 10, Burst: 1000, RatePerSecond: 1000})
	u, _ := url.Parse(endpoint)
	port := u.Port()
	auth := "Bearer " + token
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + e.tool + `","arguments":{"about":"` + strings.Repeat("x", 128<<10) + `"}}}`

	cases := []struct {
		name   string
		hdr    map[string]string
		body   string
		chunk  bool // send without a Content-Length
		status int
	}{
		{"no token", nil, initialize, false, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer " + mcpserver.NewToken()}, initialize, false, http.StatusUnauthorized},
		{"token prefix", map[string]string{"Authorization": "Bearer " + token[:len(token)-1]}, initialize, false, http.StatusUnauthorized},
		{"basic scheme", map[string]string{"Authorization": "Basic " + token}, initialize, false, http.StatusUnauthorized},
		{"foreign origin", map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, initialize, false, http.StatusForbidden},
		{"foreign origin, no token", map[string]string{"Origin": "http://evil.example"}, initialize, false, http.StatusForbidden},
		{"loopback origin, other port", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:1"}, initialize, false, http.StatusForbidden},
		{"rebinding name on our port", map[string]string{"Authorization": auth, "Origin": "http://rebind.example:" + port}, initialize, false, http.StatusForbidden},
		{"null origin", map[string]string{"Authorization": auth, "Origin": "null"}, initialize, false, http.StatusForbidden},
		{"rebinding Host header", map[string]string{"Authorization": auth, "Host": "rebind.example:" + port}, initialize, false, http.StatusForbidden},
		{"oversized body", map[string]string{"Authorization": auth}, big, false, http.StatusRequestEntityTooLarge},
		{"oversized chunked body", map[string]string{"Authorization": auth}, big, true, http.StatusRequestEntityTooLarge},
		{"foreign origin, oversized body", map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, big, false, http.StatusForbidden},
		{"oversized body, no token", nil, big, false, http.StatusUnauthorized},
		{"rebinding Host header, no token", map[string]string{"Host": "rebind.example:" + port}, initialize, false, http.StatusUnauthorized},
		{"rebinding Host header, oversized body", map[string]string{"Authorization": auth, "Host": "rebind.example:" + port}, big, false, http.StatusRequestEntityTooLarge},
		{"no origin, token", map[string]string{"Authorization": auth}, initialize, false, http.StatusOK},
		{"own loopback origin", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:" + port}, initialize, false, http.StatusOK},
		{"own localhost origin", map[string]string{"Authorization": auth, "Origin": "http://localhost:" + port}, initialize, false, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tc.body)
			length := int64(len(tc.body))
			if tc.chunk {
				body, length = io.MultiReader(body), -1 // hides the length: sent chunked
			}
			if got := post(t, endpoint, body, length, tc.hdr); got != tc.status {
				t.Errorf("status %d, want %d", got, tc.status)
			}
		})
	}
	if n := len(e.submissions(t)); n != 0 {
		t.Errorf("%d submissions, want 0", n)
	}
}

// A body over the bound gets the guard's own 413 text with or without a
// Content-Length (on the code before, a chunked body got the SDK's text),
// and nothing fires.
func TestHTTPTooLargeText(t *testing.T) {
	e := newEnv(t, 10)
	const bound = 64 << 10
	endpoint, token := e.serveHTTP(t, mcpserver.HTTPOptions{MaxBodyBytes: bound, Burst: 1000, RatePerSecond: 1000})
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + e.tool + `","arguments":{"about":"` + strings.Repeat("x", 2*bound) + `"}}}`
	cases := []struct {
		name  string
		chunk bool
		want  string
	}{
		{"with a Content-Length", false, fmt.Sprintf("request body exceeds the server's bound of %d bytes; nothing was read and nothing fired\n", bound)},
		{"chunked", true, fmt.Sprintf("request body exceeds the server's bound of %d bytes; it was read no further and nothing fired\n", bound)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(big)
			length := int64(len(big))
			if tc.chunk {
				body, length = io.MultiReader(body), -1 // hides the length: sent chunked
			}
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, body)
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = length
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d, want 413", resp.StatusCode)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("the 413's text (-want +got):\n%s", diff)
			}
		})
	}
	// A chunked body within the bound still gets through to the SDK.
	if got := post(t, endpoint, io.MultiReader(strings.NewReader(initialize)), -1, map[string]string{"Authorization": "Bearer " + token}); got != http.StatusOK {
		t.Errorf("a chunked initialize: status %d, want 200", got)
	}
	if n := len(e.submissions(t)); n != 0 {
		t.Errorf("%d submissions, want 0", n)
	}
}

// Each client is rate limited: past its burst, 429 — with or without the
// token, and the token's bucket is not spent by requests without it.
func TestHTTPRateLimit(t *testing.T) {
	e := newEnv(t, 10)
	endpoint, token := e.serveHTTP(t, mcpserver.HTTPOptions{Burst: 3, RatePerSecond: 0.001})
	auth := map[string]string{"Authorization": "Bearer " + token}
	var anon []int
	for range 5 {
		anon = append(anon, post(t, endpoint, strings.NewReader(initialize), int64(len(initialize)), nil))
	}
	var authed []int
	for range 5 {
		authed = append(authed, post(t, endpoint, strings.NewReader(initialize), int64(len(initialize)), auth))
	}
	want := func(name string, got []int, first int) {
		for i, s := range got {
			w := first
			if i >= 3 {
				w = http.StatusTooManyRequests
			}
			if s != w {
				t.Errorf("%s request %d: status %d, want %d (all: %v)", name, i+1, s, w, got)
			}
		}
	}
	want("without token", anon, http.StatusUnauthorized)
	want("with token", authed, http.StatusOK)
}

// A full rate-limit table refuses no new client: after MaxClients clients
// without the token, each from an address of its own, a new client with
// the token is served and one without it answered 401, not 429; the rate
// still holds for each. Before, every new client got 429 once the table
// was full, the token's holder too: anyone able to use many addresses
// (every 127.0.0.0/8 address is loopback) shut the token's holder out.
func TestHTTPRateLimitFullTable(t *testing.T) {
	e := newEnv(t, 10)
	token := mcpserver.NewToken()
	h, err := e.server.HTTPHandler(mcpserver.HTTPOptions{Token: token, Burst: 1, RatePerSecond: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	send := func(host string, authed bool) int {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "http://127.0.0.1:7330/", strings.NewReader(initialize))
		req.RemoteAddr = host + ":40000"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if authed {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range mcpserver.MaxClients {
		if got := send(fmt.Sprintf("127.0.%d.%d", i/256, i%256+1), false); got != http.StatusUnauthorized {
			t.Fatalf("client %d without the token: status %d, want %d", i, got, http.StatusUnauthorized)
		}
	}
	for _, tc := range []struct {
		name   string
		host   string
		authed bool
		want   int
	}{
		{"new client with the token", "127.1.0.1", true, http.StatusOK},
		{"the same client again, over its burst", "127.1.0.1", true, http.StatusTooManyRequests},
		{"new client without the token", "127.1.0.2", false, http.StatusUnauthorized},
		{"the same client again, over its burst", "127.1.0.2", false, http.StatusTooManyRequests},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := send(tc.host, tc.authed); got != tc.want {
				t.Errorf("status %d, want %d", got, tc.want)
			}
		})
	}
}

// POSTs in flight at once are bounded across clients: while one holds the
// only slot (its body still arriving), another is answered 503 with
// Retry-After, before the SDK reads it; once the first is done, the next
// is served. A GET (the session's event stream) takes no slot.
//
// The first is admitted a moment after its headers arrive, and until then
// a second is served and may hold the slot when the first comes (the
// first is then the one refused, once its body is in: the server reads a
// body before it answers). So the test asks a few times within a try, and
// tries afresh, up to a few times, when the machine was too slow for the
// first to be admitted in time; every try that sees a second refused must
// see the first served. Without a bound no try sees a 503.
func TestHTTPInFlightBound(t *testing.T) {
	e := newEnv(t, 10)
	endpoint, token := e.serveHTTP(t, mcpserver.HTTPOptions{MaxInFlight: 1, Burst: 1000, RatePerSecond: 1000})
	auth := map[string]string{"Authorization": "Bearer " + token}

	try := func() (refused bool) {
		pr, pw := io.Pipe()
		first := make(chan int, 1)
		go func() { first <- post(t, endpoint, pr, int64(len(initialize)), auth) }()
		if _, err := pw.Write([]byte(initialize[:10])); err != nil { // its headers are sent: the guard is admitting it
			t.Fatal(err)
		}
		for range 50 {
			if post(t, endpoint, strings.NewReader(initialize), int64(len(initialize)), auth) == http.StatusServiceUnavailable {
				refused = true
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := pw.Write([]byte(initialize[10:])); err != nil {
			t.Fatal(err)
		}
		_ = pw.Close()
		got := <-first
		if refused && got != http.StatusOK {
			t.Errorf("the first POST, holding the slot while a second was refused: status %d, want 200", got)
		}
		return refused
	}
	refused := false
	for n := 0; n < 5 && !refused; n++ {
		refused = try()
	}
	if !refused {
		t.Errorf("in five tries, no second POST was refused (503) while the first was in flight")
	}
	if got := post(t, endpoint, strings.NewReader(initialize), int64(len(initialize)), auth); got != http.StatusOK {
		t.Errorf("a POST after the first is done: status %d, want 200", got)
	}
}

// The HTTP transport never runs without a token.
func TestHTTPNeedsAToken(t *testing.T) {
	e := newEnv(t, 10)
	if _, err := e.server.HTTPHandler(mcpserver.HTTPOptions{}); !errors.Is(err, mcpserver.ErrNoToken) {
		t.Errorf("HTTPHandler without a token: %v, want ErrNoToken", err)
	}
	a, b := mcpserver.NewToken(), mcpserver.NewToken()
	if a == b || len(a) < 40 || !bytes.Equal([]byte(strings.ToUpper(a)), []byte(a)) {
		t.Errorf("NewToken gave %q and %q: want distinct, long, base32", a, b)
	}
}

// MaxBodyBytesFor: the base64 of the upload cap, plus the margin.
func TestMaxBodyBytesFor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		upload int64
		want   int64
	}{
		{"the executor's default", executor.DefaultMaxUploadBytes, int64(base64.StdEncoding.EncodedLen(executor.DefaultMaxUploadBytes)) + mcpserver.BodyMargin},
		{"zero is the default", 0, 15_029_592},
		{"below zero is the default", -1, 15_029_592},
		{"one byte", 1, 4 + mcpserver.BodyMargin},
		{"three bytes", 3, 4 + mcpserver.BodyMargin},
		{"four bytes", 4, 8 + mcpserver.BodyMargin},
		{"2 MiB", 2 << 20, int64(base64.StdEncoding.EncodedLen(2<<20)) + mcpserver.BodyMargin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mcpserver.MaxBodyBytesFor(tc.upload); got != tc.want {
				t.Errorf("MaxBodyBytesFor(%d) = %d, want %d", tc.upload, got, tc.want)
			}
		})
	}
	if got := mcpserver.MaxBodyBytesFor(math.MaxInt64); got <= 0 {
		t.Errorf("MaxBodyBytesFor(MaxInt64) = %d: it overflowed", got)
	}
}

// ListenAndServeHTTP closes a kept-alive connection that stays idle: a
// client that sent one request (here without the token) cannot hold the
// connection open for ever.
func TestListenAndServeHTTPClosesIdleConnections(t *testing.T) {
	defer mcpserver.SetIdleTimeout(300 * time.Millisecond)()
	e := newEnv(t, 10)
	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- e.server.ListenAndServeHTTP(ctx, "127.0.0.1:0", mcpserver.HTTPOptions{Token: mcpserver.NewToken()}, func(u string) { ready <- u })
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServeHTTP: %v", err)
		}
	}()
	var endpoint string
	select {
	case endpoint = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", u.Host); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Close {
		t.Fatalf("status %d (close %v), want a kept-alive 401", resp.StatusCode, resp.Close)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("after %v idle: read %d bytes, %v; want the server to close the connection (EOF)", time.Since(start).Round(time.Millisecond), n, err)
	}
}
