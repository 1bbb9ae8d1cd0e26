// Command pagejscopy copies the helpers of topology/pagejs that the
// compiler's WebMCP runtime includes — pierce, norm, locate and control
// today, the one source of the rules for the mapper's shadow-including
// locators, for the door an action is run through and for setting its
// controls — into the compiler as pagejs/NAME.js, which the runtime inlines
// where its include line stands. The runtime's include lines are the one
// list of what is copied: a copy no line names is removed. The compiler
// imports shared only (its output is a standalone script a site owner
// publishes), so it keeps generated copies rather than importing topology;
// TestPagejsCopiesFresh fails when a copy and its source differ.
//
// Run it with `go generate ./...` inside the compiler module (make
// generate does, and make test's generate-check fails on a stale copy):
//
//	go run ./internal/pagejscopy -runtime webmcp_runtime.js -src ../topology/pagejs -out pagejs
//
// A copy is its source byte for byte after one header line, a JS comment
// saying the file is generated and from which helper. Every source is read
// before anything is written.
package main
