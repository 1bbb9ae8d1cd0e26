(op, spec) => {
  // In-page half of a sandbox run (verifier/sandbox_browser.go). Each op is
  // one Runtime.callFunctionOn and returns JSON.stringify output. Nothing here
  // sends anything: submitting is a separate click, and every request after
  // it is intercepted at the network layer.
  "use strict";
  const MARK = "data-frontlatch-sandbox";
  // queryAllPiercing and the other selector helpers are topology's
  // (package pagejs, inlined by sandbox_browser.go), shared with the
  // executor: a form inside an open shadow root has a shadow-including
  // locator (the host's selector, then the form's within its root), which
  // document.querySelectorAll never resolves.
  //pagejs:include pierce
  //pagejs:include norm
  // locate(loc), doorOf(loc, names), isVisible(el) and locateTrees() are
  // pagejs's locate: the executor's browser door resolves the door the
  // same way, so the form the owner saw run is the form that fires.
  //pagejs:include labels
  //pagejs:include accname
  //pagejs:include locate
  // setValue, setChecked and setSelected are pagejs's control: a control
  // set as a person sets it, so that a page keeping its own state of its
  // controls (React) sees the value; the executor fills by it too.
  //pagejs:include control
  //pagejs:include press
  // The door is a form, or the container of a formless group, which may
  // be a shadow host (its controls inside its root) or hold hosts: what
  // is "in" it is what is in it in the composed tree.
  // scopeTrees: where the door's controls are: a form's own tree (a
  // control inside a nested component's root is not the form's, the
  // browser does not send it), a formless group's container with the open
  // shadow roots under it.
  const scopeTrees = (scope) => (scope.tagName === "FORM" ? [scope] : openTrees(scope));
  const byName = (scope, name) => queryAllIn(scopeTrees(scope || document), "[name]").filter((e) => e.getAttribute("name") === name);
  // A mark is set on an element that may be inside a shadow root: the
  // document first, then every open tree.
  const marked = (what) => {
    const sel = "[" + MARK + "=" + what + "]";
    return document.querySelector(sel) || queryAllIn(locateTrees(), sel)[0] || null;
  };
  const scopeEl = () => marked("door");
  const snapshot = (scope) => {
    const fields = [];
    if (scope && scope.tagName === "FORM") {
      new FormData(scope).forEach((v, k) => fields.push({ name: k, value: typeof v === "string" ? v : "file " + v.name + " (" + v.size + " bytes)" }));
    } else if (scope) {
      queryAllIn(scopeTrees(scope), "input[name],select[name],textarea[name]").forEach((e) => {
        if ((e.type === "checkbox" || e.type === "radio") && !e.checked) return;
        fields.push({ name: e.name, value: e.value });
      });
    }
    return fields;
  };

  if (op === "status") {
    const nav = performance.getEntriesByType("navigation")[0];
    return JSON.stringify({ status: (nav && nav.responseStatus) || 0, url: location.href });
  }

  if (op === "fill") {
    const out = { doorFound: false, doorCount: 0, inputs: [], submitFound: false, submitVisible: false };
    const door = doorOf(spec.door, spec.inputs.map((f) => f.name));
    out.doorCount = door.count;
    const scope = door.el;
    if (!scope) return JSON.stringify(out);
    out.doorFound = true;
    scope.setAttribute(MARK, "door");
    // The browser (or the page's own checkValidity) fires "invalid" on each
    // control it refuses; counting them lets the run end as soon as the
    // form is refused instead of waiting out WaitRequest.
    window.__frontlatchSandboxInvalid = 0;
    // ("invalid" is not composed: a formless group's shadow roots listen too.)
    for (const t of scopeTrees(scope)) t.addEventListener("invalid", () => { window.__frontlatchSandboxInvalid++; }, true);
    for (const f of spec.inputs) {
      // In the form by its locator, else in the form by its name, else by
      // its locator anywhere (a control tied to the form by form="…").
      const located = locate(f.locator);
      let els = located.filter((e) => containsPiercing(scope, e));
      if (!els.length) els = byName(scope, f.name);
      if (!els.length) els = located.filter((e) => e.form && containsPiercing(scope, e.form));
      const r = { name: f.name, found: els.length > 0, count: els.length, value: "", note: "" };
      out.inputs.push(r);
      if (!els.length) continue;
      let el = els[0];
      try {
        switch (f.kind) {
          case "text":
          case "unable":
            if (el.tagName === "SELECT" && !Array.from(el.options).some((o) => o.value === f.value)) {
              const o = Array.from(el.options).find((o) => o.value !== "" && !o.disabled);
              r.note = "the page does not offer " + JSON.stringify(f.value) + (o ? "; chose " + JSON.stringify(o.value) : "");
              if (o) setValue(el, o.value);
            } else {
              setValue(el, f.value);
            }
            break;
          case "check":
            setChecked(el, true);
            break;
          case "radio": {
            const group = byName(el.form || scope, f.name).filter((e) => e.type === "radio");
            el = group.find((e) => e.value === f.value) || group[0] || el;
            setChecked(el, true);
            break;
          }
          case "file": {
            const dt = new DataTransfer();
            dt.items.add(new File(["Frontlatch sandbox test file. Nothing was sent.\n"], f.value, { type: "text/plain" }));
            el.files = dt.files;
            el.dispatchEvent(new Event("change", { bubbles: true }));
            break;
          }
        }
      } catch (e) {
        r.note = "could not be set: " + e;
      }
      r.value = el.type === "checkbox" || el.type === "radio" ? (el.checked ? el.value : "") : el.type === "file" ? "" : String(el.value);
    }
    // What submits the door is pagejs's submitOf, the executor's rule: the
    // recorded control, else a form's default button (the one Enter
    // presses); a form with neither, or whose control is disabled, is
    // submitted with requestSubmit; a group must have its control.
    const sub = submitOf(scope, spec.submit);
    out.submitBy = sub.by;
    if (sub.control) sub.control.setAttribute(MARK, "submit");
    if (sub.el) {
      out.submitFound = true;
      const s = sub.el;
      // Clickable by the mouse when the point at its centre is the
      // control itself (not covered by a banner, say): pagejs's press,
      // by which the executor presses it too.
      const p = pressPoint(s);
      out.submitVisible = !!p;
      if (p) { out.submitX = p.x; out.submitY = p.y; }
    } else if (sub.by) {
      out.submitFound = true; // a form, submitted with requestSubmit
    }
    return JSON.stringify(out);
  }

  if (op === "click") {
    // spec.requestSubmit: the fill's submitOf found no control to press (a
    // form without one, or whose control is disabled, the mark then on its
    // submitter). Later, so that a click that navigates cannot take this
    // evaluation down with the page.
    const s = marked("submit"), scope = scopeEl();
    if (spec && spec.requestSubmit && scope) setTimeout(() => scope.requestSubmit(s && s.form === scope ? s : undefined), 0);
    else if (s) setTimeout(() => s.click(), 0);
    else return JSON.stringify({ clicked: false });
    return JSON.stringify({ clicked: true });
  }

  if (op === "refused") {
    return JSON.stringify({ invalid: window.__frontlatchSandboxInvalid || 0 });
  }

  if (op === "validity") {
    const scope = scopeEl();
    const invalid = [];
    if (scope) {
      queryAllIn(scopeTrees(scope), "input,select,textarea").forEach((e) => {
        if (e.willValidate && !e.validity.valid) invalid.push({ name: e.name || e.id || e.tagName.toLowerCase(), message: norm(e.validationMessage) });
      });
    }
    return JSON.stringify({ invalid: invalid, fields: snapshot(scope) });
  }
  return JSON.stringify({ error: "unknown op " + op });
}
