package audit_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// TestRecoverAbandonedLiveness: recovery marks another instance's pending
// attempt only when that instance holds no lease at the time recovery
// judges (At), and one that never recorded a heartbeat counts as dead; a
// recovery with LapsedSince looks only at the instances whose last lease
// ran out in (LapsedSince, At].
func TestRecoverAbandonedLiveness(t *testing.T) {
	// One UTC day holds every time below, so no cap window boundary
	// matters (the cap is generous anyway).
	at := time.Date(2026, 9, 2, 12, 0, 0, 0, time.UTC)
	since := at.Add(-10 * time.Minute)
	type beat struct {
		ago, lease time.Duration // the heartbeat at at-ago, lasting lease
	}
	cases := []struct {
		name       string
		beats      []beat
		wantFull   bool // marked by RecoverOptions{At: at}
		wantLapsed bool // marked by RecoverOptions{At: at, LapsedSince: since}
	}{
		{"never beat (an older binary)", nil, true, false},
		{"live: its lease lasts past At", []beat{{time.Minute, 3 * time.Minute}}, false, false},
		{"stale: its lease ran out within the window", []beat{{5 * time.Minute, 3 * time.Minute}}, true, true},
		{"stale: its lease ran out before the window", []beat{{time.Hour, 3 * time.Minute}}, true, false},
		{"its lease ends at At exactly", []beat{{3 * time.Minute, 3 * time.Minute}}, true, true},
		{"an old lease ran out, a newer one lasts", []beat{{5 * time.Minute, 3 * time.Minute}, {time.Minute, 3 * time.Minute}}, false, false},
		{"a long lease given earlier still lasts", []beat{{20 * time.Minute, time.Hour}, {5 * time.Minute, 3 * time.Minute}}, false, false},
	}
	for _, mode := range []struct {
		name string
		opts audit.RecoverOptions
	}{
		{"at start", audit.RecoverOptions{Instance: "me", At: at}},
		{"lapsed since", audit.RecoverOptions{Instance: "me", At: at, LapsedSince: since}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
				ctx := context.Background()
				const id = "plumber01:callback:form"
				want, attempt := map[string]bool{}, map[string]string{}
				for _, c := range cases {
					instance := "exec-" + strings.ReplaceAll(c.name, " ", "-")
					for _, b := range c.beats {
						if err := s.Heartbeat(ctx, instance, at.Add(-b.ago), b.lease); err != nil {
							t.Fatal(err)
						}
					}
					b := begin(id, 100)
					b.Instance, b.At = instance, at.Add(-30*time.Minute)
					a, err := s.BeginAttempt(ctx, b)
					if err != nil {
						t.Fatal(err)
					}
					attempt[c.name] = a.ID
					want[c.name] = c.wantFull
					if !mode.opts.LapsedSince.IsZero() {
						want[c.name] = c.wantLapsed
					}
				}
				// My own pending attempt is no other instance's: left alone.
				mine := begin(id, 100)
				mine.Instance, mine.At = "me", at.Add(-30*time.Minute)
				a, err := s.BeginAttempt(ctx, mine)
				if err != nil {
					t.Fatal(err)
				}
				attempt["mine"], want["mine"] = a.ID, false

				n, err := s.RecoverAbandoned(ctx, mode.opts)
				if err != nil {
					t.Fatal(err)
				}
				got, marked := map[string]bool{}, 0
				for name, aid := range attempt {
					a, err := s.Attempt(ctx, aid)
					if err != nil {
						t.Fatal(err)
					}
					got[name] = a.Unknown
				}
				for _, w := range want {
					if w {
						marked++
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("marked unknown (-want +got):\n%s", diff)
				}
				if n != marked {
					t.Errorf("RecoverAbandoned = %d, want %d", n, marked)
				}
			})
		})
	}
}

func TestHeartbeatBadInput(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		tests := []struct {
			name     string
			instance string
			lease    time.Duration
		}{
			{"empty instance", "", time.Minute},
			{"blank instance", "  ", time.Minute},
			{"NUL in instance", "exec\x00", time.Minute},
			{"oversized instance", strings.Repeat("x", audit.MaxText+1), time.Minute},
			{"zero lease", "exec-1", 0},
			{"negative lease", "exec-1", -time.Second},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := s.Heartbeat(ctx, tt.instance, time.Time{}, tt.lease); !errors.Is(err, audit.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
			})
		}
		if _, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "exec\x00"}); !errors.Is(err, audit.ErrInvalid) {
			t.Errorf("RecoverAbandoned with a NUL in Instance: err = %v, want ErrInvalid", err)
		}
		// Nothing above was recorded: a refused heartbeat gives no lease.
		b := begin("a", 5)
		b.Instance = "exec-1"
		if _, err := s.BeginAttempt(ctx, b); err != nil {
			t.Fatal(err)
		}
		if n, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "me"}); err != nil || n != 1 {
			t.Errorf("RecoverAbandoned after the refused heartbeats = %d, %v; want 1", n, err)
		}
	})
}

func TestHeartbeatClosedStore(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		s, err := audit.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Heartbeat(context.Background(), "exec-1", time.Time{}, time.Minute); !errors.Is(err, audit.ErrUnavailable) {
			t.Errorf("Heartbeat on a closed store: err = %v, want ErrUnavailable", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := audittest.Open(t, url).Heartbeat(ctx, "exec-1", time.Time{}, time.Minute); !errors.Is(err, audit.ErrUnavailable) || !errors.Is(err, context.Canceled) {
			t.Errorf("Heartbeat with a cancelled context: err = %v, want ErrUnavailable and context.Canceled", err)
		}
	})
}
