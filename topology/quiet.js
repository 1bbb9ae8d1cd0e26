// Quiescence recorder, installed in every document before its own scripts
// (Page.addScriptToEvaluateOnNewDocument). It keeps, out of the page's
// reach, the time of the last structural DOM mutation and the page's
// pending short timeouts, so the engine can tell a page that is done from
// one that is still building itself. Style-attribute changes (animations)
// do not count; intervals and timeouts longer than a second are not waited
// for.
//
// The only thing on window is a frozen object under a key drawn at random
// for the process (page.go substitutes __FRONTLATCH_QUIET_KEY__): a
// non-writable, non-configurable property holding one function, probe,
// that closes over the recorder. A page cannot look the key up (a
// registered symbol it could reach with Symbol.for, or replace Symbol.for
// and hide), nor change what probe reports; every built-in probe uses is
// taken here, before the page's scripts run, so a page that replaces
// JSON, Promise, performance.now or Document.prototype.readyState later, or
// puts a toJSON on Array.prototype, changes nothing.
(() => {
  const key = '__FRONTLATCH_QUIET_KEY__';
  if (Object.prototype.hasOwnProperty.call(window, key)) return;
  const perf = performance, perfNow = performance.now;
  const apply = Reflect.apply;
  const now = () => apply(perfNow, perf, []);
  const stringify = JSON.stringify, P = Promise, round = Math.round, max = Math.max, min = Math.min;
  const readyState = Object.getOwnPropertyDescriptor(Document.prototype, 'readyState').get;
  const href = () => String(location.href);
  const origSet = window.setTimeout, origClear = window.clearTimeout, origClearInterval = window.clearInterval;
  const wait = (fn, ms) => apply(origSet, window, [fn, ms]);
  let last = now(), pending = 0;
  const timers = Object.create(null);
  const done = (id) => { if (timers[id]) { delete timers[id]; pending--; } };
  const mark = (records) => {
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (r.type !== 'attributes' || r.attributeName !== 'style') { last = now(); return; }
    }
  };
  try {
    new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) {}
  const maxDelay = 1000;
  // withFn is a setTimeout call's arguments with fn first (no spread: it
  // would run the page's Array.prototype[Symbol.iterator]).
  const withFn = (fn, args) => {
    const a = [fn];
    for (let i = 1; i < args.length; i++) a[i] = args[i];
    return a;
  };
  window.setTimeout = function setTimeout(fn, delay) {
    const d = Number(delay) || 0;
    if (typeof fn !== 'function' || d > maxDelay) return apply(origSet, window, withFn(fn, arguments));
    let id;
    id = apply(origSet, window, withFn(function () { done(id); last = now(); return apply(fn, this, arguments); }, arguments));
    if (!timers[id]) { timers[id] = true; pending++; }
    return id;
  };
  window.clearTimeout = function clearTimeout(id) { done(id); return apply(origClear, window, [id]); };
  window.clearInterval = function clearInterval(id) { done(id); return apply(origClearInterval, window, [id]); };
  // probe waits, at most maxMs, until the document is complete, no
  // structural mutation happened for quietMs and no short timeout is
  // pending (or ignoreTimers), and answers [url, readyState, ms since the
  // last mutation, pending timeouts, whether it was quiet] as JSON.
  const probe = (quietMs, maxMs, ignoreTimers) => new P((resolve) => {
    const t0 = now();
    const check = () => {
      const t = now();
      const since = t - last, state = apply(readyState, document, []);
      const quiet = state === 'complete' && since >= quietMs && (pending === 0 || ignoreTimers);
      if (quiet || t - t0 >= maxMs) {
        // Written by hand from strings and numbers: JSON.stringify of an
        // array would go through a toJSON the page put on Array.prototype.
        resolve('[' + stringify(href()) + ',' + stringify(String(state)) + ',' + round(since) + ',' + pending + ',' + !!quiet + ']');
        return;
      }
      wait(check, max(5, min(quietMs - since, 25)));
    };
    check();
  });
  Object.defineProperty(window, key, { value: Object.freeze({ probe }), enumerable: false, writable: false, configurable: false });
})();
