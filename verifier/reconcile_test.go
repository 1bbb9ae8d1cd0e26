package verifier

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

const (
	reconcileSite   = "wpforms01"
	reconcileAction = "wpforms01:contact:wpforms-form-412"
	testOrigin      = "http://127.0.0.1:8080"
)

func mappedGraph(t *testing.T) *shared.ActionGraph {
	t.Helper()
	data, err := fixtures.MappedGraph(reconcileSite, testOrigin)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	return g
}

// confirmed returns the mapped graph with reconcileAction confirmed by its
// owner as it is (verifier.Confirm, recorded in the real store), and the
// record's reference.
func confirmed(t *testing.T, store *audit.Store) (*shared.ActionGraph, string) {
	t.Helper()
	g, rec, err := Confirm(t.Context(), mappedGraph(t), reconcileAction, Confirmation{
		By: "Owner", At: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), Limits: testLimits(),
	}, store)
	if err != nil {
		t.Fatal(err)
	}
	return g, rec.Ref
}

// remapped is the graph a re-scan yields: the same site, all unverified,
// with edit applied to the action's JSON.
func remapped(t *testing.T, edit func(doc map[string]any)) *shared.ActionGraph {
	t.Helper()
	g := mappedGraph(t)
	if edit == nil {
		return g
	}
	i := -1
	for k := range g.Actions {
		if g.Actions[k].ID == reconcileAction {
			i = k
		}
	}
	data, err := shared.WriteAction(&g.Actions[i])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	data, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	a, issues := shared.ReadAction(data)
	if len(issues) > 0 {
		return nil // the edit made the action invalid
	}
	g.Actions[i] = *a
	return g
}

func statusOf(t *testing.T, g *shared.ActionGraph) (shared.VerificationStatus, string) {
	t.Helper()
	a := findAction(g, reconcileAction)
	if a == nil {
		t.Fatal("action missing from the reconciled graph")
	}
	switch v := a.Verification.(type) {
	case shared.Unverified:
		if v.Note != nil {
			return v.Status(), *v.Note
		}
	case shared.Verified:
		return v.Status(), ""
	}
	return a.Verification.Status(), ""
}

func TestReconcileKeepsUnchanged(t *testing.T) {
	store := sqliteStore(t)
	old, _ := confirmed(t, store)
	// A re-scan a day later: new provenance times, same consequences.
	next := remapped(t, func(d map[string]any) {
		d["sideEffects"].(map[string]any)["provenance"].(map[string]any)["at"] = "2026-12-01T09:00:00.000Z"
	})
	got, report, err := Reconcile(t.Context(), old, next, store)
	if err != nil {
		t.Fatal(err)
	}
	if st, note := statusOf(t, got); st != shared.StatusVerified {
		t.Fatalf("status %s (%s), want verified", st, note)
	}
	if len(report) != 1 || !report[0].Kept {
		t.Errorf("report = %+v, want one kept action", report)
	}
	if st, _ := statusOf(t, next); st != shared.StatusUnverified {
		t.Error("Reconcile modified the new graph it was given")
	}
}

// mutations proposes other values of the JSON type of v.
func mutations(v any) []any {
	switch x := v.(type) {
	case bool:
		return []any{!x}
	case string:
		return []any{x + " ", "x" + x, "unknown", true, false}
	case []any:
		return []any{append(append([]any{}, x...), x[0]), []any{}}
	}
	return []any{true, false, "unknown"}
}

// TestReconcileDriftEachConsentBoundKey: one test per consent-bound key,
// from the declared list, each a generic edit of the re-scanned action.
func TestReconcileDriftEachConsentBoundKey(t *testing.T) {
	for _, key := range shared.ConsentBoundSideEffectKeys() {
		t.Run(key, func(t *testing.T) {
			store := sqliteStore(t)
			old, _ := confirmed(t, store)
			tried := 0
			var orig any
			remapped(t, func(d map[string]any) { orig = d["sideEffects"].(map[string]any)[key] })
			for _, mv := range mutations(orig) {
				if key == "effects" {
					list, _ := mv.([]any)
					if len(list) == 0 {
						continue
					}
				}
				if reflect.DeepEqual(mv, orig) {
					continue
				}
				next := remapped(t, func(d map[string]any) { d["sideEffects"].(map[string]any)[key] = mv })
				if next == nil {
					continue
				}
				tried++
				got, report, err := Reconcile(t.Context(), old, next, store)
				if err != nil {
					t.Fatal(err)
				}
				st, note := statusOf(t, got)
				if st != shared.StatusUnverified || !strings.HasPrefix(note, DriftedNotePrefix) {
					t.Fatalf("after editing %s: status %s note %q, want unverified and drifted", key, st, note)
				}
				if !strings.Contains(note, "$.disclosure.") || len(report) != 1 || report[0].Kept || len(report[0].Changes) == 0 {
					t.Errorf("the note does not name what drifted: %q (report %+v)", note, report)
				}
			}
			if tried == 0 {
				t.Fatalf("no generic edit of %q kept the action valid", key)
			}
		})
	}
}

func TestReconcileDriftDoorsAndTargets(t *testing.T) {
	tests := []struct {
		name string
		edit func(d map[string]any)
		want string
	}{
		{"endpoint moved", func(d map[string]any) {
			d["access"].([]any)[0].(map[string]any)["submission"].(map[string]any)["endpoint"] = "https://collector.example.net/x"
		}, "$.doors[0].endpoint"},
		{"door gone", func(d map[string]any) { d["access"] = d["access"].([]any)[:1] }, "$.doors[1]"},
		{"effect target", func(d map[string]any) {
			d["sideEffects"].(map[string]any)["effects"].([]any)[0].(map[string]any)["target"] = "elsewhere@example.net"
		}, "$.effects[0].target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := sqliteStore(t)
			old, _ := confirmed(t, store)
			got, _, err := Reconcile(t.Context(), old, remapped(t, tt.edit), store)
			if err != nil {
				t.Fatal(err)
			}
			if st, note := statusOf(t, got); st != shared.StatusUnverified || !strings.Contains(note, tt.want+": confirmed ") {
				t.Errorf("status %s note %q, want unverified naming %s", st, note, tt.want)
			}
		})
	}
}

func TestReconcileStoreDownChangesNothing(t *testing.T) {
	store := sqliteStore(t)
	old, _ := confirmed(t, store)
	store.Close() // the store is down
	got, _, err := Reconcile(t.Context(), old, remapped(t, nil), store)
	if err == nil || got != nil {
		t.Fatalf("Reconcile with the store down = %v, %v; want an error and no graph", got, err)
	}
	if !errors.Is(err, audit.ErrUnavailable) {
		t.Errorf("the error hides the cause: %v", err)
	}
}

func TestReconcileRevokedAndGone(t *testing.T) {
	store := sqliteStore(t)
	old, ref := confirmed(t, store)
	if err := store.RecordRevocation(t.Context(), audit.Revocation{ActionID: reconcileAction, Ref: ref, By: "Owner", At: time.Now(), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	got, _, err := Reconcile(t.Context(), old, remapped(t, nil), store)
	if err != nil {
		t.Fatal(err)
	}
	if st, note := statusOf(t, got); st != shared.StatusUnverified || !strings.HasPrefix(note, RevokedNotePrefix) {
		t.Errorf("status %s note %q, want unverified and revoked", st, note)
	}

	// The action is no longer on the site.
	next := remapped(t, nil)
	next.Actions = []shared.Action{}
	other := sqliteStore(t)
	prev, _ := confirmed(t, other)
	got, _, err = Reconcile(t.Context(), prev, next, other)
	if err != nil {
		t.Fatal(err)
	}
	if got.Notes == nil || !strings.Contains(*got.Notes, reconcileAction) {
		t.Errorf("notes %v do not say the confirmed action is gone", got.Notes)
	}
}

func TestRevoke(t *testing.T) {
	store := sqliteStore(t)
	g, _ := confirmed(t, store)
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	out, err := Revoke(t.Context(), g, reconcileAction, store, "Owner", "closing for the holidays", at)
	if err != nil {
		t.Fatal(err)
	}
	if st, note := statusOf(t, out); st != shared.StatusUnverified || !strings.Contains(note, "closing for the holidays") {
		t.Errorf("status %s note %q", st, note)
	}
	if st, _ := statusOf(t, g); st != shared.StatusVerified {
		t.Error("Revoke modified the graph it was given")
	}
	// The old file, replayed, no longer passes the gate.
	data, _ := shared.WriteAction(findAction(g, reconcileAction))
	if err := shared.AssertLiveExecutionAllowed(data, store); err == nil {
		t.Error("a revoked confirmation still passes the gate")
	}
	for _, tt := range []struct {
		name, id, by string
		want         error
	}{
		{"unknown action", "nope", "Owner", ErrUnknownAction},
		{"not verified", reconcileAction, "Owner", ErrNotVerified},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Revoke(t.Context(), out, tt.id, store, tt.by, "", at); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := Revoke(t.Context(), g, reconcileAction, store, " ", "", at); err == nil {
		t.Error("a revocation by nobody was accepted")
	}
}

// A zero time is now, as Confirm takes it: the note and the store's
// revocation record state the same moment.
func TestRevokeAtZeroTimeIsNow(t *testing.T) {
	store := sqliteStore(t)
	g, _ := confirmed(t, store)
	out, err := Revoke(t.Context(), g, reconcileAction, store, "Owner", "", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := store.History(t.Context(), reconcileAction)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, e := range hist {
		if e.Kind == audit.EventRevocation {
			recorded = append(recorded, string(shared.TimestampOf(e.At)))
		}
	}
	if len(recorded) != 1 {
		t.Fatalf("revocations recorded at %q, want one", recorded)
	}
	_, note := statusOf(t, out)
	if want := RevokedNotePrefix + "by Owner at " + recorded[0]; note != want {
		t.Errorf("note %q, want %q (the time the store recorded)", note, want)
	}
}
