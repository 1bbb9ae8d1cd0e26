// webmcp_exec.js — added by the executor before any page script runs. It
// keeps every WebMCP tool a page registers through
// document.modelContext.registerTool or the legacy
// navigator.modelContext.registerTool (the browser's own API, wrapped and
// still called, or a stand-in when there is none), so the executor can call
// the registered tool's execute function by name. Tools whose AbortSignal
// has fired are dropped.
(() => {
  if (window.__frontlatchExec) return;
  const tools = new Map();
  const wrap = (ctx) => {
    if (!ctx || ctx.__frontlatchExecWrapped) return ctx;
    const orig = ctx.registerTool;
    try {
      Object.defineProperty(ctx, "registerTool", {
        configurable: true, writable: true,
        value: function (tool, options) {
          try {
            if (tool && typeof tool === "object" && typeof tool.execute === "function") {
              const name = String(tool.name == null ? "" : tool.name);
              tools.set(name, tool);
              const signal = options && options.signal;
              if (signal && typeof signal.addEventListener === "function") {
                signal.addEventListener("abort", () => { if (tools.get(name) === tool) tools.delete(name); });
              }
            }
          } catch (e) {}
          if (typeof orig === "function") return orig.apply(this, arguments);
          return undefined;
        },
      });
      Object.defineProperty(ctx, "__frontlatchExecWrapped", { value: true });
    } catch (e) {}
    return ctx;
  };
  const install = (owner) => {
    if (!owner) return;
    let current = null;
    try { current = owner.modelContext; } catch (e) {}
    if (current) { wrap(current); return; }
    current = wrap({});
    try {
      Object.defineProperty(owner, "modelContext", {
        configurable: true, enumerable: true,
        get: () => current,
        set: (v) => { current = wrap(v); },
      });
    } catch (e) {}
  };
  install(document);
  install(navigator);
  Object.defineProperty(window, "__frontlatchExec", { value: { get: (name) => tools.get(name) } });
})();
