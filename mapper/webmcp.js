// webmcp.js — added by the mapper before any page script runs
// (Page.addScriptToEvaluateOnNewDocument). It records every WebMCP tool a
// page registers through document.modelContext.registerTool or the legacy
// navigator.modelContext.registerTool: the real API when the browser has
// one (wrapped, still called), a recording stand-in when it has none, and
// any polyfill the page installs later (wrapped as it is assigned). Tools
// whose AbortSignal has fired are unregistered and left out on read.
(() => {
  if (window.__frontlatchWebMCP) return;
  const tools = [];
  const signals = [];
  const plain = (v) => { try { return v == null ? null : JSON.parse(JSON.stringify(v)); } catch (e) { return null; } };
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
  const wrap = (ctx, where) => {
    if (!ctx || ctx.__frontlatchWrapped) return ctx;
    const orig = ctx.registerTool;
    try {
      Object.defineProperty(ctx, "registerTool", {
        configurable: true, writable: true,
        value: function (tool, options) {
          record(where, tool, options);
          if (typeof orig === "function") return orig.apply(this, arguments);
          return undefined;
        },
      });
      Object.defineProperty(ctx, "__frontlatchWrapped", { value: true });
    } catch (e) {}
    return ctx;
  };
  const install = (owner, where) => {
    if (!owner) return;
    let current = null;
    try {
      current = owner.modelContext;
    } catch (e) {}
    if (current) { wrap(current, where); return; }
    current = wrap({}, where);
    try {
      Object.defineProperty(owner, "modelContext", {
        configurable: true, enumerable: true,
        get: () => current,
        set: (v) => { current = wrap(v, where); },
      });
    } catch (e) {}
  };
  install(document, "document");
  install(navigator, "navigator");
  Object.defineProperty(window, "__frontlatchWebMCP", {
    value: () => JSON.stringify(tools.filter((t, i) => !(signals[i] && signals[i].aborted))),
  });
})();
