package compiler

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// member is one key of an ordered JSON object.
type member struct {
	Key   string
	Value any
}

// object is a JSON object that keeps its keys in insertion order, so a form's
// fields appear in a schema in the order the page shows them. Go maps would
// sort them.
type object []member

// set appends key, or replaces its value if it is already present.
func (o *object) set(key string, v any) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, member{key, v})
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalCompact(m.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalCompact(m.Value)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", m.Key, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalCompact is json.Marshal without HTML escaping: outputs are read by
// people and agents, and "<" or "&" in a label must survive as written.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// marshalDocument is the one way every JSON format is written: two-space
// indent, no HTML escaping, a trailing newline. Key order comes from struct
// field order or from object, never from map iteration.
func marshalDocument(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("compiler: encoding output: %w", err)
	}
	return b.Bytes(), nil
}
