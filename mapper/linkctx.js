// linkctx.js — what a person reads around each tel: and mailto: link of the
// page, in document order: the text of the link's nearest block and, when
// that block holds nothing but links, the nearest heading before it. One
// Runtime.evaluate; returns JSON.
() => {
  const MAX = 300, LIMIT = 300;
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim().slice(0, MAX);
  const isBlock = (n) => {
    try { const d = getComputedStyle(n).display; return d !== "inline" && d !== "contents" && d !== "inline-block"; } catch (e) { return true; }
  };
  const blockOf = (a) => {
    for (let n = a.parentElement; n; n = n.parentElement) if (isBlock(n)) return n;
    return document.body;
  };
  const headings = [...document.querySelectorAll("h1,h2,h3,h4,h5,h6")];
  const headingBefore = (el) => {
    let last = null;
    for (const h of headings) {
      if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) last = h; else break;
    }
    return last ? norm(last.textContent) : "";
  };
  // sentenceAround keeps the sentence of text that holds the link's words:
  // "…our service area. For a burst pipe, call (07) 3391 5820 now." says
  // nothing about quotes. A sentence ends at . ! or ? followed by a space.
  const sentenceAround = (text, linkText) => {
    const at = linkText ? text.indexOf(linkText) : -1;
    if (at < 0) return text;
    let start = 0;
    for (let i = at - 1; i > 0; i--) if (/[.!?]/.test(text[i - 1]) && text[i] === " ") { start = i; break; }
    let end = text.length;
    for (let i = at + linkText.length; i < text.length; i++) if (/[.!?]/.test(text[i]) && (i + 1 === text.length || text[i + 1] === " ")) { end = i + 1; break; }
    return text.slice(start, end).trim();
  };
  const out = [];
  for (const a of document.querySelectorAll("a[href]")) {
    if (out.length >= LIMIT) break;
    if (!/^\s*(tel|mailto):/i.test(a.getAttribute("href"))) continue;
    const block = blockOf(a);
    const text = norm(block.innerText || block.textContent);
    let rest = text;
    for (const l of block.querySelectorAll("a")) rest = rest.split(norm(l.innerText || l.textContent)).join(" ");
    out.push({ href: a.href, context: sentenceAround(text, norm(a.innerText || a.textContent)), heading: rest.replace(/[\s:|·•,.-]+/g, "") === "" ? headingBefore(a) : "" });
  }
  return JSON.stringify(out);
}
