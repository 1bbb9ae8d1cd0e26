// Package mcpserver serves the actions of one Action Graph that pass the
// consent gate now as MCP tools, over stdio and streamable HTTP, with
// github.com/modelcontextprotocol/go-sdk.
//
// The tool definitions — names, titles, descriptions, input schemas and
// annotations — are the compiler's (compiler.CompileFormat with FormatMCP), never re-derived
// here. The compiler writes a tool for each executable door of an action;
// the executor fires the action's one door (verifier/door.Of, the door the
// sandbox ran), whichever tool is called, so only that door's tool is
// served and the tools of its other doors are not defined here. A tool is
// listed only while shared.AssertLiveExecutionAllowedContext
// grants its action with the audit store as the lookup: an unverified,
// revoked or drifted action is never listed. The server re-checks every
// action on a short interval (Options.Interval), whenever the graph file
// changes (its content hash is polled) and before answering tools/list; when
// the set changes, connected clients receive notifications/tools/list_changed.
//
// A tool call is checked against the tool's published input schema (a
// wrong type is a tool error naming the field), then goes through
// executor.Execute, whose gate checks the action again on the bytes read
// from the graph just before the call. The result says what was sent and
// what the site answered, as structured content and as text; a refusal is a
// tool error (isError) carrying every reason the gate or the executor gave.
// A call to a tool the graph does not define is a protocol error; a call to
// a tool the graph defines but that is not listed goes to the executor,
// whose gate refuses it with its reasons.
//
// Over HTTP (Server.HTTPHandler) every request must carry the bearer token,
// an Origin header must be a loopback origin of the server's own port (the
// MCP specification's DNS-rebinding defence), request bodies are bounded and
// each client is rate limited.
package mcpserver
