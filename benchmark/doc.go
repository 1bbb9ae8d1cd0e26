// Package benchmark is the one harness behind every figure Frontlatch
// publishes: it serves the fifteen fixture sites on loopback, maps each with
// one browser, scores the graphs (site mappability, action completeness, the
// tally of missing reasons and blockers, agreement with each site's SITE.md),
// measures mapping time against the bare floor of merely loading a page
// (measured over each site's entry page, scaled by the pages opened), and the contract reader and writer against encoding/json on the same
// bytes — all as ratios measured in the same run — and writes
// benchmark/results.json.
//
// Subpackage formasaurus scores the field and form classifier on the
// Formasaurus corpus; e2e holds end-to-end tests across modules.
package benchmark
