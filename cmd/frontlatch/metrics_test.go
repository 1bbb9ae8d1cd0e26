package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/fleet"
)

// TestMetricsServer: fleet work's /metrics answers only a client with the
// token, only GET, and only /metrics.
func TestMetricsServer(t *testing.T) {
	const token = "s3cret-metrics-token"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := metricsServer(fleet.NewMetrics().Handler(), token)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()

	tests := []struct {
		name, method, path, auth string
		want                     int
		body                     string // a part of the body, when 200
	}{
		{"no token", "GET", "/metrics", "", http.StatusUnauthorized, ""},
		{"wrong token", "GET", "/metrics", "Bearer not-the-token", http.StatusUnauthorized, ""},
		{"token as basic", "GET", "/metrics", "Basic " + token, http.StatusUnauthorized, ""},
		{"token as a prefix", "GET", "/metrics", "Bearer " + token[:5], http.StatusUnauthorized, ""},
		{"the token", "GET", "/metrics", "Bearer " + token, http.StatusOK, "frontlatch_fleet_actions_found_total"},
		{"the token, scheme in lower case", "GET", "/metrics", "bearer " + token, http.StatusOK, "frontlatch_fleet_actions_found_total"},
		{"POST", "POST", "/metrics", "Bearer " + token, http.StatusMethodNotAllowed, ""},
		{"another path", "GET", "/debug/pprof/", "Bearer " + token, http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, base+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if tt.want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate %q, want a Bearer challenge", resp.Header.Get("WWW-Authenticate"))
			}
			if tt.want != http.StatusOK && strings.Contains(string(body), "frontlatch_fleet") {
				t.Errorf("a refused request got the metrics: %s", body)
			}
			if !strings.Contains(string(body), tt.body) {
				t.Errorf("body lacks %q:\n%s", tt.body, body)
			}
		})
	}
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.MaxHeaderBytes == 0 {
		t.Errorf("a limit is unset: %+v", srv)
	}
}

// TestBearerToken: the flag wins over the environment, which wins over a
// new token; a new one is reported as generated and is new each time.
func TestBearerToken(t *testing.T) {
	t.Setenv(envMetricsToken, "")
	a, genA := bearerToken("", envMetricsToken)
	b, genB := bearerToken("", envMetricsToken)
	if !genA || !genB || a == "" || a == b || len(a) < 32 {
		t.Errorf("new tokens %q (%t), %q (%t): want two different generated ones of at least 32 characters", a, genA, b, genB)
	}
	t.Setenv(envMetricsToken, "from-env")
	if got, gen := bearerToken("", envMetricsToken); got != "from-env" || gen {
		t.Errorf("with the variable set: %q (%t), want from-env (false)", got, gen)
	}
	if got, gen := bearerToken("from-flag", envMetricsToken); got != "from-flag" || gen {
		t.Errorf("with the flag set: %q (%t), want from-flag (false)", got, gen)
	}
}
