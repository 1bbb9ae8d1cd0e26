package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/executor/mcpserver"
)

// envMetricsToken names the environment variable that stands in for
// fleet work's --metrics-token.
const envMetricsToken = "FRONTLATCH_METRICS_TOKEN"

// bearerToken returns the token a server of this command requires: the
// flag's, else the environment variable's, else a new one (generated true,
// so that the command prints it).
func bearerToken(flagValue, env string) (token string, generated bool) {
	if flagValue != "" {
		return flagValue, false
	}
	if v := os.Getenv(env); v != "" {
		return v, false
	}
	return mcpserver.NewToken(), true
}

// warnNotLoopback says on stderr that a server of cmd listens on addr
// beyond loopback (":9464" is every interface), and what follows (risk).
func warnNotLoopback(stderr io.Writer, cmd, addr, risk string) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "frontlatch %s: warning: listening on %s, not loopback: %s\n", cmd, addr, risk)
	}
}

// metricsServer serves metrics at GET /metrics to a client that sends
// token as "Authorization: Bearer TOKEN" (Prometheus: a scrape config's
// authorization.credentials), and nothing else, with every timeout set.
func metricsServer(metrics http.Handler, token string) *http.Server {
	want := sha256.Sum256([]byte(token))
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="frontlatch-fleet-metrics"`)
			http.Error(w, "unauthorized: send the worker's metrics token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		metrics.ServeHTTP(w, r)
	}))
	return &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
}
