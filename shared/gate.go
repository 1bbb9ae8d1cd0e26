package shared

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// ErrUnverifiedAction is matched by every error the consent gate returns:
// errors.Is(err, ErrUnverifiedAction) holds whenever live execution was
// refused, whatever the reasons.
var ErrUnverifiedAction = errors.New("shared: action is not verified for live execution")

// AuditQuery asks an audit store for the record behind an owner's
// confirmation. It carries the confirmation's own claims, so that a store can
// refuse a reference copied from another action's confirmation, and the
// digest of what the action is now, so that a store can refuse a record whose
// consent does not match (see AuditLookup).
type AuditQuery struct {
	// Ref is the confirmation's auditRecord, never empty.
	Ref string
	// ActionID is the id of the action the confirmation is attached to.
	ActionID string
	// ConfirmedBy and ConfirmedAt are who confirmed and when, as the
	// confirmation states them.
	ConfirmedBy string
	ConfirmedAt Timestamp
	// Digest is ConsentDigest(ConsentSubjectOf(action, confirmation.limits)):
	// what the owner would have had to confirm for the action as it is now.
	Digest string
}

// AuditAnswer is what an audit store holds for a query's Ref.
type AuditAnswer struct {
	// Found is true only when a confirmation record with the query's Ref
	// exists and records a confirmation of the query's ActionID by its
	// ConfirmedBy at its ConfirmedAt (compared exactly).
	Found bool
	// Revoked is true when a later record revoked that confirmation.
	Revoked bool
	// Digest is the ConsentDigest written when the owner confirmed — the
	// store's own copy, never the query's Digest echoed back.
	Digest string
	// Subject is the canonical ConsentSubject (CanonicalConsent) written
	// with the digest, when the store keeps it; the gate uses it only to
	// say what differs, never to decide.
	Subject []byte
}

// AuditLookup resolves the audit record an owner confirmation points at.
//
// LookupAudit returns what the store wrote for q.Ref (see AuditAnswer); it
// returns an error only when it cannot tell (store unreachable, context
// done), and the gate treats an error as "not resolved" and refuses. The gate
// grants only when the answer is Found, not Revoked, and its Digest equals
// q.Digest, so a store that holds the digest it wrote at confirmation makes
// a confirmation unforgeable by whoever can edit the graph file. A store may
// also refuse a mismatching digest itself (Found false); it must never
// return q.Digest as its own. The gate calls it at most once per call and
// never caches the answer. docs/contract.md, "The audit lookup", is the
// contract an implementer must honour.
type AuditLookup interface {
	LookupAudit(ctx context.Context, q AuditQuery) (AuditAnswer, error)
}

// AuditLookupFunc adapts a function to AuditLookup. A nil AuditLookupFunc
// resolves nothing.
type AuditLookupFunc func(ctx context.Context, q AuditQuery) (AuditAnswer, error)

// errNoAuditLookup is the lookup error of a nil AuditLookup.
var errNoAuditLookup = errors.New("shared: no AuditLookup was given to the consent gate")

// LookupAudit calls f(ctx, q).
func (f AuditLookupFunc) LookupAudit(ctx context.Context, q AuditQuery) (AuditAnswer, error) {
	if f == nil {
		return AuditAnswer{}, errNoAuditLookup
	}
	return f(ctx, q)
}

// MaxClockSkew is how far in the future a confirmation's confirmedAt may lie
// (a confirming machine's clock running ahead) before the gate refuses it as
// confirmation.in-future.
const MaxClockSkew = 5 * time.Minute

// Refusal is one reason the consent gate refused live execution.
type Refusal struct {
	// Reason is the code, from the closed RefusalReason vocabulary.
	Reason RefusalReason `json:"reason"`
	// Key is the consent-bound SideEffects key a disclosure.* refusal is
	// about ("summary", "chargesMoney", …); empty for other reasons.
	Key string `json:"key,omitempty"`
	// Detail says, for a person, what is wrong and what to do about it.
	Detail string `json:"detail"`
	// Err is the underlying error, when there is one: the audit lookup's
	// error, or ErrInvalidGraph for action.invalid. It is reachable
	// through errors.Is / errors.As on the *UnverifiedActionError.
	Err error `json:"-"`
}

// String formats the refusal as "reason[key]: detail".
func (r Refusal) String() string {
	s := string(r.Reason)
	if r.Key != "" {
		s += "[" + r.Key + "]"
	}
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// UnverifiedActionError is the consent gate's refusal. Reasons holds every
// failed check, not just the first, in the order the gate runs them.
type UnverifiedActionError struct {
	// ActionID is the refused action's id, when it could be read at all.
	ActionID string
	// Reasons is never empty.
	Reasons []Refusal
	// Issues are the strict reader's findings when the document is not a
	// valid 0.1 action (reason action.invalid); nil otherwise.
	Issues []Issue
}

// Error lists every reason.
func (e *UnverifiedActionError) Error() string {
	var b strings.Builder
	b.WriteString("shared: live execution refused")
	if e.ActionID != "" {
		fmt.Fprintf(&b, " for action %q", e.ActionID)
	}
	fmt.Fprintf(&b, " (%d reason", len(e.Reasons))
	if len(e.Reasons) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(")")
	for i, r := range e.Reasons {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(r.String())
	}
	return b.String()
}

// Unwrap returns ErrUnverifiedAction followed by each reason's underlying
// error, so errors.Is(err, ErrUnverifiedAction) always holds and, say, an
// audit store's outage stays distinguishable from an unconfirmed action.
func (e *UnverifiedActionError) Unwrap() []error {
	errs := []error{ErrUnverifiedAction}
	for _, r := range e.Reasons {
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	return errs
}

// Has reports whether reason is among e.Reasons.
func (e *UnverifiedActionError) Has(reason RefusalReason) bool {
	for _, r := range e.Reasons {
		if r.Reason == reason {
			return true
		}
	}
	return false
}

// AssertLiveExecutionAllowed is the consent gate. It returns nil only when
// the raw JSON of one action proves, by itself and through audit, that its
// owner confirmed what the action does today; otherwise it returns an
// *UnverifiedActionError (matching ErrUnverifiedAction) listing every reason.
//
// It is AssertLiveExecutionAllowedContext with context.Background().
func AssertLiveExecutionAllowed(action []byte, audit AuditLookup) error {
	return AssertLiveExecutionAllowedContext(context.Background(), action, audit)
}

// AssertLiveExecutionAllowedContext is AssertLiveExecutionAllowed with a
// context for the audit lookup.
//
// The gate takes bytes, never a typed Action, so no conversion or hand-built
// struct can satisfy it. On every call it reads them with the strict
// ReadAction and re-derives permission from the data, trusting no status
// string alone. The one thing it keeps between calls is pure work on bytes
// it has read before — their strict read and consent digest, keyed by the
// whole bytes, so any changed byte is read afresh; every check below, the
// audit lookup included, runs on every call and no answer is cached:
//
//   - the document is a valid 0.1 action (action.invalid, with the
//     reader's issues, otherwise);
//   - its verification is "verified" with a confirmation
//     (verification.not-verified);
//   - the confirmation names who confirmed (confirmation.unattributed), by
//     a known method (confirmation.method-unknown), at a time no later than
//     now plus MaxClockSkew (confirmation.in-future);
//   - its audit record reference is present and resolves through audit; a
//     nil audit, a lookup error, a done context or "not found" all refuse
//     (confirmation.audit-unresolved); a revoked record refuses
//     (confirmation.revoked);
//   - the digest the store wrote at confirmation equals the digest of the
//     action as it is now with the confirmation's limits — its id and kind,
//     disclosure, limits, doors and effect targets (ConsentSubjectOf) —
//     (confirmation.digest-mismatch, naming what differs when the store kept
//     the subject): an edit to both sides of the file cannot forge consent;
//   - it caps volume: a volume cap with a positive max over a known period
//     (confirmation.no-volume-cap);
//   - it names somewhere to notify (confirmation.no-notify-target);
//   - for every key of ConsentBoundSideEffectKeys, the disclosure the owner
//     acknowledged equals what the action states now — strings byte for byte,
//     effect kinds in order, holdsInventory as the OR over effects
//     (disclosure.drift, naming the key) — and neither side is blank
//     (disclosure.empty): an empty summary matching an empty summary is not
//     drift, but the owner was shown nothing.
//
// A string is blank when it holds no visible character (see blank). When ctx
// is done before or during the lookup, the refusal wraps ctx.Err(), whatever
// the store answered. For an invalid document the gate still runs
// the other checks on whatever it can decode, to report them, but it never
// grants. A panic anywhere inside, including in audit, becomes the refusal
// gate.internal-error.
func AssertLiveExecutionAllowedContext(ctx context.Context, action []byte, audit AuditLookup) error {
	_, err := gate(ctx, action, audit)
	return err
}

// ReadAllowedAction is the consent gate that also returns the action it
// read, so a caller about to run the action need not read the bytes a
// second time: the action when, and only when,
// AssertLiveExecutionAllowedContext would return nil; otherwise nil and
// the same error. The Action may be shared with later calls on the same
// bytes (the gate's memo): read it, never change it.
func ReadAllowedAction(ctx context.Context, action []byte, audit AuditLookup) (*Action, error) {
	return gate(ctx, action, audit)
}

// gate is the consent gate: the action it read when it grants, nil and an
// *UnverifiedActionError otherwise.
func gate(ctx context.Context, action []byte, audit AuditLookup) (granted *Action, err error) {
	refused := &UnverifiedActionError{}
	defer func() {
		if p := recover(); p != nil {
			refused.Reasons = append(refused.Reasons, Refusal{
				Reason: RefuseGateInternalError,
				Detail: fmt.Sprintf("the gate failed while checking (%v); nothing may execute — report this as a bug", p),
			})
			granted, err = nil, refused
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}

	// The strict reader's one pass also yields what it could fill in, so an
	// invalid document still gets every other check reported. Only a
	// document with no issue at all can be granted.
	// The read and the digest come from the memo when these exact bytes
	// were read before (gate_memo.go); the checks below run every time.
	var issues []Issue
	var act *Action
	memo := theGateMemo.get(action)
	if memo != nil {
		act = memo.act
	} else {
		act, issues = readActionPartial(action)
		act = reportable(act, issues)
		if act != nil && len(issues) == 0 {
			memo = &gateParse{act: act}
			if c, _ := confirmationOf(act.Verification); c != nil {
				memo.subject = ConsentSubjectOf(act, c.Limits)
				memo.digest, memo.err = ConsentDigest(memo.subject)
			}
			theGateMemo.put(action, memo)
		}
	}
	valid := act != nil && len(issues) == 0
	if !valid {
		refused.Issues = issues
		refused.Reasons = append(refused.Reasons, Refusal{
			Reason: RefuseActionInvalid,
			Detail: invalidDetail(issues),
			Err:    ErrInvalidGraph,
		})
	}
	if act != nil {
		refused.ActionID = act.ID
		refused.Reasons = append(refused.Reasons, checkConsent(ctx, act, audit, memo)...)
	}

	if valid && len(refused.Reasons) == 0 {
		return act, nil
	}
	if len(refused.Reasons) == 0 { // unreachable: an invalid document always has action.invalid
		refused.Reasons = append(refused.Reasons, Refusal{Reason: RefuseGateInternalError, Detail: "no reason recorded for a refusal; report this as a bug"})
	}
	return nil, refused
}

// invalidDetail summarises the reader's issues for a refusal.
func invalidDetail(issues []Issue) string {
	var b strings.Builder
	n := len(issues)
	if more := IssuesNotListed(issues); more > 0 {
		n += more - 1 // the last issue listed is the summary of the rest
	}
	fmt.Fprintf(&b, "the document is not a valid 0.1 action (%d issue", n)
	if n != 1 {
		b.WriteByte('s')
	}
	if IssuesNotListed(issues) > 0 {
		b.WriteString(" or more")
	}
	b.WriteString(")")
	if len(issues) > 0 {
		b.WriteString(", first: ")
		b.WriteString(issues[0].String())
	}
	b.WriteString("; fix the document (frontlatch check) and have the owner confirm it again")
	return b.String()
}

// confirmationOf returns the owner confirmation of a verified state, or nil
// and the status it found instead.
func confirmationOf(v VerificationState) (*OwnerConfirmation, string) {
	switch s := v.(type) {
	case Verified:
		return &s.Confirmation, ""
	case *Verified:
		if s != nil {
			return &s.Confirmation, ""
		}
	case nil:
		return nil, "missing"
	case Unverified, *Unverified:
		return nil, string(StatusUnverified)
	case SandboxTested, *SandboxTested:
		return nil, string(StatusSandboxTested)
	}
	return nil, fmt.Sprintf("%T", v)
}

// checkConsent runs every check past the document's validity and returns
// every failure. memo, when not nil, holds act's consent subject and digest.
func checkConsent(ctx context.Context, act *Action, audit AuditLookup, memo *gateParse) []Refusal {
	c, status := confirmationOf(act.Verification)
	if c == nil {
		return []Refusal{{
			Reason: RefuseVerificationNotVerified,
			Detail: fmt.Sprintf("verification status is %s, not verified with an owner confirmation; only an owner's recorded confirmation (the verifier) makes an action live-executable", status),
		}}
	}

	var out []Refusal
	if blank(c.ConfirmedBy) {
		out = append(out, Refusal{
			Reason: RefuseConfirmationUnattributed,
			Detail: "the confirmation does not name who confirmed (confirmedBy is blank); have the owner confirm again through the verifier",
		})
	}
	if c.Method == ConfirmedUnknown || !c.Method.Valid() {
		out = append(out, Refusal{
			Reason: RefuseConfirmationMethodUnknown,
			Detail: fmt.Sprintf("the confirmation does not say how the owner confirmed (method %q); have the owner confirm again through the verifier", string(c.Method)),
		})
	}
	if t, err := c.ConfirmedAt.Time(); err == nil && t.After(time.Now().Add(MaxClockSkew)) {
		out = append(out, Refusal{
			Reason: RefuseConfirmationInFuture,
			Detail: fmt.Sprintf("the confirmation is dated %s, later than now by more than the allowed clock skew (%s); a confirmation cannot precede itself: have the owner confirm again", c.ConfirmedAt, MaxClockSkew),
		})
	}
	out = append(out, checkAudit(ctx, act, c, audit, memo)...)
	switch vc := c.Limits.VolumeCap; {
	case vc == nil:
		out = append(out, Refusal{
			Reason: RefuseConfirmationNoVolumeCap,
			Detail: "the confirmation sets no volume cap (limits.volumeCap is null); have the owner set a maximum number of executions per period",
		})
	case vc.Max <= 0 || !vc.Per.Valid() || vc.Per == PerUnknown:
		out = append(out, Refusal{
			Reason: RefuseConfirmationNoVolumeCap,
			Detail: fmt.Sprintf("the volume cap (max %d per %q) caps nothing: max must be positive and the period one of %s; have the owner set a real cap", vc.Max, string(vc.Per), knownCapPeriods()),
		})
	}
	if c.Limits.Notify == nil || blank(*c.Limits.Notify) {
		out = append(out, Refusal{
			Reason: RefuseConfirmationNoNotifyTarget,
			Detail: "the confirmation names nowhere to notify (limits.notify is blank); have the owner set a notify target",
		})
	}

	// The disclosure: loop the one list of consent-bound keys, name none.
	now := DisclosureOf(act.SideEffects)
	for _, key := range consentBoundSideEffectKeys {
		shown, current := c.Disclosure.consentValue(key), now.consentValue(key)
		if shown == nil || current == nil {
			out = append(out, Refusal{
				Reason: RefuseGateInternalError, Key: key,
				Detail: "consent-bound key has no disclosure value; run go generate in the shared module",
			})
			continue
		}
		if consentBlank(shown) || consentBlank(current) {
			out = append(out, Refusal{
				Reason: RefuseDisclosureEmpty, Key: key,
				Detail: fmt.Sprintf("%s is blank in what the owner was shown or in what the action states now; the owner cannot consent to nothing: state it, then have the owner confirm again", key),
			})
		}
		if !reflect.DeepEqual(shown, current) {
			out = append(out, Refusal{
				Reason: RefuseDisclosureDrift, Key: key,
				Detail: fmt.Sprintf("%s is not what the owner confirmed (confirmed %s, now %s); have the owner confirm the action as it is now", key, describeConsent(shown), describeConsent(current)),
			})
		}
	}
	return out
}

// knownCapPeriods lists the periods a volume cap may count over: every
// CapPeriod but unknown.
func knownCapPeriods() string {
	var ps []string
	for _, p := range CapPeriodValues() {
		if p != PerUnknown {
			ps = append(ps, string(p))
		}
	}
	return strings.Join(ps, ", ")
}

// checkAudit resolves the confirmation's audit record and compares the
// digest the store wrote with the digest of the action now (from memo when
// it is not nil).
func checkAudit(ctx context.Context, act *Action, c *OwnerConfirmation, audit AuditLookup, memo *gateParse) []Refusal {
	fail := func(detail string, err error) []Refusal {
		return []Refusal{{Reason: RefuseConfirmationAuditUnresolved, Detail: detail, Err: err}}
	}
	if c.AuditRecord == nil || blank(*c.AuditRecord) {
		return fail("the confirmation points at no audit record (auditRecord is blank); have the owner confirm again through the verifier, which writes one", nil)
	}
	ref := *c.AuditRecord
	if audit == nil || isNilInterface(audit) {
		return fail("no AuditLookup was given, so the audit record cannot be retrieved; pass the verifier's audit store", errNoAuditLookup)
	}
	subject, digest, err := memo.consentOf(act, c)
	if err != nil {
		return fail(fmt.Sprintf("the digest of the action as it is now cannot be computed (%v)", err), err)
	}
	if err := ctx.Err(); err != nil {
		return fail(fmt.Sprintf("the audit record %q was not looked up: %v", ref, err), err)
	}
	ans, err := audit.LookupAudit(ctx, AuditQuery{
		Ref: ref, ActionID: act.ID, ConfirmedBy: c.ConfirmedBy, ConfirmedAt: c.ConfirmedAt, Digest: digest,
	})
	if cerr := ctx.Err(); cerr != nil { // whatever the store did, a done context refuses with its error
		return fail(fmt.Sprintf("the audit record %q could not be looked up: %v", ref, cerr), cerr)
	}
	switch {
	case err != nil:
		return fail(fmt.Sprintf("the audit record %q could not be looked up (%v); retry when the audit store is reachable", ref, err), err)
	case !ans.Found:
		return fail(fmt.Sprintf("the audit record %q does not exist or does not record this confirmation (action, confirmer, time and consent digest); have the owner confirm again", ref), nil)
	case ans.Revoked:
		return []Refusal{{Reason: RefuseConfirmationRevoked, Detail: fmt.Sprintf("the owner revoked the confirmation recorded as %q; it can fire again only after a new confirmation", ref)}}
	case ans.Digest != digest:
		return []Refusal{{Reason: RefuseConfirmationDigestMismatch, Detail: digestMismatchDetail(ref, ans, subject, digest)}}
	}
	return nil
}

// digestMismatchDetail says what differs between what the owner confirmed
// and the action now, when the store kept the confirmed subject.
func digestMismatchDetail(ref string, ans AuditAnswer, now ConsentSubject, digest string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "what the owner confirmed (audit record %q, %s) is not what the action does now (%s)", ref, clipDigest(ans.Digest), clipDigest(digest))
	if confirmed, issues := ReadConsentSubject(ans.Subject); len(ans.Subject) > 0 && len(issues) == 0 {
		changes := CompareConsent(*confirmed, now)
		for i, ch := range changes {
			if i == 8 {
				fmt.Fprintf(&b, "; and %d more", len(changes)-i)
				break
			}
			if i == 0 {
				b.WriteString(": ")
			} else {
				b.WriteString("; ")
			}
			b.WriteString(ch.String())
		}
	}
	b.WriteString("; have the owner confirm the action as it is now")
	return b.String()
}

func clipDigest(d string) string {
	if d == "" {
		return "no digest"
	}
	if len(d) > len(ConsentDigestPrefix)+12 {
		return d[:len(ConsentDigestPrefix)+12] + "…"
	}
	return d
}

// isNilInterface reports whether a non-nil interface holds a nil pointer,
// func, map, slice or channel.
func isNilInterface(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// consentBlank reports whether a consent value shows the owner nothing: a
// blank string, an empty list, or a list or struct holding one.
func consentBlank(v any) bool {
	return blankValue(reflect.ValueOf(v))
}

func blankValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return blank(v.String())
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			return true
		}
		for i := range v.Len() {
			if blankValue(v.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if blankValue(v.Field(i)) {
				return true
			}
		}
	case reflect.Invalid:
		return true
	}
	return false
}

// describeConsent renders a consent value for a refusal message, quoting
// strings so whitespace differences are visible.
func describeConsent(v any) string {
	if d, ok := v.(effectsDisclosure); ok {
		return fmt.Sprintf("effects %q holdsInventory=%t", d.Kinds, d.HoldsInventory)
	}
	s := fmt.Sprintf("%q", v)
	if reflect.ValueOf(v).Kind() == reflect.Bool {
		s = fmt.Sprint(v)
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// reportable narrows the reader's partial value to what the gate may report
// on: nothing when the document is not an object at all, and no verification
// when the reader found a "verified" without its confirmation — that is a
// hand-edited approval, reported as not verified rather than as a list of
// the confirmation's missing parts.
func reportable(act *Action, issues []Issue) *Action {
	for _, is := range issues {
		switch {
		case is.Path == "$" && (is.Code == IssueJSONSyntax || is.Code == IssueTypeMismatch || is.Code == IssueJSONInvalidUTF8):
			return nil
		case is.Code == IssueVerificationConfirmationMissing && act != nil:
			act.Verification = nil
		}
	}
	return act
}
