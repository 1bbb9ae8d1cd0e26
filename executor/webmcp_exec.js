// webmcp_exec.js — added by the executor before any page script runs. It
// keeps every WebMCP tool a page registers through
// document.modelContext.registerTool or the legacy
// navigator.modelContext.registerTool (the browser's own API, wrapped and
// still called, or a stand-in when there is none), so the executor can call
// the registered tool's execute function by name. Tools whose AbortSignal
// has fired are dropped.
//
// How registrations are seen is topology's hookRegisterTool (package
// pagejs), which the mapper's WebMCP recorder (mapper/webmcp.js) uses too;
// the executor does not import the mapper. What is kept differs on
// purpose: the mapper copies each tool's description as plain data to
// build an action; the executor keeps the live tool object, the last one
// registered under each name, to call its execute function.
(() => {
  if (window.__frontlatchExec) return;
  //pagejs:include modelcontext
  const tools = new Map();
  hookRegisterTool("__frontlatchExecWrapped", (where, tool, options) => {
    if (tool && typeof tool === "object" && typeof tool.execute === "function") {
      const name = String(tool.name == null ? "" : tool.name);
      tools.set(name, tool);
      const signal = options && options.signal;
      if (signal && typeof signal.addEventListener === "function") {
        signal.addEventListener("abort", () => { if (tools.get(name) === tool) tools.delete(name); });
      }
    }
  });
  Object.defineProperty(window, "__frontlatchExec", { value: { get: (name) => tools.get(name) } });
})();
