package audit_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// Times are stored as Unix nanoseconds, which hold 1677-09-21 to
// 2262-04-11. A time outside them is ErrInvalid and writes nothing: it
// would be stored wrapped around, so a lease given "for ever" ran out in
// 1733 and the live instance's attempts could be marked abandoned, and an
// attempt dated 2300 was counted in a window of 1715.
func TestTimesTheStoreCannotKeepAreInvalid(t *testing.T) {
	late := time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	early := time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		a, err := s.BeginAttempt(ctx, begin("plumber01:quote:form", 10))
		if err != nil {
			t.Fatal(err)
		}
		const id = "plumber01:callback:form"
		tests := []struct {
			name string
			call func() error
		}{
			{"attempt begun in 2300", func() error {
				b := begin(id, 10)
				b.At = late
				_, err := s.BeginAttempt(ctx, b)
				return err
			}},
			{"attempt begun in 1600", func() error {
				b := begin(id, 10)
				b.At = early
				_, err := s.BeginAttempt(ctx, b)
				return err
			}},
			{"cap asked about 2300", func() error { _, err := s.CapReached(ctx, id, dayCap(1), late); return err }},
			{"cap refusal in 2300", func() error { return s.RecordCapRefusal(ctx, id, "", "cap.reached", late) }},
			{"refusal in 2300", func() error { return s.RecordRefusal(ctx, id, "", []string{"door.none"}, late) }},
			{"completion in 2300", func() error {
				return s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200, At: late})
			}},
			{"notification of a completion in 2300", func() error {
				return s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200,
					Notifications: []audit.Notification{{Try: 1, At: late}}})
			}},
			{"notification in 2300", func() error { return s.RecordNotification(ctx, a.ID, 1, 200, "", late) }},
			{"revocation in 2300", func() error {
				return s.RecordRevocation(ctx, audit.Revocation{ActionID: id, Ref: "aud_x", By: "Owner", At: late})
			}},
			{"heartbeat in 2300", func() error { return s.Heartbeat(ctx, "exec-2", late, time.Minute) }},
			{"lease for ever", func() error { return s.Heartbeat(ctx, "exec-2", time.Time{}, math.MaxInt64) }},
			{"recovery judged in 2300", func() error {
				_, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "exec-3", At: late})
				return err
			}},
			{"recovery of own attempts before 2300", func() error {
				_, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "exec-3", Before: late})
				return err
			}},
			{"recovery of lapses since 1600", func() error {
				_, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "exec-3", LapsedSince: early})
				return err
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := tt.call(); !errors.Is(err, audit.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
			})
		}
		if got, err := s.Attempts(ctx, id); err != nil || len(got) != 0 {
			t.Errorf("Attempts = %v, %v; want none written", got, err)
		}
		if got, err := s.Refusals(ctx, id); err != nil || len(got) != 0 {
			t.Errorf("Refusals = %v, %v; want none written", got, err)
		}
		if got, err := s.Attempt(ctx, a.ID); err != nil || got.Completed != nil || got.Unknown {
			t.Errorf("Attempt = %+v, %v; want it begun, not completed, not marked", got, err)
		}
	})
}
