// Command pagejscopy copies a helper of topology/pagejs — pierce, norm,
// locate or control, the one source of the rules for the mapper's
// shadow-including locators, for the door an action is run through and for
// setting its controls — into the compiler as webmcp_NAME.js, which the
// WebMCP runtime inlines where its include line stands. The compiler imports shared only (its output is a
// standalone script a site owner publishes), so it keeps generated copies
// rather than importing topology; TestPagejsCopiesFresh fails when a copy
// and its source differ.
//
// Run it with `go generate ./...` inside the compiler module (make
// generate does, and make test's generate-check fails on a stale copy):
//
//	go run ./internal/pagejscopy -src ../topology/pagejs/pierce.js -out webmcp_pierce.js
//
// The copy is the source byte for byte after one header line, a JS comment
// saying the file is generated and from which helper.
package main
