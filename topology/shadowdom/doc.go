// Package shadowdom holds the HTML parser's rule for declarative shadow
// roots, so that every Go reader of a page's HTML agrees with the browser
// — and with each other — on which <template> elements are shadow roots:
// the mapper's static extraction (extract.FromHTML) reads the open ones as
// their hosts' shadow trees, the executor's live-page token read reads
// open and closed ones alike (a closed root's form is as real to the page
// as an open one's), and both leave every other template's content inert.
//
// The rule, as Chromium's parser applies it (HTML's "in body" insertion
// mode for a template start tag): a <template> whose shadowrootmode is
// "open" or "closed" (ASCII case-insensitive, no white space allowed)
// becomes the shadow root of its parent when the parent is an HTML
// element that may host one — a custom element (a valid custom element
// name) or article, aside, blockquote, body, div, footer, h1–h6, header,
// main, nav, p, section or span — and has no shadow root yet. Any other
// template, the second of a host among them, stays an inert template.
package shadowdom
