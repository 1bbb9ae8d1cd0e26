// Package compiler turns one Action Graph into every format an AI agent or
// a browser reads, so that there is one source of truth and no second copy
// to drift:
//
//   - MCP: a tools/list result (protocol 2026-07-28 by default, or
//     2025-11-25), one tool per executable door, with an inputSchema (JSON
//     Schema 2020-12) built from the agent-fillable inputs and the site's
//     declared rules, and annotations derived from the side effects;
//   - WebMCP: a script that registers each action with
//     document.modelContext.registerTool and fills and submits the real
//     form, and the declarative attributes as an alternative;
//   - OpenAPI 3.1: one operation per form or documented endpoint;
//   - Schema.org JSON-LD: potentialAction with EntryPoint and -input
//     specifications;
//   - an ARD catalog (/.well-known/ai-catalog.json) listing the site's MCP
//     server card inline;
//   - llms.txt.
//
// Only verified actions are offered as callable tools. Unverified and
// sandbox-tested actions are left out of the executable formats unless
// Options.IncludeUnverified is set, and then they are marked in their title,
// description and metadata. Every output states every action's verification
// status. Doors an agent cannot drive — tel:, mailto:, opaque third-party
// schedulers, links, JavaScript-only forms — appear as information only.
//
// Schema keywords come only from what the site itself states (declared
// validations and the controls' value spaces); an inferred validation never
// becomes a keyword. Tool names derive from the action id and the door
// alone, so they survive a re-map. Output is deterministic: fixed key order,
// two-space indent, a trailing newline.
package compiler
