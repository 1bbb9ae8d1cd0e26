// Frontlatch topology: in-page extraction and locator verification.
// One function, two operations, each a single Runtime.callFunctionOn:
//   op "extract": the whole state (hashes, modals, frames, actionable elements)
//   op "verify":  re-resolve the locator descriptors of the state, in order,
//                 until they are all done or opts.budgetMs has been spent;
//                 the answer holds one result per descriptor reached
// The normalisation rules (normalization-v0.2) applied here are listed in
// normalize.go; keep the two in step.
(op, opts) => {
  // N2 (norm) and labelsOf are shared with the mapper's extract.js
  // (package pagejs; snapshot.go inlines them).
  //pagejs:include norm
  //pagejs:include json
  // N3/N5: volatile tokens replaced by placeholders.
  const TOKENS = [
    [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '{ts}'],
    [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '{id}'],
    [/\b\d{4}-\d{2}-\d{2}\b/g, '{date}'],
    [/\b\d{1,2}:\d{2}(:\d{2})?(\s?[ap]\.?m\.?)?\b/gi, '{time}'],
    [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '{id}'],
    [/[A-Za-z0-9_-]{15,}/g, (tok) => longId(tok)],
    [/\d{5,}/g, '{id}'],
  ];
  // longId is the rule /[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*[A-Z][A-Za-z0-9_-]*[a-z][A-Za-z0-9_-]{12,}/
  // applied to one run of those characters, in one pass: a run holding a
  // digit, then an upper-case letter, then a lower-case one with at least
  // twelve characters after it is an id as a whole. (The regular
  // expression itself backtracks in the fourth power of a run's length: a
  // form of 200 labelled inputs, whose text reads "F0F1F2…", took seconds.)
  const longId = (tok) => {
    let st = 0, i = 0;
    for (; i < tok.length; i++) {
      const c = tok.charCodeAt(i);
      if (st === 0) { if (c >= 48 && c <= 57) st = 1; }
      else if (st === 1) { if (c >= 65 && c <= 90) st = 2; }
      else if (c >= 97 && c <= 122) { st = 3; break; }
    }
    return st === 3 && i <= tok.length - 13 ? '{id}' : tok;
  };
  const normTok = (s) => {
    s = String(s == null ? '' : s);
    for (const [re, r] of TOKENS) s = s.replace(re, r);
    return s;
  };
  // N4: attributes whose values are secrets, nonces or presentation noise.
  const DROP_ATTR = /^(nonce|integrity|data-fl-.*|csrf.*|.*-token|.*nonce.*|data-reactid|data-v-[0-9a-f]+)$/i;
  const SECRET_NAME = /(token|nonce|csrf|xsrf|captcha|_wpcf7_unit_tag|gform_unique_id|timestamp)/i;

  const mkHash = () => {
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    return {
      add(s) {
        for (let i = 0; i < s.length; i++) {
          const c = s.charCodeAt(i);
          h1 = Math.imul(h1 ^ c, 2654435761);
          h2 = Math.imul(h2 ^ c, 1597334677);
        }
        h1 = Math.imul(h1 ^ 0x1f, 2654435761);
        h2 = Math.imul(h2 ^ 0x1f, 1597334677);
      },
      hex() {
        const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
        const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
        return (b >>> 0).toString(16).padStart(8, '0') + (a >>> 0).toString(16).padStart(8, '0');
      },
    };
  };

  const LANDMARKS = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'region', 'form']);
  const ACT_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio',
    'switch', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'listbox']);
  const TEXT_INPUTS = new Set(['text', 'email', 'tel', 'url', 'password', 'search', 'number', 'date', 'datetime-local',
    'month', 'week', 'time', '']);

  const attr = (el, n) => el.getAttribute(n);

  // isVisible is the element's "visible" of the Topology Graph (rendered,
  // not visibility:hidden, a box of some size). The mapper's isRendered and
  // visibility() answer a different question (is a form control hidden,
  // how, and by what) and stay there.
  const isVisible = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // labelsOf(el): el's labels as the browser binds them (pagejs, shared
  // with the mapper). labelOf keeps to that binding (topology records what
  // the browser does, and verify re-resolves label locators through this
  // same labelOf); the mapper's labelOf instead takes a repeated form's
  // labels from the field's own form (its ownLabels) and reads them with
  // its own nameText.
  //pagejs:include labels
  const labelsOf = labelsIn([document]);
  // roleOf, accName, accText (name from content) and idrefText are
  // pagejs's accname, the rule locate resolves a contract's role locators
  // by: what topology names an element is what a role locator finds.
  //pagejs:include accname
  const { roleOf, accName, accText, idrefText, hiddenForAria, SKIP_TEXT } = accNames(labelsOf);

  function labelOf(el) {
    const lb = attr(el, 'aria-labelledby');
    if (lb) { const n = idrefText(el, lb); if (n) return n; }
    const al = norm(attr(el, 'aria-label'));
    if (al) return al;
    const ls = labelsOf(el);
    if (ls.length) return norm(ls.map((l) => accText(l, true, true)).join(' '));
    return '';
  }

  const TESTID_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  const stable = (v) => v != null && v !== '' && normTok(v) === v;

  let idCounts = null;
  const idUnique = (id) => {
    if (!idCounts) {
      idCounts = new Map();
      for (const e of document.querySelectorAll('[id]')) idCounts.set(e.id, (idCounts.get(e.id) || 0) + 1);
    }
    return idCounts.get(id) === 1;
  };
  // Each parent's children, counted once: a child's index, its rank among
  // siblings of its tag, and how many siblings share each tag (counting
  // them per element was quadratic over a form of many inputs).
  const sibCache = new Map();
  function siblings(p) {
    let info = sibCache.get(p);
    if (!info) {
      info = { index: new Map(), nth: new Map(), count: new Map() };
      let i = 0;
      for (const c of p.children) {
        const k = c.localName, m = (info.count.get(k) || 0) + 1;
        info.count.set(k, m);
        info.nth.set(c, m);
        info.index.set(c, i++);
      }
      sibCache.set(p, info);
    }
    return info;
  }
  const pathCache = new Map();
  function cssPath(el) {
    if (pathCache.has(el)) return pathCache.get(el);
    const parts = [];
    let n = el;
    while (n && n.nodeType === 1) {
      if (n !== el && pathCache.has(n)) { parts.unshift(pathCache.get(n)); break; }
      const t = n.localName;
      if (n.id && stable(n.id) && idUnique(n.id)) { parts.unshift('#' + CSS.escape(n.id)); break; }
      const p = n.parentElement;
      if (!p) { parts.unshift(t); break; }
      const sib = siblings(p);
      parts.unshift(sib.count.get(t) > 1 ? `${t}:nth-of-type(${sib.nth.get(n)})` : t);
      n = p;
    }
    const s = parts.join(' > ');
    pathCache.set(el, s);
    return s;
  }
  // Child-index path from document, matched against DOMSnapshot in Go.
  function childPath(el) {
    const p = [];
    for (let n = el; n && n.parentNode; n = n.parentNode) {
      const par = n.parentNode;
      if (!par.children) break;
      p.unshift(siblings(par).index.get(n));
      if (par === document) break;
    }
    return p;
  }
  function fromPath(p) {
    let n = document;
    for (const i of p) { n = n && n.children ? n.children[i] : null; }
    return n || null;
  }

  // N1: canonical URL key.
  const TRACKING = /^(utm_.*|gclid|fbclid|msclkid|dclid|_ga|_gl|mc_cid|mc_eid|_hsenc|_hsmi|ref_src|_)$/i;
  function canonicalURL(href) {
    let u;
    try { u = new URL(href); } catch (e) { return normTok(href); }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return normTok(u.href.split('#')[0]);
    const keep = [];
    for (const [k, v] of u.searchParams) {
      if (!TRACKING.test(k)) keep.push([k, SECRET_NAME.test(k) ? '{secret}' : normTok(v)]);
    }
    keep.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const q = keep.map(([k, v]) => k + '=' + v).join('&');
    const frag = /^#[!/]/.test(u.hash) ? u.hash : '';
    return u.protocol + '//' + u.host + normTok(u.pathname || '/') + (q ? '?' + q : '') + frag;
  }
  function routeOf(href) {
    try {
      const u = new URL(href);
      return normTok(u.pathname || '/') + (/^#[!/]/.test(u.hash) ? u.hash : '');
    } catch (e) { return ''; }
  }

  // ---------------------------------------------------------------- extract
  function extract(o) {
    const body = document.body || document.documentElement;
    const out = {
      url: location.href, canonical: canonicalURL(location.href), route: routeOf(location.href), title: document.title || '', lang: document.documentElement ? (attr(document.documentElement, 'lang') || '') : '',
      readyState: document.readyState, nodes: 0, truncated: false, candidates: 0,
      domHash: '', textHash: '', modals: [], frames: [], elements: [],
    };
    if (!body) return out;
    const dh = mkHash();
    const cands = [];
    const tw = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT);
    for (let el = body; el; el = tw.nextNode()) {
      out.nodes++;
      if (out.nodes > o.maxNodes) { out.truncated = true; break; }
      const t = el.localName;
      let s = t + '|' + el.childElementCount;
      const names = el.getAttributeNames().sort();
      const hiddenInput = t === 'input' && (attr(el, 'type') || '').toLowerCase() === 'hidden';
      for (const a of names) {
        if (DROP_ATTR.test(a)) continue;
        let v = attr(el, a);
        if (a === 'value' && (hiddenInput || SECRET_NAME.test(attr(el, 'name') || ''))) v = '{secret}';
        else if (a === 'style') v = v.replace(/-?\d+(\.\d+)?/g, '#');
        else if (a === 'class') v = normTok(v.split(/\s+/).filter(Boolean).sort().join(' '));
        else v = normTok(v);
        s += '|' + a + '=' + v;
      }
      dh.add(s);
      if (isCandidate(el, t)) {
        out.candidates++;
        if (cands.length < o.maxElements) cands.push(el);
      }
    }
    out.domHash = dh.hex();
    const th = mkHash();
    const text = (body.innerText || '').split('\n').map((l) => normTok(norm(l))).filter(Boolean).join('\n');
    th.add(text);
    out.textHash = th.hex();

    for (const m of document.querySelectorAll('dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]')) {
      if (!isVisible(m)) continue;
      out.modals.push({ role: roleOf(m) || 'dialog', name: normTok(accName(m) || anchorName(m, 'dialog')), selector: cssPath(m), ariaModal: attr(m, 'aria-modal') === 'true' || (m.localName === 'dialog' && m.matches(':modal')) });
    }
    for (const f of document.querySelectorAll('iframe,frame')) {
      let cross = false;
      try { cross = !f.contentDocument; } catch (e) { cross = true; }
      out.frames.push({ src: normTok(f.src || attr(f, 'src') || ''), crossOrigin: cross, selector: cssPath(f) });
    }
    for (const el of cands) out.elements.push(describe(el));
    return out;
  }

  function isCandidate(el, t) {
    switch (t) {
      case 'a': case 'area': return el.hasAttribute('href');
      case 'button': case 'select': case 'textarea': case 'summary': return true;
      case 'input': return (attr(el, 'type') || '').toLowerCase() !== 'hidden';
    }
    const r = norm(attr(el, 'role')).split(' ')[0];
    if (r && ACT_ROLES.has(r)) return true;
    if (el.hasAttribute('onclick')) return true;
    return el.isContentEditable && el.hasAttribute('contenteditable');
  }

  const ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy', 'id', 'name', 'type', 'href', 'role',
    'aria-label', 'aria-controls', 'aria-expanded', 'aria-haspopup', 'aria-disabled', 'aria-pressed', 'aria-selected',
    'aria-checked', 'aria-current', 'title', 'target', 'rel', 'download', 'formaction', 'form', 'autocomplete',
    'data-toggle', 'data-bs-toggle', 'data-target', 'data-bs-target', 'data-action', 'popovertarget', 'commandfor',
    'disabled', 'readonly', 'required', 'tabindex', 'onclick'];

  function hit(el, r) {
    const vw = window.innerWidth, vh = window.innerHeight;
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, vw), y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, vh);
    const inView = x1 > x0 && y1 > y0;
    if (el.closest('[inert]') || getComputedStyle(el).pointerEvents === 'none') return { recv: false, inView, by: null };
    if (!inView) return { recv: true, inView, by: null };
    const h = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
    if (!h || h === el || el.contains(h)) return { recv: true, inView, by: null };
    if (labelsOf(el).some((l) => l === h || l.contains(h))) return { recv: true, inView, by: null };
    const root = el.getRootNode();
    if (root && root.host && (root.host === h || h.contains(root.host))) return { recv: true, inView, by: null };
    return { recv: false, inView, by: cssPath(h) };
  }

  function anchorName(a, kind) {
    let n = '';
    const lb = attr(a, 'aria-labelledby');
    if (lb) n = idrefText(a, lb);
    if (!n) n = norm(attr(a, 'aria-label'));
    if (!n && (kind === 'row' || kind === 'listItem')) {
      const first = kind === 'row' ? a.querySelector('th,td,[role=cell],[role=gridcell],[role=rowheader]') : a;
      n = norm(first ? accText(first, true, false) : '');
    }
    if (!n) {
      const h = a.querySelector('h1,h2,h3,h4,h5,h6,legend,caption,[role=heading]');
      if (h) n = norm(accText(h, false, false));
    }
    if (!n && kind === 'form') n = norm(attr(a, 'name') || (stable(a.id) ? a.id : '') || attr(a, 'title'));
    return normTok(n.slice(0, 80));
  }

  const ANCHORS = [
    ['dialog', (e) => e.localName === 'dialog' || /^(dialog|alertdialog)$/.test(attr(e, 'role') || '') || attr(e, 'aria-modal') === 'true'],
    ['form', (e) => e.localName === 'form' || attr(e, 'role') === 'form'],
    ['section', (e) => e.localName === 'section' || e.localName === 'article' || e.localName === 'fieldset' || attr(e, 'role') === 'region'],
    ['row', (e) => e.localName === 'tr' || attr(e, 'role') === 'row'],
    ['landmark', (e) => { const r = roleOf(e); return LANDMARKS.has(r) && r !== 'form' && r !== 'region'; }],
    ['listItem', (e) => e.localName === 'li' || attr(e, 'role') === 'listitem'],
  ];
  // An anchor is described once, however many elements it holds.
  const anchorCache = new Map();
  function anchorOf(a, kind) {
    const key = kind;
    let byKind = anchorCache.get(a);
    if (!byKind) { byKind = new Map(); anchorCache.set(a, byKind); }
    if (!byKind.has(key)) byKind.set(key, { kind, tag: a.localName, role: roleOf(a), name: anchorName(a, kind), selector: cssPath(a) });
    return byKind.get(key);
  }
  function anchors(el) {
    const ctx = {};
    for (let a = el.parentElement; a; a = a.parentElement) {
      for (const [kind, test] of ANCHORS) {
        if (!ctx[kind] && test(a)) ctx[kind] = a;
      }
    }
    if (!ctx.form && el.form) ctx.form = el.form;
    const out = {};
    for (const [kind] of ANCHORS) {
      const a = ctx[kind];
      out[kind] = a ? anchorOf(a, kind) : null;
    }
    return out;
  }

  function surface(el, t) {
    if (t !== 'input' && t !== 'select' && t !== 'textarea') return null;
    const a = (n) => (el.hasAttribute(n) ? attr(el, n) : null);
    const ps = {
      type: t === 'input' ? el.type : t === 'select' ? el.type : 'textarea',
      name: a('name'), required: !!el.required, pattern: a('pattern'), min: a('min'), max: a('max'), step: a('step'),
      minLength: (t !== 'select' && el.minLength >= 0) ? el.minLength : null,
      maxLength: (t !== 'select' && el.maxLength >= 0) ? el.maxLength : null,
      multiple: !!el.multiple, autocomplete: a('autocomplete'), options: [],
    };
    const opts = t === 'select' ? el.options : (el.list ? el.list.options : []);
    for (const op of opts) ps.options.push({ value: op.value, label: norm(op.label || op.text), selected: !!op.selected, disabled: !!op.disabled });
    return ps;
  }

  function describe(el) {
    const t = el.localName;
    const r = el.getBoundingClientRect();
    const visible = isVisible(el);
    const enabled = !el.matches(':disabled') && attr(el, 'aria-disabled') !== 'true';
    const ty = (attr(el, 'type') || '').toLowerCase();
    const textual = (t === 'input' && TEXT_INPUTS.has(ty)) || t === 'textarea' || (el.isContentEditable && t !== 'input');
    const editable = textual && enabled && !el.readOnly;
    const h = visible ? hit(el, r) : { recv: false, inView: false, by: null };
    const attrs = {};
    for (const n of ATTRS) {
      if (!el.hasAttribute(n)) continue;
      if (n === 'value') continue;
      attrs[n] = normTok(attr(el, n));
    }
    if ((t === 'button' || (t === 'input' && /^(button|submit|reset)$/.test(ty))) && el.hasAttribute('value')) attrs.value = normTok(attr(el, 'value'));
    let testid = null;
    for (const n of TESTID_ATTRS) {
      const v = attr(el, n);
      if (stable(v)) { testid = [n, v]; break; }
    }
    const label = (t === 'input' || t === 'select' || t === 'textarea' || el.hasAttribute('aria-labelledby')) ? labelOf(el) : '';
    return {
      path: childPath(el), tag: t, role: roleOf(el), name: accName(el), text: norm(accText(el, visible, false)).slice(0, 200),
      label: label || null, placeholder: el.hasAttribute('placeholder') ? attr(el, 'placeholder') : null,
      attrs, bbox: [Math.round(r.left + window.scrollX), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)],
      visible, enabled, editable, recv: h.recv, inView: h.inView, by: h.by,
      sig: normTok([t, roleOf(el), accName(el), visible ? 1 : 0, enabled ? 1 : 0].join('|')),
      css: cssPath(el), cssId: (el.id && stable(el.id) && idUnique(el.id)) ? '#' + CSS.escape(el.id) : null, testid,
      ctx: anchors(el), ps: surface(el, t),
    };
  }

  // ----------------------------------------------------------------- verify
  function verify(opts) {
    const items = opts.items, budgetMs = opts.budgetMs, t0 = performance.now();
    let roleIndex = null;
    const byRole = (role) => {
      if (!roleIndex) {
        roleIndex = new Map();
        for (const e of document.querySelectorAll('*')) {
          const r = roleOf(e);
          if (!r) continue;
          if (!roleIndex.has(r)) roleIndex.set(r, []);
          roleIndex.get(r).push(e);
        }
      }
      return roleIndex.get(role) || [];
    };
    const within = (list, root) => (root === document ? list : list.filter((e) => root.contains(e) && e !== root));
    // Indexes built once per verification, so each locator costs its
    // matches, not the document (a form of 20,000 inputs made every role
    // or label locator walk all of them).
    const indexBy = (list, key) => {
      const m = new Map();
      for (const e of list) {
        const k = key(e);
        if (!m.has(k)) m.set(k, []);
        m.get(k).push(e);
      }
      return m;
    };
    const roleNames = new Map();
    const byRoleName = (role, name) => {
      if (name == null) return byRole(role);
      if (!roleNames.has(role)) roleNames.set(role, indexBy(byRole(role), accName));
      return roleNames.get(role).get(name) || [];
    };
    const ariaHidden = new Map();
    const hiddenAria = (e) => {
      if (!ariaHidden.has(e)) ariaHidden.set(e, hiddenForAria(e));
      return ariaHidden.get(e);
    };
    let labelIdx = null, placeholderIdx = null;
    const byLabel = (v) => {
      if (!labelIdx) labelIdx = indexBy(document.querySelectorAll('input,select,textarea,[aria-labelledby],[aria-label]'), labelOf);
      return labelIdx.get(v) || [];
    };
    const byPlaceholder = (v) => {
      if (!placeholderIdx) placeholderIdx = indexBy(document.querySelectorAll('[placeholder]'), (e) => norm(attr(e, 'placeholder')));
      return placeholderIdx.get(v) || [];
    };
    const textCache = new Map();
    const textKey = (e) => {
      if (!textCache.has(e)) {
        const raw = e.textContent || '';
        textCache.set(e, raw.length > 400 ? null : norm(raw));
      }
      return textCache.get(e);
    };
    let textIndex = null;
    const byText = (v) => {
      if (!textIndex) {
        textIndex = new Map();
        for (const e of document.body ? document.body.querySelectorAll('*') : []) {
          if (SKIP_TEXT.has(e.localName)) continue;
          const k = textKey(e);
          if (!k) continue;
          if (!textIndex.has(k)) textIndex.set(k, []);
          textIndex.get(k).push(e);
        }
      }
      return textIndex.get(v) || [];
    };
    function resolve(d, root) {
      switch (d.kind) {
        case 'testid': return [...root.querySelectorAll('[' + d.attribute + '="' + CSS.escape(d.value) + '"]')];
        case 'css-id': case 'css-path': return [...root.querySelectorAll(d.selector)];
        case 'role': return within(byRoleName(d.role, d.name), root).filter((e) => !hiddenAria(e));
        case 'placeholder': return within(byPlaceholder(d.value), root);
        case 'label': return within(byLabel(d.value), root);
        case 'text': return within(byText(d.value), root).filter((e) => ![...e.children].some((c) => textKey(c) === d.value));
        case 'scoped': {
          const out = new Set();
          for (const s of resolve(d.scope, root)) for (const e of resolve(d.target, s)) out.add(e);
          return [...out];
        }
      }
      throw new Error('unknown locator kind ' + d.kind);
    }
    const res = [];
    for (const it of items) {
      // Out of time: stop and say how far it got (the caller reports the
      // rest as unverified) rather than be cut off with nothing.
      if (performance.now() - t0 >= budgetMs) break;
      try {
        const target = fromPath(it.path);
        const m = resolve(it.desc, document);
        const f = m[0];
        res.push({
          count: m.length, targetIndex: target ? m.indexOf(target) : -1,
          first: f ? { tag: f.localName, role: roleOf(f), name: accName(f), text: norm(accText(f, isVisible(f), false)).slice(0, 200), visible: isVisible(f) } : null,
          error: '',
        });
      } catch (e) {
        res.push({ count: 0, targetIndex: -1, first: null, error: String(e && e.message || e) });
      }
    }
    return res;
  }

  if (op === 'verify') return jsonText(verify(opts));
  return jsonText(extract(opts));
}
