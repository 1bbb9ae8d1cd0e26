// webmcp.js — added by the mapper before any page script runs
// (Page.addScriptToEvaluateOnNewDocument). It records every WebMCP tool a
// page registers through document.modelContext.registerTool or the legacy
// navigator.modelContext.registerTool: the real API when the browser has
// one (wrapped, still called), a recording stand-in when it has none, and
// any polyfill the page installs later (wrapped as it is assigned). Tools
// whose AbortSignal has fired are unregistered and left out on read.
//
// How registrations are seen is topology's hookRegisterTool (package
// pagejs), which the executor's webmcp_exec.js uses too; what is kept
// differs on purpose. The mapper keeps each tool's description, as plain
// data (a copy, read once by webmcpReadJS), to turn it into an action;
// the executor keeps the live tool object, to call its execute function.
(() => {
  if (window.__frontlatchWebMCP) return;
  //pagejs:include modelcontext
  //pagejs:include json
  const tools = [];
  const signals = [];
  const plain = (v) => { try { return v == null ? null : JSON.parse(jsonText(v)); } catch (e) { return null; } };
  const record = (where, tool, options) => {
    try {
      if (!tool || typeof tool !== "object") return;
      tools.push({
        where: where,
        name: String(tool.name == null ? "" : tool.name).slice(0, 200),
        title: tool.title == null ? "" : String(tool.title).slice(0, 500),
        description: tool.description == null ? "" : String(tool.description).slice(0, 4000),
        inputSchema: plain(tool.inputSchema),
        annotations: plain(tool.annotations),
        hasExecute: typeof tool.execute === "function",
      });
      signals.push(options && options.signal ? options.signal : null);
    } catch (e) {}
  };
  hookRegisterTool("__frontlatchWrapped", record);
  Object.defineProperty(window, "__frontlatchWebMCP", {
    value: () => jsonText(tools.filter((t, i) => !(signals[i] && signals[i].aborted))),
  });
})();
