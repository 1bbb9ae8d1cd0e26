// Package door holds the one rule that says which of an action's doors is
// its door: the door the verifier's sandbox runs, the owner is shown, and
// the executor fires.
//
// An action's door is its first html-form door that is not opaque or, when
// it has none, its first other door that is not opaque and records a
// submission that can be made (a WebMCP tool, a documented endpoint).
//
// A form comes first because a form is what the sandbox can run: whenever
// an action has one, the owner sees a test run of the very door an agent's
// call goes through. The executor never falls back to another door: when
// the door cannot be fired as recorded, the call is refused.
//
// [SameEndpoint] is the one rule for where a door sends: the sandbox tells
// the owner when a page sent elsewhere than the graph says, and the
// executor's browser door blocks any send but to the confirmed endpoint,
// both by it (comparing origins by topology/weborigin, the one origin rule
// of the browser paths too). The package imports only shared and that
// standard-library-only package, so the verifier and the executor both
// use it.
package door
