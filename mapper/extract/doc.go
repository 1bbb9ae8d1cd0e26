// Package extract reads what the mapper needs from one web page: every
// <form> of the main document in document order (hidden ones included),
// the form-like groups outside any <form> that page builders submit by
// script, and the page-level facts doors are inferred from — links
// (tel:, mailto:, each of those with the sentence around it and, when it
// stands among links only, the heading above), scripts and inline script
// text, iframes, JSON-LD blocks, <link rel> (ai-catalog, ard), meta tags
// and widget-looking elements.
//
// For each control it records what a browser knows: the label as the
// accessible-name rules compute it (aria-labelledby, aria-label, label[for]
// or a wrapping label, title, placeholder — then, as a last resort, the
// text just before the control), autocomplete tokens, declared validation
// attributes verbatim (and whether required or aria-required made the
// control required), options (a radio group is one Field), the default
// value, help text, WebMCP's toolparamdescription, wrapper classes, a CSS
// locator, and computed visibility with the reason and the place of the
// hiding (the control, a wrapper inside the form, or the form itself).
//
// FromPage runs one embedded script (extract.js) through a single
// Runtime.evaluate on a page the caller has opened — with
// topology.Browser.OpenPage, which accepts dialogs and blocks foreign requests.
// FromHTML fills the same types from markup alone with golang.org/x/net/html;
// it cannot see linked stylesheets or layout, so its visibility comes only
// from type=hidden, the hidden attribute, inline styles and the page's own
// <style> rules.
//
// Open shadow roots are read as parts of the page: FromPage finds each
// from its host's shadowRoot, FromHTML attaches declarative ones
// (<template shadowrootmode="open">) as a browser's parser does. Their
// labels resolve within their own tree, and Form.ShadowHost (also on
// Field and Submit) names the host whose root holds an element; its
// locator is then shadow-including (the host's selector, then its own).
// Closed shadow roots are beyond a page script and are not read.
//
// Extraction does not interpret: what a field means and what a form is for
// is package classify's job.
package extract
