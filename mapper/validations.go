package mapper

import (
	"strconv"

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
	// declaredBy, when set, names the attribute that declared the rule on
	// this field instead of attribute.
	declaredBy func(extract.Field) string
}

// declaredRules is the one list of constraint attributes read from markup.
var declaredRules = []declaredRule{
	{"required", shared.RuleRequired, requiredRaw, requiredBy},
	{"pattern", shared.RulePattern, func(f extract.Field) (string, bool) { return f.Pattern, f.Pattern != "" }, nil},
	{"minlength", shared.RuleMinLength, func(f extract.Field) (string, bool) { return f.MinLength, f.MinLength != "" }, nil},
	{"maxlength", shared.RuleMaxLength, func(f extract.Field) (string, bool) { return f.MaxLength, f.MaxLength != "" }, nil},
	{"min", shared.RuleMin, func(f extract.Field) (string, bool) { return f.Min, f.Min != "" }, nil},
	{"max", shared.RuleMax, func(f extract.Field) (string, bool) { return f.Max, f.Max != "" }, nil},
	{"step", shared.RuleStep, func(f extract.Field) (string, bool) { return f.Step, f.Step != "" }, nil},
	{"accept", shared.RuleAccept, func(f extract.Field) (string, bool) { return f.Accept, f.Accept != "" }, nil},
	{"type", shared.RuleFormat, func(f extract.Field) (string, bool) { _, ok := formatOfType[f.Type]; return f.Type, ok }, nil},
}

// requiredBy names the attribute that made a field required: extract's
// RequiredAttr, the required attribute for a field that does not say.
func requiredBy(f extract.Field) string {
	if f.RequiredAttr != "" {
		return f.RequiredAttr
	}
	return extract.RequiredAttribute
}

// requiredRaw is the raw value of the attribute that made a field
// required: "true" for aria-required; "" for the boolean required, whose
// presence is what counts.
func requiredRaw(f extract.Field) (string, bool) {
	if f.RequiredAttr == extract.AriaRequired {
		return extract.AriaRequiredTrue, f.Required
	}
	return "", f.Required
}

// validations is the validations stage of a form: for each control an
// agent fills, the rules its attributes declare, then those its meaning
// implies. Tokens and honeypots are sent as found: no rule applies to an
// agent.
func (ff formFields) validations(s signer) []shared.Validation {
	var out []shared.Validation
	for i, fl := range ff.fields {
		r := ff.reading(i)
		if !r.AgentFillable {
			continue
		}
		name := fieldName(fl, i)
		out = append(out, s.declaredValidations(name, fl, fieldSelector(ff.formSel, fl).Value)...)
		out = append(out, s.inferredValidations(name, r.Semantic, fl)...)
	}
	return out
}

// validations is the validations stage of a tool: the JSON-Schema
// keywords of each property, each quoting its value.
func (tp toolParams) validations(s signer) []shared.Validation {
	out := []shared.Validation{}
	for _, p := range tp.params {
		ev := tp.evidence(p)
		add := func(kind shared.RuleKind, keyword, value string) {
			var v *string
			if kind != shared.RuleRequired {
				v = &value
			}
			out = append(out, shared.DeclaredValidation{AppliesTo: p.name, Rule: shared.Rule{Kind: kind, Value: v},
				Attribute: keyword, Raw: value, Provenance: s.prov(tp.method, confDeclaredRule, ev)})
		}
		if p.required {
			add(shared.RuleRequired, "required", "")
		}
		if p.prop.Pattern != "" {
			add(shared.RulePattern, "pattern", p.prop.Pattern)
		}
		if p.prop.MinLength != nil {
			add(shared.RuleMinLength, "minLength", strconv.Itoa(*p.prop.MinLength))
		}
		if p.prop.MaxLength != nil {
			add(shared.RuleMaxLength, "maxLength", strconv.Itoa(*p.prop.MaxLength))
		}
		if p.prop.Minimum != nil {
			add(shared.RuleMin, "minimum", num(*p.prop.Minimum))
		}
		if p.prop.Maximum != nil {
			add(shared.RuleMax, "maximum", num(*p.prop.Maximum))
		}
		if p.prop.Format != "" {
			add(shared.RuleFormat, "format", p.prop.Format)
		}
	}
	return out
}

// validations is the validations stage of a structured-data action: the
// value properties of each input specification.
func (ls ldSpecs) validations(s signer) []shared.Validation {
	var out []shared.Validation
	for _, sp := range ls {
		in := sp.in
		add := func(kind shared.RuleKind, attr, raw string, set bool) {
			if !set {
				return
			}
			var v *string
			if kind != shared.RuleRequired {
				v = ptr(raw)
			}
			out = append(out, shared.DeclaredValidation{AppliesTo: in.name,
				Rule: shared.Rule{Kind: kind, Value: v}, Attribute: attr, Raw: raw,
				Provenance: s.prov(shared.MethodParsedStructuredData, confDeclaredRule, sp.path)})
		}
		add(shared.RuleRequired, "valueRequired", "", in.required)
		add(shared.RulePattern, "valuePattern", in.pattern, in.pattern != "")
		add(shared.RuleMinLength, "valueMinLength", itoa(in.minLength), in.minLength != nil)
		add(shared.RuleMaxLength, "valueMaxLength", itoa(in.maxLength), in.maxLength != nil)
		add(shared.RuleMin, "minValue", in.min, in.min != "")
		add(shared.RuleMax, "maxValue", in.max, in.max != "")
		add(shared.RuleStep, "stepValue", in.step, in.step != "")
	}
	return out
}

// declaredValidations lists the rules a control's attributes declare, each
// quoting the attribute's raw value.
func (s signer) declaredValidations(name string, f extract.Field, loc string) []shared.Validation {
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
		attribute := r.attribute
		if r.declaredBy != nil {
			attribute = r.declaredBy(f)
		}
		ev := loc + "[" + attribute + "]"
		if raw != "" {
			ev = loc + "[" + attribute + "=" + cssValue(raw) + "]"
		}
		out = append(out, shared.DeclaredValidation{
			AppliesTo: name, Rule: shared.Rule{Kind: r.kind, Value: val},
			Attribute: attribute, Raw: raw,
			Provenance: s.prov(shared.MethodParsedHTML, confDeclaredRule, ev),
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
	{shared.SemanticDate, func(f extract.Field) bool { return !dateTimeTypes[f.Type] && f.Pattern == "" },
		"date", "date field declared as a plain text box: the expected date format is not stated", 0.4},
}

// dateTimeTypes are the input types a browser offers a date or time picker
// for: the control states its own format.
var dateTimeTypes = map[string]bool{"date": true, "month": true, "week": true, "time": true, "datetime-local": true}

// inferredValidations lists the rules a field's semantic implies and its
// markup leaves out.
func (s signer) inferredValidations(name string, sem shared.SemanticType, f extract.Field) []shared.Validation {
	var out []shared.Validation
	for _, r := range inferredRules {
		if r.semantic != sem || !r.applies(f) {
			continue
		}
		v := r.format
		out = append(out, shared.InferredValidation{
			AppliesTo: name, Rule: shared.Rule{Kind: shared.RuleFormat, Value: &v},
			Basis: r.basis, Confidence: r.conf,
			Provenance: s.prov(shared.MethodInferred, r.conf, r.basis),
		})
	}
	return out
}
