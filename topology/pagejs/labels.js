// labelsOf(el): el's labels, in tree order — what el.labels holds: each
// <label> whose control is el (label[for] naming el's id, when el is the
// first element with that id and is labelable; a label wrapping el with no
// for; never a hidden input). Chromium computes el.labels by walking the
// document on every call, quadratic over a form of many inputs, so the
// labels are indexed by control once, on the first call, from one pass
// over the document's labels; a script that adds or moves labels after
// that reads the index as it was. Declares: labelsOf.
const labelsOf = (() => {
  let index = null;
  return (el) => {
    if (!index) {
      index = new Map();
      for (const l of document.querySelectorAll("label")) {
        const c = l.control;
        if (!c) continue;
        if (!index.has(c)) index.set(c, []);
        index.get(c).push(l);
      }
    }
    return index.get(el) || [];
  };
})();
