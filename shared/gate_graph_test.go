package shared

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// graphWithVerified is clinic01 with its action confirmed as
// verifiedActionJSON is, and a copy of it as mapped (unverified) beside.
func graphWithVerified(t *testing.T) *ActionGraph {
	t.Helper()
	g, issues := Read(mustRead(t, filepath.Join("..", "fixtures", "graphs", "clinic01.json")))
	if g == nil {
		t.Fatal(issues)
	}
	a, issues := ReadAction([]byte(verifiedActionJSON))
	if a == nil {
		t.Fatal(issues)
	}
	if g.Actions[0].ID != a.ID || g.Actions[0].Verification.Status() != StatusUnverified {
		t.Fatalf("clinic01 starts with %s (%s), want %s unverified", g.Actions[0].ID, g.Actions[0].Verification.Status(), a.ID)
	}
	mapped := g.Actions[0]
	mapped.ID += "-copy"
	g.Actions = []Action{*a, mapped}
	return g
}

func TestRefusedActions(t *testing.T) {
	errStore := errors.New("store unreachable")
	revoked := confirmedStore(t, []byte(verifiedActionJSON))
	r := revoked[testAuditRef]
	r.revoked = true
	revoked[testAuditRef] = r
	for _, tc := range []struct {
		name  string
		audit AuditLookup
		edit  func(*ActionGraph) // after the confirmation was recorded
		want  string             // in the action's refusal; "" when granted
	}{
		{"recorded", auditStore, nil, ""},
		{"revoked", revoked, nil, string(RefuseConfirmationRevoked)},
		{"unknown to the store", strictStore{}, nil, string(RefuseConfirmationAuditUnresolved)},
		{"the store fails", AuditLookupFunc(func(context.Context, AuditQuery) (AuditAnswer, error) {
			return AuditAnswer{}, errStore
		}), nil, "store unreachable"},
		{"no store", nil, nil, string(RefuseConfirmationAuditUnresolved)},
		{"edited after its confirmation", auditStore, func(g *ActionGraph) {
			v := g.Actions[0].Verification.(Verified)
			vc := *v.Confirmation.Limits.VolumeCap
			vc.Max = 10000
			v.Confirmation.Limits.VolumeCap = &vc
			g.Actions[0].Verification = v
		}, string(RefuseConfirmationDigestMismatch)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graphWithVerified(t)
			if tc.edit != nil {
				tc.edit(g)
			}
			got, err := RefusedActions(t.Context(), g, tc.audit)
			if err != nil {
				t.Fatal(err)
			}
			for id := range got {
				if id != testActionID {
					t.Errorf("names %s, which the graph does not say is verified", id)
				}
			}
			why, refused := got[testActionID]
			switch {
			case tc.want == "" && refused:
				t.Errorf("refused a recorded confirmation: %s", why)
			case tc.want != "" && !strings.Contains(why, tc.want):
				t.Errorf("reason %q (refused %v), want it to say %q", why, refused, tc.want)
			}
		})
	}
	t.Run("a done context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		g := graphWithVerified(t)
		got, err := RefusedActions(ctx, g, auditStore)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		// Fail closed: the verified action the store was not asked about
		// is refused, saying why; the unverified one is not named.
		if why := got[testActionID]; !strings.Contains(why, "could not be checked") || len(got) != 1 {
			t.Errorf("RefusedActions(done ctx) = %v; want only %s, refused as not checked", got, testActionID)
		}
	})
	t.Run("an action built without a verification", func(t *testing.T) {
		g := graphWithVerified(t)
		g.Actions[1].Verification = nil
		got, err := RefusedActions(t.Context(), g, auditStore)
		if err != nil || len(got) != 0 {
			t.Errorf("RefusedActions = %v, %v; want nothing refused (the verified action is recorded)", got, err)
		}
	})
	t.Run("a nil *Verified, built in Go", func(t *testing.T) {
		g := graphWithVerified(t)
		g.Actions[1].Verification = (*Verified)(nil)
		got, err := RefusedActions(t.Context(), g, auditStore)
		if err != nil || len(got) != 1 || got[g.Actions[1].ID] == "" {
			t.Errorf("RefusedActions = %v, %v; want the nil *Verified refused, nothing else", got, err)
		}
	})
	t.Run("a nil context, taken as the gate takes it", func(t *testing.T) {
		//lint:ignore SA1012 a nil context is what this case is about
		got, err := RefusedActions(nil, graphWithVerified(t), auditStore) //nolint:staticcheck
		if err != nil || len(got) != 0 {
			t.Errorf("RefusedActions(nil ctx) = %v, %v; want the recorded action granted", got, err)
		}
	})
	t.Run("no graph", func(t *testing.T) {
		if got, err := RefusedActions(t.Context(), nil, auditStore); err != nil || len(got) != 0 {
			t.Errorf("RefusedActions(nil) = %v, %v; want nothing", got, err)
		}
	})
}
