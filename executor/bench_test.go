package executor_test

import (
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// BenchmarkExecuteVsBarePost fires electrician01's callback form through
// the executor (gate, input checks, audit record before and after, cap) and
// posts the same form with bare net/http to the same loopback server,
// interleaved in one run, and reports both rates, their ratio (goal:
// ratio ≤ 1.5 on SQLite) and the executor's own cost per call (its mean
// time per call less the bare post's, in microseconds), once per SQLite
// durability setting: critical (the default: an fsync for the record made
// before the network call), full (an fsync per commit) and normal
// (sqlite:PATH?synchronous=normal: safe through a killed process, not
// through a power loss).
func BenchmarkExecuteVsBarePost(b *testing.B) {
	for _, sync := range []audit.Durability{audit.DurabilityCritical, audit.DurabilityFull, audit.DurabilityNormal} {
		b.Run("sqlite-"+string(sync), func(b *testing.B) {
			benchExecute(b, "sqlite:"+filepath.Join(b.TempDir(), "audit.db")+"?synchronous="+string(sync))
		})
	}
}

func benchExecute(b *testing.B, storeURL string) {
	srv := fixturestest.Serve(b, "electrician01")
	origin := fixturestest.URL(b, srv, "electrician01")
	graph, err := fixtures.MappedGraph("electrician01", origin)
	if err != nil {
		b.Fatal(err)
	}
	st, err := audit.Open(b.Context(), storeURL)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	ex, err := executor.New(executor.Options{Store: st, HTTPClient: client})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	action := executortest.ConfirmAction(b, st, graph, callback, executortest.Limits(1<<30, shared.PerDay, "owner@example.test"))
	input := goodCallback()
	form := goodCallbackSent()
	endpoint := origin + "/callback-request"

	var bare, exec time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		resp, err := client.PostForm(endpoint, form)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		t1 := time.Now()
		res, err := ex.Execute(b.Context(), executor.Call{Action: action, Input: input})
		if err != nil || res.Status != 200 {
			b.Fatalf("Execute: %v %+v", err, res)
		}
		exec += time.Since(t1)
		bare += t1.Sub(t0)
		n++
	}
	b.ReportMetric(float64(n)/exec.Seconds(), "executions/s")
	b.ReportMetric(float64(n)/bare.Seconds(), "bare-posts/s")
	b.ReportMetric(exec.Seconds()/bare.Seconds(), "ratio")
	b.ReportMetric(float64((exec-bare).Nanoseconds())/1e3/float64(n), "own-us/call")
}
