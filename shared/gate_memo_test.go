package shared

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestGateMemoKeepsNoAnswer: with the read of the bytes memoised, every
// call still looks the record up, and what the store answers now decides:
// a revocation, a record gone, a store down, a context done, a confirmation
// whose clock moved into the future — each refuses the very bytes the gate
// granted a moment before, and granting resumes when the store does.
func TestGateMemoKeepsNoAnswer(t *testing.T) {
	data := []byte(verifiedActionJSON)
	store := confirmedStore(t, data)
	rec := store[testAuditRef]
	var answer func(AuditQuery) (AuditAnswer, error)
	calls := 0
	audit := AuditLookupFunc(func(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
		calls++
		return answer(q)
	})
	granted := func(q AuditQuery) (AuditAnswer, error) { return store.LookupAudit(context.Background(), q) }
	down := errors.New("store down")
	steps := []struct {
		name   string
		answer func(AuditQuery) (AuditAnswer, error)
		ctx    func() context.Context
		want   RefusalReason // "" = granted
	}{
		{"granted", granted, nil, ""},
		{"granted again, from the memo", granted, nil, ""},
		{"revoked", func(AuditQuery) (AuditAnswer, error) {
			return AuditAnswer{Found: true, Revoked: true, Digest: rec.digest, Subject: rec.subject}, nil
		}, nil, RefuseConfirmationRevoked},
		{"record gone", func(AuditQuery) (AuditAnswer, error) { return AuditAnswer{}, nil }, nil, RefuseConfirmationAuditUnresolved},
		{"store down", func(AuditQuery) (AuditAnswer, error) { return AuditAnswer{}, down }, nil, RefuseConfirmationAuditUnresolved},
		{"another digest on record", func(AuditQuery) (AuditAnswer, error) {
			return AuditAnswer{Found: true, Digest: ConsentDigestPrefix + "00" + rec.digest[len(ConsentDigestPrefix)+2:]}, nil
		}, nil, RefuseConfirmationDigestMismatch},
		{"context done", granted, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, RefuseConfirmationAuditUnresolved},
		{"granted once more", granted, nil, ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			answer = st.answer
			ctx := context.Background()
			if st.ctx != nil {
				ctx = st.ctx()
			}
			before := calls
			err := AssertLiveExecutionAllowedContext(ctx, data, audit)
			if theGateMemo.get(data) == nil {
				t.Fatal("the valid document is not in the memo")
			}
			switch {
			case st.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case st.want != "":
				var ue *UnverifiedActionError
				if !errors.As(err, &ue) || !ue.Has(st.want) {
					t.Fatalf("err = %v, want %s", err, st.want)
				}
			}
			if st.ctx == nil && calls != before+1 {
				t.Errorf("lookups this call = %d, want 1", calls-before)
			}
		})
	}
}

// TestGateMemoOneByte: a document one byte away from a memoised one is read
// afresh — its own digest is sent, and a changed endpoint is a mismatch.
func TestGateMemoOneByte(t *testing.T) {
	data := []byte(verifiedActionJSON)
	if err := AssertLiveExecutionAllowed(data, auditStore); err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`"endpoint": "`))
	if i < 0 {
		t.Fatal("the test action has no endpoint")
	}
	changed := bytes.Clone(data)
	j := i + len(`"endpoint": "`) + len("https://")
	changed[j] ^= 0x01 // one letter of the host
	var sent AuditQuery
	audit := AuditLookupFunc(func(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
		sent = q
		return auditStore.LookupAudit(ctx, q)
	})
	err := AssertLiveExecutionAllowed(changed, audit)
	var ue *UnverifiedActionError
	if !errors.As(err, &ue) || !ue.Has(RefuseConfirmationDigestMismatch) {
		t.Fatalf("one byte of the endpoint changed: err = %v, want digest-mismatch", err)
	}
	a, issues := ReadAction(changed)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	want, err := ConsentDigest(ConsentSubjectOf(a, a.Verification.(Verified).Confirmation.Limits))
	if err != nil {
		t.Fatal(err)
	}
	if sent.Digest != want || sent.Digest == auditStore[testAuditRef].digest {
		t.Errorf("digest sent %s, want the changed document's own %s", sent.Digest, want)
	}
	// And the original is still granted.
	if err := AssertLiveExecutionAllowed(data, auditStore); err != nil {
		t.Errorf("the original after the changed one: %v", err)
	}
}

// TestGateMemoClockChecked: the one rule that reads the clock runs on
// every call, on memoised bytes too: a confirmation dated beyond the
// allowed skew is refused on its first read and on every read after.
func TestGateMemoClockChecked(t *testing.T) {
	later := TimestampOf(time.Now().Add(2 * MaxClockSkew))
	data := edit(t, func(d map[string]any) { confirmationIn(d)["confirmedAt"] = string(later) })
	store := confirmedStore(t, data)
	for i := range 3 {
		err := AssertLiveExecutionAllowed(data, store)
		var ue *UnverifiedActionError
		if !errors.As(err, &ue) || !ue.Has(RefuseConfirmationInFuture) {
			t.Fatalf("call %d: err = %v, want confirmation.in-future", i, err)
		}
	}
}

// TestGateMemoInvalidNotKept: an invalid document is never kept, and is
// refused with its issues on every call.
func TestGateMemoInvalidNotKept(t *testing.T) {
	data := []byte(verifiedActionJSON[:len(verifiedActionJSON)-2])
	for i := range 2 {
		err := AssertLiveExecutionAllowed(data, auditStore)
		var ue *UnverifiedActionError
		if !errors.As(err, &ue) || !ue.Has(RefuseActionInvalid) || len(ue.Issues) == 0 {
			t.Fatalf("call %d: err = %v, want action.invalid with issues", i, err)
		}
	}
	if theGateMemo.get(data) != nil {
		t.Error("an invalid document was kept")
	}
}

// TestGateMemoBounded: the memo never holds more than its bounds, however
// many documents pass through it, and keeps answering right under churn
// from many goroutines.
func TestGateMemoBounded(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range gateMemoEntries {
				data := edit(t, func(d map[string]any) { d["label"] = fmt.Sprintf("Book %d/%d", g, i) })
				// The label is not bound by consent: each variant passes.
				if err := AssertLiveExecutionAllowed(data, auditStore); err != nil {
					t.Errorf("variant %d/%d: %v", g, i, err)
				}
				if err := AssertLiveExecutionAllowed([]byte(verifiedActionJSON), auditStore); err != nil {
					t.Errorf("the confirmed action under churn: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	theGateMemo.mu.Lock()
	n, size := len(theGateMemo.m), theGateMemo.bytes
	sum := 0
	for k := range theGateMemo.m {
		sum += len(k)
	}
	theGateMemo.mu.Unlock()
	if n > gateMemoEntries || size > gateMemoBytes || sum != size {
		t.Errorf("memo holds %d entries, %d bytes (counted %d); bounds %d, %d", n, size, sum, gateMemoEntries, gateMemoBytes)
	}
}

// TestReadAllowedAction: the action comes back exactly when the gate
// grants — the same action ReadAction reads from the bytes — and a refusal
// returns no action and the gate's own error.
func TestReadAllowedAction(t *testing.T) {
	data := []byte(verifiedActionJSON)
	store := confirmedStore(t, data)
	want, issues := ReadAction(data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	for i := range 2 { // the second call is served by the memo
		act, err := ReadAllowedAction(context.Background(), data, store)
		if err != nil || act == nil {
			t.Fatalf("call %d: %v, %v; want the action", i, act, err)
		}
		if act.ID != want.ID || act.Label != want.Label || len(act.Access) != len(want.Access) {
			t.Errorf("call %d: read %s %q with %d doors, want %s %q with %d", i, act.ID, act.Label, len(act.Access), want.ID, want.Label, len(want.Access))
		}
	}
	refuse := AuditLookupFunc(func(context.Context, AuditQuery) (AuditAnswer, error) { return AuditAnswer{}, nil })
	act, err := ReadAllowedAction(context.Background(), data, refuse)
	var ue *UnverifiedActionError
	if act != nil || !errors.As(err, &ue) || !slices.ContainsFunc(ue.Reasons, func(r Refusal) bool { return r.Reason == RefuseConfirmationAuditUnresolved }) {
		t.Errorf("refused: %v, %v; want no action and audit-unresolved", act, err)
	}
	if gateErr := AssertLiveExecutionAllowedContext(context.Background(), data, refuse); gateErr == nil || gateErr.Error() != err.Error() {
		t.Errorf("the gate says %v, ReadAllowedAction %v: want the same refusal", gateErr, err)
	}
}
