package topology

import "slices"

// The vocabularies and rule lists below are returned as copies: the engine
// reads its own, so no caller can change how it classifies or normalises.

// NormalizationRules returns every NormalizationRule, in declaration order.
func NormalizationRules() []NormalizationRule { return slices.Clone(normalizationRules) }

// RiskLevels returns every RiskLevel, in declaration order.
func RiskLevels() []RiskLevel { return slices.Clone(riskLevels) }

// RiskCategories returns every RiskCategory, in declaration order.
func RiskCategories() []RiskCategory { return slices.Clone(riskCategories) }

// Modes returns every Mode, in declaration order.
func Modes() []Mode { return slices.Clone(modes) }

// EvidenceLevels returns every EvidenceLevel, in declaration order.
func EvidenceLevels() []EvidenceLevel { return slices.Clone(evidenceLevels) }

// Lifecycles returns every Lifecycle, in declaration order.
func Lifecycles() []Lifecycle { return slices.Clone(lifecycles) }

// EffectTypes returns every EffectType, in declaration order.
func EffectTypes() []EffectType { return slices.Clone(effectTypes) }

// FailReasons returns every FailReason, in declaration order.
func FailReasons() []FailReason { return slices.Clone(failReasons) }

// LocatorStrategies returns every LocatorStrategy, in declaration order.
func LocatorStrategies() []LocatorStrategy { return slices.Clone(locatorStrategies) }
