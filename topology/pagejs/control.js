// control: a form control set as a person sets it, so that the page's own
// state follows. React and the libraries like it keep, on the element, the
// value (or checkedness) they last saw, and ignore an input, change or
// click event that finds it unchanged: a value assigned through the
// element's own property (el.value = v, el.checked = true) is one they
// record as seen, so the page's state keeps the old value and the page
// sends that. A person's typing, choosing and clicking are not.
//
// setValue(el, v): v as el's value, through its prototype's setter, then
// input, change and blur, as typing and leaving the field do.
// setChecked(el, on): a checkbox or radio button checked (on) or not, by a
// click when it is not as wanted — the page's click handlers run, as a
// person's click does; a radio button is never unchecked, choosing another
// does that — and, when a handler kept the click from taking, checked set
// through the prototype and change dispatched.
// setSelected(el, values): the options of a select whose values are
// listed selected and the others not, then input and change.
// defaultButton(form): the form's default button, the control a person's
// Enter presses: its first submit button (a <button> without a type is
// one) or image button among its elements, or null.
// Declares: setValue, setChecked, setSelected, defaultButton.
const { setValue, setChecked, setSelected, defaultButton } = (() => {
  const protoSet = (el, prop, v) => {
    for (let p = Object.getPrototypeOf(el); p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, prop);
      if (d && d.set) { d.set.call(el, v); return; }
    }
    el[prop] = v;
  };
  const changed = (el) => {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const setValue = (el, v) => {
    protoSet(el, "value", v);
    changed(el);
    el.dispatchEvent(new FocusEvent("blur"));
  };
  const setChecked = (el, on) => {
    if (el.checked === on || (el.type === "radio" && !on)) return;
    el.click();
    if (el.checked !== on) {
      protoSet(el, "checked", on);
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  };
  const setSelected = (el, values) => {
    for (const o of el.options) protoSet(o, "selected", values.includes(o.value));
    changed(el);
  };
  // The form's buttons in tree order, those tied to it by form= too (its
  // elements leave image buttons out).
  const defaultButton = (form) => Array.from(form.getRootNode().querySelectorAll("button, input")).find((e) =>
    e.form === form && (e.type === "submit" || e.type === "image")) || null;
  return { setValue, setChecked, setSelected, defaultButton };
})();
