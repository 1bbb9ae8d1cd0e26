package shared

// Field order in every struct below is the canonical key order on the wire:
// the order of the seed's example. The reader, the writer and the JSON Schema
// all walk these structs, so this file is the one field list of the contract.
//
// A `contract:"…"` tag states a rule beyond the Go type, next to the field it
// governs (grammar in internal/rules): nonempty (a string or list must not be
// empty), min=/max= (integer bounds), missing=CODE (the issue code for an
// absent key). Rules the consent gate owns (who confirmed, a volume cap, a
// notify target, a non-empty summary) are deliberately not reader rules, so
// the gate can refuse them with its own reasons.
//
// Nullable keys are pointers (or nil-able unions); on input they may be
// omitted and read as null, on output they are always written. Lists are
// never null.

// ActionGraph is one site's list of what a customer can get done there.
type ActionGraph struct {
	SchemaVersion string    `json:"schemaVersion"`
	GraphID       string    `json:"graphId" contract:"nonempty"`
	Site          Site      `json:"site"`
	GeneratedAt   Timestamp `json:"generatedAt"`
	Generator     Generator `json:"generator"`
	Actions       []Action  `json:"actions"`
	Notes         *string   `json:"notes"`
}

// Site identifies the website a graph describes.
type Site struct {
	Domain string  `json:"domain" contract:"nonempty"`
	URL    string  `json:"url" contract:"nonempty"`
	Name   *string `json:"name"`
}

// Generator names the program that produced a graph.
type Generator struct {
	Name    string `json:"name" contract:"nonempty"`
	Version string `json:"version" contract:"nonempty"`
}

// Action is one thing a customer can get done: what it is, where it lives,
// what it needs, and what happens when it runs.
type Action struct {
	ID           string            `json:"id" contract:"nonempty"`
	Kind         ActionKind        `json:"kind"`
	Label        string            `json:"label" contract:"nonempty"`
	URL          string            `json:"url" contract:"nonempty"`
	Access       []Access          `json:"access"`
	Inputs       []Input           `json:"inputs"`
	Validations  []Validation      `json:"validations"`
	SideEffects  SideEffects       `json:"sideEffects"`
	Barriers     []Barrier         `json:"barriers"`
	Provenance   *Provenance       `json:"provenance"`
	Verification VerificationState `json:"verification" contract:"missing=verification.missing"`
}

// Access is one door of an action. An opaque door (a third-party frame) has
// no readable fields; that is a different claim from an action with none.
type Access struct {
	Method      AccessMethod `json:"method"`
	URL         string       `json:"url" contract:"nonempty"`
	Locator     *Locator     `json:"locator"`
	Occurrences int          `json:"occurrences" contract:"min=1"`
	Submission  *Submission  `json:"submission"`
	Opaque      bool         `json:"opaque"`
	Vendor      *string      `json:"vendor" contract:"nonempty"`
	// ToolName is the WebMCP tool name of a webmcp-tool door, null otherwise.
	ToolName   *string    `json:"toolName" contract:"nonempty"`
	Provenance Provenance `json:"provenance"`
}

// Locator finds an element again on a live page.
type Locator struct {
	Strategy  LocatorStrategy `json:"strategy"`
	Value     string          `json:"value" contract:"nonempty"`
	Stability Stability       `json:"stability"`
}

// Submission is how a door's data travels to the business.
type Submission struct {
	Transport     Transport `json:"transport"`
	Endpoint      *string   `json:"endpoint" contract:"nonempty"`
	Enctype       *string   `json:"enctype"`
	SubmitControl *Locator  `json:"submitControl"`
}

// Input is one field an action needs. Type is what the browser thinks it is;
// Semantic is what the business thinks it is.
type Input struct {
	Name          string       `json:"name" contract:"nonempty"`
	Label         *string      `json:"label"`
	Semantic      SemanticType `json:"semantic"`
	Type          string       `json:"type" contract:"nonempty"`
	Required      bool         `json:"required"`
	AgentFillable bool         `json:"agentFillable"`
	ValueSpace    []ValueSpace `json:"valueSpace"`
	DefaultValue  *string      `json:"defaultValue"`
	Hint          *string      `json:"hint"`
	Locator       *Locator     `json:"locator"`
	Provenance    *Provenance  `json:"provenance"`
}

// ValueSpace is one constraint on the values an input accepts. It is a
// sealed union on "kind": LengthSpace, PatternSpace, RangeSpace, OneOfSpace,
// FormatSpace, UnknownSpace.
type ValueSpace interface {
	ValueSpaceKind() ValueSpaceKind
	sealedValueSpace()
}

// LengthSpace bounds a value's length in characters.
type LengthSpace struct {
	MinLength *int `json:"minLength" contract:"min=0"`
	MaxLength *int `json:"maxLength" contract:"min=0"`
}

// PatternSpace constrains a value to a regular expression (HTML pattern
// syntax: the whole value must match).
type PatternSpace struct {
	Pattern string `json:"pattern" contract:"nonempty"`
}

// RangeSpace bounds a number, date or time. Bounds are kept as the site wrote
// them, so dates and times survive a round trip.
type RangeSpace struct {
	Min  *string `json:"min"`
	Max  *string `json:"max"`
	Step *string `json:"step"`
}

// OneOfSpace lists the only values accepted (a select, a radio group).
type OneOfSpace struct {
	Options []Option `json:"options"`
}

// Option is one accepted value and the text a person sees for it.
type Option struct {
	Value string  `json:"value"`
	Label *string `json:"label"`
}

// FormatSpace names a well-known format (email, uri, date, time, tel…).
type FormatSpace struct {
	Format string `json:"format" contract:"nonempty"`
}

// UnknownSpace records a constraint we saw but cannot express.
type UnknownSpace struct {
	Note *string `json:"note"`
}

func (LengthSpace) ValueSpaceKind() ValueSpaceKind  { return ValueSpaceLength }
func (PatternSpace) ValueSpaceKind() ValueSpaceKind { return ValueSpacePattern }
func (RangeSpace) ValueSpaceKind() ValueSpaceKind   { return ValueSpaceRange }
func (OneOfSpace) ValueSpaceKind() ValueSpaceKind   { return ValueSpaceOneOf }
func (FormatSpace) ValueSpaceKind() ValueSpaceKind  { return ValueSpaceFormat }
func (UnknownSpace) ValueSpaceKind() ValueSpaceKind { return ValueSpaceUnknown }
func (LengthSpace) sealedValueSpace()               {}
func (PatternSpace) sealedValueSpace()              {}
func (RangeSpace) sealedValueSpace()                {}
func (OneOfSpace) sealedValueSpace()                {}
func (FormatSpace) sealedValueSpace()               {}
func (UnknownSpace) sealedValueSpace()              {}

// Validation is one rule on an input, a sealed union on "source". Only a
// DeclaredValidation may be used to reject an agent's input; an
// InferredValidation may warn or lower a score, never refuse.
type Validation interface {
	ValidationSource() ValidationSource
	// Target is the name of the input the rule applies to.
	Target() string
	sealedValidation()
}

// Rule is the rule a validation states. Value is kept as the site wrote it.
type Rule struct {
	Kind  RuleKind `json:"kind"`
	Value *string  `json:"value"`
}

// DeclaredValidation is a rule the site itself declares: it names the
// attribute it was read from and quotes that attribute's raw value.
type DeclaredValidation struct {
	AppliesTo  string     `json:"appliesTo" contract:"nonempty"`
	Rule       Rule       `json:"rule"`
	Attribute  string     `json:"attribute" contract:"nonempty"`
	Raw        string     `json:"raw"`
	Message    *string    `json:"message"`
	Provenance Provenance `json:"provenance"`
}

// InferredValidation is our guess at a rule: it states its basis and a
// confidence below 1.
type InferredValidation struct {
	AppliesTo  string     `json:"appliesTo" contract:"nonempty"`
	Rule       Rule       `json:"rule"`
	Basis      string     `json:"basis" contract:"nonempty"`
	Confidence float64    `json:"confidence"`
	Message    *string    `json:"message"`
	Provenance Provenance `json:"provenance"`
}

func (DeclaredValidation) ValidationSource() ValidationSource { return SourceDeclared }
func (InferredValidation) ValidationSource() ValidationSource { return SourceInferred }
func (v DeclaredValidation) Target() string                   { return v.AppliesTo }
func (v InferredValidation) Target() string                   { return v.AppliesTo }
func (DeclaredValidation) sealedValidation()                  {}
func (InferredValidation) sealedValidation()                  {}

// SideEffects is what completing an action does in the world. Every key is
// classified in consent.go as consent-bound or excluded.
type SideEffects struct {
	Effects           []Effect   `json:"effects" contract:"nonempty=effects.empty"`
	Reversible        Reversible `json:"reversible"`
	CreatesObligation bool       `json:"createsObligation"`
	TransmitsPii      bool       `json:"transmitsPii"`
	ChargesMoney      bool       `json:"chargesMoney"`
	Summary           string     `json:"summary"`
	Provenance        Provenance `json:"provenance"`
}

// Effect is one consequence. HoldsInventory separates an action that wastes a
// customer's time when it misfires from one that costs the business a slot.
type Effect struct {
	Kind           EffectKind `json:"kind"`
	Target         *string    `json:"target"`
	HoldsInventory bool       `json:"holdsInventory"`
	Provenance     Provenance `json:"provenance"`
}

// Barrier is reported apart from completeness as a blocker: a CAPTCHA, a login.
type Barrier struct {
	Kind       BarrierKind `json:"kind"`
	Detail     *string     `json:"detail"`
	Provenance Provenance  `json:"provenance"`
}

// Provenance says how a belief came to be held. Only owner-confirmed may
// reach a confidence of exactly 1.
type Provenance struct {
	Method     ProvenanceMethod `json:"method"`
	Confidence float64          `json:"confidence"`
	At         Timestamp        `json:"at"`
	By         string           `json:"by" contract:"nonempty"`
	Evidence   *string          `json:"evidence"`
}

// VerificationState is a sealed union on "status", ordered by what it
// permits: Unverified, SandboxTested, Verified. Nothing in this package
// constructs a Verified; only decoding a document that carries a full
// confirmation yields one, and the consent gate trusts neither.
type VerificationState interface {
	Status() VerificationStatus
	sealedVerification()
}

// Unverified is the default: nothing executes.
type Unverified struct {
	Note *string `json:"note"`
}

// SandboxTested means the action ran in test mode. It is still not
// live-executable: the sandbox passing is not the owner saying yes.
type SandboxTested struct {
	SandboxRuns []SandboxRun `json:"sandboxRuns"`
	Note        *string      `json:"note"`
}

// Verified carries the owner's confirmation as data.
type Verified struct {
	Confirmation OwnerConfirmation `json:"confirmation" contract:"missing=verification.confirmation-missing"`
	SandboxRuns  []SandboxRun      `json:"sandboxRuns"`
	Note         *string           `json:"note"`
}

func (Unverified) Status() VerificationStatus    { return StatusUnverified }
func (SandboxTested) Status() VerificationStatus { return StatusSandboxTested }
func (Verified) Status() VerificationStatus      { return StatusVerified }
func (Unverified) sealedVerification()           {}
func (SandboxTested) sealedVerification()        {}
func (Verified) sealedVerification()             {}

// SandboxRun records one test-mode run: what would have been sent and what
// came of it. Nothing reached the business.
type SandboxRun struct {
	RunID          string           `json:"runId" contract:"nonempty"`
	At             Timestamp        `json:"at"`
	By             string           `json:"by" contract:"nonempty"`
	Outcome        SandboxOutcome   `json:"outcome"`
	Endpoint       *string          `json:"endpoint"`
	Fields         []SubmittedField `json:"fields"`
	ResponseStatus *int             `json:"responseStatus" contract:"min=100,max=599"`
	Note           *string          `json:"note"`
}

// SubmittedField is one name/value pair a sandbox run would have sent.
type SubmittedField struct {
	Name  string `json:"name" contract:"nonempty"`
	Value string `json:"value"`
}

// OwnerConfirmation is who confirmed, when, how, the audit record behind it,
// the limits they set and the full disclosure they were shown.
type OwnerConfirmation struct {
	ConfirmedBy string                 `json:"confirmedBy"`
	ConfirmedAt Timestamp              `json:"confirmedAt"`
	Method      ConfirmationMethod     `json:"method"`
	AuditRecord *string                `json:"auditRecord"`
	Limits      ConfirmationLimits     `json:"limits"`
	Disclosure  AcknowledgedDisclosure `json:"disclosure"`
}

// ConfirmationLimits are the bounds an owner set on live execution.
type ConfirmationLimits struct {
	VolumeCap *VolumeCap `json:"volumeCap"`
	Notify    *string    `json:"notify"`
}

// VolumeCap is at most Max executions per period.
type VolumeCap struct {
	Max int       `json:"max"`
	Per CapPeriod `json:"per"`
}

// NewAction returns an action with empty lists and the Unverified state:
// every constructor in this package yields unverified, and none can yield
// anything else.
func NewAction(id string, kind ActionKind, label, url string) Action {
	return Action{
		ID: id, Kind: kind, Label: label, URL: url,
		Access: []Access{}, Inputs: []Input{}, Validations: []Validation{},
		SideEffects:  SideEffects{Effects: []Effect{}, Reversible: ReversibleUnknown},
		Barriers:     []Barrier{},
		Verification: Unverified{},
	}
}

// NewGraph returns an empty graph at SchemaVersion.
func NewGraph(graphID string, site Site, at Timestamp, gen Generator) *ActionGraph {
	return &ActionGraph{
		SchemaVersion: SchemaVersion, GraphID: graphID, Site: site,
		GeneratedAt: at, Generator: gen, Actions: []Action{},
	}
}
