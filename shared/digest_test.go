package shared

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// consentVectors are the golden vectors of the consent digest: for each, the
// action (and limits) it is taken from. testdata/consent/NAME.json holds the
// canonical subject, NAME.sha256 its digest; refresh with -update. A third
// party re-implementing the digest checks itself against these files.
var consentVectors = []struct {
	name   string
	action func(tb testing.TB) (*Action, ConfirmationLimits)
}{
	{"clinic01-booking", func(tb testing.TB) (*Action, ConfirmationLimits) {
		a, issues := ReadAction([]byte(verifiedActionJSON))
		if len(issues) > 0 {
			tb.Fatal(issues)
		}
		return a, a.Verification.(Verified).Confirmation.Limits
	}},
	{"no-doors-no-limits", func(testing.TB) (*Action, ConfirmationLimits) {
		a := NewAction("plumber01:callback:phone", KindCallback, "Call us", "https://plumber.example/")
		a.SideEffects.Effects = []Effect{{Kind: EffectCreatesCallbackRequest}}
		a.SideEffects.Summary = "Asks the office to phone you back."
		return &a, ConfirmationLimits{}
	}},
	{"webmcp-and-tel", func(testing.TB) (*Action, ConfirmationLimits) {
		a := NewAction("salon01:booking:cut", KindBooking, "Book a cut <b>now</b> & save", "https://salon.example/book")
		tool, tel, ep := "book_cut", "tel:+61290000000", "https://salon.example/api/book?x=1&y=<2>"
		a.Access = []Access{
			{Method: AccessWebMCPTool, URL: "https://salon.example/book", ToolName: &tool,
				Submission: &Submission{Transport: TransportWebMCPExecute, Endpoint: &ep}},
			{Method: AccessTelLink, URL: tel},
		}
		target := "bookings@salon.example"
		a.SideEffects.Effects = []Effect{{Kind: EffectBooksAppointment, Target: &target, HoldsInventory: true}, {Kind: EffectSendsConfirmationToCustomer}}
		a.SideEffects.Reversible = ReversibleFalse
		a.SideEffects.Summary = "Books a slot — \u2028 \"quoted\" \u00e9."
		a.Barriers = []Barrier{{Kind: BarrierLogin}}
		notify := "owner@salon.example"
		return &a, ConfirmationLimits{VolumeCap: &VolumeCap{Max: 3, Per: PerWeek}, Notify: &notify}
	}},
}

func goldenDigest(tb testing.TB, name string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "consent", name+".sha256"))
	if err != nil {
		tb.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestConsentDigestGolden(t *testing.T) {
	for _, v := range consentVectors {
		t.Run(v.name, func(t *testing.T) {
			a, limits := v.action(t)
			subject := ConsentSubjectOf(a, limits)
			canon, err := CanonicalConsent(subject)
			if err != nil {
				t.Fatal(err)
			}
			digest, err := ConsentDigest(subject)
			if err != nil {
				t.Fatal(err)
			}
			jsonPath := filepath.Join("testdata", "consent", v.name+".json")
			sumPath := filepath.Join("testdata", "consent", v.name+".sha256")
			if *update {
				if err := os.WriteFile(jsonPath, canon, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(sumPath, []byte(digest+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(jsonPath)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(canon)); diff != "" {
				t.Errorf("canonical subject mismatch (-want +got):\n%s", diff)
			}
			if got, want := digest, goldenDigest(t, v.name); got != want {
				t.Errorf("digest = %s, want %s", got, want)
			}
			// The digest is plain SHA-256 over the golden bytes: checkable
			// with any tool (sha256sum testdata/consent/NAME.json).
			sum := sha256.Sum256(want)
			if ConsentDigestPrefix+hex.EncodeToString(sum[:]) != goldenDigest(t, v.name) {
				t.Errorf("the golden digest is not the SHA-256 of the golden subject")
			}
			// The canonical bytes read back as the same subject.
			back, issues := ReadConsentSubject(canon)
			if len(issues) > 0 {
				t.Fatalf("canonical subject does not read back: %v", issues)
			}
			if diff := cmp.Diff(subject, *back); diff != "" {
				t.Errorf("subject after a round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConsentSubjectBindsEachPart: changing any one part of what the owner
// confirms changes the digest, and CompareConsent names exactly that part;
// changing what is not bound changes neither.
func TestConsentSubjectBindsEachPart(t *testing.T) {
	base := func() (*Action, ConfirmationLimits) { return consentVectors[0].action(t) }
	a0, l0 := base()
	s0 := ConsentSubjectOf(a0, l0)
	d0, err := ConsentDigest(s0)
	if err != nil {
		t.Fatal(err)
	}
	other := "https://elsewhere.example/x"
	tests := []struct {
		name string
		edit func(a *Action, l *ConfirmationLimits)
		want []string // changed paths; nil for "not bound"
	}{
		{"id", func(a *Action, _ *ConfirmationLimits) { a.ID += "x" }, []string{"$.actionId"}},
		{"kind", func(a *Action, _ *ConfirmationLimits) { a.Kind = KindQuote }, []string{"$.kind"}},
		{"summary", func(a *Action, _ *ConfirmationLimits) { a.SideEffects.Summary += "." }, []string{"$.disclosure.summary"}},
		{"reversible", func(a *Action, _ *ConfirmationLimits) { a.SideEffects.Reversible = ReversibleTrue }, []string{"$.disclosure.reversible"}},
		{"holds inventory", func(a *Action, _ *ConfirmationLimits) { a.SideEffects.Effects[1].HoldsInventory = true }, []string{"$.disclosure.holdsInventory"}},
		{"effect target", func(a *Action, _ *ConfirmationLimits) { a.SideEffects.Effects[1].Target = &other }, []string{"$.effects[1].target"}},
		{"cap max", func(_ *Action, l *ConfirmationLimits) { l.VolumeCap.Max++ }, []string{"$.limits.volumeCap.max"}},
		{"cap removed", func(_ *Action, l *ConfirmationLimits) { l.VolumeCap = nil }, []string{"$.limits.volumeCap"}},
		{"notify", func(_ *Action, l *ConfirmationLimits) { l.Notify = &other }, []string{"$.limits.notify"}},
		{"door method", func(a *Action, _ *ConfirmationLimits) { a.Access[0].Method = AccessDocumentedEndpoint }, []string{"$.doors[0].method"}},
		{"door url", func(a *Action, _ *ConfirmationLimits) { a.Access[0].URL = other }, []string{"$.doors[0].url"}},
		{"door endpoint", func(a *Action, _ *ConfirmationLimits) { a.Access[0].Submission.Endpoint = &other }, []string{"$.doors[0].endpoint"}},
		{"door submission removed", func(a *Action, _ *ConfirmationLimits) { a.Access[0].Submission = nil }, []string{"$.doors[0].transport", "$.doors[0].endpoint", "$.doors[0].enctype"}},
		{"door removed", func(a *Action, _ *ConfirmationLimits) { a.Access = nil }, []string{"$.doors[0]"}},
		{"barrier added", func(a *Action, _ *ConfirmationLimits) { a.Barriers = []Barrier{{Kind: BarrierCaptcha}} }, []string{"$.barriers[0]"}},
		{"label: not bound", func(a *Action, _ *ConfirmationLimits) { a.Label = "Another label" }, nil},
		{"inputs: not bound", func(a *Action, _ *ConfirmationLimits) { a.Inputs = nil }, nil},
		{"locator: not bound", func(a *Action, _ *ConfirmationLimits) { a.Access[0].Locator = nil }, nil},
		{"occurrences: not bound", func(a *Action, _ *ConfirmationLimits) { a.Access[0].Occurrences = 9 }, nil},
		{"provenance: not bound", func(a *Action, _ *ConfirmationLimits) { a.SideEffects.Provenance.Confidence = 0.1 }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, l := base()
			tt.edit(a, &l)
			s := ConsentSubjectOf(a, l)
			d, err := ConsentDigest(s)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range CompareConsent(s0, s) {
				got = append(got, c.Path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("changed paths (-want +got):\n%s", diff)
			}
			if (d != d0) != (tt.want != nil) {
				t.Errorf("digest changed = %t, want %t", d != d0, tt.want != nil)
			}
		})
	}
}

func TestCanonicalConsentRefusesUnwritable(t *testing.T) {
	a, l := consentVectors[0].action(t)
	a.SideEffects.Summary = "bad \xff byte"
	if _, err := ConsentDigest(ConsentSubjectOf(a, l)); err == nil {
		t.Error("a subject with invalid UTF-8 got a digest")
	}
	a, l = consentVectors[0].action(t)
	a.Kind = "not-a-kind"
	if _, err := ConsentDigest(ConsentSubjectOf(a, l)); err == nil {
		t.Error("a subject with a kind outside the vocabulary got a digest")
	}
}

func TestReadConsentSubjectBadInput(t *testing.T) {
	for _, in := range []string{``, `{}`, `[]`, `{"actionId": 1}`, `{"actionId":"a","actionId":"b"}`} {
		if s, issues := ReadConsentSubject([]byte(in)); s != nil || len(issues) == 0 {
			t.Errorf("ReadConsentSubject(%q) = %v, %v; want issues", in, s, issues)
		}
	}
}
