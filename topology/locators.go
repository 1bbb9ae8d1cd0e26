package topology

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// locatorScores is locator-scoring-v0.2, in the spirit of Playwright's
// generator: lower is better. A scoped locator scores its base strategy plus
// scopedPenalty, so it ranks just behind the same locator unscoped.
var locatorScores = map[LocatorStrategy]float64{
	StrategyTestID:      1,
	StrategyRole:        2,
	StrategyPlaceholder: 3,
	StrategyLabel:       4,
	StrategyText:        5,
	StrategyCSSID:       6,
	StrategyCSSPath:     7,
}

const scopedPenalty = 0.5

// ariaRoles are the roles Playwright's getByRole accepts for a locator.
var ariaRoles = map[string]bool{
	"button": true, "link": true, "tab": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"checkbox": true, "radio": true, "switch": true, "option": true, "combobox": true, "textbox": true,
	"searchbox": true, "slider": true, "spinbutton": true, "treeitem": true, "listbox": true,
}

func strp(s string) *string { return &s }

// jsq quotes s as a single-quoted JavaScript string.
func jsq(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep CSS combinators (>) readable
	_ = enc.Encode(s)        // a string always encodes
	b := bytes.TrimSpace(buf.Bytes())
	inner := string(b[1 : len(b)-1])
	inner = strings.ReplaceAll(inner, `\"`, `"`)
	inner = strings.ReplaceAll(inner, `'`, `\'`)
	return "'" + inner + "'"
}

// expression renders a descriptor as a Playwright expression (or a bare CSS
// selector for the css strategies).
func expression(d *LocatorDescriptor) string {
	switch d.Kind {
	case StrategyTestID:
		if *d.Attribute == "data-testid" {
			return "getByTestId(" + jsq(*d.Value) + ")"
		}
		return "locator(" + jsq("["+*d.Attribute+"="+strconv.Quote(*d.Value)+"]") + ")"
	case StrategyRole:
		return "getByRole(" + jsq(*d.Role) + ", { name: " + jsq(*d.Name) + ", exact: true })"
	case StrategyPlaceholder:
		return "getByPlaceholder(" + jsq(*d.Value) + ", { exact: true })"
	case StrategyLabel:
		return "getByLabel(" + jsq(*d.Value) + ", { exact: true })"
	case StrategyText:
		return "getByText(" + jsq(*d.Value) + ", { exact: true })"
	case StrategyCSSID, StrategyCSSPath:
		return *d.Selector
	case StrategyScoped:
		return "locator(" + jsq(*d.Scope.Selector) + ")." + expression(d.Target)
	}
	return ""
}

type candidate struct {
	strategy LocatorStrategy
	desc     LocatorDescriptor
	reason   string
	scope    *Anchor
}

// semanticCandidates are the candidates that name the element by what a user
// sees, best first.
func semanticCandidates(el *ActionableElement, e *rawEl) []candidate {
	var out []candidate
	if len(e.TestID) == 2 {
		out = append(out, candidate{StrategyTestID, LocatorDescriptor{Kind: StrategyTestID, Attribute: strp(e.TestID[0]), Value: strp(e.TestID[1]), Exact: true}, "test id attribute " + e.TestID[0], nil})
	}
	if ariaRoles[e.Role] && e.Name != "" {
		out = append(out, candidate{StrategyRole, LocatorDescriptor{Kind: StrategyRole, Role: strp(e.Role), Name: strp(e.Name), Exact: true}, "ARIA role and accessible name", nil})
	}
	if e.Placeholder != nil && normSpace(*e.Placeholder) != "" {
		out = append(out, candidate{StrategyPlaceholder, LocatorDescriptor{Kind: StrategyPlaceholder, Value: strp(normSpace(*e.Placeholder)), Exact: true}, "placeholder text", nil})
	}
	if e.Label != nil && *e.Label != "" {
		out = append(out, candidate{StrategyLabel, LocatorDescriptor{Kind: StrategyLabel, Value: strp(*e.Label), Exact: true}, "associated label", nil})
	}
	if t := e.Text; t != "" && len(t) <= 80 && el.Tag != "select" && el.Tag != "textarea" {
		out = append(out, candidate{StrategyText, LocatorDescriptor{Kind: StrategyText, Value: strp(t), Exact: true}, "visible text", nil})
	}
	return out
}

// buildLocators returns the element's candidates, not yet verified.
func buildLocators(el *ActionableElement, e *rawEl) []LocatorCandidate {
	cands := semanticCandidates(el, e)
	sem := cands
	if e.CSSID != nil {
		cands = append(cands, candidate{StrategyCSSID, LocatorDescriptor{Kind: StrategyCSSID, Selector: e.CSSID}, "unique stable id", nil})
	}
	cands = append(cands, candidate{StrategyCSSPath, LocatorDescriptor{Kind: StrategyCSSPath, Selector: strp(e.CSS)}, "structural CSS path (fragile)", nil})
	// Scoped: the best user-facing base (not a test id, which is global
	// already) resolved inside each execution scope the element has.
	var base *candidate
	for i := range sem {
		if sem[i].strategy != StrategyTestID {
			base = &sem[i]
			break
		}
	}
	if base != nil {
		for _, a := range []*Anchor{e.Ctx.Row, e.Ctx.ListItem, e.Ctx.Dialog, e.Ctx.Form} {
			if a == nil {
				continue
			}
			t := base.desc
			cands = append(cands, candidate{StrategyScoped, LocatorDescriptor{
				Kind:   StrategyScoped,
				Scope:  &LocatorDescriptor{Kind: StrategyCSSPath, Selector: strp(a.Selector)},
				Target: &t,
			}, string(base.strategy) + " inside " + a.Kind + " " + a.Selector, a})
		}
	}
	out := make([]LocatorCandidate, 0, len(cands))
	for i := range cands {
		c := &cands[i]
		score := locatorScores[c.strategy]
		if c.strategy == StrategyScoped {
			score = locatorScores[c.desc.Target.Kind] + scopedPenalty
		}
		framework := "playwright"
		if c.strategy == StrategyCSSID || c.strategy == StrategyCSSPath {
			framework = "css"
		}
		scopes := []LocatorScope{}
		if c.scope != nil {
			scopes = append(scopes, LocatorScope{Kind: c.scope.Kind, Selector: c.scope.Selector, Name: c.scope.Name})
		}
		expr := expression(&c.desc)
		out = append(out, LocatorCandidate{
			LocatorID:  el.ElementID + ".loc-" + hashOf(string(c.strategy), expr)[:8],
			ElementID:  el.ElementID,
			Framework:  framework,
			Strategy:   c.strategy,
			Descriptor: c.desc,
			Expression: expr,
			Score:      score,
			Reason:     c.reason,
			Scopes:     scopes,
			Identity: LocatorIdentity{
				Tag: e.Tag, Role: e.Role, AccessibleName: e.Name, Text: e.Text, Visible: e.Visible,
			},
			Evidence: []Evidence{{EvidenceDerived, "locator-generator", "scoring", LocatorScoringVersion}},
		})
	}
	return out
}

// verifyResult is extract.js's answer for one descriptor.
type verifyResult struct {
	Count       int    `json:"count"`
	TargetIndex int    `json:"targetIndex"`
	Error       string `json:"error"`
	First       *struct {
		Tag     string `json:"tag"`
		Role    string `json:"role"`
		Name    string `json:"name"`
		Text    string `json:"text"`
		Visible bool   `json:"visible"`
	} `json:"first"`
}

// verification is how far the locator verification of one state got.
type verification struct {
	locators int   // candidates of the state
	checked  int   // candidates re-resolved in the page
	pending  []int // per element: its candidates left unverified
	cause    string
}

// left is the number of candidates left unverified.
func (v verification) left() int { return v.locators - v.checked }

// unverifiedElements is the number of elements with a candidate left
// unverified.
func (v verification) unverifiedElements() int {
	n := 0
	for _, p := range v.pending {
		if p > 0 {
			n++
		}
	}
	return n
}

// verifyLocators re-resolves the candidates of the state in one Evaluate,
// in element order, for at most budget of in-page time (then at most
// ActionTimeout for the call), and ranks each element's candidates:
// verified first, then by score. Candidates it did not reach stay
// unverified and say so (applyVerification). ctx's error is returned; a
// verification that failed or ran out of time is not an error.
func (r *run) verifyLocators(ctx context.Context, s *snapshot, budget time.Duration) (verification, error) {
	type item struct {
		Path []int             `json:"path"`
		Desc LocatorDescriptor `json:"desc"`
	}
	var items []item
	for i := range s.elements {
		for _, l := range s.elements[i].Locators {
			items = append(items, item{s.raw.Elements[i].Path, l.Descriptor})
		}
	}
	if len(items) == 0 {
		return applyVerification(s, nil, "", r.now()), nil
	}
	arg := map[string]any{"items": items, "budgetMs": budget.Milliseconds()}
	out, err := r.tab.eval(ctx, r.o.ActionTimeout, extractJS, "verify", arg)
	if err != nil {
		if ctx.Err() != nil {
			return verification{}, ctx.Err()
		}
		return applyVerification(s, nil, err.Error(), r.now()), nil
	}
	var res []verifyResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) > len(items) {
		cause := fmt.Sprintf("decode verification (%d results for %d locators)", len(res), len(items))
		if err != nil {
			cause += ": " + err.Error()
		}
		return applyVerification(s, nil, cause, r.now()), nil
	}
	cause := ""
	if len(res) < len(items) {
		cause = "its in-page budget of " + budget.String() + " was spent"
	}
	return applyVerification(s, res, cause, r.now()), nil
}

// applyVerification records res — the page's answers for the state's
// candidates, in element order, possibly fewer than there are candidates
// — on the candidates, and ranks each element's: verified first, then by
// score. A candidate without an answer keeps verified false, matchCount 0
// and failureCount 0 (it was not tried, so it did not fail) and gets
// "unverified" evidence saying why (cause), so no one reads it as a
// locator that matches nothing.
func applyVerification(s *snapshot, res []verifyResult, cause, now string) verification {
	v := verification{pending: make([]int, len(s.elements)), cause: cause}
	k := 0
	for i := range s.elements {
		locs := s.elements[i].Locators
		v.locators += len(locs)
		for j := range locs {
			l := &locs[j]
			if k >= len(res) {
				v.pending[i]++
				l.Evidence = append(l.Evidence, Evidence{EvidenceObserved, "locator-verifier", "unverified", "verification stopped before this locator: " + cause})
				continue
			}
			r := res[k]
			k++
			v.checked++
			l.MatchCount = r.Count
			if r.First != nil {
				f := r.First
				l.Identity.Matches = r.TargetIndex == 0 ||
					(f.Tag == l.Identity.Tag && f.Role == l.Identity.Role && f.Name == l.Identity.AccessibleName)
			}
			l.Verified = r.Count == 1 && r.TargetIndex == 0
			if l.Verified {
				l.LastVerifiedAt = strp(now)
			} else {
				l.FailureCount = 1
			}
			l.Evidence = append(l.Evidence, Evidence{EvidenceVerified, "locator-verifier", "match-count", strconv.Itoa(r.Count)})
			if r.Error != "" {
				l.Evidence = append(l.Evidence, Evidence{EvidenceObserved, "locator-verifier", "error", r.Error})
			}
		}
		sort.SliceStable(locs, func(a, b int) bool {
			if locs[a].Verified != locs[b].Verified {
				return locs[a].Verified
			}
			return locs[a].Score < locs[b].Score
		})
	}
	return v
}

// bestSemantic returns the lowest-scoring unscoped user-facing candidate.
func bestSemantic(locs []LocatorCandidate) *LocatorCandidate {
	var best *LocatorCandidate
	for i := range locs {
		l := &locs[i]
		switch l.Strategy {
		case StrategyTestID, StrategyRole, StrategyPlaceholder, StrategyLabel, StrategyText:
			if best == nil || l.Score < best.Score {
				best = l
			}
		}
	}
	return best
}
