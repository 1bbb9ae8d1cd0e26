// Package rules parses the `contract:"…"` struct tags of package shared.
//
// The tags sit on the contract's one field list (shared/types.go), so the
// rules a field obeys beyond its Go type are declared next to the field
// itself. The strict reader and the JSON-Schema generator both read them
// through this package, so the two cannot disagree about what a tag means.
//
// Grammar: comma-separated items.
//
//	nonempty         a string (or a non-null nullable string) must not be "",
//	                 a list must not be []; reported as value.empty
//	nonempty=CODE    the same, reported with issue code CODE
//	min=N, max=N     an integer must lie within [N, M]; value.out-of-range
//	missing=CODE     a missing (or null) key is reported as CODE, not key.missing
package rules
