package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/shared/internal/rules"
)

func main() {
	out := flag.String("out", "schema/action-graph-0.1.schema.json", "file to write")
	flag.Parse()
	b, err := generate()
	if err == nil {
		if err = os.MkdirAll(filepath.Dir(*out), 0o755); err == nil {
			err = os.WriteFile(*out, b, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}

// timestampPattern narrows format date-time (RFC 3339, which also allows a
// lower-case t and z and a leap second :60) to the profile shared.Timestamp
// reads: upper-case T and Z, seconds 00–59. The format keeps checking the
// ranges (month, day, hour, offset) the pattern leaves open. See
// docs/decisions/0004-timestamp-profile.md.
const timestampPattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`

var (
	timestampType  = reflect.TypeFor[shared.Timestamp]()
	reversibleType = reflect.TypeFor[shared.Reversible]()
	vocabularyType = reflect.TypeFor[shared.Vocabulary]()
)

// generate returns the schema document, indented, with a trailing newline.
func generate() ([]byte, error) {
	unions := map[reflect.Type]shared.Union{}
	for _, u := range shared.Unions() {
		unions[u.Interface] = u
	}
	r := &jsonschema.Reflector{
		Anonymous: true,
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch {
			case t == timestampType:
				return &jsonschema.Schema{Type: "string", Format: "date-time", Pattern: timestampPattern}
			case t == reversibleType:
				return &jsonschema.Schema{Enum: []any{true, false, string(shared.ReversibleUnknown)}}
			case t.Kind() == reflect.String && t.Implements(vocabularyType):
				return &jsonschema.Schema{Type: "string", Enum: members(reflect.Zero(t).Interface().(shared.Vocabulary))}
			case t.Kind() == reflect.Interface:
				u, ok := unions[t]
				if !ok {
					return nil
				}
				s := &jsonschema.Schema{}
				for _, v := range u.Variants {
					s.OneOf = append(s.OneOf, &jsonschema.Schema{Ref: "#/$defs/" + v.Type.Name()})
				}
				return s
			}
			return nil
		},
	}

	defs := jsonschema.Definitions{}
	merge := func(t reflect.Type) {
		s := r.ReflectFromType(t)
		for k, v := range s.Definitions {
			defs[k] = v
		}
	}
	merge(reflect.TypeFor[shared.ActionGraph]())
	for _, u := range shared.Unions() {
		for _, v := range u.Variants {
			merge(v.Type)
		}
	}

	// Walk the Go types to apply what invopop cannot know: nullability,
	// contract-tag rules and union discriminators.
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if seen[t] {
			return nil
		}
		seen[t] = true
		if t.Kind() == reflect.Interface {
			u, ok := unions[t]
			if !ok {
				return fmt.Errorf("interface %v is not a declared union", t)
			}
			for _, v := range u.Variants {
				if err := addDiscriminator(defs[v.Type.Name()], u.Key, v.Value); err != nil {
					return fmt.Errorf("%v: %w", v.Type, err)
				}
				if err := walk(v.Type); err != nil {
					return err
				}
			}
			return nil
		}
		if t.Kind() != reflect.Struct || t == timestampType {
			return nil
		}
		def := defs[t.Name()]
		if def == nil || def.Properties == nil {
			return fmt.Errorf("no definition for %v", t)
		}
		for i := range t.NumField() {
			f := t.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			prop, ok := def.Properties.Get(key)
			if !ok {
				return fmt.Errorf("%v has no property %q", t, key)
			}
			rs, err := rules.Parse(f.Tag.Get("contract"))
			if err != nil {
				return err
			}
			prop = applyRules(prop, f.Type, rs)
			if f.Type.Kind() == reflect.Pointer {
				prop = nullable(prop)
				def.Required = remove(def.Required, key)
			}
			def.Properties.Set(key, prop)
			if err := walk(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(reflect.TypeFor[shared.ActionGraph]()); err != nil {
		return nil, err
	}

	// Rules the reader states in code rather than in a tag, restated here
	// where JSON Schema can say them; TestDifferential keeps the two in step.
	for _, name := range []string{"Provenance", "InferredValidation"} {
		p, _ := defs[name].Properties.Get("confidence")
		p.Minimum, p.Maximum = "0", "1"
	}
	p, _ := defs["ActionGraph"].Properties.Get("schemaVersion")
	p.Const = shared.SchemaVersion

	root := *defs["ActionGraph"]
	delete(defs, "ActionGraph")
	root.Version = jsonschema.Version
	root.Title = "Frontlatch Action Graph " + shared.SchemaVersion
	root.Description = "Generated from the Go types of github.com/frontlatch/frontlatch/shared by shared/internal/schemagen; do not edit. Nullable keys may be omitted (read as null); every other key is required."
	root.Definitions = defs

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func members(v shared.Vocabulary) []any {
	var out []any
	for _, m := range v.Members() {
		out = append(out, m)
	}
	return out
}

// applyRules turns a field's contract tag into schema keywords.
func applyRules(s *jsonschema.Schema, t reflect.Type, rs rules.Rules) *jsonschema.Schema {
	one := uint64(1)
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if rs.NonEmpty {
		switch base.Kind() {
		case reflect.String:
			s.MinLength = &one
		case reflect.Slice:
			s.MinItems = &one
		}
	}
	if rs.Min != nil {
		s.Minimum = json.Number(strconv.FormatInt(*rs.Min, 10))
	}
	if rs.Max != nil {
		s.Maximum = json.Number(strconv.FormatInt(*rs.Max, 10))
	}
	return s
}

// nullable makes s also accept null: "type": [T, "null"] for a scalar, an
// anyOf with null for a reference.
func nullable(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Ref != "" {
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
	}
	if s.Extras == nil {
		s.Extras = map[string]any{}
	}
	s.Extras["type"] = []string{s.Type, "null"}
	s.Type = ""
	return s
}

// addDiscriminator puts the union's key first in a variant's properties, as
// a required const.
func addDiscriminator(def *jsonschema.Schema, key, value string) error {
	if def == nil || def.Properties == nil {
		return fmt.Errorf("no definition")
	}
	if _, ok := def.Properties.Get(key); ok {
		return nil // already done
	}
	props := orderedmap.New[string, *jsonschema.Schema]()
	props.Set(key, &jsonschema.Schema{Type: "string", Const: value})
	for pair := def.Properties.Oldest(); pair != nil; pair = pair.Next() {
		props.Set(pair.Key, pair.Value)
	}
	def.Properties = props
	def.Required = append([]string{key}, def.Required...)
	return nil
}

func remove(ss []string, s string) []string {
	out := ss[:0]
	for _, x := range ss {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
