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
// openTrees(root, max): root (the document when omitted, or an element)
// and every open shadow root beneath it, nested ones included, in composed
// order of their hosts; it walks the elements once. With max, at most max
// shadow roots: the walk stops at the next one (a caller that asks for one
// more than it keeps knows whether there were more).
// queryAllIn(trees, sel): sel within each tree (as its querySelectorAll:
// an element root's own element left out), in composed tree order, each
// element once; for a selector that is not a locator, as
// queryAllIn(openTrees(), "form") lists every form of the page.
// containsPiercing(a, b): a contains b (or is b) in the composed tree,
// b's hosts counted as b.
// composedBefore(a, b): a comes before b in composed tree order (a host,
// then its shadow tree, then its children); false when a is b.
// Declares: queryAllPiercing, queryPiercing, openTrees, queryAllIn,
// containsPiercing, composedBefore.
const { queryAllPiercing, queryPiercing, openTrees, queryAllIn, containsPiercing, composedBefore } = (() => {
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
  // A NodeList copied by index: Array.from and for…of go through its
  // iterator, several times slower in Chromium than the query itself.
  const toArray = (list) => Array.prototype.slice.call(list);
  const composedSort = (list) => list.sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1));
  const containsPiercing = (a, b) => {
    for (let n = b; n; n = hostOf(n)) if (a === n || a.contains(n)) return true;
    return false;
  };

  // split(sel): the selectors of a list, each as its parts between
  // top-level descendant combinators; null when sel does not scan (an
  // unclosed bracket or quote), which querySelectorAll has refused anyway.
  // It reads character codes: a locator is split on every resolution.
  const isWS = (c) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
  const isHex = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  const split = (sel) => {
    const list = [], n = sel.length;
    let parts = [], start = 0, depth = 0, quote = 0, glue = false, any = false;
    const cut = (end) => { if (any) parts.push(sel.slice(start, end).trim()); any = false; };
    for (let i = 0; i < n; i++) {
      const c = sel.charCodeAt(i);
      if (c === 92) {
        // An escape: up to six hex digits and one white space after them
        // (CSS.escape writes "\31 23" for an id "123"), else one character.
        let j = i + 1;
        if (j < n && isHex(sel.charCodeAt(j))) {
          while (j < n && j < i + 7 && isHex(sel.charCodeAt(j))) j++;
          if (j < n && isWS(sel.charCodeAt(j))) j++;
        } else {
          j++;
        }
        i = j - 1;
        glue = false;
        any = true;
        continue;
      }
      if (quote) {
        if (c === quote) quote = 0;
        continue;
      }
      if (isWS(c)) {
        if (depth !== 0) continue;
        let j = i;
        while (j < n && isWS(sel.charCodeAt(j))) j++;
        const next = j < n ? sel.charCodeAt(j) : -1;
        // A descendant combinator stands between two compounds, not
        // beside > + ~ (their white space is theirs) or a comma.
        if (any && !glue && next !== -1 && next !== 62 && next !== 43 && next !== 126 && next !== 44) {
          cut(i);
          start = j;
        }
        i = j - 1;
        continue;
      }
      any = true;
      glue = false;
      if (c === 34 || c === 39) quote = c;
      else if (c === 40 || c === 91) depth++;
      else if (c === 41 || c === 93) depth--;
      else if (depth === 0 && c === 44) { cut(i); list.push(parts); parts = []; start = i + 1; }
      else if (depth === 0 && (c === 62 || c === 43 || c === 126)) glue = true;
    }
    if (quote || depth !== 0) return null;
    cut(n);
    list.push(parts);
    return list;
  };
  const WHITE = /[ \t\n\r\f]/;

  const queryAllPiercing = (sel) => {
    const base = document.querySelectorAll(sel); // throws for an invalid selector
    if (!WHITE.test(sel)) return toArray(base); // no combinator to step through
    const list = split(sel);
    if (!list) return toArray(base);
    let found = null; // base and the elements of shadow roots, once there is one
    let seen = null; // shadow root -> "selector:part" already resolved in it
    // from(tree, parts, k): parts[k..] resolved in tree with at least one
    // step into a shadow root (what needs none, the caller has).
    const from = (tree, parts, k, key) => {
      for (let i = k + 1; i < parts.length; i++) {
        const hosts = tree.querySelectorAll(parts.slice(k, i).join(" "));
        for (let j = 0, m = hosts.length; j < m; j++) {
          const sr = hosts[j].shadowRoot;
          if (sr) inside(sr, parts, i, key);
        }
      }
    };
    const inside = (sr, parts, i, key) => {
      if (!seen) seen = new Map();
      let done = seen.get(sr);
      if (!done) seen.set(sr, (done = new Set()));
      if (done.has(key + ":" + i)) return;
      done.add(key + ":" + i);
      const got = sr.querySelectorAll(parts.slice(i).join(" "));
      if (got.length && !found) found = new Set(toArray(base));
      for (let j = 0, m = got.length; j < m; j++) found.add(got[j]);
      from(sr, parts, i, key);
    };
    list.forEach((parts, n) => { if (parts.length > 1) from(document, parts, 0, n); });
    return found ? composedSort(Array.from(found)) : toArray(base);
  };
  const queryPiercing = (sel) => queryAllPiercing(sel)[0] || null;

  const openTrees = (root, max) => {
    root = root || document;
    const out = [root], limit = max === undefined ? Infinity : max + 1;
    const add = (sr) => { if (out.length >= limit) return false; out.push(sr); visit(sr); return true; };
    const visit = (t) => {
      if (t.nodeType === 1 && t.shadowRoot && !add(t.shadowRoot)) return;
      // getElementsByTagName walks a tree faster than querySelectorAll("*");
      // a shadow root has only the latter.
      const all = t.getElementsByTagName ? t.getElementsByTagName("*") : t.querySelectorAll("*");
      for (let i = 0, n = all.length; i < n; i++) {
        const sr = all[i].shadowRoot;
        if (sr && !add(sr)) return;
      }
    };
    visit(root);
    return out;
  };
  const queryAllIn = (trees, sel) => {
    if (trees.length === 1) return toArray(trees[0].querySelectorAll(sel));
    const out = [];
    let filled = 0; // trees that hold a match: with two, the order is to be made
    for (const t of trees) {
      const got = t.querySelectorAll(sel);
      if (got.length) filled++;
      for (let j = 0, m = got.length; j < m; j++) out.push(got[j]);
    }
    return filled > 1 ? composedSort(Array.from(new Set(out))) : out;
  };
  return { queryAllPiercing, queryPiercing, openTrees, queryAllIn, containsPiercing, composedBefore: before };
})();
