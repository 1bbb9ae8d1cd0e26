// Package topology drives Debian's Chromium through go-rod and records what a
// live site offers as a Topology Graph v0.2 (shared/seeds/topology-graph-schema.md):
// its states, the actionable elements of each state with scored and verified
// locators, the safe actions between states, the actions the risk policy
// refused, and everything it tried to observe and could not.
//
// Scan captures the entry state. Explore also clicks every element that
// risk-policy-v0.2 deems safe (same-origin navigation and disclosure: menus,
// tabs, modals, accordions), each from a clean entry state: one reused tab
// whose cookies and storage are cleared and whose entry state hash is checked
// before every action. ScanWith and ExploreWith run on a browser the caller
// owns; OpenPage opens a page hardened the same way for an embedder's own
// extraction, and Options.OnState hands the live page to the embedder once
// per captured state.
//
// Each state is captured by one in-page Evaluate (DOM hash, visible-text
// hash, modal stack, frames and every actionable element), one
// DOMSnapshot.captureSnapshot plus one Accessibility.getFullAXTree (the
// browser's own roles and names), and one more Evaluate that re-resolves every
// locator candidate of the state: four round trips whatever the page size.
//
// Ids and hashes are deterministic: the same site gives the same graph on
// every run except crawlSessionId and timestamps, because volatile tokens are
// rewritten by normalizationRules before anything is hashed.
//
// Hostile pages (endless scripts, dialogs, pages that never load or navigate
// away, huge DOMs, cross-origin frames) end as FailedObservations within
// their timeouts; a stuck tab is closed through the browser and replaced.
//
// Tests in any module that drive a browser call topologytest.NeedChromium
// first: skipped where Chromium is not installed, failed under CI=true.
//
// The JSON Schema of the artifact, schemas/topology-graph.schema.json, is
// generated from the Go types:
//
//go:generate go test -run TestSchemaUpToDate -update .
package topology
