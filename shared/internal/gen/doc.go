// Command gen derives the generated files of package shared from its single
// declarations: the vocabulary table in vocab.go and the consent key lists in
// consent.go. Run it with `go generate ./...` inside the shared module.
//
// It reads syntax only (golang.org/x/tools/go/packages without type
// checking), so it still runs when a stale generated file no longer compiles,
// which is exactly when it is needed. It refuses to run while any SideEffects
// field is in neither consent list.
package main
