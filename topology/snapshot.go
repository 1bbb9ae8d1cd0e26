package topology

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/go-rod/rod/lib/proto"
)

//go:embed extract.js
var extractSource string

// extractJS is extract.js with its pagejs helpers inlined.
var extractJS = pagejs.MustInline(extractSource)

// rawSnap is what one in-page extraction returns.
type rawSnap struct {
	URL        string     `json:"url"`
	Canonical  string     `json:"canonical"`
	Route      string     `json:"route"`
	Title      string     `json:"title"`
	Lang       string     `json:"lang"`
	ReadyState string     `json:"readyState"`
	Nodes      int        `json:"nodes"`
	Truncated  bool       `json:"truncated"`
	Candidates int        `json:"candidates"`
	DOMHash    string     `json:"domHash"`
	TextHash   string     `json:"textHash"`
	Modals     []rawModal `json:"modals"`
	Frames     []rawFrame `json:"frames"`
	Elements   []rawEl    `json:"elements"`
}

type rawModal struct {
	Role      string `json:"role"`
	Name      string `json:"name"`
	Selector  string `json:"selector"`
	AriaModal bool   `json:"ariaModal"`
}

type rawFrame struct {
	Src         string `json:"src"`
	CrossOrigin bool   `json:"crossOrigin"`
	Selector    string `json:"selector"`
}

type rawEl struct {
	Path        []int             `json:"path"`
	Tag         string            `json:"tag"`
	Role        string            `json:"role"`
	Name        string            `json:"name"`
	Text        string            `json:"text"`
	Label       *string           `json:"label"`
	Placeholder *string           `json:"placeholder"`
	Attrs       map[string]string `json:"attrs"`
	BBox        [4]int            `json:"bbox"`
	Visible     bool              `json:"visible"`
	Enabled     bool              `json:"enabled"`
	Editable    bool              `json:"editable"`
	Recv        bool              `json:"recv"`
	InView      bool              `json:"inView"`
	By          *string           `json:"by"`
	Sig         string            `json:"sig"`
	CSS         string            `json:"css"`
	CSSID       *string           `json:"cssId"`
	TestID      []string          `json:"testid"`
	Ctx         ElementContext    `json:"ctx"`
	PS          *ParameterSurface `json:"ps"`
}

// snapshot is one captured state: the raw extraction, its fingerprints and,
// for a full capture, the built state node, elements and failures.
type snapshot struct {
	raw       rawSnap
	sigHash   string
	stateHash string
	stateID   string

	full     bool
	state    StateNode
	elements []ActionableElement
	fails    []FailedObservation

	// What ScanOptions.StateScript (or Session.Read's script) answered in the
	// same Evaluate, or the error it threw.
	script    string
	scriptErr error
	// maxElements is the bound the extraction ran with.
	maxElements int
}

// extractArg is the argument of extract.js's "extract" operation.
func extractArg(maxElements int) map[string]int {
	return map[string]int{"maxElements": maxElements, "maxNodes": maxHashedNodes}
}

// extract runs the one in-page extraction and fingerprints the result. It is
// all a reset check needs.
func (r *run) extract(ctx context.Context) (*snapshot, error) {
	out, err := r.tab.eval(ctx, r.o.ActionTimeout, extractJS, "extract", extractArg(r.o.MaxElements))
	if err != nil {
		return nil, err
	}
	return decodeSnapshot(out, r.o.MaxElements)
}

// extractWith is extract that also runs script (see ScanOptions.StateScript)
// in the same Evaluate; without a script it is extract.
func (r *run) extractWith(ctx context.Context, script string) (*snapshot, error) {
	if script == "" {
		return r.extract(ctx)
	}
	return extractWith(ctx, r.tab, r.o.ActionTimeout, r.o.MaxElements, script)
}

// extractWith runs the engine's extraction and script in one in-page
// Evaluate (Command Line API in scope) on t.
func extractWith(ctx context.Context, t *tab, d time.Duration, maxElements int, script string) (*snapshot, error) {
	arg, err := json.Marshal(extractArg(maxElements))
	if err != nil {
		return nil, err
	}
	fn := `() => {
  const own = (` + extractJS + `)("extract", ` + string(arg) + `);
  const wrap = (theirs, err) => '{"own":' + own + ',"theirs":' + JSON.stringify(theirs) + ',"err":' + JSON.stringify(err) + '}';
  try {
    return Promise.resolve((` + script + `)()).then((v) => wrap(String(v), ""), (e) => wrap("", String(e && e.message || e).slice(0, 300)));
  } catch (e) { return wrap("", String(e && e.message || e).slice(0, 300)); }
}`
	out, err := t.evalFn(ctx, d, fn)
	if err != nil {
		return nil, err
	}
	var both struct {
		Own    json.RawMessage `json:"own"`
		Theirs string          `json:"theirs"`
		Err    string          `json:"err"`
	}
	if err := json.Unmarshal([]byte(out), &both); err != nil {
		return nil, fmt.Errorf("topology: decode extraction: %w", err)
	}
	s, err := decodeSnapshot(string(both.Own), maxElements)
	if err != nil {
		return nil, err
	}
	s.script = both.Theirs
	if both.Err != "" {
		s.scriptErr = fmt.Errorf("%w: %s", ErrStateScript, both.Err)
	}
	return s, nil
}

// ErrStateScript reports that ScanOptions.StateScript (or Session.Read's
// script) threw in the page.
var ErrStateScript = errors.New("topology: the state script threw")

// decodeSnapshot reads one extraction and fingerprints it.
func decodeSnapshot(out string, maxElements int) (*snapshot, error) {
	s := &snapshot{maxElements: maxElements}
	if err := json.Unmarshal([]byte(out), &s.raw); err != nil {
		return nil, fmt.Errorf("topology: decode extraction: %w", err)
	}
	sigs := make([]string, len(s.raw.Elements))
	for i, e := range s.raw.Elements {
		sigs[i] = e.Sig + "@" + e.CSS
	}
	s.sigHash = hashOf(sigs...)
	modal := make([]string, len(s.raw.Modals))
	for i, m := range s.raw.Modals {
		modal[i] = m.Role + "|" + m.Name + "|" + m.Selector
	}
	s.stateHash = hashOf(s.raw.Canonical, s.raw.DOMHash, s.raw.TextHash, s.sigHash, strings.Join(modal, "\n"))
	s.stateID = "state-" + s.stateHash[:12]
	return s, nil
}

// maxAXNodes is the largest document (in elements) whose DOM snapshot and
// accessibility tree a capture asks for.
const maxAXNodes = 20000

// maxHashedNodes bounds the DOM walk of one extraction (huge DOMs are hashed
// up to it and recorded as dom-truncated).
const maxHashedNodes = 60000

// axInfo is the browser's own accessibility view of one element.
type axInfo struct {
	role, name string
}

// axIndex maps child-index paths (as extract.js's childPath) to the
// accessibility tree's role and name, from one DOMSnapshot and one
// Accessibility.getFullAXTree: two round trips for the whole page.
func (r *run) axIndex(ctx context.Context) (map[string]axInfo, error) {
	snap, err := proto.DOMSnapshotCaptureSnapshot{ComputedStyles: []string{}}.Call(step(ctx, r.tab.page, r.o.ActionTimeout))
	if err != nil {
		return nil, fmt.Errorf("dom snapshot: %w", err)
	}
	if len(snap.Documents) == 0 {
		return nil, fmt.Errorf("dom snapshot: no document")
	}
	n := snap.Documents[0].Nodes
	paths := make([]string, len(n.ParentIndex))
	valid := make([]bool, len(n.ParentIndex))
	kids := make([]int, len(n.ParentIndex))
	byBackend := map[proto.DOMBackendNodeID]string{}
	for i, p := range n.ParentIndex {
		if i >= len(n.NodeType) || i >= len(n.NodeName) || i >= len(n.BackendNodeID) {
			break
		}
		switch {
		case p < 0:
			valid[i] = n.NodeType[i] == 9 // the document itself
		case n.NodeType[i] == 1 && valid[p] && !strings.HasPrefix(snap.Strings[n.NodeName[i]], "::"):
			paths[i] = paths[p] + "/" + strconv.Itoa(kids[p])
			kids[p]++
			valid[i] = true
			byBackend[n.BackendNodeID[i]] = paths[i]
		}
	}
	tree, err := proto.AccessibilityGetFullAXTree{}.Call(step(ctx, r.tab.page, r.o.ActionTimeout))
	if err != nil {
		return nil, fmt.Errorf("accessibility tree: %w", err)
	}
	out := map[string]axInfo{}
	for _, a := range tree.Nodes {
		if a.Ignored || a.BackendDOMNodeID == 0 {
			continue
		}
		path, ok := byBackend[a.BackendDOMNodeID]
		if !ok {
			continue
		}
		info := axInfo{role: axString(a.Role), name: axString(a.Name)}
		if info.role == "" || info.role == "generic" || info.role == "none" {
			continue
		}
		out[path] = info
	}
	return out, nil
}

func axString(v *proto.AccessibilityAXValue) string {
	if v == nil {
		return ""
	}
	return normSpace(v.Value.Str())
}

func pathKey(p []int) string {
	var b strings.Builder
	for _, i := range p {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// capture takes a full snapshot of the current page state: extraction
// (with ScanOptions.StateScript, in the same Evaluate), accessibility tree,
// locators and their verification (one more Evaluate). In Light mode the
// extraction is all.
func (r *run) capture(ctx context.Context) (*snapshot, error) {
	s, err := r.extractWith(ctx, r.o.StateScript)
	if err != nil {
		return nil, err
	}
	return r.complete(ctx, s)
}

// complete builds the state node, elements and failures of an extracted
// snapshot (the accessibility tree and locator verification too unless
// Light).
func (r *run) complete(ctx context.Context, s *snapshot) (*snapshot, error) {
	s.full = true
	now := r.now()
	st := StateNode{
		StateID:                 s.stateID,
		Lifecycle:               LifecycleFingerprinted,
		URL:                     s.raw.URL,
		Route:                   s.raw.Route,
		URLCanonicalKey:         s.raw.Canonical,
		Title:                   s.raw.Title,
		Language:                s.raw.Lang,
		Viewport:                r.o.Viewport,
		StateHash:               s.stateHash,
		DOMHash:                 s.raw.DOMHash,
		VisibleTextHash:         s.raw.TextHash,
		ActionableSignatureHash: s.sigHash,
		ModalStack:              []ModalContext{},
		FrameContext:            []string{},
		CreatedAt:               now,
		Evidence: []Evidence{
			{EvidenceObserved, "dom", "ready-state", s.raw.ReadyState},
			{EvidenceObserved, "dom", "element-count", strconv.Itoa(s.raw.Nodes)},
			{EvidenceObserved, "dom", "actionable-candidates", strconv.Itoa(s.raw.Candidates)},
			{EvidenceObserved, "dom", "frame-count", strconv.Itoa(len(s.raw.Frames))},
			{EvidenceDerived, "normalizer", "rules", NormalizationRuleVersion},
		},
	}
	for _, m := range s.raw.Modals {
		st.ModalStack = append(st.ModalStack, ModalContext{Role: m.Role, AccessibleName: m.Name, Selector: m.Selector, AriaModal: m.AriaModal})
	}
	stateID := s.stateID
	fail := func(reason FailReason, elementID *string, msg string, ev ...Evidence) {
		s.fails = append(s.fails, r.failure(&stateID, elementID, nil, reason, msg, ev...))
	}
	if s.raw.Truncated || s.raw.Candidates > len(s.raw.Elements) {
		msg := fmt.Sprintf("huge DOM: %d actionable candidates, %d extracted (MaxElements %d)", s.raw.Candidates, len(s.raw.Elements), r.o.MaxElements)
		if s.raw.Truncated {
			msg += fmt.Sprintf("; hashing and extraction stopped after %d elements", maxHashedNodes)
		}
		fail(FailDOMTruncated, nil, msg,
			Evidence{EvidenceObserved, "dom", "actionable-candidates", strconv.Itoa(s.raw.Candidates)})
	}
	for _, f := range s.raw.Frames {
		if f.CrossOrigin {
			fail(FailFrameInaccessible, nil, "cross-origin iframe: its document is not readable from the page and is not explored",
				Evidence{EvidenceObserved, "dom", "frame-src", f.Src}, Evidence{EvidenceObserved, "dom", "frame-selector", f.Selector})
		}
	}

	var ax map[string]axInfo
	var axErr error
	switch {
	case r.o.Light:
	case s.raw.Nodes > maxAXNodes:
		// A DOM snapshot and AX tree of a huge document are tens of
		// megabytes over CDP: roles and names stay the in-page ones.
		st.Evidence = append(st.Evidence, Evidence{EvidenceObserved, "ax-tree", "skipped", fmt.Sprintf("%d elements > %d: roles and names from the in-page computation", s.raw.Nodes, maxAXNodes)})
	default:
		ax, axErr = r.axIndex(ctx)
	}
	if axErr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		st.Evidence = append(st.Evidence, Evidence{EvidenceObserved, "ax-tree", "unavailable", axErr.Error()})
		fail(FailTimedOut, nil, "accessibility tree unavailable; roles and names fall back to the in-page computation: "+axErr.Error())
	}
	obscuredByModal := func(sel *string) bool {
		if sel == nil {
			return false
		}
		for _, m := range s.raw.Modals {
			if *sel == m.Selector || strings.HasPrefix(*sel, m.Selector+" > ") {
				return true
			}
		}
		return false
	}

	s.elements = make([]ActionableElement, len(s.raw.Elements))
	for i := range s.raw.Elements {
		e := &s.raw.Elements[i]
		el := r.element(stateID, e, ax[pathKey(e.Path)])
		s.elements[i] = el
		id := el.ElementID
		switch {
		case !e.Visible:
			fail(FailHidden, &id, fmt.Sprintf("%s %q is not visible", e.Tag, el.AccessibleName))
		case !e.Enabled:
			fail(FailDisabled, &id, fmt.Sprintf("%s %q is disabled", e.Tag, el.AccessibleName))
		case !e.Recv && e.By != nil && !obscuredByModal(e.By):
			fail(FailCovered, &id, fmt.Sprintf("%s %q is covered by %s", e.Tag, el.AccessibleName, *e.By),
				Evidence{EvidenceObserved, "dom", "hit-test", *e.By})
		}
	}
	if r.o.Light {
		s.state = st
		return s, nil
	}
	v, err := r.verifyLocators(ctx, s, r.verifyBudget)
	if err != nil {
		return nil, err
	}
	if left := v.left(); left > 0 {
		// Said once for the state, with the counts: an unverified locator
		// is neither not-found nor ambiguous, and none is reported so.
		n, elems := strconv.Itoa(left), strconv.Itoa(v.unverifiedElements())
		fail(FailTimedOut, nil, fmt.Sprintf("locator verification did not finish (%s): %d of %d locators, on %s of %d elements, left unverified; they are not reported as not-found or ambiguous",
			v.cause, left, v.locators, elems, len(s.elements)),
			Evidence{EvidenceObserved, "locator-verifier", "unverified-locators", n},
			Evidence{EvidenceObserved, "locator-verifier", "unverified-elements", elems},
			Evidence{EvidenceObserved, "locator-verifier", "verified-locators", strconv.Itoa(v.checked)})
		st.Evidence = append(st.Evidence, Evidence{EvidenceObserved, "locator-verifier", "unverified-locators", n})
	}
	for i := range s.elements {
		el := &s.elements[i]
		if !s.raw.Elements[i].Visible || v.pending[i] > 0 {
			continue // not visible, or not (entirely) verified: no claim
		}
		if best := bestSemantic(el.Locators); best != nil && best.MatchCount != 1 {
			id := el.ElementID
			reason, what := FailAmbiguous, fmt.Sprintf("matches %d elements", best.MatchCount)
			if best.MatchCount == 0 {
				reason, what = FailNotFound, "matches no element"
			}
			fail(reason, &id, fmt.Sprintf("best semantic locator %s %s", best.Expression, what),
				Evidence{EvidenceVerified, "locator-verifier", "match-count", strconv.Itoa(best.MatchCount)})
		}
	}
	s.state = st
	return s, nil
}

// element builds an ActionableElement from the raw extraction and the
// accessibility tree (which wins for role and name when it has the node).
func (r *run) element(stateID string, e *rawEl, ax axInfo) ActionableElement {
	role, name := e.Role, e.Name
	ev := []Evidence{{EvidenceObserved, "dom", "css-path", e.CSS}}
	if ax.role != "" {
		role, name = ax.role, ax.name
		ev = append(ev, Evidence{EvidenceObserved, "ax-tree", "role", ax.role})
		if ax.name != e.Name {
			ev = append(ev, Evidence{EvidenceDerived, "dom", "in-page-name", e.Name})
		}
	} else {
		ev = append(ev, Evidence{EvidenceDerived, "dom", "role-source", "in-page computation (no accessibility node)"})
	}
	if role == "" {
		role = e.Tag
	}
	attrs := e.Attrs
	if attrs == nil {
		attrs = map[string]string{}
	}
	ps := e.PS
	if ps != nil && ps.Options == nil {
		ps.Options = []OptionChoice{}
	}
	el := ActionableElement{
		ElementID:      stateID + ".el-" + hashOf(e.Sig, e.CSS)[:10],
		StateID:        stateID,
		Tag:            e.Tag,
		Role:           role,
		AccessibleName: name,
		Text:           e.Text,
		Label:          e.Label,
		Placeholder:    e.Placeholder,
		Attributes:     attrs,
		BBox:           BBox{X: e.BBox[0], Y: e.BBox[1], Width: e.BBox[2], Height: e.BBox[3]},
		FramePath:      []string{},
		ShadowPath:     []string{},
		Interactability: Interactability{
			Visible: e.Visible, Enabled: e.Enabled, Editable: e.Editable,
			ReceivesEvents: e.Recv, InViewport: e.InView, ObscuredBy: e.By,
		},
		Context:          e.Ctx,
		ParameterSurface: ps,
		Evidence:         ev,
	}
	el.Locators = buildLocators(&el, e)
	return el
}
