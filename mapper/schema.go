package mapper

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// jsonSchemaProp is the part of a JSON Schema property an input is read from.
type jsonSchemaProp struct {
	Type        any      `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Format      string   `json:"format"`
	Pattern     string   `json:"pattern"`
	MinLength   *int     `json:"minLength"`
	MaxLength   *int     `json:"maxLength"`
	Minimum     *float64 `json:"minimum"`
	Maximum     *float64 `json:"maximum"`
	Enum        []any    `json:"enum"`
	Default     any      `json:"default"`
	// Items is an array's item schema: a list of enumerated strings is a
	// multi-select (decision 0006).
	Items *jsonSchemaProp `json:"items"`
}

// choices are the values a property enumerates: its own enum, or its
// items' for an array (several of them at once).
func (p jsonSchemaProp) choices() (values []any, several bool) {
	if t, _ := p.Type.(string); t == "array" && p.Items != nil && len(p.Items.Enum) > 0 {
		return p.Items.Enum, true
	}
	return p.Enum, false
}

// schemaFormatType maps a JSON Schema format to the control type a browser
// would use for it.
var schemaFormatType = map[string]string{"email": "email", "uri": "url", "date": "date", "time": "time", "date-time": "datetime-local"}

// toolParams are a tool's parameters as its JSON Schema declares them,
// in the order written: the inputs and validations stages read them.
type toolParams struct {
	method shared.ProvenanceMethod // how the schema was found (WebMCP, an ARD catalog)
	path   string                  // where the schema is, for evidence ("inputSchema")
	params []toolParam
}

// toolParam is one property of a tool's inputSchema and the classifier's
// reading of it.
type toolParam struct {
	name     string
	prop     jsonSchemaProp
	required bool
	reading  fieldReading
}

// readSchema reads the parameters of a tool from its JSON Schema (WebMCP
// inputSchema, an MCP tool's inputSchema). A schema that cannot be read is
// named in the problems, for the graph's notes (owner says whose it is),
// never passed over in silence.
func readSchema(cls classifier, raw json.RawMessage, m shared.ProvenanceMethod, path, owner string) (toolParams, []string) {
	tp := toolParams{method: m, path: path}
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(raw) == 0 {
		return tp, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return tp, []string{fmt.Sprintf("The inputSchema of %s is not a JSON Schema object (%s): its inputs are not read.", owner, jsonProblem(err))}
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var all map[string]json.RawMessage
	if len(s.Properties) > 0 && string(s.Properties) != "null" {
		if err := json.Unmarshal(s.Properties, &all); err != nil {
			return tp, []string{fmt.Sprintf("The inputSchema properties of %s are not an object (%s): its inputs are not read.", owner, jsonProblem(err))}
		}
	}
	var problems []string
	for _, name := range orderedKeys(s.Properties) {
		var p jsonSchemaProp
		if err := json.Unmarshal(all[name], &p); err != nil {
			problems = append(problems, fmt.Sprintf("The inputSchema property %s of %s is not a JSON Schema (%s): the input is read by its name only.", name, owner, jsonProblem(err)))
		}
		fl := extract.Field{Tag: "input", Type: schemaType(p), Name: name, Label: firstNonEmpty(p.Title, p.Description), Hint: p.Description, Required: required[name], Pattern: p.Pattern}
		tp.params = append(tp.params, toolParam{name: name, prop: p, required: required[name], reading: cls.field(fl)})
	}
	return tp, problems
}

// jsonProblem says briefly what is wrong with a JSON value, for a note.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s is a JSON %s", te.Field, te.Value)
		}
		return "a JSON " + te.Value
	}
	return err.Error()
}

func schemaType(p jsonSchemaProp) string {
	t, _ := p.Type.(string)
	if arr, ok := p.Type.([]any); ok && len(arr) > 0 {
		t, _ = arr[0].(string)
	}
	if ft, ok := schemaFormatType[p.Format]; ok {
		return ft
	}
	switch values, several := p.choices(); {
	case several:
		return "select-multiple"
	case len(values) > 0:
		return "select"
	case t == "integer" || t == "number":
		return "number"
	case t == "boolean":
		return "checkbox"
	}
	return "text"
}

func schemaValueSpaces(p jsonSchemaProp) []shared.ValueSpace {
	out := []shared.ValueSpace{}
	if p.MinLength != nil || p.MaxLength != nil {
		out = append(out, shared.LengthSpace{MinLength: p.MinLength, MaxLength: p.MaxLength})
	}
	if p.Pattern != "" {
		out = append(out, shared.PatternSpace{Pattern: p.Pattern})
	}
	if p.Minimum != nil || p.Maximum != nil {
		rs := shared.RangeSpace{}
		if p.Minimum != nil {
			rs.Min = ptr(num(*p.Minimum))
		}
		if p.Maximum != nil {
			rs.Max = ptr(num(*p.Maximum))
		}
		out = append(out, rs)
	}
	if values, _ := p.choices(); len(values) > 0 {
		var opts []shared.Option
		for _, e := range values {
			opts = append(opts, shared.Option{Value: fmt.Sprint(e)})
		}
		out = append(out, shared.OneOfSpace{Options: opts})
	}
	if p.Format != "" {
		out = append(out, shared.FormatSpace{Format: p.Format})
	}
	return out
}

func defaultString(v any) *string {
	if list, ok := v.([]any); ok { // an array's default: its first value (decision 0006)
		if len(list) == 0 {
			return nil
		}
		v = list[0]
	}
	if v == nil {
		return nil
	}
	s := fmt.Sprint(v)
	return &s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func clampConf(c float64) float64 {
	switch {
	case c <= 0:
		return 0.1
	case c >= 1:
		return 0.99
	}
	return c
}

// orderedKeys returns the keys of a JSON object in the order written.
func orderedKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}
