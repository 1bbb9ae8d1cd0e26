package compiler

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// jsonSchemaDialect is the dialect of every input schema the compiler writes.
const jsonSchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// objectSchema is the JSON Schema of one door's inputs.
type objectSchema struct {
	Schema               string   `json:"$schema,omitempty"`
	Type                 string   `json:"type"`
	Properties           object   `json:"properties"`
	Required             []string `json:"required,omitempty"`
	AdditionalProperties *bool    `json:"additionalProperties,omitempty"`
}

// propSchema is the JSON Schema of one input. Keywords come from what the
// site itself states — declared validations and the control's value space —
// never from an inferred validation.
type propSchema struct {
	Type             string        `json:"type"`
	Title            string        `json:"title,omitempty"`
	Description      string        `json:"description,omitempty"`
	Format           string        `json:"format,omitempty"`
	Enum             []string      `json:"enum,omitempty"`
	Const            *bool         `json:"const,omitempty"`
	Items            *propSchema   `json:"items,omitempty"`
	UniqueItems      bool          `json:"uniqueItems,omitempty"`
	MinItems         *int          `json:"minItems,omitempty"`
	Pattern          string        `json:"pattern,omitempty"`
	AllOf            []patternOnly `json:"allOf,omitempty"`
	AnyOf            []emptyOr     `json:"anyOf,omitempty"`
	MinLength        *int          `json:"minLength,omitempty"`
	MaxLength        *int          `json:"maxLength,omitempty"`
	Minimum          *json.Number  `json:"minimum,omitempty"`
	Maximum          *json.Number  `json:"maximum,omitempty"`
	MultipleOf       *json.Number  `json:"multipleOf,omitempty"`
	ContentEncoding  string        `json:"contentEncoding,omitempty"`
	ContentMediaType string        `json:"contentMediaType,omitempty"`
	Default          *string       `json:"default,omitempty"`
	// Properties, PropRequired and Closed describe an object: a file an
	// agent uploads (fileSchema).
	Properties   object   `json:"properties,omitempty"`
	PropRequired []string `json:"required,omitempty"`
	Closed       *bool    `json:"additionalProperties,omitempty"`
	// Field carries what an HTTP client must know about a field it may not
	// choose (OpenAPI only): a system token or a honeypot.
	Field *fieldMeta `json:"x-frontlatch-field,omitempty"`
}

// patternOnly carries a second pattern when a field has more than one.
type patternOnly struct {
	Pattern string `json:"pattern"`
}

// emptyOr is one branch of an optional field's anyOf: empty (maxLength
// 0), or what a value that is not empty must be — at least its minLength,
// in its format.
type emptyOr struct {
	Format    string `json:"format,omitempty"`
	MinLength *int   `json:"minLength,omitempty"`
	MaxLength *int   `json:"maxLength,omitempty"`
}

// fieldMeta tells an HTTP client how to treat a field an agent never fills.
type fieldMeta struct {
	Semantic      shared.SemanticType `json:"semantic"`
	AgentFillable bool                `json:"agentFillable"`
	Rule          string              `json:"rule"`
}

// schemaMode chooses which inputs a schema describes.
type schemaMode int

const (
	// agentInputs: only what an agent may fill (MCP, WebMCP, JSON-LD).
	agentInputs schemaMode = iota
	// wireInputs: every field the request carries (OpenAPI), with system
	// tokens and honeypots marked.
	wireInputs
)

// agentFillable reports whether an agent may be offered the input: the
// graph says so, and it is neither a honeypot nor a system token.
func agentFillable(in *shared.Input) bool {
	return in.AgentFillable && in.Semantic != shared.SemanticHoneypot && in.Semantic != shared.SemanticSystemToken
}

// agentInputsOf returns the inputs an agent may fill, in form order.
func agentInputsOf(a *shared.Action) []*shared.Input {
	var out []*shared.Input
	for i := range a.Inputs {
		if agentFillable(&a.Inputs[i]) {
			out = append(out, &a.Inputs[i])
		}
	}
	return out
}

// inputsSchema builds the object schema of an action's inputs.
func inputsSchema(a *shared.Action, mode schemaMode) objectSchema {
	s := objectSchema{Type: "object", Properties: object{}}
	if mode == agentInputs {
		s.Schema = jsonSchemaDialect
		closed := false
		s.AdditionalProperties = &closed
	}
	declared := declaredRules(a)
	for i := range a.Inputs {
		in := &a.Inputs[i]
		if mode == agentInputs && !agentFillable(in) {
			continue
		}
		ps, required := inputSchema(in, declared[in.Name], mode)
		s.Properties.set(in.Name, ps)
		// A radio group recorded once per button shares one name: one
		// property, required once.
		if required && !slices.Contains(s.Required, in.Name) {
			s.Required = append(s.Required, in.Name)
		}
	}
	return s
}

// declaredRules groups an action's declared validations by input name.
// Inferred validations are dropped here, once: they may warn, never refuse.
func declaredRules(a *shared.Action) map[string][]shared.Rule {
	out := map[string][]shared.Rule{}
	for _, v := range a.Validations {
		if d, ok := v.(shared.DeclaredValidation); ok {
			out[d.AppliesTo] = append(out[d.AppliesTo], d.Rule)
		}
	}
	return out
}

// constraints gathers what the declared rules and the value space state.
type constraints struct {
	required        bool
	patterns        []string
	minLen, maxLen  *int
	min, max, step  *string
	format          string
	options         []shared.Option
	accept, maxFile string
}

func gather(in *shared.Input, rules []shared.Rule) constraints {
	c := constraints{required: in.Required, options: in.Options()}
	for _, vs := range in.ValueSpace {
		switch v := vs.(type) {
		case shared.LengthSpace:
			c.minLen = maxInt(c.minLen, v.MinLength)
			c.maxLen = minInt(c.maxLen, v.MaxLength)
		case shared.PatternSpace:
			c.addPattern(v.Pattern)
		case shared.RangeSpace:
			c.min, c.max, c.step = firstOf(c.min, v.Min), firstOf(c.max, v.Max), firstOf(c.step, v.Step)
		case shared.FormatSpace:
			if c.format == "" {
				c.format = v.Format
			}
		}
	}
	for _, r := range rules {
		val := ""
		if r.Value != nil {
			val = *r.Value
		}
		switch r.Kind {
		case shared.RuleRequired:
			c.required = true
		case shared.RulePattern:
			c.addPattern(val)
		case shared.RuleMinLength:
			if n, err := strconv.Atoi(val); err == nil && n >= 0 {
				c.minLen = maxInt(c.minLen, &n)
			}
		case shared.RuleMaxLength:
			if n, err := strconv.Atoi(val); err == nil && n >= 0 {
				c.maxLen = minInt(c.maxLen, &n)
			}
		case shared.RuleMin:
			c.min = &val
		case shared.RuleMax:
			c.max = &val
		case shared.RuleStep:
			c.step = &val
		case shared.RuleFormat:
			c.format = val
		case shared.RuleAccept:
			c.accept = val
		case shared.RuleMaxFileSize:
			c.maxFile = val
		}
	}
	return c
}

// addPattern records a pattern the site states, as the site wrote it (an
// HTML pattern, which jsonPatterns turns into JSON Schema's).
func (c *constraints) addPattern(p string) {
	if p == "" || slices.Contains(c.patterns, p) {
		return
	}
	c.patterns = append(c.patterns, p)
}

// jsonPatterns returns the JSON Schema patterns of the site's patterns,
// anchored, and a sentence for each one a JSON Schema pattern cannot hold:
// one that is no valid regular expression with HTML's v flag, which a
// browser ignores (a site's [a-z-] or [0-9/]), so the field does not
// refuse what the page takes; and one that needs the v flag (a class set
// operation, a nested class, \q{…}, a property of strings), which an
// agent's validator, reading ECMA-262 with the u flag, would refuse or
// read otherwise, so the description states it instead. The same rule
// holds for every output, as every output's schema is inputSchema's.
func jsonPatterns(patterns []string) (out, notes []string) {
	for _, p := range patterns {
		u, kind := shared.HTMLPattern(p)
		switch kind {
		case shared.PatternPortable:
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		case shared.PatternVOnly:
			notes = append(notes, "The whole value must also match the page's pattern /"+p+"/v, which a JSON Schema pattern cannot state (it needs JavaScript's v flag).")
		case shared.PatternInvalid:
			notes = append(notes, "The page's pattern /"+p+"/v is no valid regular expression as HTML reads it (with the v flag), so a browser does not check it.")
		}
	}
	return out, notes
}

// inputSchema returns the schema of one input and whether it is required.
func inputSchema(in *shared.Input, rules []shared.Rule, mode schemaMode) (propSchema, bool) {
	c := gather(in, rules)
	ps := propSchema{Type: "string"}
	if in.Label != nil {
		ps.Title = *in.Label
	}
	var notes []string
	if in.Hint != nil && *in.Hint != "" {
		notes = append(notes, sentence(*in.Hint))
	}
	notes = append(notes, "Semantic type: "+string(in.Semantic)+".")

	switch {
	case in.Semantic == shared.SemanticHoneypot:
		zero := 0
		ps.MaxLength = &zero
		ps.Field = &fieldMeta{Semantic: in.Semantic, Rule: "must be sent empty: it is a trap for bots, and filling it marks the request as spam"}
		ps.Description = joinNotes(notes)
		return ps, false
	case in.Semantic == shared.SemanticSystemToken || !in.AgentFillable:
		ps.Field = &fieldMeta{Semantic: in.Semantic, Rule: "send back verbatim the value the live page carries; never invent or change it"}
		ps.Description = joinNotes(notes)
		return ps, c.required
	}
	typ := controlType(in)
	if f, ok := browserValue[typ]; ok {
		notes = append(notes, "The value as a browser's "+typ+" input sends it: "+f+".")
	}

	switch {
	case typ == "number" || typ == "range":
		ps.Type = "number"
		ps.Minimum, ps.Maximum = number(c.min), number(c.max)
		if typ == "range" { // HTML's range has a minimum of 0 and a maximum of 100 unless it states others
			if ps.Minimum == nil {
				ps.Minimum = jsonNumber("0")
			}
			if ps.Maximum == nil {
				ps.Maximum = jsonNumber("100")
			}
		}
		step := htmlStep(c.step)
		base := stepBase(c.min, in.DefaultValue)
		if st := number(step); st != nil && stepExact(base, step) {
			ps.MultipleOf = st
		} else if st != nil {
			// multipleOf counts from zero: a step from a base off its grid
			// (min 1, step 2) is said in words.
			b := string(*number(base))
			notes = append(notes, "Accepted: "+b+" plus a whole multiple of "+string(*st)+" (the page's step counts from "+b+").")
		}
	case in.MultiValued(): // a checkbox group, a <select multiple> (decision 0006)
		ps.Type = "array"
		ps.Items = &propSchema{Type: "string", Enum: optionValues(c.options)}
		ps.UniqueItems = true
		notes = append(notes, "A list: any of the options, each at most once.")
		if c.required {
			one := 1
			ps.MinItems = &one
		}
	case typ == "checkbox" && mode == agentInputs:
		ps.Type = "boolean"
		notes = append(notes, "true ticks the box.")
		if c.required { // a required checkbox must be ticked
			ticked := true
			ps.Const = &ticked
		}
	case typ == "file" && mode == wireInputs:
		// On the wire, a multipart file part: its bytes.
		ps.ContentMediaType = "application/octet-stream"
	case typ == "file":
		// The object's keys describe themselves; the notes (accept, size)
		// stay the input's, as every output that describes it shows them.
		ps = fileSchema(ps, c.accept)
	}
	if ps.Type == "string" {
		ps.Enum = optionValues(c.options)
		ps.Format = jsonFormat(c.format, typ)
		ps.MinLength, ps.MaxLength = c.minLen, c.maxLen
		if c.minLen != nil || c.maxLen != nil {
			notes = append(notes, utf16Note)
		}
		if c.required && (ps.MinLength == nil || *ps.MinLength < 1) && (ps.Enum == nil || slices.Contains(ps.Enum, "")) {
			// HTML's required refuses an empty value (valueMissing), a
			// <select>'s empty placeholder ("Choose…") included; JSON
			// Schema's required only asks for the key.
			ps.MinLength = ptrInt(1)
		}
		patterns, patternNotes := jsonPatterns(c.patterns)
		if !c.required {
			// HTML's pattern, minlength and type checks do not look at an
			// empty value (nor does the executor): an optional field
			// takes "", an optional email field included.
			for i := range patterns {
				patterns[i] += "|^$"
			}
			if (ps.MinLength != nil && *ps.MinLength > 0) || ps.Format != "" {
				filled := emptyOr{Format: ps.Format}
				if ps.MinLength != nil && *ps.MinLength > 0 {
					filled.MinLength = ps.MinLength
				}
				ps.AnyOf = []emptyOr{{MaxLength: ptrInt(0)}, filled}
				ps.MinLength, ps.Format = nil, ""
			}
		}
		if len(patterns) > 0 {
			ps.Pattern = patterns[0]
			for _, p := range patterns[1:] {
				ps.AllOf = append(ps.AllOf, patternOnly{p})
			}
		}
		notes = append(notes, patternNotes...)
		if c.min != nil {
			notes = append(notes, "Earliest or lowest accepted: "+*c.min+".")
		}
		if c.max != nil {
			notes = append(notes, "Latest or highest accepted: "+*c.max+".")
		}
		if in.DefaultValue != nil && *in.DefaultValue != "" {
			ps.Default = in.DefaultValue
		}
	}
	if labels := optionLabels(c.options); labels != "" {
		notes = append(notes, "Options: "+labels+".")
	}
	if c.accept != "" {
		notes = append(notes, "Accepted files: "+c.accept+".")
	}
	if c.maxFile != "" {
		notes = append(notes, "Largest file accepted: "+c.maxFile+".")
	}
	ps.Description = joinNotes(notes)
	return ps, c.required
}

// controlType is an input's type with its ASCII letters in lower case:
// HTML's input types are ASCII case-insensitive (type=Number is a number
// input), as the executor reads them.
func controlType(in *shared.Input) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, in.Type)
}

// utf16Note says how the site counts a length, for a field that states
// one: HTML's minlength and maxlength (and the executor) count UTF-16 code
// units, JSON Schema's minLength and maxLength count characters, so an
// emoji is one character to the schema and two to the site.
const utf16Note = "Length as the site counts it: in UTF-16 code units, so a character outside the Basic Multilingual Plane (most emoji) counts as two."

// File object keys: the shape of a file an agent uploads (decision 0007),
// which the executor reads (executor.File).
const (
	fileKeyName      = "name"
	fileKeyMediaType = "mediaType"
	fileKeyContent   = "content"
)

// mediaTypePattern is a media type without parameters (RFC 6838
// type/subtype, each an RFC 9110 token), as the executor accepts it.
const mediaTypePattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+$"

// fileSchema is the schema of a file input offered to an agent: an object
// {name, mediaType, content} with content its bytes in base64 (JSON Schema
// 2020-12 contentEncoding), the only key required. content names its media
// type (contentMediaType) when the page accepts exactly one.
func fileSchema(ps propSchema, accept string) propSchema {
	closed := false
	content := propSchema{Type: "string", ContentEncoding: "base64",
		Description: "The file's bytes, base64-encoded (RFC 4648, the standard alphabet)."}
	if mt := singleMediaType(accept); mt != "" {
		content.ContentMediaType = mt
	}
	props := object{}
	props.set(fileKeyName, propSchema{Type: "string", MinLength: ptrInt(1),
		Description: "The file's name, with its extension (quote.pdf): sent as the site's browser would. Any folder part is dropped; without a name the file is named from its media type."})
	props.set(fileKeyMediaType, propSchema{Type: "string", Pattern: mediaTypePattern,
		Description: "The file's media type (image/jpeg), without parameters; by default from the name's extension, else from the content."})
	props.set(fileKeyContent, content)
	return propSchema{Type: "object", Title: ps.Title, Properties: props, PropRequired: []string{fileKeyContent}, Closed: &closed}
}

// singleMediaType returns the media type an accept list names when it
// names exactly one and nothing else (no wildcard, no extension), else "".
func singleMediaType(accept string) string {
	var one string
	for _, tok := range strings.Split(accept, ",") {
		tok = strings.ToLower(strings.TrimSpace(tok))
		switch {
		case tok == "":
			continue
		case one != "", strings.HasPrefix(tok, "."), strings.HasSuffix(tok, "/*"), !strings.Contains(tok, "/"):
			return ""
		}
		one = tok
	}
	return one
}

func ptrInt(n int) *int { return &n }

// jsonFormat names the JSON Schema format of a field: from a format the
// site states (a declared rule or the control's value space), else from
// the input's type (type=email is format email). Never from the semantic
// type alone, which the mapper infers (a text input named your-email is a
// string, not format email): an inferred validation never becomes a
// keyword. A month (YYYY-MM), week (YYYY-Www), time (HH:MM) or
// datetime-local input has no format, even a declared one: its value is not
// RFC 3339's date, full-time or date-time (browserValue describes it).
// browserValue is how a browser writes the value of an input type that
// has no JSON Schema format (see jsonFormat), for the property's
// description.
var browserValue = map[string]string{
	"time":           "HH:MM in 24 hours, or HH:MM:SS (09:30)",
	"datetime-local": "YYYY-MM-DDTHH:MM, local time without an offset (2026-12-03T09:30)",
	"month":          "YYYY-MM (2026-12)",
	"week":           "YYYY-Www, an ISO week (2026-W49)",
}

func jsonFormat(declared, inputType string) string {
	switch strings.ToLower(inputType) {
	case "month", "week", "time", "datetime-local":
		// A browser's values for these (2026-12, 2026-W49, 09:30,
		// 2026-12-03T09:30) are not JSON Schema's date, time (which needs
		// seconds and an offset) or date-time (which needs an offset):
		// the keyword would ask an agent for what the form refuses.
		return ""
	}
	for _, s := range []string{declared, inputType} {
		switch strings.ToLower(s) {
		case "email":
			return "email"
		case "url", "uri", "website-url":
			// A browser's url input takes an absolute URL by the URL
			// Standard, which allows non-ASCII (https://bäckerei.de/),
			// as the executor does: RFC 3987's iri, not RFC 3986's uri.
			return "iri"
		case "date":
			return "date"
		case "time":
			return "time"
		case "date-time", "datetime":
			return "date-time"
		}
	}
	return ""
}

func optionValues(opts []shared.Option) []string {
	if len(opts) == 0 {
		return nil
	}
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Value
	}
	return out
}

// optionLabels lists "value (label)" for options whose label says more
// than the value; "" when none does.
func optionLabels(opts []shared.Option) string {
	var parts []string
	for _, o := range opts {
		if o.Label != nil && *o.Label != "" && *o.Label != o.Value {
			parts = append(parts, strconv.Quote(o.Value)+" ("+*o.Label+")")
		}
	}
	return strings.Join(parts, ", ")
}

// number parses a bound written by the site; nil when it is not a number
// (a date bound stays in the description).
func number(s *string) *json.Number {
	if s == nil {
		return nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(*s), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	n := json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	return &n
}

func jsonNumber(s string) *json.Number { n := json.Number(s); return &n }

// htmlStep is the step a number or range input enforces: the one the site
// states, "any" (no step, nil), or HTML's default step of 1 when it states
// none or one that is no positive number (step="0", step="x"), so that such
// an input takes whole numbers only, as a browser's checkValidity (and a
// range's rounding) has it.
func htmlStep(step *string) *string {
	if step != nil && strings.EqualFold(strings.TrimSpace(*step), "any") {
		return nil
	}
	if st := number(step); st != nil {
		if f, _ := st.Float64(); f > 0 {
			return step
		}
	}
	one := "1"
	return &one
}

// stepBase is what HTML counts steps from: the min when it is a number,
// else the value the page sets (the value attribute), else zero (nil).
func stepBase(min, value *string) *string {
	if number(min) != nil {
		return min
	}
	if number(value) != nil {
		return value
	}
	return nil
}

// stepExact: a step is a multipleOf only when it counts from zero (HTML
// counts steps from the step base, stepBase), and "any" means no step.
func stepExact(min, step *string) bool {
	st := number(step)
	if st == nil {
		return false
	}
	sf, _ := st.Float64()
	if sf <= 0 {
		return false
	}
	m := number(min)
	if m == nil {
		return true
	}
	mf, _ := m.Float64()
	q := mf / sf
	return q == math.Trunc(q)
}

func maxInt(a, b *int) *int {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}

func minInt(a, b *int) *int {
	if a == nil || (b != nil && *b < *a) {
		return b
	}
	return a
}

func firstOf(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}

// sentence ends s with a full stop unless it already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

func joinNotes(notes []string) string { return strings.Join(notes, " ") }
