package topology

// The types in this file are the Topology Graph v0.2 artifact, field for field
// as described in shared/seeds/topology-graph-schema.md. Every field is always
// present in JSON: nullable scalars are pointers (null spells absence) and
// lists are empty arrays, never null.

// Versions stamped into every artifact. They change whenever the meaning of the
// corresponding output changes, so a consumer can tell two artifacts apart.
const (
	SchemaVersion            = "0.2"
	ArtifactVersion          = "topology-graph-v0.2"
	RiskPolicyVersion        = "risk-policy-v0.2"
	NormalizationRuleVersion = "normalization-v0.2"
	LocatorScoringVersion    = "locator-scoring-v0.2"
	// EngineVersion names this implementation (not the artifact format).
	EngineVersion = "frontlatch-topology/0.2.0 (go-rod v0.116.2)"
)

// Mode is the kind of run that produced a graph.
type Mode string

// modes.
const (
	ModeScan    Mode = "scan"
	ModeExplore Mode = "explore"
)

// modes lists every Mode (the JSON Schema enum is generated from it).
var modes = []Mode{ModeScan, ModeExplore}

// EvidenceLevel says how a fact was obtained.
type EvidenceLevel string

// Evidence levels.
const (
	EvidenceObserved  EvidenceLevel = "observed"
	EvidenceDerived   EvidenceLevel = "derived"
	EvidenceVerified  EvidenceLevel = "verified"
	EvidenceHeuristic EvidenceLevel = "heuristic"
	EvidenceExternal  EvidenceLevel = "external"
)

// evidenceLevels lists every EvidenceLevel.
var evidenceLevels = []EvidenceLevel{EvidenceObserved, EvidenceDerived, EvidenceVerified, EvidenceHeuristic, EvidenceExternal}

// Lifecycle is a state's standing in the current run.
type Lifecycle string

// State lifecycles.
const (
	LifecycleObserved      Lifecycle = "observed"
	LifecycleFingerprinted Lifecycle = "fingerprinted"
	LifecycleVerified      Lifecycle = "verified"
	LifecycleStale         Lifecycle = "stale"
	LifecycleDeprecated    Lifecycle = "deprecated"
	LifecycleConflicted    Lifecycle = "conflicted"
)

// lifecycles lists every Lifecycle.
var lifecycles = []Lifecycle{LifecycleObserved, LifecycleFingerprinted, LifecycleVerified, LifecycleStale, LifecycleDeprecated, LifecycleConflicted}

// EffectType is the kind of snapshot difference an edge produced.
type EffectType string

// Effect types (v0.2 emits snapshot-diff effects only).
const (
	EffectURL                 EffectType = "url"
	EffectDOM                 EffectType = "dom"
	EffectVisibleText         EffectType = "visibleText"
	EffectActionableInventory EffectType = "actionableInventory"
)

// effectTypes lists every EffectType.
var effectTypes = []EffectType{EffectURL, EffectDOM, EffectVisibleText, EffectActionableInventory}

// Graph is a Topology Graph v0.2.
type Graph struct {
	SchemaVersion      string              `json:"schemaVersion"`
	Metadata           Metadata            `json:"metadata"`
	States             []StateNode         `json:"states"`
	Elements           []ActionableElement `json:"elements"`
	Edges              []ActionEdge        `json:"edges"`
	SkippedActions     []SkippedAction     `json:"skippedActions"`
	FailedObservations []FailedObservation `json:"failedObservations"`
	Summary            Summary             `json:"summary"`
}

// Metadata identifies the run and the rules that produced the graph.
type Metadata struct {
	ArtifactVersion          string         `json:"artifactVersion"`
	InputURL                 string         `json:"inputUrl"`
	EntryURL                 string         `json:"entryUrl"`
	GeneratedAt              string         `json:"generatedAt"`
	EngineVersion            string         `json:"engineVersion"`
	Mode                     Mode           `json:"mode"`
	CrawlSessionID           string         `json:"crawlSessionId"`
	InputSeed                string         `json:"inputSeed"`
	InputFingerprint         string         `json:"inputFingerprint"`
	RuntimeContext           RuntimeContext `json:"runtimeContext"`
	Site                     Site           `json:"site"`
	RiskPolicyVersion        string         `json:"riskPolicyVersion"`
	NormalizationRuleVersion string         `json:"normalizationRuleVersion"`
	LocatorScoringVersion    string         `json:"locatorScoringVersion"`
}

// RuntimeContext is the browser environment the graph was observed in.
type RuntimeContext struct {
	BrowserEngine  string   `json:"browserEngine"`
	BrowserVersion string   `json:"browserVersion"`
	Viewport       Viewport `json:"viewport"`
	Locale         string   `json:"locale"`
	Timezone       string   `json:"timezone"`
	// AuthContext is "anonymous": the engine never logs in.
	AuthContext string `json:"authContext"`
	Offline     bool   `json:"offline"`
}

// Viewport is a CSS-pixel window size.
type Viewport struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Site is the origin the run was anchored on.
type Site struct {
	BaseURL  string `json:"baseUrl"`
	EntryURL string `json:"entryUrl"`
}

// Evidence is one fact backing a claim.
type Evidence struct {
	Level EvidenceLevel `json:"level"`
	// Source is where the fact came from: dom, ax-tree, dom-snapshot, cdp,
	// risk-policy, locator-verifier, normalizer, explorer.
	Source string `json:"source"`
	// Fact is a machine-readable key, e.g. "modal-count".
	Fact  string `json:"fact"`
	Value string `json:"value"`
}

// StateNode is one observed page state.
type StateNode struct {
	StateID                 string         `json:"stateId"`
	Lifecycle               Lifecycle      `json:"lifecycle"`
	URL                     string         `json:"url"`
	Route                   string         `json:"route"`
	URLCanonicalKey         string         `json:"urlCanonicalKey"`
	Title                   string         `json:"title"`
	Language                string         `json:"language"`
	Viewport                Viewport       `json:"viewport"`
	StateHash               string         `json:"stateHash"`
	DOMHash                 string         `json:"domHash"`
	VisibleTextHash         string         `json:"visibleTextHash"`
	ActionableSignatureHash string         `json:"actionableSignatureHash"`
	ModalStack              []ModalContext `json:"modalStack"`
	FrameContext            []string       `json:"frameContext"`
	OpenedByEdgeID          *string        `json:"openedByEdgeId" jsonschema:"nullable"`
	CreatedAt               string         `json:"createdAt"`
	Evidence                []Evidence     `json:"evidence"`
}

// ModalContext is one visible modal (dialog, alertdialog, aria-modal) of a
// state, outermost first.
type ModalContext struct {
	Role           string `json:"role"`
	AccessibleName string `json:"accessibleName"`
	Selector       string `json:"selector"`
	AriaModal      bool   `json:"ariaModal"`
}

// ActionableElement is an element a user could act on, bound to a state.
type ActionableElement struct {
	ElementID        string             `json:"elementId"`
	StateID          string             `json:"stateId"`
	Tag              string             `json:"tag"`
	Role             string             `json:"role"`
	AccessibleName   string             `json:"accessibleName"`
	Text             string             `json:"text"`
	Label            *string            `json:"label" jsonschema:"nullable"`
	Placeholder      *string            `json:"placeholder" jsonschema:"nullable"`
	Attributes       map[string]string  `json:"attributes"`
	BBox             BBox               `json:"bbox"`
	FramePath        []string           `json:"framePath"`
	ShadowPath       []string           `json:"shadowPath"`
	Interactability  Interactability    `json:"interactability"`
	Context          ElementContext     `json:"context"`
	ParameterSurface *ParameterSurface  `json:"parameterSurface" jsonschema:"nullable"`
	Locators         []LocatorCandidate `json:"locators"`
	Evidence         []Evidence         `json:"evidence"`
}

// BBox is an element's border box in page (document) CSS pixels, rounded.
type BBox struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Interactability says whether a user could act on the element now.
type Interactability struct {
	Visible  bool `json:"visible"`
	Enabled  bool `json:"enabled"`
	Editable bool `json:"editable"`
	// ReceivesEvents is true when a hit test at the element's centre lands on
	// it (or inside it). Elements outside the viewport are not hit-tested:
	// they receive events unless pointer-events or inert forbid it.
	ReceivesEvents bool `json:"receivesEvents"`
	InViewport     bool `json:"inViewport"`
	// ObscuredBy is a CSS path of the element the hit test landed on instead.
	ObscuredBy *string `json:"obscuredBy" jsonschema:"nullable"`
}

// ElementContext holds the nearest anchor of each kind around an element.
type ElementContext struct {
	Dialog   *Anchor `json:"dialog" jsonschema:"nullable"`
	Form     *Anchor `json:"form" jsonschema:"nullable"`
	Section  *Anchor `json:"section" jsonschema:"nullable"`
	Row      *Anchor `json:"row" jsonschema:"nullable"`
	Landmark *Anchor `json:"landmark" jsonschema:"nullable"`
	ListItem *Anchor `json:"listItem" jsonschema:"nullable"`
}

// Anchor is a containing element that scopes an element.
type Anchor struct {
	Kind     string `json:"kind"`
	Tag      string `json:"tag"`
	Role     string `json:"role"`
	Name     string `json:"name"`
	Selector string `json:"selector"`
}

// ParameterSurface is the input constraint surface of a form control.
type ParameterSurface struct {
	Type         string         `json:"type"`
	Name         *string        `json:"name" jsonschema:"nullable"`
	Required     bool           `json:"required"`
	Pattern      *string        `json:"pattern" jsonschema:"nullable"`
	Min          *string        `json:"min" jsonschema:"nullable"`
	Max          *string        `json:"max" jsonschema:"nullable"`
	Step         *string        `json:"step" jsonschema:"nullable"`
	MinLength    *int           `json:"minLength" jsonschema:"nullable"`
	MaxLength    *int           `json:"maxLength" jsonschema:"nullable"`
	Multiple     bool           `json:"multiple"`
	Autocomplete *string        `json:"autocomplete" jsonschema:"nullable"`
	Options      []OptionChoice `json:"options"`
}

// OptionChoice is one option of a select or datalist.
type OptionChoice struct {
	Value    string `json:"value"`
	Label    string `json:"label"`
	Selected bool   `json:"selected"`
	Disabled bool   `json:"disabled"`
}

// LocatorCandidate is one way to find an element again, scored and verified.
type LocatorCandidate struct {
	LocatorID  string            `json:"locatorId"`
	ElementID  string            `json:"elementId"`
	Framework  string            `json:"framework"`
	Strategy   LocatorStrategy   `json:"strategy"`
	Descriptor LocatorDescriptor `json:"descriptor"`
	Expression string            `json:"expression"`
	// Score ranks strategies (lower is better, see LocatorScoringVersion).
	Score          float64         `json:"score"`
	Reason         string          `json:"reason"`
	Verified       bool            `json:"verified"`
	MatchCount     int             `json:"matchCount"`
	FailureCount   int             `json:"failureCount"`
	LastVerifiedAt *string         `json:"lastVerifiedAt" jsonschema:"nullable"`
	Scopes         []LocatorScope  `json:"scopes"`
	Identity       LocatorIdentity `json:"identity"`
	Evidence       []Evidence      `json:"evidence"`
}

// LocatorDescriptor is an executable, structured locator. Kind selects which
// fields are meaningful; the others are null.
type LocatorDescriptor struct {
	Kind LocatorStrategy `json:"kind"`
	// Attribute is the test-id attribute name (kind testid).
	Attribute *string `json:"attribute" jsonschema:"nullable"`
	// Value is the test id, placeholder, label or text to match.
	Value *string `json:"value" jsonschema:"nullable"`
	Role  *string `json:"role" jsonschema:"nullable"`
	Name  *string `json:"name" jsonschema:"nullable"`
	Exact bool    `json:"exact"`
	// Selector is a CSS selector (kinds css-id and css-path).
	Selector *string `json:"selector" jsonschema:"nullable"`
	// Scope and Target make a scoped descriptor: Target resolved inside Scope.
	Scope  *LocatorDescriptor `json:"scope" jsonschema:"nullable"`
	Target *LocatorDescriptor `json:"target" jsonschema:"nullable"`
}

// LocatorScope is the context anchor a scoped locator relies on.
type LocatorScope struct {
	Kind     string `json:"kind"`
	Selector string `json:"selector"`
	Name     string `json:"name"`
}

// LocatorIdentity is the semantic identity the locator must land on, and
// whether the first element it resolved to has it.
type LocatorIdentity struct {
	Tag            string `json:"tag"`
	Role           string `json:"role"`
	AccessibleName string `json:"accessibleName"`
	Text           string `json:"text"`
	Visible        bool   `json:"visible"`
	Matches        bool   `json:"matches"`
}

// ActionEdge is an action observed from one state, replayed from a clean entry.
type ActionEdge struct {
	EdgeID         string            `json:"edgeId"`
	FromStateID    string            `json:"fromStateId"`
	ToStateID      *string           `json:"toStateId" jsonschema:"nullable"`
	ElementID      string            `json:"elementId"`
	ActionType     string            `json:"actionType"`
	ActionParams   map[string]string `json:"actionParams"`
	Preconditions  []string          `json:"preconditions"`
	ParameterSpecs []ParameterSpec   `json:"parameterSpecs"`
	Effects        []EffectRecord    `json:"effects"`
	RiskLevel      RiskLevel         `json:"riskLevel"`
	RiskCategory   RiskCategory      `json:"riskCategory"`
	Confidence     float64           `json:"confidence"`
	CreatedAt      string            `json:"createdAt"`
	Evidence       []Evidence        `json:"evidence"`
}

// ParameterSpec is reserved replay metadata for a parameterised action. The
// default explorer only clicks, so v0.2 emits an empty list.
type ParameterSpec struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

// EffectRecord is one snapshot difference between an edge's before and after.
type EffectRecord struct {
	Type        EffectType `json:"type"`
	Before      string     `json:"before"`
	After       string     `json:"after"`
	Description string     `json:"description"`
}

// SkippedAction is an action the risk policy refused to execute.
type SkippedAction struct {
	SkippedActionID string       `json:"skippedActionId"`
	StateID         string       `json:"stateId"`
	ElementID       string       `json:"elementId"`
	ActionType      string       `json:"actionType"`
	RiskLevel       RiskLevel    `json:"riskLevel"`
	RiskCategory    RiskCategory `json:"riskCategory"`
	Reason          string       `json:"reason"`
	Evidence        []Evidence   `json:"evidence"`
	CreatedAt       string       `json:"createdAt"`
}

// FailedObservation records something the engine tried to observe or do and
// could not. StateID is null for graph-level failures (e.g. the entry page
// never loaded, so no state exists).
type FailedObservation struct {
	FailedObservationID string     `json:"failedObservationId"`
	StateID             *string    `json:"stateId" jsonschema:"nullable"`
	ElementID           *string    `json:"elementId" jsonschema:"nullable"`
	ActionType          *string    `json:"actionType" jsonschema:"nullable"`
	Reason              FailReason `json:"reason"`
	Message             string     `json:"message"`
	Evidence            []Evidence `json:"evidence"`
	CreatedAt           string     `json:"createdAt"`
}

// Summary holds the artifact's counts.
type Summary struct {
	States                       int            `json:"states"`
	Elements                     int            `json:"elements"`
	Edges                        int            `json:"edges"`
	SkippedActions               int            `json:"skippedActions"`
	FailedObservations           int            `json:"failedObservations"`
	FailedObservationsByReason   map[string]int `json:"failedObservationsByReason"`
	SkippedActionsByRiskCategory map[string]int `json:"skippedActionsByRiskCategory"`
	EdgesByRiskCategory          map[string]int `json:"edgesByRiskCategory"`
}

// FailReason is the machine-readable code of a FailedObservation.
type FailReason string

// Failure reasons. The list is closed; docs/topology.md explains each.
const (
	FailHidden            FailReason = "hidden"
	FailDisabled          FailReason = "disabled"
	FailCovered           FailReason = "covered"
	FailNotFound          FailReason = "not-found"
	FailAmbiguous         FailReason = "ambiguous"
	FailTimedOut          FailReason = "timed-out"
	FailNavigationTimeout FailReason = "navigation-timeout"
	FailNavigationFailed  FailReason = "navigation-failed"
	FailLoadTimeout       FailReason = "load-timeout"
	FailNavigatedAway     FailReason = "navigated-away"
	FailDialog            FailReason = "dialog"
	FailFrameInaccessible FailReason = "frame-inaccessible"
	FailDOMTruncated      FailReason = "dom-truncated"
	FailEntryMismatch     FailReason = "entry-mismatch"
	FailReplayDiverged    FailReason = "replay-diverged"
	FailActionFailed      FailReason = "action-failed"
	FailExtraction        FailReason = "extraction-failed"
	FailBudgetExhausted   FailReason = "budget-exhausted"
	FailPageClosed        FailReason = "page-closed"
)

// failReasons lists every FailReason.
var failReasons = []FailReason{
	FailHidden, FailDisabled, FailCovered, FailNotFound, FailAmbiguous, FailTimedOut,
	FailNavigationTimeout, FailNavigationFailed, FailLoadTimeout, FailNavigatedAway,
	FailDialog, FailFrameInaccessible, FailDOMTruncated, FailEntryMismatch,
	FailReplayDiverged, FailActionFailed, FailExtraction, FailBudgetExhausted, FailPageClosed,
}

// LocatorStrategy names how a locator finds its element.
type LocatorStrategy string

// Locator strategies, in scoring order (see locatorScores).
const (
	StrategyTestID      LocatorStrategy = "testid"
	StrategyRole        LocatorStrategy = "role"
	StrategyPlaceholder LocatorStrategy = "placeholder"
	StrategyLabel       LocatorStrategy = "label"
	StrategyText        LocatorStrategy = "text"
	StrategyCSSID       LocatorStrategy = "css-id"
	StrategyCSSPath     LocatorStrategy = "css-path"
	StrategyScoped      LocatorStrategy = "scoped"
)

// locatorStrategies lists every LocatorStrategy.
var locatorStrategies = []LocatorStrategy{StrategyTestID, StrategyRole, StrategyPlaceholder, StrategyLabel, StrategyText, StrategyCSSID, StrategyCSSPath, StrategyScoped}
