  var mc = (typeof document !== "undefined" && document.modelContext) ||
    (typeof navigator !== "undefined" && navigator.modelContext);
  if (!mc || typeof mc.registerTool !== "function") {
    return; // no WebMCP in this browser: nothing to register
  }
  var hasOwn = Object.prototype.hasOwnProperty;

  function toArray(list) { return Array.prototype.slice.call(list || []); }

  // pageHelpers returns Frontlatch's page helpers (ES2015), made afresh for
  // each call: pierce (open shadow roots), norm (white space), labels and
  // accname (a control's labels, an element's role and accessible name, as
  // topology names it), locate (the graph's locators, and the door an
  // action runs through, as the verifier's sandbox and the executor find
  // them) and control (a control set as a person sets it, as they fill).
  // locate keeps the open shadow roots it has walked for its run, and a
  // page adds and removes components between one call and the next.
  function pageHelpers() {
    //pagejs:include pierce
    //pagejs:include norm
    //pagejs:include labels
    //pagejs:include accname
    //pagejs:include locate
    //pagejs:include control
    return { locate: locate, doorOf: doorOf, setValue: setValue, setChecked: setChecked, setSelected: setSelected, defaultButton: defaultButton };
  }

  // inForm resolves a field's locator inside the chosen form, so the same
  // field of a repeated form is never filled in the wrong copy. A field is
  // the form's when the form holds it or owns it (form=), both within the
  // form's own tree (the document, or the shadow root the form is in):
  // neither crosses a shadow boundary, and a control inside a nested
  // component's shadow root is not sent with the form, so it is not taken.
  function inForm(page, loc, form, name) {
    var all = page.locate(loc);
    for (var i = 0; i < all.length; i++) {
      if (form.contains(all[i]) || all[i].form === form) { return all[i]; }
    }
    if (name && form.elements) {
      var byName = form.elements.namedItem(name);
      if (byName) { return byName.length !== undefined && !byName.tagName ? byName[0] : byName; }
    }
    return null;
  }

  // fill sets a control to the tool's value as a person would (pagejs's
  // control: the prototype's setter, a click), so that a page keeping its
  // own state of its controls, as React does, sends what was filled.
  function fill(page, el, form, value) {
    if (el.type === "radio" || el.type === "checkbox") {
      var group = toArray(form.querySelectorAll("input[name=\"" + CSS.escape(el.name) + "\"]"));
      var wanted = Array.isArray(value) ? value.map(String) : [value];
      group.forEach(function (box) {
        page.setChecked(box, wanted.indexOf(box.value) >= 0 || (group.length === 1 && value === true));
      });
      return;
    }
    if (el.type === "file") {
      attachFile(el, value);
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    if (el.tagName === "SELECT" && el.multiple) {
      page.setSelected(el, (Array.isArray(value) ? value : [value]).map(String));
      return;
    }
    page.setValue(el, String(value));
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
      // The door: the visible form the locator names, else the first;
      // without a locator, the form holding the most of the tool's fields.
      var page = pageHelpers();
      var form = page.doorOf(tool.form, tool.fields.map(function (f) { return f.name; })).el;
      if (!form) {
        reject(new Error("the form of " + tool.name + " is not on this page (" + (tool.form ? tool.form.value : "no locator") + "): the site changed, so recompile the Action Graph"));
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
          var el = inForm(page, f.locator, form, f.name);
          if (f.role === "keep") { return; } // system token: sent back as the page has it
          if (f.role === "empty") { // honeypot: must stay empty
            if (el && el.value) { fill(page, el, form, ""); }
            return;
          }
          if (!hasOwn.call(input, f.name)) { return; }
          if (!el) { throw new Error("field " + f.name + " is not in the form: the site changed, so recompile the Action Graph"); }
          fill(page, el, form, input[f.name]);
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
      // Pressed as a person presses it (its click handlers run, and a named
      // button is sent): the control the graph names, else (it names none
      // in the form) the form's default button, as the executor presses; a
      // form with neither, or whose control stays disabled, is submitted.
      var submit = (tool.submit && inForm(page, tool.submit, form, "")) || page.defaultButton(form);
      resolve({ submitted: true, tool: tool.name, filled: filled,
        note: "The form was submitted to the business; its own page shows the outcome." });
      // Submitting may leave the page, so it happens after the result is handed back.
      setTimeout(function () {
        if (submit && !submit.disabled) { submit.click(); } else if (form.requestSubmit) {
          form.requestSubmit(submit && submit.form === form ? submit : undefined);
        } else { form.submit(); }
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
