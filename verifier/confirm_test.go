package verifier

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

func sqliteStore(t *testing.T) *audit.Store {
	t.Helper()
	s, err := audit.Open(t.Context(), filepath.Join(t.TempDir(), "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testLimits() shared.ConfirmationLimits {
	notify := "owner@example.com"
	return shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: &notify}
}

// TestConfirm: the only way to verified writes the audit record, and the
// result passes the gate with the real store as its lookup.
func TestConfirm(t *testing.T) {
	store := sqliteStore(t)
	g := mappedGraph(t)
	out, rec, err := Confirm(t.Context(), g, reconcileAction, Confirmation{By: "Pat Owner", At: time.Now(), Limits: testLimits()}, store)
	if err != nil {
		t.Fatal(err)
	}
	a := findAction(out, reconcileAction)
	data, err := shared.WriteAction(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := shared.AssertLiveExecutionAllowed(data, store); err != nil {
		t.Fatalf("a confirmed action does not pass the gate: %v", err)
	}
	v := a.Verification.(shared.Verified)
	if *v.Confirmation.AuditRecord != rec.Ref || v.Confirmation.Disclosure.Summary != a.SideEffects.Summary {
		t.Errorf("confirmation does not mirror the record and the disclosure: %+v", v.Confirmation)
	}
	if st, _ := statusOf(t, g); st != shared.StatusUnverified {
		t.Error("Confirm modified the graph it was given")
	}
}

func TestConfirmRefuses(t *testing.T) {
	g := mappedGraph(t)
	shown, _ := shared.ConsentDigest(shared.ConsentSubjectOf(findAction(g, reconcileAction), testLimits()))
	other := testLimits()
	other.VolumeCap.Max = 500
	tests := []struct {
		name string
		id   string
		c    Confirmation
		want error
	}{
		{"unknown action", "nope", Confirmation{By: "Pat", Limits: testLimits()}, ErrUnknownAction},
		{"shown another cap", reconcileAction, Confirmation{By: "Pat", Limits: other, Digest: shown}, ErrShownDiffers},
		{"nobody", reconcileAction, Confirmation{By: "  ", Limits: testLimits()}, nil},
		{"method unknown", reconcileAction, Confirmation{By: "Pat", Method: shared.ConfirmedUnknown, Limits: testLimits()}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := sqliteStore(t)
			out, _, err := Confirm(t.Context(), g, tt.id, tt.c, store)
			if err == nil || out != nil {
				t.Fatalf("Confirm = %v, %v; want a refusal", out, err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if h, err := store.History(t.Context(), reconcileAction); err != nil || len(h) != 0 {
				t.Errorf("a refused confirmation wrote to the store: %v %v", h, err)
			}
		})
	}
}
