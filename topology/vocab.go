package topology

import "slices"

// The vocabularies and rule lists below are returned as copies: the engine
// reads its own, so no caller can change how it classifies or normalises.

// NormalizationRuleValues returns every NormalizationRule, in declaration order.
func NormalizationRuleValues() []NormalizationRule { return slices.Clone(normalizationRules) }

// RiskLevelValues returns every RiskLevel, in declaration order.
func RiskLevelValues() []RiskLevel { return slices.Clone(riskLevels) }

// RiskCategoryValues returns every RiskCategory, in declaration order.
func RiskCategoryValues() []RiskCategory { return slices.Clone(riskCategories) }

// ModeValues returns every Mode, in declaration order.
func ModeValues() []Mode { return slices.Clone(modes) }

// EvidenceLevelValues returns every EvidenceLevel, in declaration order.
func EvidenceLevelValues() []EvidenceLevel { return slices.Clone(evidenceLevels) }

// LifecycleValues returns every Lifecycle, in declaration order.
func LifecycleValues() []Lifecycle { return slices.Clone(lifecycles) }

// EffectTypeValues returns every EffectType, in declaration order.
func EffectTypeValues() []EffectType { return slices.Clone(effectTypes) }

// FailReasonValues returns every FailReason, in declaration order.
func FailReasonValues() []FailReason { return slices.Clone(failReasons) }

// LocatorStrategyValues returns every LocatorStrategy, in declaration order.
func LocatorStrategyValues() []LocatorStrategy { return slices.Clone(locatorStrategies) }
