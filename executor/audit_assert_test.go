package executor_test

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/verifier/audit"
)

// assertNotifications checks the store holds one record per webhook try,
// numbered from 1.
func assertNotifications(t *testing.T, st *audit.Store, attemptID string, tries int) {
	t.Helper()
	ns, err := st.Notifications(t.Context(), attemptID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != tries {
		t.Fatalf("%d notification records, want %d: %+v", len(ns), tries, ns)
	}
	for i, n := range ns {
		if n.Try != i+1 {
			t.Errorf("record %d is try %d", i, n.Try)
		}
		if last := i == len(ns)-1; !last && n.Error == "" {
			t.Errorf("try %d was retried but recorded no error: %+v", n.Try, n)
		}
	}
}

// assertNotSent checks the store holds exactly one "not sent" record.
func assertNotSent(t *testing.T, st *audit.Store, attemptID, text string) {
	t.Helper()
	ns, err := st.Notifications(t.Context(), attemptID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 || ns[0].Error != text || ns[0].Status != 0 {
		t.Fatalf("notification records %+v, want one %q", ns, text)
	}
}

// assertRefusals checks the store audited n refusals of actionID, the last
// one naming want.
func assertRefusals(t *testing.T, st *audit.Store, actionID string, n int, want string) {
	t.Helper()
	rs, err := st.Refusals(t.Context(), actionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != n {
		t.Fatalf("%d refusals audited for %s, want %d", len(rs), actionID, n)
	}
	if n > 0 && !strings.Contains(strings.Join(rs[n-1].Reasons, "\n"), want) {
		t.Errorf("the audited refusal %q does not name %q", rs[n-1].Reasons, want)
	}
}
