// hookRegisterTool(mark, onRegister) calls onRegister(where, tool, options)
// for every tool the page registers through document.modelContext.registerTool
// or the legacy navigator.modelContext.registerTool (where is "document" or
// "navigator"), then lets the registration go on: the browser's own
// modelContext is wrapped and still called; when the browser has none a
// stand-in is installed whose registerTool only records; and an object the
// page assigns to modelContext later (a polyfill) is wrapped as it is
// assigned. mark names the property that marks an object as wrapped by
// this hook: each hook has its own, so two hooks (the mapper's recorder
// and the executor's) stack on one page without either wrapping twice;
// only the first installed catches an object assigned later, though (the
// second wraps the first's stand-in and adds no setter of its own). An
// error onRegister throws is swallowed: a hook never breaks the page's
// registration. Run it before any page script (an init script added with
// Page.addScriptToEvaluateOnNewDocument). Declares: hookRegisterTool.
const hookRegisterTool = (mark, onRegister) => {
  const wrap = (ctx, where) => {
    if (!ctx || ctx[mark]) return ctx;
    const orig = ctx.registerTool;
    try {
      Object.defineProperty(ctx, "registerTool", {
        configurable: true, writable: true,
        value: function (tool, options) {
          try { onRegister(where, tool, options); } catch (e) {}
          if (typeof orig === "function") return orig.apply(this, arguments);
          return undefined;
        },
      });
      Object.defineProperty(ctx, mark, { value: true });
    } catch (e) {}
    return ctx;
  };
  const install = (owner, where) => {
    if (!owner) return;
    let current = null;
    try { current = owner.modelContext; } catch (e) {}
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
};
