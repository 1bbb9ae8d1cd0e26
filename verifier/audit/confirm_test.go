package audit_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// consent returns the canonical subject of a small callback action and its
// digest, as the portal computes them.
func consent(t *testing.T, actionID, summary string) ([]byte, string) {
	t.Helper()
	a := shared.NewAction(actionID, shared.KindCallback, "Call us", "https://plumber.example/")
	a.SideEffects.Effects = []shared.Effect{{Kind: shared.EffectCreatesCallbackRequest}}
	a.SideEffects.Summary = summary
	notify := "owner@plumber.example"
	sub := shared.ConsentSubjectOf(&a, shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: &notify})
	b, err := shared.CanonicalConsent(sub)
	if err != nil {
		t.Fatal(err)
	}
	d, err := shared.ConsentDigest(sub)
	if err != nil {
		t.Fatal(err)
	}
	return b, d
}

func confirmation(t *testing.T, actionID string) audit.Confirmation {
	t.Helper()
	sub, digest := consent(t, actionID, "Asks the office to phone you back.")
	return audit.Confirmation{
		GraphID: "ag_plumber01", ActionID: actionID, ConfirmedBy: "Sam Reid (owner)",
		ConfirmedAt: "2026-09-02T09:30:00.000Z", Method: shared.ConfirmedOwnerPortal,
		Digest: digest, Subject: sub,
	}
}

func query(c audit.Confirmation) shared.AuditQuery {
	return shared.AuditQuery{Ref: c.Ref, ActionID: c.ActionID, ConfirmedBy: c.ConfirmedBy, ConfirmedAt: c.ConfirmedAt, Digest: c.Digest}
}

func TestRecordConfirmationRoundTrip(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		want := confirmation(t, "plumber01:callback:form")
		got, err := s.RecordConfirmation(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Ref) != len("aud_")+32 || got.Ref[:4] != "aud_" {
			t.Errorf("Ref = %q, want aud_ and 32 hex digits", got.Ref)
		}
		want.Ref = got.Ref
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("returned record (-want +got):\n%s", diff)
		}
		read, err := s.Confirmation(ctx, got.Ref)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, read); diff != "" {
			t.Errorf("stored record (-want +got):\n%s", diff)
		}
		// A second record under the same Ref is refused and changes nothing.
		other := confirmation(t, "plumber01:callback:other")
		other.Ref = got.Ref
		if _, err := s.RecordConfirmation(ctx, other); !errors.Is(err, audit.ErrDuplicate) {
			t.Errorf("same Ref again: err = %v, want ErrDuplicate", err)
		}
		again, err := s.Confirmation(ctx, got.Ref)
		if err != nil || again.ActionID != want.ActionID {
			t.Errorf("after the refused duplicate: %+v, %v; want the first record", again, err)
		}
		if _, err := s.Confirmation(ctx, "aud_missing"); !errors.Is(err, audit.ErrNotFound) {
			t.Errorf("unknown ref: err = %v, want ErrNotFound", err)
		}
	})
}

func TestRecordConfirmationBadInput(t *testing.T) {
	_, digest := consent(t, "a", "x")
	tests := []struct {
		name string
		mod  func(c *audit.Confirmation)
	}{
		{"empty action id", func(c *audit.Confirmation) { c.ActionID = "" }},
		{"blank confirmer", func(c *audit.Confirmation) { c.ConfirmedBy = "  " }},
		{"bad timestamp", func(c *audit.Confirmation) { c.ConfirmedAt = "yesterday" }},
		{"comma timestamp", func(c *audit.Confirmation) { c.ConfirmedAt = "2026-09-02T09:30:00,000Z" }},
		{"unknown method", func(c *audit.Confirmation) { c.Method = shared.ConfirmedUnknown }},
		{"invalid method", func(c *audit.Confirmation) { c.Method = "telepathy" }},
		{"empty digest", func(c *audit.Confirmation) { c.Digest = "" }},
		{"digest without prefix", func(c *audit.Confirmation) { c.Digest = digest[len("sha256:"):] }},
		{"upper-case digest", func(c *audit.Confirmation) { c.Digest = "sha256:" + "AB" + digest[9:] }},
		{"digest of another subject", func(c *audit.Confirmation) { c.Digest = digest }},
		{"NUL in action id", func(c *audit.Confirmation) { c.ActionID = "a\x00b" }},
		{"not UTF-8", func(c *audit.Confirmation) { c.ConfirmedBy = "\xff" }},
		{"huge subject", func(c *audit.Confirmation) { c.Subject = make([]byte, audit.MaxSubject+1) }},
	}
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c := confirmation(t, "plumber01:callback:form")
				tt.mod(&c)
				got, err := s.RecordConfirmation(context.Background(), c)
				if !errors.Is(err, audit.ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
				var se *audit.StoreError
				if !errors.As(err, &se) || se.Op != "record-confirmation" || se.Driver != s.Driver() {
					t.Errorf("err = %#v, want a *StoreError naming the op and driver %s", err, s.Driver())
				}
				if got.Ref != "" {
					t.Errorf("a refused record got Ref %q", got.Ref)
				}
			})
		}
		h, err := s.History(context.Background(), "plumber01:callback:form")
		if err != nil || len(h) != 0 {
			t.Errorf("History after refused records = %v, %v; want nothing written", h, err)
		}
	})
}

// TestLookupAuditContract walks docs/contract.md "The audit lookup": found
// only on an exact match of ref, action id, confirmer and time; the stored
// digest and subject, never the query's; revoked; an error, never a guess.
func TestLookupAuditContract(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		c, err := s.RecordConfirmation(ctx, confirmation(t, "plumber01:callback:form"))
		if err != nil {
			t.Fatal(err)
		}
		found := shared.AuditAnswer{Found: true, Digest: c.Digest, Subject: c.Subject}
		tests := []struct {
			name string
			mod  func(q *shared.AuditQuery)
			want shared.AuditAnswer
		}{
			{"exact match", func(q *shared.AuditQuery) {}, found},
			{"the query's digest differs: the stored one comes back", func(q *shared.AuditQuery) { q.Digest = "sha256:00" }, found},
			{"empty query digest", func(q *shared.AuditQuery) { q.Digest = "" }, found},
			{"unknown ref", func(q *shared.AuditQuery) { q.Ref = "aud_00000000000000000000000000000000" }, shared.AuditAnswer{}},
			{"empty ref", func(q *shared.AuditQuery) { q.Ref = "" }, shared.AuditAnswer{}},
			{"ref of another case", func(q *shared.AuditQuery) { q.Ref = "AUD_" + q.Ref[4:] }, shared.AuditAnswer{}},
			// No record has such a reference (the store refuses to write
			// one): both drivers say so, neither fails.
			{"ref holding a NUL", func(q *shared.AuditQuery) { q.Ref += "\x00" }, shared.AuditAnswer{}},
			{"ref that is not UTF-8", func(q *shared.AuditQuery) { q.Ref += "\xff" }, shared.AuditAnswer{}},
			{"other action id", func(q *shared.AuditQuery) { q.ActionID = "plumber01:booking:form" }, shared.AuditAnswer{}},
			{"action id with a trailing space", func(q *shared.AuditQuery) { q.ActionID += " " }, shared.AuditAnswer{}},
			{"other confirmer", func(q *shared.AuditQuery) { q.ConfirmedBy = "Mallory" }, shared.AuditAnswer{}},
			{"confirmer in another case", func(q *shared.AuditQuery) { q.ConfirmedBy = "sam reid (owner)" }, shared.AuditAnswer{}},
			{"other time", func(q *shared.AuditQuery) { q.ConfirmedAt = "2026-09-02T09:31:00.000Z" }, shared.AuditAnswer{}},
			{"same instant written differently", func(q *shared.AuditQuery) { q.ConfirmedAt = "2026-09-02T09:30:00Z" }, shared.AuditAnswer{}},
			{"same instant in another zone", func(q *shared.AuditQuery) { q.ConfirmedAt = "2026-09-02T19:30:00.000+10:00" }, shared.AuditAnswer{}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				q := query(c)
				tt.mod(&q)
				got, err := s.LookupAudit(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("LookupAudit (-want +got):\n%s", diff)
				}
			})
		}

		t.Run("revoked", func(t *testing.T) {
			at := time.Date(2026, 9, 3, 8, 0, 0, 0, time.UTC)
			if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: c.ActionID, Ref: c.Ref, By: "Sam Reid (owner)", At: at, Reason: "the form changed"}); err != nil {
				t.Fatal(err)
			}
			got, err := s.LookupAudit(ctx, query(c))
			if err != nil {
				t.Fatal(err)
			}
			want := found
			want.Revoked = true
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("LookupAudit after revocation (-want +got):\n%s", diff)
			}
			// A mismatching query still learns nothing, revoked or not.
			q := query(c)
			q.ConfirmedBy = "Mallory"
			if got, err := s.LookupAudit(ctx, q); err != nil || got.Found || got.Revoked || got.Digest != "" {
				t.Errorf("mismatching query after revocation = %+v, %v; want the zero answer", got, err)
			}
		})

		t.Run("a record kept without its subject", func(t *testing.T) {
			bare := confirmation(t, "plumber01:quote:form")
			bare.Subject = nil
			bare, err := s.RecordConfirmation(ctx, bare)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.LookupAudit(ctx, query(bare))
			want := shared.AuditAnswer{Found: true, Digest: bare.Digest}
			if err != nil || !cmp.Equal(want, got) {
				t.Errorf("LookupAudit = %+v, %v; want %+v (no subject, the stored digest)", got, err, want)
			}
		})

		t.Run("context done", func(t *testing.T) {
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			got, err := s.LookupAudit(cctx, query(c))
			if !errors.Is(err, audit.ErrUnavailable) || !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want ErrUnavailable wrapping context.Canceled", err)
			}
			if got.Found {
				t.Errorf("a done context answered Found")
			}
		})
	})
}

func TestLookupAuditClosedStore(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s, err := audit.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.RecordConfirmation(ctx, confirmation(t, "a"))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := s.LookupAudit(ctx, query(c))
		if !errors.Is(err, audit.ErrUnavailable) {
			t.Errorf("closed store: err = %v, want ErrUnavailable", err)
		}
		if got.Found || got.Digest != "" {
			t.Errorf("closed store answered %+v", got)
		}
		if _, err := s.RecordConfirmation(ctx, confirmation(t, "b")); !errors.Is(err, audit.ErrUnavailable) {
			t.Errorf("closed store write: err = %v, want ErrUnavailable", err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	})
}

func TestRevocationAndHistory(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		first, err := s.RecordConfirmation(ctx, confirmation(t, id))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: id, Ref: "aud_unknown", By: "Sam", At: time.Now(), Reason: "x"}); !errors.Is(err, audit.ErrNotFound) {
			t.Errorf("revoking an unknown ref: err = %v, want ErrNotFound", err)
		}
		for _, tt := range []struct {
			name string
			r    audit.Revocation
			want error
		}{
			{"without a name", audit.Revocation{ActionID: id, Ref: first.Ref, At: time.Now(), Reason: "x"}, audit.ErrInvalid},
			{"without the action", audit.Revocation{Ref: first.Ref, By: "Sam", At: time.Now(), Reason: "x"}, audit.ErrInvalid},
			// A graph file that names this record under another action
			// cannot get it revoked through that action.
			{"as another action's", audit.Revocation{ActionID: "plumber01:booking:form", Ref: first.Ref, By: "Sam", At: time.Now(), Reason: "x"}, audit.ErrNotFound},
		} {
			if err := s.RecordRevocation(ctx, tt.r); !errors.Is(err, tt.want) {
				t.Errorf("revoking %s: err = %v, want %v", tt.name, err, tt.want)
			}
		}
		if ans, err := s.LookupAudit(ctx, shared.AuditQuery{Ref: first.Ref, ActionID: id, ConfirmedBy: first.ConfirmedBy, ConfirmedAt: first.ConfirmedAt}); err != nil || !ans.Found || ans.Revoked {
			t.Fatalf("after the refused revocations: %+v %v, want found and not revoked", ans, err)
		}
		revokedAt := time.Date(2026, 9, 3, 8, 0, 0, 123456789, time.UTC)
		if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: id, Ref: first.Ref, By: "Sam Reid (owner)", At: revokedAt, Reason: "the summary changed"}); err != nil {
			t.Fatal(err)
		}
		second := confirmation(t, id)
		second.ConfirmedAt = "2026-09-04T10:00:00.000Z"
		second, err = s.RecordConfirmation(ctx, second)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordConfirmation(ctx, confirmation(t, "plumber01:booking:form")); err != nil {
			t.Fatal(err)
		}
		got, err := s.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := []audit.Event{
			{Kind: audit.EventConfirmation, Ref: first.Ref, ActionID: id, By: "Sam Reid (owner)", At: time.Date(2026, 9, 2, 9, 30, 0, 0, time.UTC), Confirmation: &first},
			{Kind: audit.EventRevocation, Ref: first.Ref, ActionID: id, By: "Sam Reid (owner)", At: revokedAt, Reason: "the summary changed"},
			{Kind: audit.EventConfirmation, Ref: second.Ref, ActionID: id, By: "Sam Reid (owner)", At: time.Date(2026, 9, 4, 10, 0, 0, 0, time.UTC), Confirmation: &second},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("History (-want +got):\n%s", diff)
		}
		// The second confirmation is not revoked by the first's revocation.
		if a, err := s.LookupAudit(ctx, query(second)); err != nil || !a.Found || a.Revoked {
			t.Errorf("the new confirmation = %+v, %v; want found, not revoked", a, err)
		}
	})
}

// TestGateWithStore runs the consent gate itself with the store as its
// lookup: a confirmation the store holds grants, a revocation refuses, a
// forged digest refuses, and a closed store refuses as unresolved.
func TestGateWithStore(t *testing.T) {
	raw, err := os.ReadFile("testdata/callback-verified.json")
	if err != nil {
		t.Fatal(err)
	}
	act, issues := shared.ReadAction(raw)
	if len(issues) != 0 {
		t.Fatalf("testdata action does not read: %v", issues)
	}
	conf := act.Verification.(shared.Verified).Confirmation
	sub := shared.ConsentSubjectOf(act, conf.Limits)
	canon, err := shared.CanonicalConsent(sub)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := shared.ConsentDigest(sub)
	if err != nil {
		t.Fatal(err)
	}
	record := audit.Confirmation{Ref: *conf.AuditRecord, GraphID: "ag_plumber01", ActionID: act.ID,
		ConfirmedBy: conf.ConfirmedBy, ConfirmedAt: conf.ConfirmedAt, Method: conf.Method, Digest: digest, Subject: canon}

	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s, err := audit.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		refusal := func(lookup shared.AuditLookup) *shared.UnverifiedActionError {
			t.Helper()
			err := shared.AssertLiveExecutionAllowedContext(ctx, raw, lookup)
			if err == nil {
				return nil
			}
			var u *shared.UnverifiedActionError
			if !errors.As(err, &u) {
				t.Fatalf("gate error %v is not an *UnverifiedActionError", err)
			}
			return u
		}
		if u := refusal(s); u == nil || !u.Has(shared.RefuseConfirmationAuditUnresolved) {
			t.Errorf("before any record: %v, want confirmation.audit-unresolved", u)
		}
		t.Run("forged digest", func(t *testing.T) {
			// A record under the action's ref whose digest is of something
			// else: the gate refuses and names what differs.
			fs := audittest.Open(t, audittest.URL(t, audittest.Driver(url)))
			other, otherDigest := consent(t, act.ID, "Something else entirely.")
			forged := record
			forged.Digest, forged.Subject = otherDigest, other
			if _, err := fs.RecordConfirmation(ctx, forged); err != nil {
				t.Fatal(err)
			}
			if u := refusal(fs); u == nil || !u.Has(shared.RefuseConfirmationDigestMismatch) {
				t.Errorf("forged digest: %v, want confirmation.digest-mismatch", u)
			}
		})
		if _, err := s.RecordConfirmation(ctx, record); err != nil {
			t.Fatal(err)
		}
		if u := refusal(s); u != nil {
			t.Fatalf("the gate refused a confirmation the store holds: %v", u)
		}
		if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: record.ActionID, Ref: record.Ref, By: conf.ConfirmedBy, At: time.Now(), Reason: "owner changed their mind"}); err != nil {
			t.Fatal(err)
		}
		if u := refusal(s); u == nil || !u.Has(shared.RefuseConfirmationRevoked) {
			t.Errorf("after revocation: %v, want confirmation.revoked", u)
		}
		s.Close()
		u := refusal(s)
		if u == nil || !u.Has(shared.RefuseConfirmationAuditUnresolved) || !errors.Is(u, audit.ErrUnavailable) {
			t.Errorf("closed store: %v, want confirmation.audit-unresolved wrapping ErrUnavailable", u)
		}
	})
}

// A key no record can hold (the store refuses to write a NUL or bytes that
// are not UTF-8) finds nothing on either driver: PostgreSQL's text type
// refuses such a parameter, and that must not become "store unavailable".
func TestReadsByKeysNoRecordHolds(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		for _, key := range []string{"aud_\x00", "aud_\xff", "plumber01:callback:form\x00"} {
			t.Run(fmt.Sprintf("%q", key), func(t *testing.T) {
				if _, err := s.Confirmation(ctx, key); !errors.Is(err, audit.ErrNotFound) {
					t.Errorf("Confirmation: err = %v, want ErrNotFound", err)
				}
				if _, err := s.Attempt(ctx, key); !errors.Is(err, audit.ErrNotFound) {
					t.Errorf("Attempt: err = %v, want ErrNotFound", err)
				}
				if got, err := s.Attempts(ctx, key); err != nil || len(got) != 0 {
					t.Errorf("Attempts = %v, %v; want none", got, err)
				}
				if got, err := s.Refusals(ctx, key); err != nil || len(got) != 0 {
					t.Errorf("Refusals = %v, %v; want none", got, err)
				}
				if got, err := s.Notifications(ctx, key); err != nil || len(got) != 0 {
					t.Errorf("Notifications = %v, %v; want none", got, err)
				}
			})
		}
	})
}
