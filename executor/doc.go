// Package executor is the only code in Frontlatch that fires an action. Every
// call begins with the consent gate on the action's raw bytes, with the audit
// store as its lookup; agent input is checked against the declared rules;
// the submission goes only where the owner confirmed, within the volume cap,
// with every attempt audited before the network call and completed after.
// Package executor/mcpserver serves the actions that pass the gate as MCP
// tools.
package executor
