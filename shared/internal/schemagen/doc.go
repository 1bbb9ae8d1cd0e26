// Command schemagen writes shared/schema/action-graph-0.1.schema.json, the
// JSON Schema (draft 2020-12) of the Action Graph contract, generated from the
// Go types of package shared with github.com/invopop/jsonschema.
//
// It lives in an internal package so that importing shared never pulls the
// schema libraries in. Run it with `go generate ./...` in the shared module;
// TestSchemaUpToDate fails when the committed file is stale (go test
// -update rewrites it), and TestDifferential holds the schema and the Go
// reader to the same verdict over testdata/docs.
//
// How the schema spells the contract's conventions:
//   - a nullable key (a pointer field) is "type": [T, "null"] (or an anyOf
//     of the referenced definition and null) and is NOT in "required",
//     because the reader lets a nullable key be omitted; every other key is
//     required;
//   - a union is a oneOf of its variants, each with the discriminator as a
//     required "const" property listed first;
//   - every object has "additionalProperties": false;
//   - vocabulary enums come from each type's Members(), the contract tags
//     (internal/rules) become minLength/minItems/minimum/maximum.
//
// What it cannot say is listed in TestDifferential: duplicate keys, keys
// differing only by case next to the right one, invalid UTF-8, the
// confidence-1 rule, unique action ids, dangling appliesTo references,
// minLength ≤ maxLength, and nesting depth.
package main
