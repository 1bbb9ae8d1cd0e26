package topologytest

// TrackLikeReact is a script, for a test page's <script> after its forms,
// that keeps a page's state of its form controls as React does
// (inputValueTracking): each control records, on the element, the value —
// for a checkbox or radio button, the checkedness — the page last saw,
// and the element's own property setter records what a script assigns as
// seen; an input, change or click event that finds the control as
// recorded is ignored, one that finds it changed records it and updates
// window.pageState. A select is not tracked (React reads it on each
// change event). A script that fills a control by assigning el.value
// or el.checked leaves pageState as it was, as a React page's state stays,
// and a page that sends its state (window.sendPageState(url)) sends the
// old values; one that fills as a person does is seen.
//
// pageState maps a control's name to its value; a checkbox's to the list
// of the values of its checked boxes; a multiple select's to the list of
// its selected options' values.
const TrackLikeReact = `(() => {
  window.pageState = {};
  const prop = (el) => (el.type === "checkbox" || el.type === "radio") ? "checked" : "value";
  const read = (el) => String(el[prop(el)]);
  const seen = new WeakMap();
  const track = (el) => {
    const p = prop(el);
    const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), p);
    seen.set(el, read(el));
    Object.defineProperty(el, p, { configurable: true,
      get() { return d.get.call(this); },
      set(v) { seen.set(this, String(v)); d.set.call(this, v); } });
  };
  const update = (e) => {
    const el = e.target;
    const s = window.pageState;
    if (el.tagName === "SELECT") {
      s[el.name] = el.multiple ? Array.from(el.selectedOptions, (o) => o.value) : el.value;
      return;
    }
    if (!seen.has(el) || read(el) === seen.get(el)) return;
    seen.set(el, read(el));
    if (el.type === "checkbox") {
      const on = new Set(s[el.name] || []);
      if (el.checked) on.add(el.value); else on.delete(el.value);
      s[el.name] = Array.from(on);
    } else if (el.type === "radio") {
      if (el.checked) s[el.name] = el.value;
    } else {
      s[el.name] = el.value;
    }
  };
  document.querySelectorAll("input, textarea").forEach(track);
  for (const type of ["input", "change", "click"]) document.addEventListener(type, update, true);
  window.sendPageState = (url) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(window.pageState) });
})();`
