// locate: contract locators resolved in the page, and the door an action
// is run through: the one rule the verifier's sandbox and the executor's
// browser door follow, so the form the owner saw run is the form that
// fires. It reads pierce's queryAllPiercing, openTrees and queryAllIn,
// norm's norm, labels' labelsIn and accname's accNames: include pierce,
// norm, labels and accname before it.
//
// locate(loc): the elements a contract locator ({strategy, value}) names,
// over the document and its open shadow roots: css through
// queryAllPiercing (the mapper's shadow-including locators); testid,
// label, text and role over every open tree, as Playwright's locators of
// those kinds do (label.control binds within the label's own tree, as the
// browser does; a button input's text is its value; a role and a name are
// accname's, what topology's extraction records); xpath in the document
// only (document.evaluate does not enter shadow roots). An invalid
// locator, or an unknown strategy, names nothing.
// isVisible(el): el has a box and is neither display:none nor
// visibility:hidden.
// doorOf(loc, names): {el, count}: with a locator, the first visible
// element it names, else the first (count: how many it names) — a form
// repeated in a closed modal and in the footer is one action, and the
// visible copy is the one to use; without one, the form of any open tree
// holding the most of the field names, a visible one before a hidden one
// among equals, then the first (count: the forms there are).
// locateTrees(): the document and its open shadow roots, walked on first
// use and kept for the script's run.
// Declares: locate, isVisible, doorOf, locateTrees.
//pagejs:needs pierce norm labels accname
const { locate, isVisible, doorOf, locateTrees } = (() => {
  let treesMemo = null;
  const locateTrees = () => treesMemo || (treesMemo = openTrees());
  const isVisible = (el) => {
    if (!el || !el.getBoundingClientRect) return false;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  // roleOf and accName are accname's, over the labels of the open trees:
  // a role locator finds what topology names so.
  let namerMemo = null;
  const namer = () => namerMemo || (namerMemo = accNames(labelsIn(locateTrees())));
  // textOf: an element's text for a text locator, as Playwright's text
  // engine reads it: a button input's value, else its text content.
  const textOf = (el) => norm(el.tagName.toLowerCase() === "input" &&
    ["button", "submit", "reset"].includes((el.getAttribute("type") || "").toLowerCase()) ? el.value : el.textContent);
  // The elements of the body and of every open shadow root, in composed
  // order (document.body.querySelectorAll("*") is "body *").
  const elementsOfBody = () => queryAllIn((document.body ? [document.body] : []).concat(locateTrees().slice(1)), "*");
  const testids = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];
  const locate = (loc) => {
    if (!loc) return [];
    const v = loc.value;
    try {
      switch (loc.strategy) {
        case "css":
          return queryAllPiercing(v);
        case "xpath": {
          const r = document.evaluate(v, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
          const out = [];
          for (let i = 0; i < r.snapshotLength; i++) out.push(r.snapshotItem(i));
          return out;
        }
        case "testid":
          return queryAllIn(locateTrees(), testids.map((a) => "[" + a + "]").join(",")).filter((e) =>
            testids.some((a) => e.getAttribute(a) === v));
        case "label":
          return queryAllIn(locateTrees(), "label").filter((l) => norm(l.textContent) === norm(v)).map((l) => l.control).filter(Boolean)
            .concat(queryAllIn(locateTrees(), "[aria-label]").filter((e) => norm(e.getAttribute("aria-label")) === norm(v)));
        case "text":
          return elementsOfBody().filter((e) => textOf(e) === norm(v) &&
            !Array.from(e.children).some((c) => textOf(c) === norm(v)));
        case "role": {
          // `role` or `role "accessible name"`.
          const m = /^\s*([a-z]+)\s*(?:"(.*)")?\s*$/.exec(v) || [];
          const role = m[1], name = m[2];
          return elementsOfBody().filter((e) =>
            namer().roleOf(e) === role && (name === undefined || namer().accName(e) === norm(name)));
        }
      }
    } catch (e) {
      return [];
    }
    return [];
  };
  const doorOf = (loc, names) => {
    if (loc) {
      const all = locate(loc);
      return { el: all.find(isVisible) || all[0] || null, count: all.length };
    }
    const forms = queryAllIn(locateTrees(), "form");
    let el = null, best = -1, bestVisible = false;
    for (const f of forms) {
      const n = (names || []).filter((k) => f.elements.namedItem(k)).length;
      const vis = isVisible(f);
      if (n > best || (n === best && vis && !bestVisible)) { el = f; best = n; bestVisible = vis; }
    }
    return { el: el, count: forms.length };
  };
  return { locate, isVisible, doorOf, locateTrees };
})();
