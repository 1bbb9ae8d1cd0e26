// Quiescence recorder, installed in every document before its own scripts
// (Page.addScriptToEvaluateOnNewDocument). It keeps, out of the page's
// sight (a symbol-keyed, non-enumerable property), the time of the last
// structural DOM mutation and the page's pending short timeouts, so the
// engine can tell a page that is done from one that is still building
// itself. Style-attribute changes (animations) do not count; intervals and
// timeouts longer than a second are not waited for.
(() => {
  const key = Symbol.for('frontlatch.quiet');
  if (window[key]) return;
  const now = () => performance.now();
  const st = { last: now(), timers: new Map(), wait: window.setTimeout.bind(window) };
  Object.defineProperty(window, key, { value: st, enumerable: false });
  const mark = (records) => {
    for (const r of records) {
      if (r.type !== 'attributes' || r.attributeName !== 'style') { st.last = now(); return; }
    }
  };
  try {
    new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) {}
  const maxDelay = 1000;
  const origSet = window.setTimeout, origClear = window.clearTimeout, origClearInterval = window.clearInterval;
  window.setTimeout = function setTimeout(fn, delay, ...args) {
    const d = Number(delay) || 0;
    if (typeof fn !== 'function' || d > maxDelay) return origSet.call(window, fn, delay, ...args);
    let id;
    id = origSet.call(window, function () { st.timers.delete(id); st.last = now(); return fn.apply(this, arguments); }, delay, ...args);
    st.timers.set(id, true);
    return id;
  };
  window.clearTimeout = function clearTimeout(id) { st.timers.delete(id); return origClear.call(window, id); };
  window.clearInterval = function clearInterval(id) { st.timers.delete(id); return origClearInterval.call(window, id); };
})();
