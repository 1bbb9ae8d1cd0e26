package classify

// Confidence values. Each is the classifier's estimate that the decision
// it backs is right; the strongest piece of evidence sets it, agreeing
// evidence adds a little (never past ConfTextMax), competing evidence takes
// some away. They are ranked by how the owner expressed the meaning: a
// machine-readable statement (autocomplete, type) over words a person
// reads (label) over words only a developer reads (name/id) over position.
const (
	// ConfAutocomplete: a WHATWG autocomplete field name — the owner's own
	// statement of meaning.
	ConfAutocomplete = 0.97
	// ConfHiddenInput: <input type=hidden> is a system token; it cannot be
	// typed into.
	ConfHiddenInput = 0.95
	// Input types with a meaning of their own.
	ConfTypeEmail = 0.95
	ConfTypeTel   = 0.93
	ConfTypeURL   = 0.90
	ConfTypeFile  = 0.90
	ConfTypeDate  = 0.90
	ConfTypeTime  = 0.90
	// ConfTypeNotOurs: password, search… — types no semantic of ours covers.
	ConfTypeNotOurs = 0.90
	// Text evidence, by where the words were found.
	ConfLabel       = 0.88 // label[for], wrapping label, aria-label(ledby), legend
	ConfPlaceholder = 0.85 // placeholder or title used as the label
	ConfName        = 0.82 // name or id attribute, split into words
	ConfNearby      = 0.75 // text just before the control, no label element
	ConfHint        = 0.70 // aria-describedby, help text, toolparamdescription
	ConfTextMax     = 0.95 // agreeing text sources never claim more
	ConfAgreeBonus  = 0.03 // per extra agreeing source
	// ConfContext: only the control and its form suggest it (a textarea in a
	// contact form is its message).
	ConfContext = 0.55
	// ConfChoiceSubject: a choice list of categories in a form with a
	// message box is the message's subject (words and form context).
	ConfChoiceSubject = 0.65
	// ConfModel: the learned model decided (model.go), where the rules
	// found nothing or only weaker words.
	ConfModel = 0.70
	// ConfUnknown: nothing matched; "unknown" is a guess too.
	ConfUnknown = 0.50
	// Honeypot: ConfHoneypotBase + score×ConfHoneypotScale, capped at
	// ConfHoneypotMax; score is the sum of structural signals (honeypot.go).
	ConfHoneypotBase  = 0.55
	ConfHoneypotScale = 0.35
	ConfHoneypotMax   = 0.97
	// Form purposes.
	ConfFormStructure = 0.90 // password fields, a search box, quantity/card fields
	ConfFormStrong    = 0.80 // words in the submit control, heading, id/class or action
	ConfFormWeak      = 0.65 // words only in the form's body text
	ConfFormDefault   = 0.55 // fields alone (message + email → contact)
	ConfFormOther     = 0.50
)
