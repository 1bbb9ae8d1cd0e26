// Package pagejs holds the JavaScript helpers that Frontlatch's in-page
// scripts share, so each is written once: topology's extraction, the
// mapper's extraction and its WebMCP recorder, the verifier's sandbox, and
// the executor's WebMCP hook and browser door include them rather than
// keep copies.
//
// A script names a helper with an include line, a line that holds only
//
//	//pagejs:include NAME
//
// (indentation allowed), and [Inline] replaces the line with the helper's
// source. A helper is a few declarations for the scope the line sits in,
// usually the body of the script's function, so the helper's state (an
// index built on first use) lives as long as one run of the script. The
// helpers are:
//
//   - json: jsonText(v), JSON.stringify of a script's answer that a
//     page's toJSON on Object.prototype or Array.prototype (Prototype.js
//     1.6's) does not rewrite;
//   - norm: norm(s), white space collapsed and trimmed (rule N2 of
//     normalization-v0.2);
//   - labels: labelsIn(trees), which makes labelsOf(el): a control's
//     labels in tree order, what el.labels holds, indexed in one pass over
//     the labels of the given trees (the document, and its open shadow
//     roots where the script reads them);
//   - accname: accNames(labelsOf), which makes roleOf(el) and accName(el),
//     an element's role and accessible name (with accText, name from
//     content, and idrefText): the one rule topology's extraction names
//     elements by and locate resolves a role locator by. It needs norm;
//   - modelcontext: hookRegisterTool(mark, onRegister), which sees every
//     WebMCP tool a page registers through document.modelContext or the
//     legacy navigator.modelContext;
//   - pierce: queryAllPiercing(sel) and queryPiercing(sel), which resolve
//     the mapper's shadow-including CSS locators (a host's selector, a
//     space, then the element's selector within the host's open shadow
//     root) where document.querySelectorAll finds nothing: each top-level
//     descendant combinator may also step from a host into its root, the
//     answer in composed tree order; with openTrees(root, max) (the
//     document or an element and the open shadow roots beneath it),
//     queryAllIn(trees, sel), containsPiercing(a, b) and composedBefore(a,
//     b) for what is to be found in any tree;
//   - locate: locate(loc), the elements a contract locator names over
//     the document and its open shadow roots, and doorOf(loc, names), the
//     element an action's door is run through (a visible copy first;
//     without a locator, the form holding the most of the fields): the one
//     rule the verifier's sandbox and the executor's browser door follow.
//     It needs pierce, norm, labels and accname;
//   - control: setValue(el, v), setChecked(el, on) and setSelected(el,
//     values), which set a form control as a person does, and
//     defaultButton(form), the button a person's Enter presses (the prototype's
//     setter, a click), so that a page keeping its own state of its
//     controls, as React does, sees the value: the sandbox, the executor's
//     browser door and the compiled WebMCP script fill by it;
//   - press: pressPoint(el), where a person's click presses el (null when
//     it is hidden or covered), at which topology.ClickAt clicks with the
//     mouse, and submitOf(scope, loc), what submits a door (the recorded
//     control the door holds, else a form's default button, else
//     requestSubmit): the sandbox and the executor submit a door by them.
//     It needs pierce, locate and control.
//
// The compiler, which imports shared only, carries generated copies of
// pierce, norm, labels, accname, locate and control in the WebMCP script it writes for site owners
// (compiler/internal/pagejscopy; its TestPagejsCopiesFresh fails on a
// stale copy): a change here is a change there after go generate.
//
// Each helper's file (json.js, norm.js, labels.js, accname.js, modelcontext.js,
// pierce.js, locate.js, control.js, press.js) documents what it declares and what it reads. Helpers do not
// include one another: a helper that reads another's declarations names it
// on a line of its own,
//
//	//pagejs:needs pierce norm
//
// and [Inline] fails (ErrMissingHelper) unless those are included before
// it in the same script.
//
// A module that embeds a script with include lines inlines it once, when
// its package is initialised:
//
//	//go:embed extract.js
//	var extractSource string
//
//	var extractJS = pagejs.MustInline(extractSource)
//
// What differs between the scripts on purpose (the mapper's label text and
// visibility reasons, topology's locators) stays in each script, with a
// comment saying why.
package pagejs
