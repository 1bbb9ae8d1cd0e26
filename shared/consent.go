package shared

// The consent key lists are the single source of truth for what an owner
// consents to. Every JSON key of SideEffects is in exactly one of them;
// go generate refuses to run otherwise, and the struct-conversion guard it
// writes (consent_gen.go) stops the build when SideEffects changes without
// a regeneration. AcknowledgedDisclosure is derived from the bound list, and
// the consent gate loops it: binding a new key needs no other code.
//
// Moving a key between the lists needs a written decision
// (docs/decisions/) and a new schemaVersion.

// consentBoundSideEffectKeys are compared, byte for byte, between what the
// owner was shown and what the action does today, on every live call.
var consentBoundSideEffectKeys = [...]string{
	"effects", "reversible", "createsObligation", "transmitsPii", "chargesMoney", "summary",
}

// consentExcludedSideEffectKeys are deliberately not consent-bearing.
// provenance is metadata about how we worked the description out, not a
// consequence; binding it would expire consent whenever a re-scan nudged a
// confidence score and train owners to click through re-confirmations.
var consentExcludedSideEffectKeys = [...]string{
	"provenance",
}

// ConsentBoundSideEffectKeys returns the SideEffects JSON keys an owner's
// consent is bound to, in declaration order. The slice is a copy.
func ConsentBoundSideEffectKeys() []string {
	return append([]string(nil), consentBoundSideEffectKeys[:]...)
}

// ConsentExcludedSideEffectKeys returns the SideEffects JSON keys that are
// deliberately not consent-bearing. The slice is a copy.
func ConsentExcludedSideEffectKeys() []string {
	return append([]string(nil), consentExcludedSideEffectKeys[:]...)
}
