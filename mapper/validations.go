package mapper

import (
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Confidence of a rule read from an attribute: the browser enforces exactly
// what the attribute says, but the server may differ.
const confDeclaredRule = 0.99

// declaredRule maps one constraint attribute to a rule kind.
type declaredRule struct {
	attribute string
	kind      shared.RuleKind
	raw       func(extract.Field) (string, bool)
}

// declaredRules is the one list of constraint attributes read from markup.
var declaredRules = []declaredRule{
	{"required", shared.RuleRequired, func(f extract.Field) (string, bool) { return "", f.Required }},
	{"pattern", shared.RulePattern, func(f extract.Field) (string, bool) { return f.Pattern, f.Pattern != "" }},
	{"minlength", shared.RuleMinLength, func(f extract.Field) (string, bool) { return f.MinLength, f.MinLength != "" }},
	{"maxlength", shared.RuleMaxLength, func(f extract.Field) (string, bool) { return f.MaxLength, f.MaxLength != "" }},
	{"min", shared.RuleMin, func(f extract.Field) (string, bool) { return f.Min, f.Min != "" }},
	{"max", shared.RuleMax, func(f extract.Field) (string, bool) { return f.Max, f.Max != "" }},
	{"step", shared.RuleStep, func(f extract.Field) (string, bool) { return f.Step, f.Step != "" }},
	{"accept", shared.RuleAccept, func(f extract.Field) (string, bool) { return f.Accept, f.Accept != "" }},
	{"type", shared.RuleFormat, func(f extract.Field) (string, bool) { _, ok := formatOfType[f.Type]; return f.Type, ok }},
}

// declaredValidations lists the rules a control's attributes declare, each
// quoting the attribute's raw value.
func (b *builder) declaredValidations(name string, f extract.Field, loc string) []shared.Validation {
	var out []shared.Validation
	for _, r := range declaredRules {
		raw, ok := r.raw(f)
		if !ok {
			continue
		}
		var val *string
		switch r.kind {
		case shared.RuleRequired:
		case shared.RuleFormat:
			v := formatOfType[raw]
			val = &v
		default:
			v := raw
			val = &v
		}
		ev := loc + "[" + r.attribute + "]"
		if raw != "" {
			ev = loc + "[" + r.attribute + "=" + cssValue(raw) + "]"
		}
		out = append(out, shared.DeclaredValidation{
			AppliesTo: name, Rule: shared.Rule{Kind: r.kind, Value: val},
			Attribute: r.attribute, Raw: raw,
			Provenance: b.prov(shared.MethodParsedHTML, confDeclaredRule, ev),
		})
	}
	return out
}

// inferredRule is a rule we expect the site to apply although the markup
// does not declare it. It may warn, never refuse.
type inferredRule struct {
	semantic shared.SemanticType
	// applies reports whether the control leaves the rule undeclared.
	applies func(extract.Field) bool
	format  string
	basis   string
	conf    float64
}

// inferredRules is the one list of rules inferred from a field's meaning.
var inferredRules = []inferredRule{
	{shared.SemanticPhone, func(f extract.Field) bool { return f.Pattern == "" },
		"tel", "phone field without a pattern: digits, spaces, + and parentheses expected", 0.6},
	{shared.SemanticEmail, func(f extract.Field) bool { return f.Type != "email" },
		"email", "email field declared as a plain text box: an address with @ and a domain expected", 0.7},
	{shared.SemanticWebsiteURL, func(f extract.Field) bool { return f.Type != "url" },
		"uri", "website field declared as a plain text box: an absolute URL expected", 0.5},
	{shared.SemanticDate, func(f extract.Field) bool { return f.Type != "date" && f.Pattern == "" },
		"date", "date field declared as a plain text box: the expected date format is not stated", 0.4},
}

// inferredValidations lists the rules a field's semantic implies and its
// markup leaves out.
func (b *builder) inferredValidations(name string, sem shared.SemanticType, f extract.Field) []shared.Validation {
	var out []shared.Validation
	for _, r := range inferredRules {
		if r.semantic != sem || !r.applies(f) {
			continue
		}
		v := r.format
		out = append(out, shared.InferredValidation{
			AppliesTo: name, Rule: shared.Rule{Kind: shared.RuleFormat, Value: &v},
			Basis: r.basis, Confidence: r.conf,
			Provenance: b.prov(shared.MethodInferred, r.conf, r.basis),
		})
	}
	return out
}
