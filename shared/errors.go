package shared

import "fmt"

// Vocabulary is implemented by every generated closed-list type.
type Vocabulary interface {
	Valid() bool
	Members() []string
}

// VocabularyError reports a value outside a closed vocabulary.
type VocabularyError struct {
	Vocabulary string
	Value      string
}

func (e *VocabularyError) Error() string {
	return fmt.Sprintf("shared: %q is not a %s: use one of the contract's members (docs/contract.md), or unknown where the vocabulary has it", e.Value, e.Vocabulary)
}

// effectsDisclosure is how the consent gate compares the "effects" key: the
// kinds the owner saw, in order, and whether any held inventory.
type effectsDisclosure struct {
	Kinds          []EffectKind
	HoldsInventory bool
}
