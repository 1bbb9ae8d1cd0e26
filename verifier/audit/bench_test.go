package audit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// benchDrivers are the stores the benchmarks run on: sqlite-X is SQLite
// opened with ?synchronous=X (critical is the default).
var benchDrivers = []string{"sqlite-critical", "sqlite-full", "sqlite-normal", audit.DriverPostgres}

// benchStore opens the store d names with one confirmation, and returns it
// with the gate's query for that confirmation and an attempt to begin.
func benchStore(b *testing.B, d string) (*audit.Store, shared.AuditQuery, audit.Begin) {
	b.Helper()
	driver, sync, _ := strings.Cut(d, "-")
	url := audittest.URL(b, driver)
	if sync != "" {
		url += "?synchronous=" + sync
	}
	s := audittest.Open(b, url)
	c, err := s.RecordConfirmation(context.Background(), audit.Confirmation{ActionID: "bench", ConfirmedBy: "o",
		ConfirmedAt: "2026-09-02T09:30:00.000Z", Method: shared.ConfirmedOwnerPortal,
		Digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000"})
	if err != nil {
		b.Fatal(err)
	}
	q := shared.AuditQuery{Ref: c.Ref, ActionID: "bench", ConfirmedBy: "o", ConfirmedAt: c.ConfirmedAt}
	begin := audit.Begin{ActionID: "bench", AuditRef: c.Ref, Cap: shared.VolumeCap{Max: 1 << 30, Per: shared.PerMonth},
		Request: []byte(`{"name":"Ann","phone":"0400 000 000"}`), Instance: "bench"}
	return s, q, begin
}

// BenchmarkAttempt is what the executor adds to each firing: BeginAttempt
// (idempotency check, cap count, insert) and CompleteAttempt, on each
// driver; and LookupAudit, which the gate calls once per firing. It reports
// the begin+complete cost relative to one lookup measured in the same run.
func BenchmarkAttempt(b *testing.B) {
	for _, d := range benchDrivers {
		b.Run(d, func(b *testing.B) {
			s, q, begin := benchStore(b, d)
			ctx := context.Background()
			b.ResetTimer()
			for b.Loop() {
				a, err := s.BeginAttempt(ctx, begin)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200, Response: []byte("ok")}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			perAttempt := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			// The lookups are timed by hand: testing.Benchmark cannot run inside
			// a benchmark.
			const lookups = 500
			start := time.Now()
			for range lookups {
				if ans, err := s.LookupAudit(ctx, q); err != nil || !ans.Found {
					b.Fatal(ans, err)
				}
			}
			perLookup := float64(time.Since(start).Nanoseconds()) / lookups
			b.ReportMetric(perAttempt/1e3, "µs/attempt")
			b.ReportMetric(perLookup/1e3, "µs/lookup")
			b.ReportMetric(perAttempt/perLookup, "attempt/lookup")
		})
	}
}

// BenchmarkFiring is the store's share of one firing, in the executor's
// order — the gate's LookupAudit, BeginAttempt, CompleteAttempt — timed
// step by step in one loop (a lookup that follows writes is not the lookup
// of BenchmarkAttempt, which follows lookups).
func BenchmarkFiring(b *testing.B) {
	for _, d := range benchDrivers {
		b.Run(d, func(b *testing.B) {
			s, q, begin := benchStore(b, d)
			ctx := context.Background()
			var lookup, beginT, complete time.Duration
			for b.Loop() {
				t0 := time.Now()
				if ans, err := s.LookupAudit(ctx, q); err != nil || !ans.Found {
					b.Fatal(ans, err)
				}
				t1 := time.Now()
				a, err := s.BeginAttempt(ctx, begin)
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200, Response: []byte("ok"),
					Notifications: []audit.Notification{{Try: 1, Error: "not sent: email notification needs a mail relay"}}}); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				lookup, beginT, complete = lookup+t1.Sub(t0), beginT+t2.Sub(t1), complete+t3.Sub(t2)
			}
			n := float64(b.N) * 1e3
			b.ReportMetric(float64(lookup.Nanoseconds())/n, "µs/lookup")
			b.ReportMetric(float64(beginT.Nanoseconds())/n, "µs/begin")
			b.ReportMetric(float64(complete.Nanoseconds())/n, "µs/complete")
		})
	}
}
