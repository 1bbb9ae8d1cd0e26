// press: where a person's click presses an element. It reads pierce's
// containsPiercing and locate's isVisible: include pierce, norm and locate
// before it.
//
// pressPoint(el): {x, y}, the centre of el's box in the viewport once el
// is scrolled into view, when the element there is el or inside it (across
// open shadow roots: the document answers with the outermost host of a
// control inside shadow roots, and each open root answers for its own
// tree); null when el is not visible, or is covered there (by a cookie
// banner, say), so that a mouse click would press something else.
// Declares: pressPoint.
//pagejs:needs pierce locate
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
