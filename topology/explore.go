package topology

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// replayStep is one click on the way from the entry state to a deeper state,
// with the state hash it must lead to.
type replayStep struct {
	path      []int
	elementID string
	wantHash  string
}

type queued struct {
	idx   int
	depth int
	path  []replayStep
}

const actionClick = "click"

// explore clicks every safe element of each state, breadth first from the
// entry state, each from a clean, verified entry state.
func (r *run) explore(ctx context.Context, entry int) error {
	entryKeys := map[string]bool{}
	for _, e := range r.snaps[entry].raw.Elements {
		entryKeys[e.Sig+"@"+e.CSS] = true
	}
	queue := []queued{{idx: entry}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur.depth >= r.o.MaxDepth {
			continue
		}
		snap := r.snaps[cur.idx]
		for i := range snap.elements {
			if ctx.Err() != nil || r.dead {
				return nil
			}
			raw := &snap.raw.Elements[i]
			// Deeper states only explore what they added: the rest was
			// explored from the entry state already.
			if cur.idx != entry && entryKeys[raw.Sig+"@"+raw.CSS] {
				continue
			}
			el := &snap.elements[i]
			if !raw.Visible || !raw.Enabled || !raw.Recv {
				continue // recorded as hidden/disabled/covered when captured
			}
			risk := ClassifyRisk(el, snap.raw.URL)
			if reason := r.refusal(risk); reason != "" {
				r.g.SkippedActions = append(r.g.SkippedActions, SkippedAction{
					SkippedActionID: idOf("skip", snap.stateID, el.ElementID, actionClick),
					StateID:         snap.stateID, ElementID: el.ElementID, ActionType: actionClick,
					RiskLevel: risk.Level, RiskCategory: risk.Category, Reason: reason,
					Evidence: risk.Evidence, CreatedAt: r.now(),
				})
				continue
			}
			if len(r.g.Edges) >= r.o.MaxEdges {
				r.budget("edges", fmt.Sprintf("MaxEdges (%d) reached; remaining safe actions were not executed", r.o.MaxEdges))
				return nil
			}
			next, err := r.edge(ctx, cur, i, risk)
			if err != nil {
				return err
			}
			if next != nil {
				queue = append(queue, *next)
			}
		}
	}
	return nil
}

// refusal is why Explore will not click an element ("" when it will).
func (r *run) refusal(risk Risk) string {
	if !risk.Explorable() {
		return risk.SkipReason()
	}
	if len(r.o.ExploreOnly) > 0 && !slices.Contains(r.o.ExploreOnly, risk.Category) {
		return "excluded:" + string(risk.Category)
	}
	return ""
}

func (r *run) budget(kind, msg string) {
	if r.budgetHit[kind] {
		return
	}
	r.budgetHit[kind] = true
	r.addFailure(r.failure(nil, nil, nil, FailBudgetExhausted, msg))
}

// edge replays the path to cur from a clean entry state, clicks element i
// and records the edge. It returns the new state to explore, if any.
func (r *run) edge(ctx context.Context, cur queued, i int, risk Risk) (*queued, error) {
	from := r.snaps[cur.idx]
	el := &from.elements[i]
	sid, eid, act := from.stateID, el.ElementID, actionClick
	confidence := 1.0
	if r.untouched && len(cur.path) == 0 {
		r.untouched = false // the page still shows the entry state as captured
	} else {
		r.untouched = false
		switch r.reset(ctx) {
		case resetFailed:
			return nil, nil
		case resetDrifted:
			confidence = 0.5
		}
	}
	for _, st := range cur.path {
		if !r.click(ctx, st.path, &sid, &st.elementID) {
			return nil, nil
		}
		if s := r.tab.settleAfterClick(ctx, r.o.ActionTimeout); s.stuck {
			r.stuck(ctx, &sid, &eid, &act, "page stopped answering while replaying the path to "+sid)
			return nil, nil
		}
		got, err := r.extract(ctx)
		if err != nil || got.stateHash != st.wantHash {
			msg := "replaying the path did not reach the recorded state"
			if err != nil {
				msg += ": " + err.Error()
			}
			r.addFailure(r.failure(&sid, &eid, &act, FailReplayDiverged, msg))
			return nil, nil
		}
	}
	r.tab.drain()
	if !r.click(ctx, from.raw.Elements[i].Path, &sid, &eid) {
		return nil, nil
	}
	settle := r.tab.settleAfterClick(ctx, r.o.ActionTimeout)
	if settle.stuck {
		r.stuck(ctx, &sid, &eid, &act, "page stopped answering after the click")
		return nil, nil
	}
	after, err := r.capture(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		r.stuck(ctx, &sid, &eid, &act, "capturing the state after the click failed: "+err.Error())
		return nil, nil
	}
	edgeID := idOf("edge", sid, eid, act)
	e := ActionEdge{
		EdgeID: edgeID, FromStateID: sid, ElementID: eid, ActionType: act,
		ActionParams:  map[string]string{"button": "left", "clickCount": "1"},
		Preconditions: []string{"entry-state:" + r.snaps[0].stateHash}, ParameterSpecs: []ParameterSpec{},
		Effects: effects(from, after), RiskLevel: risk.Level, RiskCategory: risk.Category,
		Confidence: confidence, CreatedAt: r.now(),
		Evidence: append([]Evidence{{EvidenceObserved, "explorer", "replayed-from", "clean entry state"}}, risk.Evidence...),
	}
	for _, st := range cur.path {
		e.Preconditions = append(e.Preconditions, "state-after:"+st.elementID+":"+st.wantHash)
	}
	var next *queued
	if idx, ok := r.byHash[after.stateHash]; ok {
		e.ToStateID = strp(r.g.States[idx].StateID)
	} else if len(r.g.States) >= r.o.MaxStates {
		r.budget("states", fmt.Sprintf("MaxStates (%d) reached; states reached afterwards are not recorded", r.o.MaxStates))
	} else {
		idx := r.addState(after, &edgeID)
		e.ToStateID = strp(after.stateID)
		to := after.stateID
		if settle.loading {
			r.addFailure(r.failure(&to, nil, nil, FailLoadTimeout, "the page reached by "+eid+" never finished loading within "+r.o.ActionTimeout.String()))
		}
		if err := r.onState(ctx, idx); err != nil {
			return nil, err
		}
		path := append(append([]replayStep{}, cur.path...), replayStep{from.raw.Elements[i].Path, eid, after.stateHash})
		next = &queued{idx: idx, depth: cur.depth + 1, path: path}
	}
	r.recordPageEvents(&sid, &eid, &act)
	r.g.Edges = append(r.g.Edges, e)
	return next, nil
}

func effects(before, after *snapshot) []EffectRecord {
	out := []EffectRecord{}
	add := func(t EffectType, b, a, what string) {
		if b != a {
			out = append(out, EffectRecord{Type: t, Before: b, After: a, Description: what})
		}
	}
	add(EffectURL, before.raw.URL, after.raw.URL, "URL changed")
	add(EffectDOM, before.raw.DOMHash, after.raw.DOMHash, "DOM structure or attributes changed")
	add(EffectVisibleText, before.raw.TextHash, after.raw.TextHash, "visible text changed")
	add(EffectActionableInventory, before.sigHash, after.sigHash,
		fmt.Sprintf("actionable inventory changed (%d → %d elements)", len(before.raw.Elements), len(after.raw.Elements)))
	return out
}

type resetOutcome int

const (
	resetOK      resetOutcome = iota
	resetDrifted              // entry differs in text or DOM, same actionable inventory
	resetFailed
)

// reset returns the reused tab to a clean entry state: storage and cookies
// of the run's context cleared, stray popups closed, the entry URL loaded,
// and its state hash compared with the recorded entry state.
func (r *run) reset(ctx context.Context) resetOutcome {
	entry := r.snaps[0]
	sid := entry.stateID
	// A step that fails leaves the replay from a context that may not be
	// clean: it is recorded (once per step and run), and the entry state
	// hash check below still decides whether the edge is kept.
	if _, err := r.tab.eval(ctx, time.Second, `() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} return ''; }`); err != nil {
		r.resetStepFailed(ctx, sid, "clear localStorage and sessionStorage", err)
	}
	if err := (proto.StorageClearCookies{BrowserContextID: r.b.BrowserContextID}).Call(r.b.Context(ctx).Timeout(r.o.ActionTimeout)); err != nil {
		r.resetStepFailed(ctx, sid, "Storage.clearCookies", err)
	}
	if err := (proto.StorageClearDataForOrigin{Origin: r.origin, StorageTypes: "all"}).Call(step(ctx, r.tab.page, r.o.ActionTimeout)); err != nil {
		r.resetStepFailed(ctx, sid, "Storage.clearDataForOrigin", err)
	}
	if err := r.closePopups(ctx); err != nil {
		r.resetStepFailed(ctx, sid, "close popup tabs", err)
	}
	nav := r.tab.navigate(ctx, r.entry.String())
	if nav.navErr != nil {
		reason := FailNavigationFailed
		if nav.navErr.Timeout {
			reason = FailNavigationTimeout
		}
		r.addFailure(r.failure(&sid, nil, nil, reason, "reset to the entry state: "+nav.navErr.Error()))
		return resetFailed
	}
	if nav.settle.stuck {
		r.stuck(ctx, &sid, nil, nil, "entry page did not answer during reset")
		return resetFailed
	}
	got, err := r.extract(ctx)
	r.tab.drain() // the entry's own dialogs were recorded once already
	if err != nil {
		r.stuck(ctx, &sid, nil, nil, "entry extraction failed during reset: "+err.Error())
		return resetFailed
	}
	r.entryChecks++
	if got.stateHash == entry.stateHash {
		return resetOK
	}
	r.entryMismatches++
	r.addFailure(r.failure(&sid, nil, nil, FailEntryMismatch, "after reset the entry state hash differs from the recorded one",
		Evidence{EvidenceVerified, "explorer", "expected-state-hash", entry.stateHash},
		Evidence{EvidenceVerified, "explorer", "observed-state-hash", got.stateHash}))
	if got.sigHash == entry.sigHash {
		return resetDrifted
	}
	return resetFailed
}

// resetStepFailed records, once per step and run, a reset step that failed
// (the reset goes on: the entry state check decides).
func (r *run) resetStepFailed(ctx context.Context, stateID, what string, err error) {
	if ctx.Err() != nil || r.noted["reset:"+what] {
		return // the run is ending, or said already
	}
	r.noted["reset:"+what] = true
	r.addFailure(r.failure(&stateID, nil, nil, FailActionFailed, "reset to the entry state: "+what+" failed (the replays may not start from a clean context): "+err.Error()))
}

// closePopups closes every other page of the run's browser context (windows
// a previous click opened), and says what it could not close.
func (r *run) closePopups(ctx context.Context) error {
	res, err := proto.TargetGetTargets{}.Call(r.b.Context(ctx).Timeout(r.o.ActionTimeout))
	if err != nil {
		return fmt.Errorf("list targets: %w", err)
	}
	var errs []error
	for _, t := range res.TargetInfos {
		if t.Type == proto.TargetTargetInfoTypePage && t.BrowserContextID == r.b.BrowserContextID && t.TargetID != r.tab.page.TargetID {
			if _, err := (proto.TargetCloseTarget{TargetID: t.TargetID}).Call(r.b.Timeout(r.o.ActionTimeout)); err != nil {
				errs = append(errs, fmt.Errorf("close %s: %w", t.URL, err))
			}
		}
	}
	return errors.Join(errs...)
}

const resolvePathJS = `(p) => { let n = document; for (const i of p) { n = n && n.children ? n.children[i] : null; } return n; }`

// click finds the element at a child-index path and clicks it like a user
// (scroll into view, wait until interactable, mouse press and release). A
// failure is recorded against stateID/elementID and reported as false.
func (r *run) click(ctx context.Context, path []int, stateID, elementID *string) bool {
	act := actionClick
	p := step(ctx, r.tab.page, r.o.ActionTimeout).Sleeper(rod.NotFoundSleeper)
	el, err := p.ElementByJS(rod.Eval(resolvePathJS, path))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			r.stuck(ctx, stateID, elementID, &act, "page did not answer while locating the element")
			return false
		}
		r.addFailure(r.failure(stateID, elementID, &act, FailNotFound, "element not found at replay: "+err.Error()))
		return false
	}
	// Not el.Click: rod's Mouse runs under the context the tab was created
	// with, not the bound set here (see createPage); ClickAt sends each
	// event under this click's own bound.
	cctx, cancel := context.WithTimeout(ctx, r.o.ActionTimeout)
	defer cancel()
	ec := el.Context(cctx)
	pt, err := ec.WaitInteractable()
	if err == nil {
		err = ec.WaitEnabled()
	}
	if err == nil {
		err = ClickAt(cctx, r.tab.page, pt.X, pt.Y, r.o.ActionTimeout)
	}
	if err == nil {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	reason := FailActionFailed
	if _, ierr := el.Context(ctx).Timeout(time.Second).Interactable(); ierr != nil {
		var cov *rod.CoveredError
		var inv *rod.InvisibleShapeError
		var noi *rod.NotInteractableError
		switch {
		case errors.As(ierr, &cov), errors.As(ierr, &noi):
			reason = FailCovered
		case errors.As(ierr, &inv):
			reason = FailHidden
		case errors.Is(ierr, context.DeadlineExceeded):
			r.stuck(ctx, stateID, elementID, &act, "page stopped answering during the click")
			return false
		}
	} else if errors.Is(err, context.DeadlineExceeded) {
		reason = FailTimedOut
	}
	r.addFailure(r.failure(stateID, elementID, &act, reason, "click failed: "+err.Error(),
		Evidence{EvidenceObserved, "cdp", "attempt-timeout", strconv.FormatInt(r.o.ActionTimeout.Milliseconds(), 10) + "ms"}))
	return false
}
