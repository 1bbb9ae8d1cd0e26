package compiler

import _ "embed"

//go:embed schemas/jsonld.schema.json
var jsonldSchema []byte

// JSONLDSchema returns the JSON Schema (2020-12) of the exact JSON-LD shape
// FormatJSONLD writes. Schema.org publishes no JSON Schema, so this one is ours.
func JSONLDSchema() []byte { return append([]byte(nil), jsonldSchema...) }
