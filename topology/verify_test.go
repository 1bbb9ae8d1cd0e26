package topology

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology/weborigin"
	"github.com/google/go-cmp/cmp"
)

// hugeFormSnapshot is the extraction of a form of n labelled inputs in a
// document too big for the accessibility tree (as /huge-form.html's), so a
// full capture goes straight from the extraction to locator verification.
func hugeFormSnapshot(t *testing.T, n int) *snapshot {
	t.Helper()
	raw := rawSnap{URL: "http://127.0.0.1/huge-form.html", Canonical: "http://127.0.0.1/huge-form.html", Route: "/huge-form.html",
		ReadyState: "complete", Nodes: maxAXNodes*2 + 2, Candidates: n, DOMHash: "d", TextHash: "t"}
	form := &Anchor{Kind: "form", Tag: "form", Selector: "body > form"}
	for i := range n {
		label := fmt.Sprintf("F%d", i)
		raw.Elements = append(raw.Elements, rawEl{
			Path: []int{0, 1, 0, i, 0}, Tag: "input", Role: "textbox", Name: label, Label: &label,
			Visible: true, Enabled: true, Editable: true, Recv: true, InView: i < 20,
			Sig: "input|textbox|" + label + "|1|1", CSS: fmt.Sprintf("body > form > label:nth-of-type(%d) > input", i+1),
			Ctx: ElementContext{Form: form},
		})
	}
	data, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeSnapshot(string(data), defaultMaxElements)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func evidenceValue(ev []Evidence, fact string) (string, bool) {
	for _, e := range ev {
		if e.Fact == fact {
			return e.Value, true
		}
	}
	return "", false
}

// A locator verification that does not finish leaves the locators
// unverified — said once for the state, with how many — and reports none
// of them as not-found: a locator nobody tried did not fail. (Before, the
// 20,000-input form's timed-out verification added ~1,500 not-found
// failures, one per element.) No browser: the tab has no page, so the
// verification call fails as a timed-out one does.
func TestUnverifiedLocatorsAreNotNotFound(t *testing.T) {
	const n = 40
	u, _ := url.Parse("http://127.0.0.1/huge-form.html")
	r := newRun(testOptions().withDefaults(), ModeScan, u, nil, &tab{stop: func() {}})
	s, err := r.complete(context.Background(), hugeFormSnapshot(t, n))
	if err != nil {
		t.Fatal(err)
	}
	locators := 0
	for _, el := range s.elements {
		locators += len(el.Locators)
		for _, l := range el.Locators {
			if l.Verified || l.MatchCount != 0 || l.FailureCount != 0 || l.LastVerifiedAt != nil {
				t.Errorf("%s: verified %v, %d matches, %d failures; want an untried locator", l.LocatorID, l.Verified, l.MatchCount, l.FailureCount)
			}
			if _, ok := evidenceValue(l.Evidence, "unverified"); !ok {
				t.Errorf("%s: no unverified evidence in %v", l.LocatorID, l.Evidence)
			}
			if _, ok := evidenceValue(l.Evidence, "match-count"); ok {
				t.Errorf("%s: a match count for a locator never resolved", l.LocatorID)
			}
		}
	}
	byReason := map[FailReason][]FailedObservation{}
	for _, f := range s.fails {
		byReason[f.Reason] = append(byReason[f.Reason], f)
	}
	if got := len(byReason[FailNotFound]) + len(byReason[FailAmbiguous]); got != 0 {
		t.Errorf("%d not-found and %d ambiguous failures for locators never verified; want none", len(byReason[FailNotFound]), len(byReason[FailAmbiguous]))
	}
	timedOut := byReason[FailTimedOut]
	if len(timedOut) != 1 || !strings.HasPrefix(timedOut[0].Message, "locator verification did not finish") {
		t.Fatalf("timed-out failures %+v; want one for the verification", timedOut)
	}
	got := map[string]string{}
	for _, fact := range []string{"unverified-locators", "unverified-elements", "verified-locators"} {
		got[fact], _ = evidenceValue(timedOut[0].Evidence, fact)
	}
	want := map[string]string{"unverified-locators": strconv.Itoa(locators), "unverified-elements": strconv.Itoa(n), "verified-locators": "0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timed-out evidence (-want +got):\n%s", diff)
	}
	if v, _ := evidenceValue(s.state.Evidence, "unverified-locators"); v != strconv.Itoa(locators) {
		t.Errorf("state evidence unverified-locators = %q, want %d", v, locators)
	}
}

// A verification that stops part way keeps every answer it got: the
// elements it finished are verified (and may be not-found), the rest are
// pending, and the element it stopped inside counts as unverified.
func TestApplyVerificationPartial(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1/huge-form.html")
	r := newRun(testOptions().withDefaults(), ModeScan, u, nil, &tab{stop: func() {}})
	s := hugeFormSnapshot(t, 3)
	for i := range s.raw.Elements {
		e := &s.raw.Elements[i]
		s.elements = append(s.elements, r.element(s.stateID, e, axInfo{}))
	}
	per := len(s.elements[0].Locators)
	if per < 2 {
		t.Fatalf("%d locators per element; the test needs at least 2", per)
	}
	// Answers for the first element, and the first locator of the second:
	// each matches nothing.
	res := make([]verifyResult, per+1)
	for i := range res {
		res[i] = verifyResult{Count: 0, TargetIndex: -1}
	}
	v := applyVerification(s, res, "its in-page budget of 0s was spent", r.now())
	if diff := cmp.Diff([]int{0, per - 1, per}, v.pending); diff != "" {
		t.Errorf("pending per element (-want +got):\n%s", diff)
	}
	if v.locators != 3*per || v.checked != per+1 || v.left() != 2*per-1 || v.unverifiedElements() != 2 {
		t.Errorf("locators %d, checked %d, left %d, unverified elements %d; want %d, %d, %d, 2",
			v.locators, v.checked, v.left(), v.unverifiedElements(), 3*per, per+1, 2*per-1)
	}
	for _, l := range s.elements[0].Locators {
		if l.FailureCount != 1 {
			t.Errorf("%s: failureCount %d for a locator that matched nothing, want 1", l.LocatorID, l.FailureCount)
		}
	}
	tried := 0
	for _, l := range s.elements[1].Locators {
		if _, ok := evidenceValue(l.Evidence, "match-count"); ok {
			tried++
		}
	}
	if tried != 1 {
		t.Errorf("%d locators of the second element carry a match count, want 1", tried)
	}
}

// In a real page, a verification given no in-page time verifies nothing
// and claims nothing; given its budget it verifies every locator and finds
// the label two forms share ambiguous.
func TestVerificationBudget(t *testing.T) {
	b := browserForTest(t)
	rb, err := b.handle()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	o := testOptions().withDefaults()
	u, _ := url.Parse(siteURL("/duplicate.html"))
	tb, err := openTab(ctx, rb, o.PageOptions, weborigin.Of(u))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.close()
	if nav := tb.navigate(ctx, u.String()); nav.navErr != nil {
		t.Fatal(nav.navErr)
	}
	r := newRun(o, ModeScan, u, rb, tb)
	for _, tc := range []struct {
		name       string
		budget     time.Duration
		unverified bool
	}{
		{"no time", 0, true},
		{"the run's budget", r.verifyBudget, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.verifyBudget = tc.budget
			s, err := r.capture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			locators, untried := 0, 0
			for _, el := range s.elements {
				for _, l := range el.Locators {
					locators++
					if _, ok := evidenceValue(l.Evidence, "unverified"); ok {
						untried++
					}
				}
			}
			counts := map[FailReason]int{}
			var left string
			for _, f := range s.fails {
				counts[f.Reason]++
				if f.Reason == FailTimedOut {
					left, _ = evidenceValue(f.Evidence, "unverified-locators")
				}
			}
			if tc.unverified {
				if untried != locators || counts[FailAmbiguous]+counts[FailNotFound] != 0 || left != strconv.Itoa(locators) {
					t.Errorf("%d of %d locators untried, failures %v, unverified-locators %q; want all untried, no claim, %d", untried, locators, counts, left, locators)
				}
				return
			}
			if untried != 0 || counts[FailTimedOut] != 0 || counts[FailAmbiguous] < 2 {
				t.Errorf("%d of %d locators untried, failures %v; want every locator verified and the shared label ambiguous", untried, locators, counts)
			}
		})
	}
}

// The quiescence probe's answer is checked, not read blindly: a page that
// broke it is reported (as still changing) rather than taken as loading.
func TestDecodeProbe(t *testing.T) {
	for _, tc := range []struct {
		name, probe string
		ok          bool
	}{
		{"answer", `["http://127.0.0.1/","complete",120,0,true]`, true},
		{"not JSON", `[object Object]`, false},
		{"too short", `["http://127.0.0.1/","complete"]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := decodeProbe(tc.probe)
			if (err == nil) != tc.ok || (tc.ok && len(v) != 5) {
				t.Errorf("decodeProbe(%q) = %v, %v; want ok %v", tc.probe, v, err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "quiescence probe answered") {
				t.Errorf("error %q does not say what answered", err)
			}
		})
	}
}

// A reset step that fails is recorded once per step and run, not dropped
// and not once per edge; a run that is ending records nothing.
func TestResetStepFailedOnce(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1/")
	r := newRun(testOptions().withDefaults(), ModeExplore, u, nil, &tab{stop: func() {}})
	r.g = &Graph{}
	ctx := context.Background()
	for range 3 {
		r.resetStepFailed(ctx, "state-1", "Storage.clearCookies", ErrPageStuck)
	}
	r.resetStepFailed(ctx, "state-1", "close popup tabs", ErrPageStuck)
	done, cancel := context.WithCancel(ctx)
	cancel()
	r.resetStepFailed(done, "state-1", "Storage.clearDataForOrigin", ErrPageStuck)
	var got []string
	for _, f := range r.g.FailedObservations {
		if f.Reason != FailActionFailed || !strings.HasPrefix(f.Message, "reset to the entry state: ") {
			t.Errorf("failure %s %q", f.Reason, f.Message)
		}
		got = append(got, strings.SplitN(strings.TrimPrefix(f.Message, "reset to the entry state: "), " failed", 2)[0])
	}
	if diff := cmp.Diff([]string{"Storage.clearCookies", "close popup tabs"}, got); diff != "" {
		t.Errorf("reset failures recorded (-want +got):\n%s", diff)
	}
}
