// Package topology drives Debian's Chromium through go-rod and records what a
// live site offers as a Topology Graph v0.2 (shared/seeds/topology-graph-schema.md):
// its states, the actionable elements of each state with scored and verified
// locators, the safe actions between states, the actions the risk policy
// refused, and everything it tried to observe and could not.
//
// Everything goes through one handle, a *Browser: NewBrowser launches
// Debian's Chromium (or, with BrowserOptions.ControlURL, connects to a
// Chromium another program runs: chromedp, Playwright, a browser started with
// --remote-debugging-port), and Attach wraps a *rod.Browser the caller
// already drives. Close ends only what NewBrowser started.
//
// Browser.Scan captures the entry state. Browser.Explore also clicks every
// element that risk-policy-v0.2 deems safe (same-origin navigation and
// disclosure: menus, tabs, modals, accordions), each from a clean entry
// state: one reused tab whose cookies and storage are cleared and whose entry
// state hash is checked before every action. Each run works in a browser
// context of its own, so an attached browser's cookies and tabs are
// untouched. Browser.OpenPage opens a page hardened the same way for an
// embedder's own extraction; Browser.NewSession opens one reused tab for page
// after page of a site; ScanOptions.OnState hands the live page to the
// embedder once per captured state. Browser.Confine makes a browser context
// whose every connection, a WebSocket's and a worker's included, reaches
// the given origins only (a proxy on 127.0.0.1): the verifier's sandbox and
// the executor's browser door fill forms there, since request interception
// does not see a socket.
//
// Options are split by who reads them, so no call takes a field it ignores:
// BrowserOptions (the process), PageOptions (one tab: its environment and
// step timeouts), ScanOptions (one capture run) and ExploreOptions
// (ScanOptions plus the exploration's bounds). A zero field means its
// documented default; a value no default stands for is an *OptionsError
// (errors.Is ErrInvalidOptions).
//
// There is no package-level Scan or Explore (as http.Get is to
// http.Client.Get): http.Get can share DefaultClient, which costs nothing
// until used, but a default browser would be a Chromium process (about a
// second to start, a renderer and a profile directory) that nobody closes.
// A one-off run is NewBrowser, defer Close, Scan: the cost stays visible,
// and there is one way to run.
//
// Each state is captured by one in-page Evaluate (DOM hash, visible-text
// hash, modal stack, frames and every actionable element), one
// DOMSnapshot.captureSnapshot plus one Accessibility.getFullAXTree (the
// browser's own roles and names), and one more Evaluate that re-resolves every
// locator candidate of the state within an in-page time budget (candidates it
// does not reach are reported unverified, never not-found): four round trips
// whatever the page size.
//
// Ids and hashes are deterministic: the same site gives the same graph on
// every run except crawlSessionId and timestamps, because volatile tokens are
// rewritten by normalizationRules before anything is hashed.
//
// Hostile pages (endless scripts, dialogs, pages that never load or navigate
// away, huge DOMs, cross-origin frames) end as FailedObservations within
// their timeouts; a stuck tab is closed through the browser and replaced.
//
// The in-page JavaScript the engine shares with other modules' scripts (a
// control's labels, whitespace normalisation, the WebMCP registerTool hook)
// lives once in package pagejs; extract.js includes it.
//
// Tests in any module that drive a browser call topologytest.NeedChromium
// first: skipped where Chromium is not installed, failed under CI=true.
//
// The JSON Schema of the artifact, schemas/topology-graph.schema.json, is
// generated from the Go types:
//
//go:generate go test -run TestSchemaUpToDate -update .
package topology
