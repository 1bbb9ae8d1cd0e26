  var mc = (typeof document !== "undefined" && document.modelContext) ||
    (typeof navigator !== "undefined" && navigator.modelContext);
  if (!mc || typeof mc.registerTool !== "function") {
    return; // no WebMCP in this browser: nothing to register
  }
  var hasOwn = Object.prototype.hasOwnProperty;

  function toArray(list) { return Array.prototype.slice.call(list || []); }

  function textOf(el) { return (el.textContent || "").replace(/\s+/g, " ").trim(); }

  // Frontlatch's pierce helper (ES2015, for find), its declarations inside
  // this function:
  //pagejs:include pierce

  // find returns every element a graph locator matches on this page: in the
  // document and in its open shadow roots, where a web component keeps its
  // form (closed ones no page script reads), in composed tree order.
  function find(loc) {
    if (!loc) { return []; }
    switch (loc.strategy) {
    case "css":
      return queryAllPiercing(loc.value);
    case "xpath":
      // The document only: XPath does not enter shadow roots, and the
      // mapper gives an element inside one a CSS locator.
      var snap = document.evaluate(loc.value, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      var out = [];
      for (var i = 0; i < snap.snapshotLength; i++) { out.push(snap.snapshotItem(i)); }
      return out;
    case "testid":
      return queryAllIn(openTrees(), "[data-testid=\"" + CSS.escape(loc.value) + "\"]");
    case "label":
      // A label's control (its for= id or the control it wraps) is in the
      // label's own tree, which is how label.control binds it.
      return queryAllIn(openTrees(), "label").filter(function (l) {
        return textOf(l) === loc.value && l.control;
      }).map(function (l) { return l.control; });
    default: // role, text: an element whose own text is the locator's value
      return queryAllIn(openTrees(), "button, a, input[type=submit], [role]").filter(function (el) {
        return textOf(el) === loc.value || el.value === loc.value;
      });
    }
  }

  function visible(el) { return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length); }

  // pickForm prefers a visible match: a form repeated in a closed modal and
  // in the footer is one action, and the visible copy is the one to use.
  function pickForm(loc) {
    var all = find(loc);
    for (var i = 0; i < all.length; i++) { if (visible(all[i])) { return all[i]; } }
    return all[0] || null;
  }

  // inForm resolves a field's locator inside the chosen form, so the same
  // field of a repeated form is never filled in the wrong copy. A field is
  // the form's when the form holds it or owns it (form=), both within the
  // form's own tree (the document, or the shadow root the form is in):
  // neither crosses a shadow boundary, and a control inside a nested
  // component's shadow root is not sent with the form, so it is not taken.
  function inForm(loc, form, name) {
    var all = find(loc);
    for (var i = 0; i < all.length; i++) {
      if (form.contains(all[i]) || all[i].form === form) { return all[i]; }
    }
    if (name && form.elements) {
      var byName = form.elements.namedItem(name);
      if (byName) { return byName.length !== undefined && !byName.tagName ? byName[0] : byName; }
    }
    return null;
  }

  function fire(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function setValue(el, form, value) {
    if (el.type === "radio" || el.type === "checkbox") {
      var group = toArray(form.querySelectorAll("input[name=\"" + CSS.escape(el.name) + "\"]"));
      var wanted = Array.isArray(value) ? value.map(String) : [value];
      group.forEach(function (box) {
        box.checked = wanted.indexOf(box.value) >= 0 || (group.length === 1 && value === true);
        fire(box);
      });
      return;
    }
    if (el.type === "file") { attachFile(el, value); fire(el); return; }
    var proto = Object.getPrototypeOf(el);
    var desc = Object.getOwnPropertyDescriptor(proto, "value");
    if (desc && desc.set) { desc.set.call(el, String(value)); } else { el.value = String(value); }
    fire(el);
  }

  // attachFile sets a file input to the file of the tool's input:
  // {name, mediaType, content}, content in base64, as the inputSchema says.
  function attachFile(el, value) {
    if (!value || typeof value !== "object" || typeof value.content !== "string") {
      throw new Error("field " + el.name + " takes a file: give {name, mediaType, content} with the content in base64");
    }
    var bin;
    try { bin = atob(value.content.replace(/\s+/g, "")); } catch (e) {
      throw new Error("field " + el.name + ": the file's content is not base64");
    }
    if (typeof DataTransfer !== "function") {
      throw new Error("field " + el.name + " takes a file, which this browser cannot attach by script: ask the person to attach it");
    }
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var name = String(value.name || "").replace(/^.*[\\\/]/, "") || "upload";
    var dt = new DataTransfer();
    dt.items.add(new File([bytes], name, { type: value.mediaType ? String(value.mediaType) : "" }));
    el.files = dt.files;
  }

  function execute(tool, input) {
    return new Promise(function (resolve, reject) {
      input = input || {};
      var form = pickForm(tool.form);
      if (!form) {
        reject(new Error("the form of " + tool.name + " is not on this page (" + tool.form.value + "): the site changed, so recompile the Action Graph"));
        return;
      }
      var fillable = {};
      tool.fields.forEach(function (f) { if (f.role === "fill") { fillable[f.name] = true; } });
      for (var key in input) {
        if (hasOwn.call(input, key) && !fillable[key]) {
          reject(new Error("unknown input " + JSON.stringify(key) + ": use only the properties of the tool's inputSchema"));
          return;
        }
      }
      var filled = [];
      try {
        tool.fields.forEach(function (f) {
          var el = inForm(f.locator, form, f.name);
          if (f.role === "keep") { return; } // system token: sent back as the page has it
          if (f.role === "empty") { // honeypot: must stay empty
            if (el && el.value) { setValue(el, form, ""); }
            return;
          }
          if (!hasOwn.call(input, f.name)) { return; }
          if (!el) { throw new Error("field " + f.name + " is not in the form: the site changed, so recompile the Action Graph"); }
          setValue(el, form, input[f.name]);
          filled.push(f.name);
        });
      } catch (err) {
        reject(err);
        return;
      }
      if (typeof form.checkValidity === "function" && !form.checkValidity()) {
        var problems = toArray(form.elements).filter(function (el) {
          return el.willValidate && el.validity && !el.validity.valid;
        }).map(function (el) { return el.name + ": " + el.validationMessage; });
        reject(new Error("the form refused the input (" + problems.join("; ") + "): correct these fields and call the tool again"));
        return;
      }
      var submit = tool.submit ? inForm(tool.submit, form, "") : null;
      resolve({ submitted: true, tool: tool.name, filled: filled,
        note: "The form was submitted to the business; its own page shows the outcome." });
      // Submitting may leave the page, so it happens after the result is handed back.
      setTimeout(function () {
        if (submit) { submit.click(); } else if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      }, 0);
    });
  }

  tools.forEach(function (tool) {
    try {
      var done = mc.registerTool({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        execute: function (input) { return execute(tool, input); },
        annotations: tool.annotations
      });
      if (done && typeof done.catch === "function") { done.catch(function () {}); }
    } catch (err) {
      if (typeof console !== "undefined") { console.warn("frontlatch: could not register " + tool.name + ": " + err); }
    }
  });
