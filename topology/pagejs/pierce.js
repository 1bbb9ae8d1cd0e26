// pierce: selectors resolved over the document and its open shadow roots.
// The mapper gives an element inside an open shadow root a
// shadow-including CSS locator: its host's selector, a space, then the
// element's selector within the shadow root (one host per level when roots
// nest), e.g. `contact-form form#f input[name="email"]`. The page's own
// querySelectorAll never enters a shadow root, so it finds nothing there.
//
// queryAllPiercing(sel): the elements sel names when each top-level
// descendant combinator (white space outside [], (), quotes and escapes,
// not beside >, + or ~) may also step from a host into its open shadow
// root: the part before it matches the host in the outer tree, the rest is
// resolved within the host's shadow root, recursively. The first part
// matches in the document, as with document.querySelectorAll, so the
// answer holds every element querySelectorAll gives and, for a mapper
// locator, the element the mapper read (an element of the document that
// matches the inner part alone is not taken for it). A selector list is
// resolved selector by selector. The elements come in composed tree order
// (a host, its shadow tree, then its children), each once. An invalid
// selector throws querySelectorAll's SyntaxError. A selector without a
// top-level descendant combinator costs one querySelectorAll; one with n
// parts, n queries plus those made inside the shadow roots it reaches.
// Closed shadow roots are out of a page script's reach and not entered.
// queryPiercing(sel): the first of those, or null.
// openTrees(root): root (the document when omitted, or an element) and
// every open shadow root beneath it, nested ones included, in composed
// order of their hosts; it walks the elements once.
// queryAllIn(trees, sel): sel within each tree (as its querySelectorAll:
// an element root's own element left out), in composed tree order, each
// element once; for a selector that is not a locator, as
// queryAllIn(openTrees(), "form") lists every form of the page.
// containsPiercing(a, b): a contains b (or is b) in the composed tree,
// b's hosts counted as b.
// Declares: queryAllPiercing, queryPiercing, openTrees, queryAllIn,
// containsPiercing.
const { queryAllPiercing, queryPiercing, openTrees, queryAllIn, containsPiercing } = (() => {
  const hostOf = (n) => {
    const r = n.getRootNode();
    return r && r.nodeType === 11 && r.host ? r.host : null;
  };
  const chainOf = (n) => {
    const c = [n];
    for (let h = hostOf(n); h; h = hostOf(h)) c.unshift(h);
    return c;
  };
  // before(a, b): a comes before b in shadow-including tree order.
  const before = (a, b) => {
    const ca = chainOf(a), cb = chainOf(b);
    let i = 0;
    while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
    if (i === ca.length) return i !== cb.length; // a is b, or b's host
    if (i === cb.length) return false;
    return !!(ca[i].compareDocumentPosition(cb[i]) & Node.DOCUMENT_POSITION_FOLLOWING);
  };
  const composedSort = (list) => list.sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1));
  const containsPiercing = (a, b) => {
    for (let n = b; n; n = hostOf(n)) if (a === n || a.contains(n)) return true;
    return false;
  };

  // split(sel): the selectors of a list, each as its parts between
  // top-level descendant combinators; null when sel does not scan (an
  // unclosed bracket or quote), which querySelectorAll has refused anyway.
  const HEX = /[0-9a-fA-F]/, WS = /[ \t\n\r\f]/;
  const split = (sel) => {
    const list = [];
    let parts = [], cur = "", depth = 0, quote = "", glue = false;
    const endPart = () => { cur = cur.trim(); if (cur) parts.push(cur); cur = ""; };
    for (let i = 0; i < sel.length; i++) {
      const c = sel[i];
      if (c === "\\") {
        // An escape: up to six hex digits and one white space after them
        // (CSS.escape writes "\31 23" for an id "123"), else one character.
        let j = i + 1;
        if (HEX.test(sel[j] || "")) {
          while (j < sel.length && j < i + 7 && HEX.test(sel[j])) j++;
          if (WS.test(sel[j] || "")) j++;
        } else {
          j++;
        }
        cur += sel.slice(i, j);
        i = j - 1;
        glue = false;
        continue;
      }
      if (quote) {
        cur += c;
        if (c === quote) quote = "";
        continue;
      }
      if (c === '"' || c === "'") {
        quote = c;
      } else if (c === "(" || c === "[") {
        depth++;
      } else if (c === ")" || c === "]") {
        depth--;
      } else if (depth === 0 && c === ",") {
        endPart();
        list.push(parts);
        parts = [];
        glue = false;
        continue;
      } else if (depth === 0 && WS.test(c)) {
        let j = i;
        while (j < sel.length && WS.test(sel[j])) j++;
        const next = sel[j];
        if (cur && !glue && next !== undefined && !">+~,".includes(next)) endPart();
        else if (cur) cur += " ";
        i = j - 1;
        continue;
      }
      if (depth === 0 && ">+~".includes(c)) glue = true;
      else if (!WS.test(c)) glue = false;
      cur += c;
    }
    if (quote || depth !== 0) return null;
    endPart();
    list.push(parts);
    return list;
  };

  const queryAllPiercing = (sel) => {
    const base = document.querySelectorAll(sel); // throws for an invalid selector
    const list = split(sel);
    if (!list || list.every((parts) => parts.length < 2)) return Array.from(base);
    const found = new Set(base);
    let more = false;
    const seen = new Map(); // shadow root -> "selector:part" already resolved in it
    // from(tree, parts, k): parts[k..] resolved in tree with at least one
    // step into a shadow root (what needs none, the caller has).
    const from = (tree, parts, k, key) => {
      for (let i = k + 1; i < parts.length; i++) {
        for (const h of tree.querySelectorAll(parts.slice(k, i).join(" "))) {
          const sr = h.shadowRoot;
          if (sr) inside(sr, parts, i, key);
        }
      }
    };
    const inside = (sr, parts, i, key) => {
      let done = seen.get(sr);
      if (!done) seen.set(sr, (done = new Set()));
      if (done.has(key + ":" + i)) return;
      done.add(key + ":" + i);
      for (const e of sr.querySelectorAll(parts.slice(i).join(" "))) {
        if (!found.has(e)) { found.add(e); more = true; }
      }
      from(sr, parts, i, key);
    };
    list.forEach((parts, n) => { if (parts.length > 1) from(document, parts, 0, n); });
    return more ? composedSort(Array.from(found)) : Array.from(base);
  };
  const queryPiercing = (sel) => queryAllPiercing(sel)[0] || null;

  const openTrees = (root) => {
    root = root || document;
    const out = [root];
    const visit = (t) => {
      if (t.nodeType === 1 && t.shadowRoot) { out.push(t.shadowRoot); visit(t.shadowRoot); }
      // getElementsByTagName walks a tree faster than querySelectorAll("*");
      // a shadow root has only the latter.
      const all = t.getElementsByTagName ? t.getElementsByTagName("*") : t.querySelectorAll("*");
      for (let i = 0, n = all.length; i < n; i++) {
        const sr = all[i].shadowRoot;
        if (sr) { out.push(sr); visit(sr); }
      }
    };
    visit(root);
    return out;
  };
  const queryAllIn = (trees, sel) => {
    const out = [];
    let filled = 0; // trees that hold a match: with two, the order is to be made
    for (const t of trees) {
      const got = t.querySelectorAll(sel);
      if (got.length) filled++;
      for (const e of got) out.push(e);
    }
    return filled > 1 ? composedSort(Array.from(new Set(out))) : out;
  };
  return { queryAllPiercing, queryPiercing, openTrees, queryAllIn, containsPiercing };
})();
