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

// BenchmarkAttempt is what the executor adds to each firing: BeginAttempt
// (idempotency check, cap count, insert) and CompleteAttempt, on each
// driver; and LookupAudit, which the gate calls once per firing. It reports
// the begin+complete cost relative to one lookup measured in the same run.
// sqlite-X is SQLite opened with ?synchronous=X (critical is the default).
func BenchmarkAttempt(b *testing.B) {
	for _, d := range []string{"sqlite-critical", "sqlite-full", "sqlite-normal", audit.DriverPostgres} {
		b.Run(d, func(b *testing.B) {
			driver, sync, _ := strings.Cut(d, "-")
			url := audittest.URL(b, driver)
			if sync != "" {
				url += "?synchronous=" + sync
			}
			s := audittest.Open(b, url)
			ctx := context.Background()
			c, err := s.RecordConfirmation(ctx, audit.Confirmation{ActionID: "bench", ConfirmedBy: "o",
				ConfirmedAt: "2026-09-02T09:30:00.000Z", Method: shared.ConfirmedOwnerPortal,
				Digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000"})
			if err != nil {
				b.Fatal(err)
			}
			q := shared.AuditQuery{Ref: c.Ref, ActionID: "bench", ConfirmedBy: "o", ConfirmedAt: c.ConfirmedAt}
			begin := audit.Begin{ActionID: "bench", AuditRef: c.Ref, Cap: shared.VolumeCap{Max: 1 << 30, Per: shared.PerMonth},
				Request: []byte(`{"name":"Ann","phone":"0400 000 000"}`), Instance: "bench"}
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
