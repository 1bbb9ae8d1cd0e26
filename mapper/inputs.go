package mapper

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// inputSource is what an action's inputs and validations are read from:
// the form that made it (formFields), a tool's schema (toolParams) or a
// structured-data action's input specifications (ldSpecs). The inputs
// stage is its inputs method, the validations stage its validations.
type inputSource interface {
	inputs(s signer) []shared.Input
	validations(s signer) []shared.Validation
}

// formFields are a form's controls, the classifier's reading of each (in
// field order) and the form's selector, which the controls' locators
// start with.
type formFields struct {
	fields   []extract.Field
	readings []fieldReading
	formSel  string
}

// reading is the classifier's reading of field i, unknown when it gave none.
func (ff formFields) reading(i int) fieldReading {
	if i < len(ff.readings) {
		return ff.readings[i]
	}
	return fieldReading{Semantic: shared.SemanticUnknown, Confidence: 0.2}
}

// inputs is the inputs stage of a form: each control as an input, from
// the classifier's reading of it.
func (ff formFields) inputs(s signer) []shared.Input {
	var out []shared.Input
	for i, fl := range ff.fields {
		r := ff.reading(i)
		loc := fieldSelector(ff.formSel, fl)
		ev := r.Evidence
		if ev == "" {
			ev = loc.Value
		}
		out = append(out, shared.Input{
			Name: fieldName(fl, i), Label: strPtr(fl.Label), Semantic: r.Semantic, Type: browserType(fl),
			Required: fl.Required, AgentFillable: r.AgentFillable,
			ValueSpace: valueSpaces(fl), DefaultValue: defaultValue(fl), Hint: hintOf(fl),
			Locator: &loc, Provenance: ptr(s.prov(shared.MethodParsedHTML, r.Confidence, ev)),
		})
	}
	return out
}

// callerSemantic is a tool parameter's or structured-data input's
// semantic: always the caller's to give, so never a honeypot or a token.
func callerSemantic(r fieldReading) shared.SemanticType {
	if r.Semantic == shared.SemanticHoneypot || r.Semantic == shared.SemanticSystemToken {
		return shared.SemanticUnknown
	}
	return r.Semantic
}

// inputs is the inputs stage of a tool: each schema property as an input.
func (tp toolParams) inputs(s signer) []shared.Input {
	out := []shared.Input{}
	for _, p := range tp.params {
		out = append(out, shared.Input{
			Name: p.name, Label: strPtr(p.prop.Title), Semantic: callerSemantic(p.reading), Type: schemaType(p.prop), Required: p.required,
			AgentFillable: true, ValueSpace: schemaValueSpaces(p.prop), DefaultValue: defaultString(p.prop.Default),
			Hint: strPtr(p.prop.Description), Provenance: ptr(s.prov(tp.method, clampConf(p.reading.Confidence), tp.evidence(p)+"; "+p.reading.Evidence)),
		})
	}
	return out
}

// evidence is where a parameter is declared ("inputSchema.properties.name").
func (tp toolParams) evidence(p toolParam) string { return tp.path + ".properties." + p.name }

// ldSpecs are the <prop>-input specifications of a structured-data action.
type ldSpecs []ldSpec

// ldSpec is one input specification, the classifier's reading of it and
// where it is in the JSON-LD.
type ldSpec struct {
	in      ldInput
	reading fieldReading
	path    string
}

// inputs is the inputs stage of a structured-data action.
func (ls ldSpecs) inputs(s signer) []shared.Input {
	var out []shared.Input
	for _, sp := range ls {
		in := sp.in
		vs := []shared.ValueSpace{}
		if in.minLength != nil || in.maxLength != nil {
			vs = append(vs, shared.LengthSpace{MinLength: in.minLength, MaxLength: in.maxLength})
		}
		if in.pattern != "" {
			vs = append(vs, shared.PatternSpace{Pattern: in.pattern})
		}
		if in.min != "" || in.max != "" || in.step != "" {
			vs = append(vs, shared.RangeSpace{Min: strPtr(in.min), Max: strPtr(in.max), Step: strPtr(in.step)})
		}
		out = append(out, shared.Input{
			Name: in.name, Label: strPtr(in.prop), Semantic: callerSemantic(sp.reading), Type: "text", Required: in.required,
			AgentFillable: !in.readonly, ValueSpace: vs, DefaultValue: strPtr(in.dflt),
			Provenance: ptr(s.prov(shared.MethodParsedStructuredData, clampConf(sp.reading.Confidence), sp.path+" = "+in.raw)),
		})
	}
	return out
}

// browserType is the type an Input records: what the browser thinks the
// control is ("select" for a single-choice list).
func browserType(f extract.Field) string {
	switch f.Type {
	case "select-one":
		return "select"
	case "":
		if f.Tag != "" && f.Tag != "input" {
			return f.Tag
		}
		return "text"
	}
	return f.Type
}

// fieldName is the name the control submits under; a control without a name
// (common in formless groups) is known by its id.
func fieldName(f extract.Field, i int) string {
	switch {
	case f.Name != "":
		return f.Name
	case f.ID != "":
		return f.ID
	}
	return fmt.Sprintf("field-%d", i+1)
}

// formatOfType is the well-known format an input type declares.
var formatOfType = map[string]string{
	"email": "email", "url": "uri", "date": "date", "time": "time",
	"datetime-local": "date-time", "month": "month", "week": "week",
}

// valueSpaces reads the constraints a control declares.
func valueSpaces(f extract.Field) []shared.ValueSpace {
	out := []shared.ValueSpace{}
	minL, maxL := atoiPtr(f.MinLength), atoiPtr(f.MaxLength)
	if minL != nil || maxL != nil {
		out = append(out, shared.LengthSpace{MinLength: minL, MaxLength: maxL})
	}
	if f.Pattern != "" {
		out = append(out, shared.PatternSpace{Pattern: f.Pattern})
	}
	if f.Min != "" || f.Max != "" || (f.Step != "" && f.Step != "any") {
		out = append(out, shared.RangeSpace{Min: strPtr(f.Min), Max: strPtr(f.Max), Step: strPtr(f.Step)})
	}
	if opts := optionsOf(f); len(opts) > 0 {
		out = append(out, shared.OneOfSpace{Options: opts})
	}
	if fm, ok := formatOfType[f.Type]; ok {
		out = append(out, shared.FormatSpace{Format: fm})
	}
	return out
}

// optionsOf lists the values a select, a radio group or a group of
// same-name checkboxes accepts, leaving out the empty placeholder option
// ("Choose…") and repeated values. A checkbox group with fewer than two
// distinct values is a lone checkbox (true ticks it): it has no options
// (shared.Input.MultiValued, decision 0006).
func optionsOf(f extract.Field) []shared.Option {
	if f.Type == "checkbox" && !f.Multiple {
		return nil
	}
	var out []shared.Option
	seen := map[string]bool{}
	for _, o := range f.Options {
		if o.Value == "" || seen[o.Value] {
			continue
		}
		seen[o.Value] = true
		out = append(out, shared.Option{Value: o.Value, Label: strPtr(o.Text)})
	}
	if f.Type == "checkbox" && len(out) < 2 {
		return nil
	}
	return out
}

// defaultValue is what the control sends untouched: a text default, the
// selected option, a ticked checkbox's value. A hidden token's value is its
// default and is sent back verbatim.
func defaultValue(f extract.Field) *string {
	switch f.Type {
	case "checkbox", "radio":
		if f.Type == "radio" || optionsOf(f) != nil { // a group: its first pre-selected member
			for _, o := range f.Options {
				if o.Selected {
					return strPtr(o.Value)
				}
			}
			return nil
		}
		if f.Checked {
			return strPtr(f.Value)
		}
		return nil
	case "select-one":
		// what a browser sends untouched: the last option marked selected
		// (a browser keeps only the last), else the first option that is
		// not disabled — extract's Field.Value, read as the browser reads
		// it. nil for an empty placeholder.
		return strPtr(f.Value)
	case "select-multiple":
		// Every pre-selected option is sent untouched, but defaultValue is
		// one string (contract 0.1, decision 0006): the first of them.
		for _, o := range f.Options {
			if o.Selected && o.Value != "" {
				return strPtr(o.Value)
			}
		}
		return nil
	}
	return strPtr(f.Value)
}

// hintOf is the help text a person sees for the field, else the WebMCP
// parameter description.
func hintOf(f extract.Field) *string {
	if f.Hint != "" {
		return strPtr(f.Hint)
	}
	return strPtr(f.ToolParamDescription)
}

// fieldSelector is a locator for a control within its form: by name when it
// has one (stable across deploys), else the extractor's own.
// A control inside an open shadow root gets a shadow-including selector
// (shadowLocator): the form's selector already begins with the host's, or
// — for a formless group whose container is the host — is the host's.
func fieldSelector(formSel string, f extract.Field) shared.Locator {
	tag := f.Tag
	if tag == "" {
		tag = "input"
	}
	if f.Name != "" && formSel != "" && !isPositional(formSel) {
		sel := formSel + " " + tag + "[name=" + cssValue(f.Name) + "]"
		if f.ShadowHost != "" {
			return shadowLocator(sel)
		}
		return shared.Locator{Strategy: shared.StrategyCSS, Value: sel, Stability: shared.StabilityStable}
	}
	if f.ShadowHost != "" {
		return shadowLocator(f.Locator)
	}
	return cssLocator(f.Locator)
}

// cssLocator wraps an extractor selector, judging its stability: a path of
// positions breaks with the next layout change, an id or a name does not.
func cssLocator(sel string) shared.Locator {
	st := shared.StabilityStable
	if isPositional(sel) {
		st = shared.StabilityFragile
	}
	return shared.Locator{Strategy: shared.StrategyCSS, Value: sel, Stability: st}
}

func isPositional(sel string) bool { return strings.Contains(sel, ":nth-") }

// cssValue quotes an attribute value unless it is a plain identifier, so
// "patient-name" stays readable and "wpforms[fields][1]" stays valid.
func cssValue(v string) string {
	plain := v != "" && !(v[0] >= '0' && v[0] <= '9') && !strings.HasPrefix(v, "--")
	for _, r := range v {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func atoiPtr(s string) *int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return nil
	}
	return &n
}
