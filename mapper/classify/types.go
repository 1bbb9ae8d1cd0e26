package classify

import "github.com/frontlatch/frontlatch/shared"

// Purpose is what a form is for.
type Purpose string

// Purposes. The first five are customer actions (Purpose.Kind).
const (
	PurposeBooking          Purpose = "booking"
	PurposeQuote            Purpose = "quote"
	PurposeCallback         Purpose = "callback"
	PurposeContact          Purpose = "contact"
	PurposeEnquiry          Purpose = "enquiry"
	PurposeComment          Purpose = "comment"
	PurposeNewsletter       Purpose = "newsletter"
	PurposeSearch           Purpose = "search"
	PurposeLogin            Purpose = "login"
	PurposeRegistration     Purpose = "registration"
	PurposePasswordRecovery Purpose = "password-recovery"
	PurposeOrder            Purpose = "order"
	PurposeOther            Purpose = "other"
)

// PurposeValues lists every purpose in a fixed order.
func PurposeValues() []Purpose {
	return []Purpose{PurposeBooking, PurposeQuote, PurposeCallback, PurposeContact, PurposeEnquiry, PurposeComment,
		PurposeNewsletter, PurposeSearch, PurposeLogin, PurposeRegistration, PurposePasswordRecovery, PurposeOrder, PurposeOther}
}

// Kind returns the contract's action kind for a customer-action purpose
// (booking, quote, callback, contact, enquiry) and true; otherwise false.
func (p Purpose) Kind() (shared.ActionKind, bool) {
	switch p {
	case PurposeBooking:
		return shared.KindBooking, true
	case PurposeQuote:
		return shared.KindQuote, true
	case PurposeCallback:
		return shared.KindCallback, true
	case PurposeContact:
		return shared.KindContact, true
	case PurposeEnquiry:
		return shared.KindEnquiry, true
	}
	return "", false
}

// FieldResult is the meaning of one field.
type FieldResult struct {
	Semantic shared.SemanticType `json:"semantic"`
	// Confidence is in [0,1] and set from the strongest evidence; the table
	// is in confidence.go and docs/classifier.md.
	Confidence float64 `json:"confidence"`
	// Evidence says what decided it, e.g. `autocomplete="email"`,
	// `label "Nachname" ~ de:nachname`, `off-screen wrapper`.
	Evidence []string `json:"evidence"`
	// AgentFillable is false for honeypots (always sent empty) and system
	// tokens (sent back verbatim); true otherwise.
	AgentFillable bool `json:"agentFillable"`
}

// FormResult is the purpose of one form or formless group.
type FormResult struct {
	Purpose Purpose `json:"purpose"`
	// Kind is the action kind when CustomerAction, else nil.
	Kind *shared.ActionKind `json:"kind"`
	// CustomerAction is true exactly when Purpose is booking, quote,
	// callback, contact or enquiry.
	CustomerAction bool    `json:"customerAction"`
	Confidence     float64 `json:"confidence"`
	// Evidence leads with the reason of the rule that decided, then what
	// the words said for the purpose.
	Evidence []string `json:"evidence"`
	// Rule names the rule of the ordered purpose table that decided.
	Rule string `json:"rule"`
}
