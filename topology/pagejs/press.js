// press: where a person's click presses an element, and what a door is
// submitted by. It reads pierce's containsPiercing, locate's locate and
// isVisible and control's defaultButton: include pierce, norm, labels,
// accname, locate and control before it.
//
// pressPoint(el): {x, y}, the centre of el's box in the viewport once el
// is scrolled into view, when the element there is el or inside it (across
// open shadow roots: the document answers with the outermost host of a
// control inside shadow roots, and each open root answers for its own
// tree); null when el is not visible, or is covered there (by a cookie
// banner, say), so that a mouse click would press something else.
// submitOf(scope, loc): what submits a door (a form, or the container of
// a formless group), the one rule the verifier's sandbox and the
// executor's browser door follow: {el, by, control}. el is the control to
// press: the first visible element the submit locator loc names that the
// scope holds or (a form) owns by form=, else the first (by ""); else a
// form's default button (by "default"). A form with neither (by "none"),
// or whose control is disabled (by "disabled", control the disabled one),
// has el null: it is submitted with requestSubmit. A group without its
// control has el null and by "".
// Declares: pressPoint, submitOf.
//pagejs:needs pierce locate control
const pressPoint = (el) => {
  if (!isVisible(el)) return null;
  el.scrollIntoView({ block: "center" });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit !== el && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit && containsPiercing(el, hit) ? { x: x, y: y } : null;
};
const submitOf = (scope, loc) => {
  const isForm = scope.tagName === "FORM";
  let el = null, by = "";
  if (loc) {
    const subs = locate(loc).filter((e) => e.form === scope || containsPiercing(scope, e));
    el = subs.find(isVisible) || subs[0] || null;
  }
  if (!el && isForm) {
    el = defaultButton(scope);
    by = el ? "default" : "none";
  }
  if (el && isForm && el.disabled) return { el: null, by: "disabled", control: el };
  return { el: el, by: by, control: el };
};
