// Package e2e holds end-to-end tests that need every module and a real
// browser: the compiled WebMCP script run in Chromium against a fixture
// site. It has no code of its own; the benchmark module sits on top of
// everything, so the compiler stays browser-free.
package e2e
