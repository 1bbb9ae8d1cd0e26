// labelsIn(trees): a function labelsOf(el) answering el's labels, in tree
// order — what el.labels holds: each <label> whose control is el (label[for]
// naming el's id, when el is the first element with that id and is
// labelable; a label wrapping el with no for; never a hidden input) — among
// the labels of trees, the document alone ([document]) or the document and
// its open shadow roots. label.control resolves for= in the label's own
// tree, as the browser does, so a label of the document never names a
// control of a shadow root, nor the other way round. Chromium computes
// el.labels by walking the document on every call, quadratic over a form
// of many inputs, so labelsOf indexes the labels by control once, on its
// first call, in one pass over the trees' labels; a script that adds or
// moves labels after that reads the index as it was. Declares: labelsIn.
const labelsIn = (trees) => {
  let index = null;
  return (el) => {
    if (!index) {
      index = new Map();
      for (const t of trees) {
        for (const l of t.querySelectorAll("label")) {
          const c = l.control;
          if (!c) continue;
          if (!index.has(c)) index.set(c, []);
          index.get(c).push(l);
        }
      }
    }
    return index.get(el) || [];
  };
};
