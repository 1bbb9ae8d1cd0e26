// accNames(labelsOf): the role and the accessible name of an element, the
// one rule by which topology's extract.js names the elements of a Topology
// Graph and locate resolves a contract's role locators, so that a
// `role "name"` the mapper, an owner or another tool wrote finds in the
// sandbox, the executor and the compiled WebMCP script the element
// topology named so. labelsOf is labelsIn's answer for the trees the
// script reads (the document, or the document and its open shadow roots).
// It answers:
//   - roleOf(el): the first token of el's role attribute, else its
//     implicit role (HTML-AAM, the subset Frontlatch reads: a form or a
//     section is a landmark only when named, a header or footer only
//     outside sectioning content);
//   - accName(el): the accessible name, in the order of the accname steps
//     (aria-labelledby, aria-label, a button input's value or its default,
//     an image input's alt, a control's labels, an image's alt, the content
//     of a role named by its content, title, placeholder); a control's
//     value is what it holds, not its name. Memoised per accNames made: a
//     script that changes names makes a new one;
//   - accText(node, rootVisible, forLabel): name from content (accname
//     2.F, simplified): text, an image's alt and a descendant's aria-label,
//     inline elements joined without a space, hidden descendants of a
//     visible root skipped, a label's own controls skipped (forLabel);
//   - idrefText(el, ids): the names of the elements an idref list names in
//     el's own tree (aria-labelledby binds within a tree, as the browser
//     does);
//   - hiddenForAria(el): el is not rendered or sits in aria-hidden;
//   - SKIP_TEXT: the elements whose text is no one's name.
// The mapper's nameText answers a different question (the words a person
// sees beside a field) and stays in the mapper. Declares: accNames.
//pagejs:needs norm
const accNames = (labelsOf) => {
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox',
    'radio', 'switch', 'option', 'treeitem', 'heading', 'cell', 'columnheader', 'rowheader', 'row', 'tooltip']);
  const INLINE = new Set(['b', 'i', 'em', 'strong', 'span', 'small', 'abbr', 'code', 'sup', 'sub', 'mark', 'u', 's',
    'a', 'label', 'q', 'cite', 'kbd', 'var', 'bdi', 'bdo', 'data', 'time', 'font']);
  const SKIP_TEXT = new Set(['script', 'style', 'template', 'noscript']);
  const attr = (el, n) => el.getAttribute(n);
  const inSectioning = (el) => !!(el.parentElement && el.parentElement.closest('article,aside,main,nav,section'));

  const roleOf = (el) => {
    const r = norm(attr(el, 'role')).split(' ')[0];
    if (r) return r;
    switch (el.localName) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : 'generic';
      case 'button': return 'button';
      case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'dialog': return 'dialog';
      case 'form': return (attr(el, 'aria-label') || attr(el, 'aria-labelledby') || attr(el, 'title')) ? 'form' : 'generic';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'aside': return 'complementary';
      case 'header': return inSectioning(el) ? 'generic' : 'banner';
      case 'footer': return inSectioning(el) ? 'generic' : 'contentinfo';
      case 'section': return (attr(el, 'aria-label') || attr(el, 'aria-labelledby')) ? 'region' : 'generic';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'tr': return 'row';
      case 'table': return 'table';
      case 'td': return 'cell';
      case 'th': return 'columnheader';
      case 'option': return 'option';
      case 'img': return attr(el, 'alt') === '' ? 'presentation' : 'img';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'fieldset': return 'group';
      case 'article': return 'article';
      case 'input': {
        switch ((attr(el, 'type') || 'text').toLowerCase()) {
          case 'button': case 'submit': case 'reset': case 'image': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'number': return 'spinbutton';
          case 'hidden': return 'none';
          case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
          case 'file': case 'color': return '';
          default: return el.hasAttribute('list') ? 'combobox' : 'textbox';
        }
      }
    }
    if (el.isContentEditable && el.hasAttribute('contenteditable')) return 'textbox';
    return '';
  };

  const hiddenForName = (c) => attr(c, 'aria-hidden') === 'true' || c.hidden || !c.checkVisibility({ visibilityProperty: true });
  const hiddenForAria = (el) => !el.checkVisibility({ visibilityProperty: true }) || !!el.closest('[aria-hidden="true"]');

  const accText = (node, rootVisible, forLabel) => {
    let out = '';
    for (const c of node.childNodes) {
      if (c.nodeType === 3) { out += c.data; continue; }
      if (c.nodeType !== 1) continue;
      const t = c.localName;
      if (SKIP_TEXT.has(t)) continue;
      if (rootVisible && hiddenForName(c)) continue;
      if (forLabel && (t === 'input' || t === 'select' || t === 'textarea')) continue;
      const sep = INLINE.has(t) ? '' : ' ';
      const al = norm(attr(c, 'aria-label'));
      if (al) { out += sep + al + sep; continue; }
      if (t === 'img') { out += sep + (attr(c, 'alt') || '') + sep; continue; }
      if (t === 'input' && /^(button|submit|reset)$/i.test(attr(c, 'type') || '')) { out += sep + (c.value || '') + sep; continue; }
      out += sep + accText(c, rootVisible, forLabel) + sep;
    }
    return out;
  };

  const idrefText = (el, ids) => {
    const root = el.getRootNode();
    return norm(ids.split(/\s+/).map((id) => {
      const r = id && root.getElementById ? root.getElementById(id) : null;
      return r ? (norm(attr(r, 'aria-label')) || accText(r, false, true)) : '';
    }).join(' '));
  };

  const nameCache = new Map();
  const accName = (el) => {
    if (nameCache.has(el)) return nameCache.get(el);
    const t = el.localName;
    const ty = (attr(el, 'type') || '').toLowerCase();
    let n = '';
    const lb = attr(el, 'aria-labelledby');
    if (lb) n = idrefText(el, lb);
    if (!n) n = norm(attr(el, 'aria-label'));
    if (!n && t === 'input' && (ty === 'button' || ty === 'submit' || ty === 'reset')) {
      n = norm(el.value) || (ty === 'submit' ? 'Submit' : ty === 'reset' ? 'Reset' : '');
    }
    if (!n && t === 'input' && ty === 'image') n = norm(attr(el, 'alt')) || 'Submit';
    if (!n && (t === 'input' || t === 'select' || t === 'textarea') && labelsOf(el).length) {
      n = norm(labelsOf(el).map((l) => accText(l, true, true)).join(' '));
    }
    if (!n && (t === 'img' || t === 'area')) n = norm(attr(el, 'alt'));
    if (!n && (NAME_FROM_CONTENT.has(roleOf(el)) || t === 'summary')) n = norm(accText(el, !hiddenForAria(el), false));
    if (!n) n = norm(attr(el, 'title'));
    if (!n && (t === 'input' || t === 'textarea')) n = norm(attr(el, 'placeholder'));
    nameCache.set(el, n);
    return n;
  };

  return { roleOf, accName, accText, idrefText, hiddenForAria, SKIP_TEXT };
};
