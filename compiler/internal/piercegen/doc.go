// Command piercegen copies topology/pagejs/pierce.js, the one source of the
// rule for the mapper's shadow-including CSS locators, into the compiler as
// webmcp_pierce.js, which the WebMCP runtime inlines for its find. The
// compiler imports shared only (its output is a standalone script a site
// owner publishes), so it keeps a generated copy rather than importing
// topology; TestPierceCopyFresh fails when the copy and the source differ.
//
// Run it with `go generate ./...` inside the compiler module (make
// generate does, and make test's generate-check fails on a stale copy):
//
//	go run ./internal/piercegen -src ../topology/pagejs/pierce.js -out webmcp_pierce.js
//
// The copy is the source byte for byte after one header line, a JS comment
// saying the file is generated.
package main
