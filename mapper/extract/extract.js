// extract.js — run once per page by extract.FromPage through a single
// Runtime.evaluate. It returns the JSON text of an object shaped exactly
// like extract.Page (see types.go; keys are the Go json tags). One round
// trip for the whole page: walking the same elements with rod calls costs
// 50-65 ms and ~200 round trips (REFERENCE.md). Every per-form step is
// guarded so one hostile control cannot cost the rest of the page.
//
// Open shadow roots are read as parts of the page (forms, controls,
// labels, buttons, links, headings, widgets): each is found once, from
// its host's shadowRoot, and every query that reads the page runs over
// the document and each of them. A page without one pays a single pass
// over its elements. Closed shadow roots are out of a page script's reach.
// sink, when given, receives the form elements read (sink.forms, in the
// order of Page.Forms), so PageScript can pair their submit listeners.
(cfg, sink) => {
  const SEND = new RegExp(cfg.send, "i"), WIDGET = new RegExp(cfg.widget, "i"), DIALOG = new RegExp(cfg.dialog, "i");
  const HINT = new RegExp(cfg.hint, "i"), BUTTON = new RegExp(cfg.button, "i");
  const DIRECT = new RegExp(cfg.direct, "i"), SEPARATORS = new RegExp(cfg.sep + "+", "g");
  const MAX_WRAPPERS = 4, MAX_FORM_TEXT = 2000, MAX_NEARBY = 300, MAX_SCRIPT = 4000, MAX_LINK_CONTEXT = 300;
  const MAX_LINKS = 2000, MAX_SCRIPTS = 200, MAX_EMBEDS = 200, MAX_SHADOW_ROOTS = 500;
  const truncated = [];
  const doc = document;
  // norm and labelsIn are topology's (package pagejs, inlined by
  // extract.go), shared with topology's extract.js.
  //pagejs:include norm
  //pagejs:include labels
  //pagejs:include json

  //pagejs:include pierce

  // ---- tree scopes: the document and its open shadow roots ------------
  // roots[0] is the document; the open shadow roots follow, in composed
  // order of their hosts (pierce's openTrees, at most MAX_SHADOW_ROOTS).
  // SHADOW is false on a page without one, and every helper below then
  // does what the document alone needs, without asking for root nodes.
  const roots = openTrees(doc, MAX_SHADOW_ROOTS + 1);
  if (roots.length > MAX_SHADOW_ROOTS + 1) { roots.pop(); truncated.push("shadowRoots"); }
  const SHADOW = roots.length > 1;
  // rootOf: the tree (document or shadow root) n belongs to.
  const rootOf = (n) => (SHADOW ? n.getRootNode() : doc);
  const hostOf = (n) => { if (!SHADOW) return null; const r = n.getRootNode(); return r !== doc && r.host ? r.host : null; };
  // up: the parent element, or — at the top of a shadow tree — its host.
  const up = (n) => n.parentElement || (SHADOW && n.parentNode && n.parentNode.host) || null;
  // within(a, b): a contains b, b's hosts counted as b (the composed tree).
  const within = (a, b) => (SHADOW ? containsPiercing(a, b) : a.contains(b));
  // before(a, b): a comes before b, in composed tree order.
  const before = (a, b) => (SHADOW ? composedBefore(a, b) : a !== b && !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
  // qsa: sel over the document and every open shadow root, in composed order.
  const qsa = (sel) => queryAllIn(roots, sel);
  // deep(c, sel): sel under c, the shadow trees of hosts under c included.
  const deep = (c, sel) => queryAllIn(SHADOW ? [c].concat(roots.filter((r, i) => i > 0 && within(c, r.host))) : [c], sel);
  // A control inside the shadow tree of a form-associated custom element
  // is that element's business: the form reads the element itself.
  const faceHosted = (el) => {
    for (let h = hostOf(el); h; h = hostOf(h)) if (h.constructor && h.constructor.formAssociated) return true;
    return false;
  };
  const clip = (s, n) => { s = norm(s); return s.length > n ? s.slice(0, n) : s; };
  const attr = (el, a) => { const v = el.getAttribute(a); return v == null ? "" : v; };
  const lower = (s) => (s || "").toLowerCase();
  const resolve = (u) => { if (!u) return ""; try { return new URL(u, doc.baseURI).href; } catch (e) { return u; } };
  const dataOf = (el) => {
    const d = {};
    let n = 0;
    for (const a of el.attributes) {
      if (a.name.startsWith("data-") && n < 30) { d[a.name.slice(5)] = a.value.slice(0, 500); n++; }
    }
    return d;
  };
  const cssEsc = (s) => (window.CSS && CSS.escape) ? CSS.escape(s) : s.replace(/([^\w-])/g, "\\$1");
  const attrSel = (name, v) => "[" + name + '="' + v.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]';
  const count = (sel, root) => { try { return (root || doc).querySelectorAll(sel).length; } catch (e) { return -1; } };
  const byId = (root, id) => (root.getElementById ? root.getElementById(id) : root.querySelector("#" + cssEsc(id)));
  const styleOf = (el) => { try { return getComputedStyle(el); } catch (e) { return null; } };

  // ---- locators -------------------------------------------------------
  // Selectors are written within an element's own tree (a shadow root's
  // selectors are unique in that root); prefixOf(el) is the selector of
  // the host(s) above it and a space, "" in the document: a
  // shadow-including selector, which Playwright's CSS engine resolves and
  // document.querySelector does not (Form.ShadowHost).
  const localPath = (el) => {
    const parts = [], tree = rootOf(el);
    for (let n = el; n && n.nodeType === 1 && n !== doc.documentElement; n = n.parentElement) {
      if (n.id && count("#" + cssEsc(n.id), tree) === 1) { parts.unshift("#" + cssEsc(n.id)); break; }
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
      parts.unshift(n.tagName.toLowerCase() + ":nth-of-type(" + i + ")");
    }
    return parts.join(" > ");
  };
  const prefixes = new Map();
  const hostSelector = (h) => {
    const tree = rootOf(h), tag = h.tagName.toLowerCase();
    if (h.id && count("#" + cssEsc(h.id), tree) === 1) return "#" + cssEsc(h.id);
    if (tag.includes("-") && count(tag, tree) === 1) return tag;
    return localPath(h);
  };
  const prefixOf = (el) => {
    const h = hostOf(el);
    if (!h) return "";
    let p = prefixes.get(h);
    if (p == null) { p = prefixOf(h) + hostSelector(h) + " "; prefixes.set(h, p); }
    return p;
  };
  const cssPath = (el) => prefixOf(el) + localPath(el);
  // formLocator: the form's selector within its own tree.
  const formLocator = (form) => {
    const id = form.getAttribute("id"), name = form.getAttribute("name"), action = form.getAttribute("action"), tree = rootOf(form);
    if (id && count("form#" + cssEsc(id), tree) === 1) return "form#" + cssEsc(id);
    if (name && count("form" + attrSel("name", name), tree) === 1) return "form" + attrSel("name", name);
    if (action && count("form" + attrSel("action", action), tree) === 1) return "form" + attrSel("action", action);
    return localPath(form);
  };
  // countNamed(scope, name) is count(scope + ' [name="…"]'): when scope
  // selects one element, from an index of its named descendants built once
  // (a query per field was quadratic over a form of many inputs).
  const scopeRoots = new Map(), nameIndex = new Map();
  const countNamed = (scope, name, tree) => {
    const key = SHADOW ? scope + "\u0000" + roots.indexOf(tree) : scope;
    if (!scopeRoots.has(key)) scopeRoots.set(key, count(scope, tree) === 1 ? tree.querySelector(scope) : null);
    const root = scopeRoots.get(key);
    if (!root) return count(scope + " " + attrSel("name", name), tree);
    let idx = nameIndex.get(root);
    if (!idx) {
      idx = new Map();
      for (const e of root.querySelectorAll("[name]")) { const v = e.getAttribute("name"); idx.set(v, (idx.get(v) || 0) + 1); }
      nameIndex.set(root, idx);
    }
    return idx.get(name) || 0;
  };
  // fieldLocator: scope is the form's or group's selector within its own
  // tree (scopeEl's); a control of another tree (a group's nested shadow
  // root) is located by its own path.
  const fieldLocator = (el, scope, scopeEl, group) => {
    const tree = rootOf(el), pre = prefixOf(el);
    const tag = el.tagName.toLowerCase();
    const name = el.getAttribute("name");
    if (SHADOW && scopeEl && rootOf(scopeEl) !== tree) {
      if (name && count(attrSel("name", name), tree) === 1) return pre + attrSel("name", name);
      if (el.id && count("#" + cssEsc(el.id), tree) === 1) return pre + "#" + cssEsc(el.id);
      return cssPath(el);
    }
    // A control its form owns from outside (form=, or the parser's
    // association) is not found by a selector scoped to the form.
    const inside = !scopeEl || scopeEl.contains(el);
    if (name && inside) {
      const sel = scope + " " + attrSel("name", name);
      const n = scope ? countNamed(scope, name, tree) : count(sel, tree);
      if (n === 1 || (group && n === group)) return pre + sel;
    }
    const id = el.getAttribute("id");
    if (id && count("#" + cssEsc(id), tree) === 1) return pre + (inside && scope.startsWith("form") ? scope + " " + tag + "#" + cssEsc(id) : "#" + cssEsc(id));
    return cssPath(el);
  };

  // ---- text and names -------------------------------------------------
  // nameText is the text a person reads in a label, heading or button:
  // every element a word boundary, controls and style-hidden elements left
  // out. It is not topology's textOf on purpose: that one follows accname
  // (inline elements join without a space, a descendant's aria-label
  // stands for its text) for locators checked against the browser's
  // accessibility tree; the classifier reads the words as shown.
  const CONTROL = { INPUT: 1, SELECT: 1, TEXTAREA: 1, BUTTON: 1, SCRIPT: 1, STYLE: 1, NOSCRIPT: 1, TEMPLATE: 1, OPTION: 1 };
  const nameText = (root, exclude, includeHidden) => {
    let out = "";
    const walk = (n) => {
      if (n.nodeType === 3) { out += n.nodeValue; return; }
      if (n.nodeType !== 1 || n === exclude) return;
      if (CONTROL[n.tagName] && !(n === root && (n.tagName === "BUTTON" || n.tagName === "OPTION"))) return;
      if (!includeHidden) { const cs = styleOf(n); if (cs && (cs.display === "none" || cs.visibility === "hidden")) return; }
      if (n.tagName === "IMG") { out += " " + attr(n, "alt") + " "; return; }
      out += " ";
      for (const c of n.childNodes) walk(c);
      out += " ";
    };
    walk(root);
    return norm(out);
  };
  // byIds: the text of the elements ids name, looked up in from's own
  // tree (an id of a shadow root names an element of that root).
  const byIds = (ids, from) => { const tree = from ? rootOf(from) : doc; return norm(ids.split(/\s+/).map((id) => { const e = id && byId(tree, id); return e ? nameText(e, null, true) : ""; }).join(" ")); };

  // nearbyLabel: no accessible name — read the text a sighted person reads
  // just before the control (previous siblings, then the previous cell of a
  // table row), bounded so a form's intro paragraph is not taken.
  // A checkbox or radio button is read with the text after it ("[x] I
  // agree…"); other controls with the text before them.
  // When nothing follows the button in its own container (a label around
  // the box alone, a table cell), the text after that container is read,
  // climbing at most two containers that hold no other control.
  const followingText = (el, stop) => {
    let n = el;
    for (let depth = 0; n && n !== stop && n !== doc.body && depth < 3; depth++, n = n.parentElement) {
      if (depth > 0 && controlsIn(n).n > 1) return "";
      for (let s = n.nextSibling; s; s = s.nextSibling) {
        if (s.nodeType === 1 && (s.matches("input,select,textarea,button,br") || s.querySelector("input:not([type=hidden]),select,textarea"))) return "";
        const t = s.nodeType === 3 ? norm(s.nodeValue) : s.nodeType === 1 ? nameText(s, null, false) : "";
        if (t) return t.length > 300 ? t.slice(0, 300) : t;
      }
    }
    return "";
  };
  // The controls under an element, counted once per element (and by name):
  // asking every field's ancestors again was quadratic over a form of many
  // inputs.
  const CONTROLS = "input:not([type=hidden]),select,textarea";
  const controlCache = new Map();
  const controlsIn = (n) => {
    let c = controlCache.get(n);
    if (!c) {
      const list = n.querySelectorAll(CONTROLS);
      c = { n: list.length, byName: new Map() };
      for (const x of list) if (x.name) c.byName.set(x.name, (c.byName.get(x.name) || 0) + 1);
      controlCache.set(n, c);
    }
    return c;
  };
  // labelsOf(el): each control's labels as the browser binds them
  // (el.labels, indexed once over the document's and its open shadow
  // roots' labels: pagejs's labelsIn, shared with topology); and
  // labelsFor: each form's label[for] elements by their for, which
  // ownLabels reads where the browser's binding misses a repeated form.
  const labelsOf = labelsIn(roots);
  const forCache = new Map();
  const labelsFor = (form, id) => {
    let m = forCache.get(form);
    if (!m) {
      m = new Map();
      for (const l of form.querySelectorAll("label[for]")) {
        if (!m.has(l.htmlFor)) m.set(l.htmlFor, []);
        m.get(l.htmlFor).push(l);
      }
      forCache.set(form, m);
    }
    return m.get(id) || [];
  };
  const nearbyLabel = (el, stop, beforeOnly) => {
    if (!beforeOnly && el.tagName === "INPUT" && (lower(el.type) === "checkbox" || lower(el.type) === "radio")) {
      const t = followingText(el, stop);
      if (t) return t;
    }
    let n = el;
    for (let depth = 0; n && n !== stop && depth < 4; depth++, n = n.parentElement) {
      for (let s = n.previousSibling; s; s = s.previousSibling) {
        if (s.nodeType === 1 && (s.matches("input,select,textarea,button") || s.querySelector("input:not([type=hidden]),select,textarea"))) return "";
        const t = s.nodeType === 3 ? norm(s.nodeValue) : s.nodeType === 1 ? nameText(s, null, false) : "";
        if (t) return t.length > 120 ? "" : t;
      }
      if (n.parentElement && controlsIn(n.parentElement).n > 1 && n.tagName !== "TD" && n.tagName !== "TH") {
        // Do not climb into a container shared with other controls (except
        // table cells, whose previous cell is the label column).
        if (depth > 0) return "";
      }
    }
    return "";
  };

  // ownLabels is el.labels scoped to el's own form. Sites repeat a form (a
  // header modal and the footer) with the same ids; the browser then binds
  // every label[for] to the first copy and none to the others, so labels
  // are taken from the field's own form first, found there by id if needed.
  const ownLabels = (el) => {
    const all = labelsOf(el);
    const form = el.form || (el.closest && el.closest("form"));
    if (!form) return all;
    const inForm = all.filter((l) => form.contains(l));
    if (inForm.length) return inForm;
    if (el.id) {
      const scoped = labelsFor(form, el.id);
      if (scoped.length) return scoped;
    }
    return all;
  };

  const labelOf = (el, stop) => {
    const lb = attr(el, "aria-labelledby");
    if (lb) { const t = byIds(lb, el); if (t) return [t, "aria-labelledby", true]; }
    const al = norm(attr(el, "aria-label"));
    if (al) return [al, "aria-label", true];
    const own = ownLabels(el);
    if (own.length) {
      const parts = [];
      let src = "label-for", vis = false;
      for (const l of own) {
        const t = nameText(l, el, true);
        if (t && !parts.includes(t)) parts.push(t);
        if (l.contains(el)) src = "label-wrapping";
        if (isRendered(l)) vis = true;
      }
      const t = norm(parts.join(" "));
      if (t) return [t, src, vis];
    }
    const ti = norm(attr(el, "title"));
    if (ti) return [ti, "title", true];
    const ph = norm(attr(el, "placeholder"));
    if (ph) return [ph, "placeholder", true];
    const nb = nearbyLabel(el, stop);
    if (nb) return [nb, "nearby-text", true];
    return ["", "", false];
  };

  // ---- visibility -----------------------------------------------------
  // isRendered and visibility() say whether a control is hidden from a
  // person, how and by what (Field.Visibility). Topology's isVisible is the
  // Topology Graph's "visible" (a rendered box of some size) and stays there.
  const isRendered = (el) => {
    if (el.checkVisibility) return el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  };
  const clipped = (cs) => {
    if (!cs) return false;
    const c = cs.clip || "";
    if (/rect\(\s*(0|1)px,?\s*(0|1)px,?\s*(0|1)px,?\s*(0|1)px\s*\)/.test(c) && (cs.position === "absolute" || cs.position === "fixed")) return true;
    const cp = cs.clipPath || "";
    return /inset\(\s*(50|100)%/.test(cp);
  };
  // visibility(el, form): reasons and where the hiding happens. Style
  // reasons are found walking up from the control, nearest first; layout
  // reasons (zero size, off-screen) only when nothing hides it by style.
  const visibility = (el, form) => {
    const reasons = [];
    let hiddenBy = "";
    const where = (n) => (n === el ? "self" : (form && form !== el && form.contains(n) && n !== form) ? "wrapper" : (form === el ? "self" : "form"));
    const mark = (r, n) => { if (!reasons.includes(r)) reasons.push(r); if (!hiddenBy) hiddenBy = where(n); };
    if (el.tagName === "INPUT" && lower(el.type) === "hidden") mark("type-hidden", el);
    let ariaHidden = false;
    const elcs = styleOf(el);
    for (let n = el; n && n.nodeType === 1; n = up(n)) {
      const cs = n === el ? elcs : styleOf(n);
      if (n.hidden) mark("hidden-attribute", n);
      if (cs) {
        if (cs.display === "none") mark("display-none", n);
        if (parseFloat(cs.opacity) < 0.05) mark("opacity-zero", n);
        if (clipped(cs)) mark("clipped", n);
        if (cs.visibility === "hidden" || cs.visibility === "collapse") {
          // visibility inherits: the hider is the top of the hidden run.
          const p = up(n), pcs = p && styleOf(p);
          if (!pcs || (pcs.visibility !== "hidden" && pcs.visibility !== "collapse")) mark("visibility-hidden", n);
        }
      }
      if (attr(n, "aria-hidden") === "true") ariaHidden = true;
    }
    if (!reasons.length) {
      const r = el.getBoundingClientRect();
      const ax = r.left + window.scrollX, ay = r.top + window.scrollY;
      if (ax + r.width <= 0 || ay + r.height <= 0 || ax >= 3000 || ay >= 100000) {
        // Find the positioned element that moved it, for HiddenBy.
        let mover = el;
        for (let n = el; n && n.nodeType === 1 && n !== doc.body; n = up(n)) {
          const cs = styleOf(n);
          if (cs && cs.position !== "static") {
            const l = parseFloat(cs.left), t = parseFloat(cs.top), ti = parseFloat(cs.textIndent);
            if ((l < -500) || (t < -500) || (l > 2000) || ti < -500 || parseFloat(cs.marginLeft) < -500) { mover = n; break; }
          }
        }
        mark("off-screen", mover);
      } else if (r.width < 2 || r.height < 2) {
        let zero = el;
        for (let n = up(el); n && n.nodeType === 1 && n !== doc.body; n = up(n)) {
          const nr = n.getBoundingClientRect();
          if (nr.width < 2 || nr.height < 2) zero = n; else break;
        }
        mark("zero-size", zero);
      }
    }
    if (ariaHidden) reasons.push("aria-hidden");
    const hidden = reasons.some((r) => r !== "aria-hidden");
    return { hidden, reasons, hiddenBy: hidden ? hiddenBy : "" };
  };

  // ---- fields ---------------------------------------------------------
  const SKIP_TYPES = { submit: 1, reset: 1, button: 1, image: 1 };
  const wrappersOf = (el, stop, max) => {
    const out = [];
    for (let n = el.parentElement; n && n !== stop && n !== doc.body && out.length < max; n = n.parentElement) out.push(attr(n, "class"));
    return out;
  };
  const elementOf = (n) => ({ tag: n.tagName.toLowerCase(), id: attr(n, "id"), class: attr(n, "class"), data: dataOf(n), src: resolve(n.getAttribute("src") || n.getAttribute("href") || "") });
  // fieldWrapper: the nearest ancestor holding this control and no other
  // (named) control — a plugin's field container.
  const fieldWrapper = (el, stop) => {
    let w = null;
    for (let n = el.parentElement; n && n !== stop && n !== doc.body; n = n.parentElement) {
      // Controls under n other than el and its namesakes.
      const c = controlsIn(n), self = el.matches(CONTROLS) ? 1 : 0;
      const others = c.n - self - (el.name ? (c.byName.get(el.name) || 0) - self : 0);
      if (others > 0) break;
      w = n;
    }
    return w;
  };
  const hintOf = (el, wrap, labelText) => {
    const db = attr(el, "aria-describedby");
    if (db) { const t = byIds(db, el); if (t) return clip(t, 500); }
    if (!wrap) return "";
    for (const h of wrap.querySelectorAll("small,[class]")) {
      if (h === el || h.contains(el)) continue;
      if (h.tagName === "SMALL" || HINT.test(attr(h, "class"))) {
        const t = nameText(h, null, true);
        if (t && t !== labelText) return clip(t, 500);
      }
    }
    return "";
  };
  const tabIndexOf = (el) => { const t = el.getAttribute("tabindex"); if (t == null || t.trim() === "" || isNaN(parseInt(t, 10))) return null; return parseInt(t, 10); };
  const acTokens = (s) => lower(s).split(/\s+/).filter(Boolean);

  // requiredBy names the attribute that makes a control required
  // (Field.RequiredAttr): required (on the control or any button of its
  // group) wins over aria-required="true"; "" when neither.
  const requiredBy = (el, group) => {
    if (el.required === true || (group && group.members.some((m) => m.required))) return "required";
    return attr(el, "aria-required") === "true" ? "aria-required" : "";
  };

  const fieldOf = (el, form, scope, group) => {
    const tag = el.tagName.toLowerCase();
    let type = tag === "input" ? lower(el.type || "text") : tag === "select" ? (el.multiple ? "select-multiple" : "select-one") : tag === "textarea" ? "textarea" : lower(attr(el, "type") || "text");
    if (el.isContentEditable && tag !== "input" && tag !== "textarea") type = "contenteditable";
    const stop = form || el.parentElement;
    const [label, src, labelVis] = group && group.legend ? [group.legend, "aria-labelledby", true] : labelOf(el, form);
    const wrap = fieldWrapper(el, form);
    const options = [];
    if (tag === "select") {
      for (const o of el.options) options.push({ value: o.value, text: norm(o.text), selected: o.defaultSelected });
    } else if (group) {
      for (const r of group.members) {
        const [t] = labelOf(r, form);
        options.push({ value: r.value, text: t, selected: r.defaultChecked });
      }
    }
    const f = {
      tag, type, name: attr(el, "name"), id: attr(el, "id"), class: attr(el, "class"),
      label: clip(label, 300), labelSource: src, labelVisible: labelVis,
      placeholder: norm(attr(el, "placeholder")),
      autocomplete: attr(el, "autocomplete"), autocompleteTokens: acTokens(attr(el, "autocomplete")),
      requiredAttr: requiredBy(el, group),
      pattern: attr(el, "pattern"), min: attr(el, "min"), max: attr(el, "max"), step: attr(el, "step"),
      minLength: attr(el, "minlength"), maxLength: attr(el, "maxlength"), accept: attr(el, "accept"),
      multiple: !!el.multiple || !!(group && type === "checkbox"),
      readOnly: !!el.readOnly, disabled: !!el.disabled, inputMode: attr(el, "inputmode"),
      options,
      value: tag === "select" ? "" : (tag === "textarea" ? el.defaultValue : (el.defaultValue != null ? el.defaultValue : attr(el, "value"))),
      checked: group ? group.members.some((m) => m.defaultChecked) : !!el.defaultChecked, uncheckedValue: "",
      hint: "", toolParamDescription: attr(el, "toolparamdescription"),
      nearbyText: wrap ? clip(wrap.textContent, MAX_NEARBY) : "",
      wrapperClasses: wrappersOf(el, form, MAX_WRAPPERS),
      tabIndex: tabIndexOf(el),
      visibility: visibility(el, form),
      locator: "", shadowHost: prefixOf(el).trimEnd(),
    };
    f.required = f.requiredAttr !== "";
    if (tag === "select" && el.options.length && el.selectedIndex >= 0) f.value = el.options[el.selectedIndex].value;
    f.hint = hintOf(el, wrap, f.label);
    if (group) {
      // a group is visible when any member is
      const vs = group.members.map((m) => visibility(m, form));
      const shown = vs.find((v) => !v.hidden);
      f.visibility = shown || vs[0];
    }
    f.locator = fieldLocator(el, scope, form, group ? group.members.length : 0);
    return f;
  };

  const isButtonLike = (n) => {
    if (n.matches("button,input[type=submit],input[type=image],input[type=button],[role=button]")) return true;
    if (n.matches("a,div,span") && BUTTON.test(attr(n, "class")) && SEND.test(norm((n.textContent || "").slice(0, 200)).slice(0, 60))) return true;
    return false;
  };
  // submitOf: scope is the form's or group's selector within scopeEl's tree.
  const submitOf = (b, scope, scopeEl) => {
    const tree = rootOf(b), named = b.getAttribute("name") && (!SHADOW || !scopeEl || rootOf(scopeEl) === tree) ? scope + " " + b.tagName.toLowerCase() + attrSel("name", b.getAttribute("name")) : "";
    return {
      tag: b.tagName.toLowerCase(), type: lower(b.getAttribute("type") || (b.tagName === "BUTTON" ? "submit" : "")), name: attr(b, "name"),
      value: b.tagName === "INPUT" ? attr(b, "value") : attr(b, "value"), text: clip(b.tagName === "INPUT" ? (attr(b, "value") || attr(b, "alt") || attr(b, "title")) : (nameText(b, null, true) || attr(b, "aria-label") || attr(b, "title")), 200),
      visible: isRendered(b), locator: (named && count(named, tree) === 1) ? prefixOf(b) + named : cssPath(b), shadowHost: prefixOf(b).trimEnd(),
    };
  };

  const isWidget = (n) => {
    if (n.hasAttribute("data-sitekey")) return true;
    if (WIDGET.test(attr(n, "class"))) return true;
    for (const a of n.attributes) if (a.name.startsWith("data-") && /^https?:\/\//i.test(a.value)) return true;
    return false;
  };
  const widgetsIn = (root) => {
    const out = [];
    for (const n of root.querySelectorAll("[class],[data-sitekey],iframe")) {
      if (out.length >= 50) break;
      if (n.tagName === "IFRAME" || isWidget(n)) out.push(elementOf(n));
    }
    return out;
  };

  const headingOf = (root) => {
    const lb = attr(root, "aria-labelledby");
    if (lb) { const t = byIds(lb, root); if (t) return clip(t, 200); }
    for (const a of ["aria-label", "title"]) { const t = norm(attr(root, a)); if (t) return clip(t, 200); }
    const inner = root.querySelector("h1,h2,h3,h4,h5,h6,[role=heading]");
    if (inner) { const t = nameText(inner, null, true); if (t) return clip(t, 200); }
    const legend = root.querySelector("legend");
    // nearest heading before the form in document order, a bounded walk;
    // from the top of a shadow tree it goes on before the host.
    let budget = 300;
    walk: for (let from = root; from && budget > 0; from = hostOf(from)) {
      const tree = rootOf(from);
      const w = doc.createTreeWalker(tree === doc ? (doc.body || doc.documentElement) : tree, NodeFilter.SHOW_ELEMENT);
      w.currentNode = from;
      for (; budget > 0 && w.previousNode(); budget--) {
        const n = w.currentNode;
        if (/^H[1-6]$/.test(n.tagName) || attr(n, "role") === "heading") { const t = nameText(n, null, true); if (t) return clip(t, 200); }
        if (n.tagName === "FORM") break walk;
      }
    }
    return legend ? clip(nameText(legend, null, true), 200) : "";
  };
  const inDialog = (el) => {
    for (let n = el; n; n = hostOf(n)) if (n.closest("dialog,[role=dialog],[role=alertdialog],[aria-modal=true]")) return true;
    for (let n = up(el); n && n !== doc.body; n = up(n)) if (DIALOG.test(attr(n, "class"))) return true;
    return false;
  };

  // fieldsOf: the controls of a form (form.elements, so form= owners count)
  // or of a formless container, radio groups and same-name checkbox groups
  // folded into one Field.
  const fieldsOf = (controls, form, scope) => {
    const out = [];
    const seen = new Set();
    const byName = (type, name) => controls.filter((c) => c.tagName === "INPUT" && lower(c.type) === type && c.name === name);
    for (const el of controls) {
      if (seen.has(el)) continue;
      const tag = el.tagName;
      if (tag === "BUTTON" || tag === "FIELDSET" || tag === "OUTPUT" || tag === "OBJECT") continue;
      if (tag === "INPUT" && SKIP_TYPES[lower(el.type)]) continue;
      const t = lower(el.type);
      // the unchecked value of a checkbox (Field.UncheckedValue)
      if (tag === "INPUT" && t === "hidden" && el.name && byName("checkbox", el.name).length) continue;
      let group = null;
      if (tag === "INPUT" && (t === "radio" || t === "checkbox") && el.name) {
        const members = byName(t, el.name);
        if (t === "radio" || members.length > 1) {
          members.forEach((m) => seen.add(m));
          group = { members, legend: "" };
          const fs = el.closest("fieldset,[role=radiogroup],[role=group]");
          if (fs && members.every((m) => fs.contains(m))) {
            const lg = fs.tagName === "FIELDSET" ? fs.querySelector("legend") : null;
            group.legend = lg ? nameText(lg, null, true) : (attr(fs, "aria-labelledby") ? byIds(attr(fs, "aria-labelledby"), fs) : norm(attr(fs, "aria-label")));
          }
          if (!group.legend) group.legend = nearbyLabel(members[0], form, true) || "";
          if (!group.legend && members.length === 1) group.legend = "";
          if (!group.legend) { const [l] = labelOf(el, form); group.legend = members.length === 1 ? l : ""; }
        }
      }
      seen.add(el);
      try {
        const f = fieldOf(el, form, scope, group);
        if (tag === "INPUT" && t === "checkbox" && el.name) {
          const h = byName("hidden", el.name)[0];
          if (h) f.uncheckedValue = attr(h, "value");
        }
        out.push(f);
      } catch (e) { /* a hostile control must not cost the form */ }
    }
    return out;
  };

  // ---- forms ----------------------------------------------------------
  const forms = [];
  // The document's forms and those of its open shadow roots, in composed
  // order (a shadow root's forms where its host stands).
  const formEls = SHADOW ? qsa("form") : Array.prototype.slice.call(doc.forms);
  if (sink) sink.forms = formEls;
  // Image buttons submit a form but are not among its elements (the HTML
  // standard leaves them out of form.elements): each form's are found
  // here, by their form owner, and put among its submits in tree order.
  const imageButtons = qsa("input[type=image]");
  formEls.forEach((form, index) => {
    const scope = formLocator(form), pre = prefixOf(form);
    const fv = visibility(form, null);
    const rec = {
      index, formless: false, id: attr(form, "id"), name: attr(form, "name"), class: attr(form, "class"),
      action: form.hasAttribute("action") && attr(form, "action").trim() !== "" ? resolve(attr(form, "action")) : doc.URL,
      actionAttr: attr(form, "action"), method: lower(form.getAttribute("method") || "get"), enctype: lower(form.getAttribute("enctype") || "application/x-www-form-urlencoded"),
      target: attr(form, "target"), toolName: attr(form, "toolname"), toolDescription: attr(form, "tooldescription"), toolAutoSubmit: form.hasAttribute("toolautosubmit"),
      data: dataOf(form), wrappers: [], text: "", heading: "", visible: !fv.hidden, visibility: fv, inDialog: false,
      submits: [], fields: [], widgets: [], locator: pre + scope, shadowHost: pre.trimEnd(), onSubmit: attr(form, "onsubmit"),
    };
    if (!["get", "post", "dialog"].includes(rec.method)) rec.method = "get";
    try {
      for (let n = up(form), i = 0; n && n !== doc.body && i < MAX_WRAPPERS; n = up(n), i++) rec.wrappers.push(elementOf(n));
      rec.text = clip(form.innerText || form.textContent, MAX_FORM_TEXT);
      rec.heading = headingOf(form);
      rec.inDialog = inDialog(form);
      const controls = Array.prototype.slice.call(form.elements);
      rec.fields = fieldsOf(controls, form, scope);
      const submitEls = controls.filter((b) => (b.tagName === "BUTTON" && lower(b.getAttribute("type") || "submit") === "submit") || (b.tagName === "INPUT" && lower(b.type) === "submit"));
      const images = imageButtons.filter((b) => b.form === form);
      if (images.length) {
        submitEls.push(...images);
        submitEls.sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1));
      }
      for (const b of submitEls) rec.submits.push(submitOf(b, scope, form));
      if (!rec.submits.length) {
        for (const b of form.querySelectorAll("button,input[type=button],[role=button],a,div,span")) {
          if (rec.submits.length >= 3) break;
          if (isButtonLike(b) && SEND.test(norm(b.tagName === "INPUT" ? attr(b, "value") : (b.textContent || "").slice(0, 200)).slice(0, 60))) rec.submits.push(submitOf(b, scope, form));
        }
      }
      rec.widgets = widgetsIn(form);
    } catch (e) { /* keep what was read */ }
    forms.push(rec);
  });

  // ---- formless groups ------------------------------------------------
  const groups = [];
  try {
    // A control a widget draws over (a custom checkbox or radio, a file
    // input behind a styled label, a select a script replaces) is hidden
    // itself while its label shows: it is still there to be filled.
    const drawnOver = (el) => (el.tagName === "SELECT" || (el.tagName === "INPUT" && /^(checkbox|radio|file)$/.test(lower(el.type)))) &&
      labelsOf(el).some((l) => isRendered(l));
    const looseOf = (el) => !el.form && !el.closest("form") && !(SHADOW && faceHosted(el));
    const loose = qsa("input,select,textarea").filter((el) =>
      looseOf(el) && !(el.tagName === "INPUT" && (SKIP_TYPES[lower(el.type)] || lower(el.type) === "hidden")) && (isRendered(el) || drawnOver(el)));
    // Mark the ancestors (up to 8 levels) of every rendered button-like
    // element outside forms once, instead of searching each control's
    // ancestors for buttons: large pages have thousands of elements.
    const nearButton = new Set();
    const buttons = [];
    if (loose.length) {
      for (const b of qsa("button,input[type=submit],input[type=image],input[type=button],[role=button],a[class],div[class],span[class]")) {
        if (b.closest("form") || !isButtonLike(b) || !isRendered(b)) continue;
        buttons.push(b);
        for (let n = up(b), d = 0; n && n !== doc.body && d < 8; n = up(n), d++) nearButton.add(n);
      }
    }
    // First pass: each control's nearest ancestor that holds a button.
    const chosen = new Map();
    for (const el of loose) {
      for (let n = up(el), d = 0; n && n !== doc.body && n !== doc.documentElement && d < 8; n = up(n), d++) {
        if (nearButton.has(n)) { chosen.set(el, n); break; }
      }
    }
    // A container owns a button when it is the button's nearest chosen
    // ancestor. An ancestor chosen only because it holds two or more
    // widgets that own their buttons (main, a page wrapper: a stray box
    // beside two widgets) is no container: it would swallow them all into
    // one group.
    const chosenSet = new Set(chosen.values());
    const owning = new Set();
    for (const b of buttons) {
      for (let n = up(b); n && n !== doc.body; n = up(n)) {
        if (chosenSet.has(n)) { owning.add(n); break; }
      }
    }
    // How many owning containers each element holds (below itself), counted
    // once up each one's ancestors.
    const holds = new Map();
    for (const o of owning) for (let n = up(o); n; n = up(n)) holds.set(n, (holds.get(n) || 0) + 1);
    const blocked = (n) => (holds.get(n) || 0) >= 2;
    const containers = new Map();
    for (const el of loose) {
      let c = chosen.get(el);
      if (c && !owning.has(c) && blocked(c)) c = null;
      if (!c) {
        // No button of its own near it (sent by Enter or by a script's
        // own control): a labelled control is still returned, grouped with
        // the loose controls around it, below any ancestor that holds two
        // widgets; static.go's groups applies the same rule.
        if (!labelOf(el, null)[0]) continue;
        let last = null;
        for (let n = up(el), d = 0; n && n !== doc.body && n !== doc.documentElement && d < 8; n = up(n), d++) {
          if (blocked(n)) { c = last; break; }
          let k = 0;
          for (const o of loose) if (within(n, o) && ++k >= 2) break;
          if (k >= 2) { c = n; break; }
          last = n;
        }
        if (!c && !last) continue;
        c = c || up(el);
        if (!c || c === doc.body || c === doc.documentElement || blocked(c)) continue;
      }
      if (!containers.has(c)) containers.set(c, []);
      containers.get(c).push(el);
    }
    // merge nested containers into the outermost one
    const keys = Array.from(containers.keys());
    const outer = keys.filter((k) => !keys.some((o) => o !== k && within(o, k)));
    outer.sort((a, b) => (before(a, b) ? -1 : 1));
    for (const c of outer) {
      const pre = prefixOf(c), scope = c.shadowRoot ? hostSelector(c) : localPath(c);
      const controls = deep(c, "input,select,textarea").filter(looseOf);
      const rec = {
        index: -1, formless: true, id: attr(c, "id"), name: "", class: attr(c, "class"), action: "", actionAttr: "", method: "", enctype: "", target: "",
        toolName: "", toolDescription: "", toolAutoSubmit: false, data: dataOf(c), wrappers: [], text: clip(c.innerText, MAX_FORM_TEXT),
        heading: headingOf(c), visible: true, visibility: visibility(c, null), inDialog: inDialog(c), submits: [], fields: [], widgets: widgetsIn(c), locator: pre + scope,
        shadowHost: pre.trimEnd(),
      };
      for (let n = up(c), i = 0; n && n !== doc.body && i < MAX_WRAPPERS; n = up(n), i++) rec.wrappers.push(elementOf(n));
      rec.fields = fieldsOf(controls, c, scope);
      for (const b of deep(c, "button,input[type=submit],input[type=image],input[type=button],[role=button],a,div,span")) {
        if (rec.submits.length >= 3) break;
        if (!b.closest("form") && isButtonLike(b) && isRendered(b)) rec.submits.push(submitOf(b, scope, c));
      }
      if (rec.fields.length) groups.push(rec);
    }
  } catch (e) { /* groups are best effort */ }

  // ---- link context ---------------------------------------------------
  // What a person reads around a tel: or mailto: link (Link.Context and
  // Link.Heading; linkcontext.go applies the same rule to markup): the
  // sentence of the link's nearest block that holds the link's text, and —
  // when the block holds nothing but links — the nearest h1–h6 before it.
  const isBlock = (n) => { const cs = styleOf(n); return !cs || (cs.display !== "inline" && cs.display !== "contents" && cs.display !== "inline-block"); };
  const blockOf = (a) => {
    for (let n = up(a); n; n = up(n)) if (isBlock(n)) return n;
    return doc.body;
  };
  const linkText = (l) => clip(l.innerText || l.textContent, MAX_LINK_CONTEXT);
  const blocks = new Map(); // block → {text, onlyLinks}: many links share one footer
  const blockFacts = (block) => {
    let b = blocks.get(block);
    if (!b) {
      const text = clip(block.innerText || block.textContent, MAX_LINK_CONTEXT);
      let rest = text;
      for (const l of block.querySelectorAll("a")) rest = rest.split(linkText(l)).join(" ");
      b = { text, onlyLinks: rest.replace(SEPARATORS, "") === "" };
      blocks.set(block, b);
    }
    return b;
  };
  let headings = null;
  // headingBefore: the last h1–h6 preceding (or holding) el in document
  // order; headings are in document order, so a binary search finds it.
  const headingBefore = (el) => {
    if (!headings) headings = qsa("h1,h2,h3,h4,h5,h6");
    let lo = 0, hi = headings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(headings[mid], el) || within(headings[mid], el)) lo = mid + 1; else hi = mid;
    }
    return lo ? clip(headings[lo - 1].textContent, MAX_LINK_CONTEXT) : "";
  };
  // sentenceAround: "…our service area. For a burst pipe, call (07) 3391
  // 5820 now." says nothing about quotes. A sentence ends at . ! or ?
  // followed by a space, so the dots of an address do not cut it.
  const sentenceAround = (text, words) => {
    const at = words ? text.indexOf(words) : -1;
    if (at < 0) return text;
    let start = 0;
    for (let i = at - 1; i > 0; i--) if (/[.!?]/.test(text[i - 1]) && text[i] === " ") { start = i; break; }
    let end = text.length;
    for (let i = at + words.length; i < text.length; i++) if (/[.!?]/.test(text[i]) && (i + 1 === text.length || text[i + 1] === " ")) { end = i + 1; break; }
    return text.slice(start, end).trim();
  };
  const linkContext = (a) => {
    const block = blockOf(a);
    if (!block) return { context: "", heading: "" };
    const b = blockFacts(block);
    return { context: sentenceAround(b.text, linkText(a)), heading: b.onlyLinks ? headingBefore(a) : "" };
  };

  // ---- page-level facts -----------------------------------------------
  const links = [];
  for (const a of qsa("a[href],area[href]")) {
    if (links.length >= MAX_LINKS) { truncated.push("links"); break; }
    let text = clip(a.innerText || a.textContent, 200);
    if (!text) text = norm(attr(a, "aria-label") || attr(a, "title") || (a.querySelector("img[alt]") ? a.querySelector("img[alt]").getAttribute("alt") : ""));
    let around = { context: "", heading: "" };
    if (DIRECT.test(attr(a, "href"))) { try { around = linkContext(a); } catch (e) { /* the link still counts */ } }
    links.push({ href: a.href || resolve(attr(a, "href")), text, rel: attr(a, "rel"), visible: isRendered(a), context: around.context, heading: around.heading });
  }
  const scripts = [], jsonld = [];
  for (const s of doc.querySelectorAll("script")) {
    const type = lower(attr(s, "type"));
    if (type === "application/ld+json") { jsonld.push(s.textContent); continue; }
    if (scripts.length >= MAX_SCRIPTS) { if (!truncated.includes("scripts")) truncated.push("scripts"); continue; }
    const src = s.getAttribute("src");
    const text = src ? "" : (s.textContent || "");
    scripts.push({ src: src ? resolve(src) : "", id: attr(s, "id"), type, text: text.length > MAX_SCRIPT ? text.slice(0, MAX_SCRIPT) : text, data: dataOf(s) });
  }
  const frames = qsa("iframe").map((f) => ({ src: resolve(f.getAttribute("src") || ""), id: attr(f, "id"), name: attr(f, "name"), title: attr(f, "title"), class: attr(f, "class"), visible: isRendered(f) }));
  const linkRels = Array.prototype.map.call(doc.querySelectorAll("link[rel][href]"), (l) => ({ rel: lower(attr(l, "rel")), href: resolve(attr(l, "href")), type: attr(l, "type") }));
  const meta = Array.prototype.map.call(doc.querySelectorAll("meta"), (m) => ({ name: attr(m, "name"), property: attr(m, "property"), httpEquiv: attr(m, "http-equiv"), content: attr(m, "content").slice(0, 1000) }));
  const embeds = [];
  embed: for (const r of roots) {
    for (const n of (r === doc ? (doc.body || doc.documentElement) : r).querySelectorAll("*")) {
      if (n.tagName === "SCRIPT" || n.tagName === "IFRAME" || n.tagName === "A") continue;
      if (isWidget(n)) { if (embeds.length >= MAX_EMBEDS) { truncated.push("embeds"); break embed; } embeds.push(elementOf(n)); }
    }
  }

  return jsonText({
    url: doc.URL, baseUrl: doc.baseURI, source: "browser", title: norm(doc.title), lang: attr(doc.documentElement, "lang"),
    forms, groups, links, scripts, frames, jsonld, linkRels, meta, embeds, truncated,
  });
}
