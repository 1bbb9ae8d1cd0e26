package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

var dayCap = func(max int) shared.VolumeCap { return shared.VolumeCap{Max: max, Per: shared.PerDay} }

func begin(actionID string, max int) audit.Begin {
	return audit.Begin{ActionID: actionID, AuditRef: "aud_x", Cap: dayCap(max), Request: []byte(`{"name":"Ann"}`), Instance: "exec-1"}
}

// beginMany runs n BeginAttempt calls at once and counts the outcomes.
func beginMany(ctx context.Context, s *audit.Store, b audit.Begin, n int) (begun, capped int, other []error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.BeginAttempt(ctx, b)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				begun++
			case errors.Is(err, audit.ErrCapReached):
				capped++
			default:
				other = append(other, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	return begun, capped, other
}

func TestCapUnderConcurrency(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		begun, capped, other := beginMany(ctx, s, begin(id, 10), 100)
		if begun != 10 || capped != 90 || len(other) != 0 {
			t.Fatalf("100 concurrent BeginAttempt vs cap 10: begun %d, capped %d, %d other errors %v; want 10, 90, none", begun, capped, len(other), firstErrs(other))
		}
		atts, err := s.Attempts(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(atts) != 10 {
			t.Errorf("stored attempts = %d, want 10", len(atts))
		}
		refs, err := s.Refusals(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(refs) != 90 {
			t.Errorf("stored refusals = %d, want 90", len(refs))
		}
		for _, r := range refs {
			if r.Kind != audit.RefusalCap || len(r.Reasons) != 1 || !strings.HasPrefix(r.Reasons[0], "cap.reached: 10 of 10 per day") {
				t.Fatalf("refusal %+v, want a cap-reached refusal counting 10 of 10", r)
			}
		}
		// The cap is per action: another action still has its own.
		if _, err := s.BeginAttempt(ctx, begin("plumber01:booking:form", 10)); err != nil {
			t.Errorf("another action: %v", err)
		}
	})
}

// TestCapAcrossProcesses runs 10 processes of 10 goroutines each against
// one database and a cap of 10: exactly 10 attempts are begun.
func TestCapAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 10 processes")
	}
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		// Open once here so the children do not all migrate at once (they
		// may: that is tested by TestOpenConcurrently).
		s := audittest.Open(t, url)
		const procs, each = 10, 10
		startAt := time.Now().Add(2 * time.Second).UnixNano()
		type result struct {
			out string
			err error
		}
		results := make(chan result, procs)
		for range procs {
			go func() {
				cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(cctx, os.Args[0], "-test.run=^TestCapChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), "AUDIT_CHILD_URL="+url, "AUDIT_CHILD_N="+strconv.Itoa(each),
					"AUDIT_CHILD_START="+strconv.FormatInt(startAt, 10))
				out, err := cmd.CombinedOutput()
				results <- result{string(out), err}
			}()
		}
		begun, capped := 0, 0
		for range procs {
			r := <-results
			if r.err != nil {
				t.Fatalf("child: %v\n%s", r.err, r.out)
			}
			var b, c int
			i := strings.Index(r.out, "RESULT ")
			if i < 0 {
				t.Fatalf("child printed no result:\n%s", r.out)
			}
			if _, err := fmt.Sscanf(r.out[i:], "RESULT begun=%d capped=%d", &b, &c); err != nil {
				t.Fatalf("child result %q: %v", r.out[i:], err)
			}
			begun, capped = begun+b, capped+c
		}
		if begun != 10 || capped != 90 {
			t.Fatalf("%d processes × %d calls vs cap 10: begun %d, capped %d; want 10, 90", procs, each, begun, capped)
		}
		atts, err := s.Attempts(ctx, "proc:action")
		if err != nil || len(atts) != 10 {
			t.Errorf("stored attempts = %d (%v), want 10", len(atts), err)
		}
	})
}

// TestCapChild is TestCapAcrossProcesses's child process; it does nothing
// when run on its own.
func TestCapChild(t *testing.T) {
	url := os.Getenv("AUDIT_CHILD_URL")
	if url == "" {
		t.Skip("run by TestCapAcrossProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("AUDIT_CHILD_N"))
	at, _ := strconv.ParseInt(os.Getenv("AUDIT_CHILD_START"), 10, 64)
	ctx := context.Background()
	s, err := audit.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	time.Sleep(time.Until(time.Unix(0, at)))
	b := begin("proc:action", 10)
	b.Instance = fmt.Sprintf("pid-%d", os.Getpid())
	begun, capped, other := beginMany(ctx, s, b, n)
	if len(other) != 0 {
		t.Fatalf("%d errors: %v", len(other), firstErrs(other))
	}
	fmt.Printf("RESULT begun=%d capped=%d\n", begun, capped)
}

func TestCapWindows(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC) // a Tuesday
		tests := []struct {
			name string
			per  shared.CapPeriod
			at   []time.Time // each attempt's time; cap 2
			want []error
		}{
			{"hour: a new hour resets", shared.PerHour, []time.Time{t0, t0.Add(30 * time.Second), t0.Add(59 * time.Second), t0.Add(61 * time.Second)},
				[]error{nil, nil, audit.ErrCapReached, nil}},
			{"day: midnight UTC resets", shared.PerDay, []time.Time{t0.Add(-12 * time.Hour), t0, t0.Add(30 * time.Second), t0.Add(time.Minute)},
				[]error{nil, nil, audit.ErrCapReached, nil}},
			{"week: Monday 00:00 UTC resets", shared.PerWeek, []time.Time{t0.Add(-24 * time.Hour), t0, t0.Add(4 * 24 * time.Hour), t0.Add(6*24*time.Hour + time.Minute)},
				[]error{nil, nil, audit.ErrCapReached, nil}},
			{"month: the 1st resets", shared.PerMonth, []time.Time{t0, t0.Add(10 * 24 * time.Hour), t0.Add(29 * 24 * time.Hour), t0.Add(31 * 24 * time.Hour)},
				[]error{nil, nil, audit.ErrCapReached, nil}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for i, at := range tt.at {
					b := begin("window:"+string(tt.per), 2)
					b.Cap.Per, b.At = tt.per, at
					_, err := s.BeginAttempt(ctx, b)
					if !errors.Is(err, tt.want[i]) || (tt.want[i] == nil && err != nil) {
						t.Errorf("attempt %d at %s: err = %v, want %v", i, at.Format(time.RFC3339), err, tt.want[i])
					}
				}
			})
		}
	})
}

func TestWindow(t *testing.T) {
	at := time.Date(2026, 12, 3, 14, 25, 7, 9, time.FixedZone("AEST", 10*3600)) // 04:25 UTC, Thursday
	tests := []struct {
		per        shared.CapPeriod
		start, end time.Time
		ok         bool
	}{
		{shared.PerHour, time.Date(2026, 12, 3, 4, 0, 0, 0, time.UTC), time.Date(2026, 12, 3, 5, 0, 0, 0, time.UTC), true},
		{shared.PerDay, time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC), true},
		{shared.PerWeek, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), true},
		{shared.PerMonth, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{shared.PerUnknown, time.Time{}, time.Time{}, false},
		{"fortnight", time.Time{}, time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.per), func(t *testing.T) {
			start, end, ok := audit.Window(tt.per, at)
			if !start.Equal(tt.start) || !end.Equal(tt.end) || ok != tt.ok {
				t.Errorf("Window(%s) = %s, %s, %v; want %s, %s, %v", tt.per, start, end, ok, tt.start, tt.end, tt.ok)
			}
		})
	}
	// A Sunday belongs to the week that began the Monday before.
	sun := time.Date(2026, 12, 6, 23, 0, 0, 0, time.UTC)
	if start, _, _ := audit.Window(shared.PerWeek, sun); !start.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Sunday's week starts %s, want Monday 2026-11-30", start)
	}
}

func TestIdempotency(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		b := begin(id, 10)
		b.IdempotencyKey = "call-1"
		first, err := s.BeginAttempt(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CompleteAttempt(ctx, first.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200, Response: []byte("thanks")}); err != nil {
			t.Fatal(err)
		}
		want, err := s.Attempt(ctx, first.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Concurrent repeats of the key: all return the first attempt.
		b.Request = []byte(`{"name":"Someone else"}`)
		var wg sync.WaitGroup
		errs := make([]error, 20)
		got := make([]audit.Attempt, 20)
		for i := range 20 {
			wg.Add(1)
			go func() { defer wg.Done(); got[i], errs[i] = s.BeginAttempt(ctx, b) }()
		}
		wg.Wait()
		for i := range 20 {
			if !errors.Is(errs[i], audit.ErrDuplicate) {
				t.Fatalf("repeat %d: err = %v, want ErrDuplicate", i, errs[i])
			}
			if diff := cmp.Diff(want, got[i]); diff != "" {
				t.Fatalf("repeat %d returned (-want +got):\n%s", i, diff)
			}
		}
		atts, err := s.Attempts(ctx, id)
		if err != nil || len(atts) != 1 {
			t.Errorf("attempts after repeats = %d (%v), want 1", len(atts), err)
		}
		if refs, _ := s.Refusals(ctx, id); len(refs) != 0 {
			t.Errorf("repeats wrote refusals: %+v", refs)
		}
		// The same key on another action is another attempt; no key at all
		// never deduplicates.
		other := b
		other.ActionID = "plumber01:booking:form"
		if _, err := s.BeginAttempt(ctx, other); err != nil {
			t.Errorf("same key, other action: %v", err)
		}
		nokey := begin(id, 10)
		for range 2 {
			if _, err := s.BeginAttempt(ctx, nokey); err != nil {
				t.Errorf("no key: %v", err)
			}
		}
		// A repeated key is answered even when the cap is used up.
		full := b
		full.Cap = dayCap(1)
		if a, err := s.BeginAttempt(ctx, full); !errors.Is(err, audit.ErrDuplicate) || a.ID != first.ID {
			t.Errorf("repeat with the cap used up: %s, %v; want the first attempt and ErrDuplicate", a.ID, err)
		}
	})
}

// TestBeginAttemptRevoked: an attempt under a revoked audit record is
// refused in BeginAttempt's own transaction — recorded as a refusal, never
// begun, not counted against the cap — however recently the gate passed
// it; an attempt under a record still in force begins.
func TestBeginAttemptRevoked(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		c, err := s.RecordConfirmation(ctx, confirmation(t, id))
		if err != nil {
			t.Fatal(err)
		}
		b := begin(id, 1)
		b.AuditRef = c.Ref
		if err := s.RecordRevocation(ctx, audit.Revocation{ActionID: id, Ref: c.Ref, By: "Sam Reid (owner)", At: time.Now(), Reason: "the form changed"}); err != nil {
			t.Fatal(err)
		}
		b.IdempotencyKey = "after-revocation"
		a, err := s.BeginAttempt(ctx, b)
		if !errors.Is(err, audit.ErrRevoked) || a.ID != "" {
			t.Fatalf("BeginAttempt under a revoked record = %+v, %v; want no attempt and ErrRevoked", a, err)
		}
		if atts, err := s.Attempts(ctx, id); err != nil || len(atts) != 0 {
			t.Errorf("attempts = %+v (%v), want none", atts, err)
		}
		refs, err := s.Refusals(ctx, id)
		if err != nil || len(refs) != 1 {
			t.Fatalf("refusals = %+v (%v), want one", refs, err)
		}
		if r := refs[0]; r.Kind != audit.RefusalRefused || r.IdempotencyKey != "after-revocation" || len(r.Reasons) != 1 ||
			!strings.HasPrefix(r.Reasons[0], string(shared.RefuseConfirmationRevoked)+": ") || !strings.Contains(r.Reasons[0], c.Ref) {
			t.Errorf("refusal = %+v, want kind %s, the key, and one %s reason naming %s", r, audit.RefusalRefused, shared.RefuseConfirmationRevoked, c.Ref)
		}
		// The key was not spent and the cap of 1 not used: the same action
		// under a record in force still begins once.
		other, err := s.RecordConfirmation(ctx, confirmation(t, id))
		if err != nil {
			t.Fatal(err)
		}
		b.AuditRef = other.Ref
		if _, err := s.BeginAttempt(ctx, b); err != nil {
			t.Errorf("BeginAttempt under a record in force: %v", err)
		}
	})
}

func TestCompleteAttempt(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		a, err := s.BeginAttempt(ctx, begin("a", 5))
		if err != nil {
			t.Fatal(err)
		}
		pending, err := s.Attempt(ctx, a.ID)
		if err != nil || pending.Completed != nil || pending.Unknown {
			t.Fatalf("fresh attempt = %+v, %v; want pending", pending, err)
		}
		at := time.Date(2026, 12, 1, 10, 0, 0, 987654321, time.UTC)
		c := audit.Completion{Outcome: audit.OutcomeFailed, Status: 502, Response: []byte("bad gateway"), Error: "upstream", At: at}
		if err := s.CompleteAttempt(ctx, a.ID, c); err != nil {
			t.Fatal(err)
		}
		got, err := s.Attempt(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&c, got.Completed); diff != "" {
			t.Errorf("completion (-want +got):\n%s", diff)
		}
		if err := s.CompleteAttempt(ctx, a.ID, audit.Completion{Outcome: audit.OutcomeFired}); !errors.Is(err, audit.ErrAlreadyCompleted) {
			t.Errorf("second completion: err = %v, want ErrAlreadyCompleted", err)
		}
		if again, _ := s.Attempt(ctx, a.ID); again.Completed == nil || again.Completed.Outcome != audit.OutcomeFailed {
			t.Errorf("the second completion changed the first: %+v", again.Completed)
		}

		tests := []struct {
			name string
			id   string
			c    audit.Completion
			want error
		}{
			{"unknown attempt", "att_missing", audit.Completion{Outcome: audit.OutcomeFired}, audit.ErrNotFound},
			{"empty id", "", audit.Completion{Outcome: audit.OutcomeFired}, audit.ErrInvalid},
			{"bad outcome", a.ID, audit.Completion{Outcome: "maybe"}, audit.ErrInvalid},
			{"bad status", a.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: -1}, audit.ErrInvalid},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if err := s.CompleteAttempt(ctx, tt.id, tt.c); !errors.Is(err, tt.want) {
					t.Errorf("err = %v, want %v", err, tt.want)
				}
			})
		}

		t.Run("what was sent is kept, or said to be too large", func(t *testing.T) {
			for _, tt := range []struct {
				name      string
				sent      []byte
				wantSent  []byte
				wantError string
			}{
				{"kept", []byte(`{"fields":[{"name":"_wpnonce","value":"n-1"}]}`), []byte(`{"fields":[{"name":"_wpnonce","value":"n-1"}]}`), ""},
				{"none: the begun request is what was sent", nil, nil, ""},
				{"over MaxRequest", make([]byte, audit.MaxRequest+1), nil, fmt.Sprintf("what was sent, %d bytes, is over MaxRequest and not kept", audit.MaxRequest+1)},
			} {
				t.Run(tt.name, func(t *testing.T) {
					b, err := s.BeginAttempt(ctx, begin("a", 5))
					if err != nil {
						t.Fatal(err)
					}
					if err := s.CompleteAttempt(ctx, b.ID, audit.Completion{Outcome: audit.OutcomeFired, Status: 200, Sent: tt.sent}); err != nil {
						t.Fatal(err)
					}
					got, err := s.Attempt(ctx, b.ID)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Completed.Sent, tt.wantSent) || (tt.wantSent == nil) != (got.Completed.Sent == nil) || got.Completed.Error != tt.wantError {
						t.Errorf("sent %q, error %q; want %q, %q", got.Completed.Sent, got.Completed.Error, tt.wantSent, tt.wantError)
					}
				})
			}
		})

		t.Run("oversized response is cut, text made storable", func(t *testing.T) {
			b, err := s.BeginAttempt(ctx, begin("a", 5))
			if err != nil {
				t.Fatal(err)
			}
			big := []byte(strings.Repeat("x", audit.MaxResponse+100))
			if err := s.CompleteAttempt(ctx, b.ID, audit.Completion{Outcome: audit.OutcomeFired, Response: big, Error: "bad \xff byte\x00"}); err != nil {
				t.Fatal(err)
			}
			got, _ := s.Attempt(ctx, b.ID)
			if len(got.Completed.Response) != audit.MaxResponse || got.Completed.Error != "bad \uFFFD byte" {
				t.Errorf("response %d bytes, error %q; want %d bytes and the text cleaned", len(got.Completed.Response), got.Completed.Error, audit.MaxResponse)
			}
		})
	})
}

func TestBeginAttemptBadInput(t *testing.T) {
	tests := []struct {
		name string
		mod  func(b *audit.Begin)
	}{
		{"empty action id", func(b *audit.Begin) { b.ActionID = "" }},
		{"no cap", func(b *audit.Begin) { b.Cap = shared.VolumeCap{} }},
		{"negative cap", func(b *audit.Begin) { b.Cap.Max = -1 }},
		{"unknown period", func(b *audit.Begin) { b.Cap.Per = shared.PerUnknown }},
		{"invented period", func(b *audit.Begin) { b.Cap.Per = "fortnight" }},
		{"huge request", func(b *audit.Begin) { b.Request = make([]byte, audit.MaxRequest+1) }},
		{"NUL in key", func(b *audit.Begin) { b.IdempotencyKey = "k\x00" }},
		{"huge key", func(b *audit.Begin) { b.IdempotencyKey = strings.Repeat("k", audit.MaxText+1) }},
	}
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				b := begin("bad:input", 5)
				tt.mod(&b)
				if _, err := s.BeginAttempt(context.Background(), b); !errors.Is(err, audit.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
			})
		}
		if atts, err := s.Attempts(context.Background(), "bad:input"); err != nil || len(atts) != 0 {
			t.Errorf("bad input wrote attempts: %v, %v", atts, err)
		}
	})
}

func TestRecoverAbandoned(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		// Every attempt below falls in one UTC day, the cap's window, at any
		// time of day the test runs (an hour before "now" is yesterday just
		// after midnight).
		base := time.Now().UTC()
		if day := base.Truncate(24 * time.Hour); base.Sub(day) < 2*time.Hour {
			base = day.Add(2 * time.Hour)
		}
		at := func(instance string, offset time.Duration) audit.Attempt {
			t.Helper()
			b := begin(id, 5)
			b.Instance, b.At = instance, base.Add(offset)
			a, err := s.BeginAttempt(ctx, b)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		deadDone := at("dead", -time.Minute)
		if err := s.CompleteAttempt(ctx, deadDone.ID, audit.Completion{Outcome: audit.OutcomeFired}); err != nil {
			t.Fatal(err)
		}
		deadPending := at("dead", -time.Minute)
		mineOld := at("me", -time.Hour)
		mineNew := at("me", 0)

		n, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "me", Before: base.Add(-30 * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("RecoverAbandoned marked %d, want 2 (the dead instance's pending one and my old one)", n)
		}
		state := map[string]string{}
		atts, err := s.Attempts(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range atts {
			state[a.ID] = audittest.State(a)
		}
		want := map[string]string{deadDone.ID: "completed", deadPending.ID: "unknown", mineOld.ID: "unknown", mineNew.ID: "pending"}
		if diff := cmp.Diff(want, state); diff != "" {
			t.Errorf("attempt states (-want +got):\n%s", diff)
		}
		// Running it again marks nothing new.
		if n, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "me", Before: base.Add(-30 * time.Minute)}); err != nil || n != 0 {
			t.Errorf("second RecoverAbandoned = %d, %v; want 0", n, err)
		}
		// Unknown attempts keep counting: 4 begun, cap 5 → one more, then refused.
		fifth := begin(id, 5)
		fifth.At = base
		if _, err := s.BeginAttempt(ctx, fifth); err != nil {
			t.Errorf("5th attempt: %v", err)
		}
		if _, err := s.BeginAttempt(ctx, fifth); !errors.Is(err, audit.ErrCapReached) {
			t.Errorf("6th attempt: err = %v, want ErrCapReached (unknown outcomes count)", err)
		}
		// A late completion of an abandoned attempt is kept.
		if err := s.CompleteAttempt(ctx, deadPending.ID, audit.Completion{Outcome: audit.OutcomeFired}); err != nil {
			t.Errorf("late completion: %v", err)
		}
		if a, _ := s.Attempt(ctx, deadPending.ID); a.Unknown || a.Completed == nil {
			t.Errorf("after a late completion: %+v, want completed and not unknown", a)
		}
	})
}

// TestCrashRecovery kills (SIGKILL) a process between BeginAttempt and
// CompleteAttempt: the attempt is on disk, recovery leaves it alone while
// the process's last heartbeat lease lasts — the store cannot tell a killed
// process from a slow one — and then marks it unknown, and the cap counts
// it.
func TestCrashRecovery(t *testing.T) {
	audittest.EachURL(t, func(t *testing.T, url string) {
		ctx := context.Background()
		s := audittest.Open(t, url)
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "AUDIT_CRASH_URL="+url)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child's line "BEGUN <its lease's end, Unix ns>".
		var untilNS int64
		var got strings.Builder
		for sc := bufio.NewScanner(out); untilNS == 0; {
			if !sc.Scan() {
				t.Fatalf("child ended before beginning: %v\n%s", sc.Err(), got.String())
			}
			got.WriteString(sc.Text() + "\n")
			if v, ok := strings.CutPrefix(sc.Text(), "BEGUN "); ok {
				if untilNS, err = strconv.ParseInt(v, 10, 64); err != nil || untilNS == 0 {
					t.Fatalf("the child's lease %q: %v", v, err)
				}
			}
		}
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		_ = cmd.Wait()
		until := time.Unix(0, untilNS)

		for _, step := range []struct {
			at   time.Time
			want int
		}{
			{until.Add(-time.Nanosecond), 0}, // the child's lease still holds
			{until, 1},                       // it ran out
			{until.Add(time.Hour), 0},        // marked once
		} {
			if n, err := s.RecoverAbandoned(ctx, audit.RecoverOptions{Instance: "restarted", At: step.at}); err != nil || n != step.want {
				t.Fatalf("RecoverAbandoned at the lease's end %+v = %d, %v; want %d", step.at.Sub(until), n, err, step.want)
			}
		}
		atts, err := s.Attempts(ctx, "crash:action")
		if err != nil || len(atts) != 1 || !atts[0].Unknown || string(atts[0].Request) != `{"name":"Ann"}` {
			t.Fatalf("after the crash: %+v, %v; want one attempt of unknown outcome with its request", atts, err)
		}
		if _, err := s.BeginAttempt(ctx, begin("crash:action", 1)); !errors.Is(err, audit.ErrCapReached) {
			t.Errorf("cap 1 after the crashed attempt: err = %v, want ErrCapReached", err)
		}
	})
}

// TestCrashChild is TestCrashRecovery's child: it records a heartbeat with
// an hour's lease, begins an attempt, says so with the lease's end (Unix
// nanoseconds), and waits to be killed.
func TestCrashChild(t *testing.T) {
	url := os.Getenv("AUDIT_CRASH_URL")
	if url == "" {
		t.Skip("run by TestCrashRecovery")
	}
	ctx := context.Background()
	s, err := audit.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	b := begin("crash:action", 1)
	b.Instance = "doomed"
	at := time.Now()
	if err := s.Heartbeat(ctx, b.Instance, at, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BeginAttempt(ctx, b); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("BEGUN %d\n", at.Add(time.Hour).UnixNano())
	time.Sleep(time.Minute)
}

func TestRefusalsAndNotifications(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "plumber01:callback:form"
		at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		reasons := []string{"confirmation.revoked: the owner revoked it", "input: phone: does not match the pattern"}
		if err := s.RecordRefusal(ctx, id, "k1", reasons, at); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []struct {
			name    string
			id      string
			reasons []string
		}{{"no action", "", reasons}, {"no reasons", id, nil}, {"blank reason", id, []string{" "}}} {
			if err := s.RecordRefusal(ctx, bad.id, "", bad.reasons, at); !errors.Is(err, audit.ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", bad.name, err)
			}
		}
		refs, err := s.Refusals(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := []audit.Refusal{{ActionID: id, IdempotencyKey: "k1", Kind: audit.RefusalRefused, Reasons: reasons, At: at}}
		if diff := cmp.Diff(want, refs); diff != "" {
			t.Errorf("Refusals (-want +got):\n%s", diff)
		}
		// Refusals do not count against the cap.
		if _, err := s.BeginAttempt(ctx, begin(id, 1)); err != nil {
			t.Errorf("first attempt after a refusal, cap 1: %v", err)
		}

		a, err := s.Attempt(ctx, mustFirst(t, s, id))
		if err != nil {
			t.Fatal(err)
		}
		tries := []audit.Notification{
			{AttemptID: a.ID, Try: 1, Status: 0, Error: "connection refused", At: at},
			{AttemptID: a.ID, Try: 2, Status: 500, Error: "", At: at.Add(time.Second)},
			{AttemptID: a.ID, Try: 3, Status: 204, Error: "", At: at.Add(3 * time.Second)},
		}
		for _, n := range tries {
			if err := s.RecordNotification(ctx, n.AttemptID, n.Try, n.Status, n.Error, n.At); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RecordNotification(ctx, "att_missing", 1, 200, "", at); !errors.Is(err, audit.ErrNotFound) {
			t.Errorf("unknown attempt: err = %v, want ErrNotFound", err)
		}
		if err := s.RecordNotification(ctx, a.ID, 0, 200, "", at); !errors.Is(err, audit.ErrInvalid) {
			t.Errorf("try 0: err = %v, want ErrInvalid", err)
		}
		got, err := s.Notifications(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tries, got); diff != "" {
			t.Errorf("Notifications (-want +got):\n%s", diff)
		}
		// Notifying changes nothing about the attempt itself.
		if after, _ := s.Attempt(ctx, a.ID); after.Completed != nil || after.Unknown {
			t.Errorf("notifications changed the attempt: %+v", after)
		}
	})
}

func mustFirst(t *testing.T, s *audit.Store, actionID string) string {
	t.Helper()
	atts, err := s.Attempts(context.Background(), actionID)
	if err != nil || len(atts) == 0 {
		t.Fatalf("Attempts(%s) = %v, %v", actionID, atts, err)
	}
	return atts[0].ID
}

// firstErrs keeps a failure message short.
func firstErrs(errs []error) []error {
	if len(errs) > 3 {
		return errs[:3]
	}
	return errs
}

// TestCompleteAttemptWithNotifications: notification tries given with a
// completion are recorded with it, in its transaction; with a completion
// that is refused (a second one, bad input) none is.
func TestCompleteAttemptWithNotifications(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		a, err := s.BeginAttempt(ctx, begin("shop01:contact:contact", 5))
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
		bad := audit.Completion{Outcome: audit.OutcomeFired, Notifications: []audit.Notification{{Try: 0, Error: "x"}}}
		if err := s.CompleteAttempt(ctx, a.ID, bad); !errors.Is(err, audit.ErrInvalid) {
			t.Fatalf("try 0: err = %v, want ErrInvalid", err)
		}
		c := audit.Completion{Outcome: audit.OutcomeFired, Status: 200, At: at,
			Notifications: []audit.Notification{{AttemptID: "ignored", Try: 1, Error: "not sent: email notification needs a mail relay", At: at}}}
		if err := s.CompleteAttempt(ctx, a.ID, c); err != nil {
			t.Fatal(err)
		}
		again := c
		again.Notifications = []audit.Notification{{Try: 2, Error: "second"}}
		if err := s.CompleteAttempt(ctx, a.ID, again); !errors.Is(err, audit.ErrAlreadyCompleted) {
			t.Fatalf("second completion: err = %v, want ErrAlreadyCompleted", err)
		}
		got, err := s.Notifications(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []audit.Notification{{AttemptID: a.ID, Try: 1, Error: "not sent: email notification needs a mail relay", At: at}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("notifications (-want +got):\n%s", diff)
		}
	})
}

// TestCapReached: the read-only check says whether the window is full, on
// both drivers, and refuses a cap that caps nothing.
func TestCapReached(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		const id = "shop01:order:order"
		c := shared.VolumeCap{Max: 2, Per: shared.PerMonth}
		for i := range 3 {
			full, err := s.CapReached(ctx, id, c, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if want := i >= 2; full != want {
				t.Errorf("after %d attempts of a cap of 2: CapReached = %t, want %t", i, full, want)
			}
			if i < 2 {
				if _, err := s.BeginAttempt(ctx, audit.Begin{ActionID: id, AuditRef: "aud_x", Cap: c, Instance: "i"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.RecordCapRefusal(ctx, id, "k", "cap.reached: 2 of 2 per month", time.Time{}); err != nil {
			t.Fatal(err)
		}
		refs, err := s.Refusals(ctx, id)
		if err != nil || len(refs) != 1 || refs[0].Kind != audit.RefusalCap || refs[0].IdempotencyKey != "k" {
			t.Errorf("refusals %+v (%v), want the one cap refusal", refs, err)
		}
		if err := s.RecordCapRefusal(ctx, id, "", "", time.Time{}); !errors.Is(err, audit.ErrInvalid) {
			t.Errorf("no reason: err = %v, want ErrInvalid", err)
		}
		// Another window (next month) is empty.
		if full, err := s.CapReached(ctx, id, c, time.Now().AddDate(0, 1, 0)); err != nil || full {
			t.Errorf("next month: CapReached = %t, %v; want false", full, err)
		}
		for _, bad := range []shared.VolumeCap{{Max: 0, Per: shared.PerDay}, {Max: 1, Per: "fortnight"}} {
			if _, err := s.CapReached(ctx, id, bad, time.Time{}); !errors.Is(err, audit.ErrInvalid) {
				t.Errorf("cap %+v: err = %v, want ErrInvalid", bad, err)
			}
		}
	})
}
