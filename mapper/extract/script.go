package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// PageScript returns the in-page function FromPage evaluates, a JavaScript
// function of no arguments returning a string: it extracts the page, reads
// the source of its forms' submit listeners and of their submit buttons'
// click listeners (jQuery's handlers among them, bound on the element or
// delegated from an ancestor whose selector the element matches), and the
// submit and click listeners of the window, the document and the body
// whose code names the form or one of its submit buttons (a selector it
// matches, its id, name or a class), and, when also is not empty (the
// source of a function of no arguments returning a string), runs it last
// and keeps its answer. All of it is one Evaluate. The listeners are
// read with getEventListeners, DevTools' Command Line API: evaluated
// without it (Runtime.evaluate's includeCommandLineAPI), forms keep what
// their onsubmit attribute says. Decode reads the answer.
//
// An embedder that evaluates pages through its own engine (topology's
// Session.Read and ScanOptions.StateScript) runs PageScript there, so each state
// costs one Evaluate however many readers it has.
func PageScript(also string) string {
	cfg, err := json.Marshal(jsConfig)
	if err != nil {
		panic(err) // a struct of strings always marshals
	}
	if strings.TrimSpace(also) == "" {
		also = `() => ""`
	}
	return `() => {
` + pageJSONText + `
  const read = {};
  const page = (` + extractJS + `)(` + string(cfg) + `, read);
  let listeners = null;
  if (typeof getEventListeners === "function") {
    try {
      // jQuery binds one dispatcher per element and event, which is what
      // getEventListeners shows (its source says nothing of the page's
      // code), and keeps the handlers in its own registry: read them
      // there, each bound on el itself or delegated from an ancestor with
      // a selector that el, or an element between el and that ancestor,
      // matches (as jQuery dispatches a delegated handler).
      const jq = (() => { try { const j = window.jQuery; return j && typeof j._data === "function" ? j : null; } catch (e) { return null; } })();
      const delegatedTo = (el, sel, top) => { try { const m = el.closest(sel); return !!m && m !== top && top.contains(m); } catch (e) { return false; } };
      const jqOf = (el, type) => {
        const out = [];
        if (!jq) return out;
        for (let a = el; a; a = a.parentNode) {
          let evs = null;
          try { evs = jq._data(a, "events"); } catch (e) { evs = null; }
          for (const h of (evs && evs[type]) || []) {
            if (a === el ? !h.selector : (!!h.selector && delegatedTo(el, h.selector, a))) out.push(h.handler);
          }
        }
        return out;
      };
      const source = (fn) => String(fn).slice(0, ` + strconv.Itoa(maxListenerSource) + `);
      const of = (el, type) => ((getEventListeners(el) || {})[type] || []).map((l) => l.listener).concat(jqOf(el, type)).map(source);
      // A submit or click listener of the window, the document or the body
      // hears every form's submission, every button's click: it is a
      // form's (a submit button's) when one of the strings in its code
      // names it — a selector it matches (or, for a class, id or attribute
      // selector, sits within), its id, its name or one of its classes — as
      // delegation is written (e.target.closest(".ajax-form"),
      // e.target.id === "quote"). A bare tag names a form ("form"), not a
      // button: a page's listener for every "button" is a page's.
      const pageWide = (type) => [window, document, document.body].filter(Boolean)
        .flatMap((t) => ((getEventListeners(t) || {})[type] || []).map((l) => source(l.listener)))
        .map((code) => {
          const strings = [];
          const re = /(["'\x60])((?:\\.|(?!\1)[^\\\n]){1,200})\1/g;
          for (let m; (m = re.exec(code)) && strings.length < 100;) strings.push(m[2]);
          return { code, strings };
        });
      const pageSubmits = pageWide("submit"), pageClicks = pageWide("click");
      const names = (el, s, bareTag) => {
        if (!s) return false;
        if (s === el.id || s === el.getAttribute("name") || (!/\s/.test(s) && el.classList.contains(s))) return true;
        const specific = /[.#[]/.test(s);
        try { return ((bareTag || specific) && el.matches(s)) || (specific && !!el.closest(s)); } catch (e) { return false; }
      };
      const naming = (ls, el, bareTag) => ls.filter((l) => l.strings.some((s) => names(el, s, bareTag))).map((l) => l.code);
      listeners = Array.prototype.slice.call(read.forms || document.forms, 0, ` + strconv.Itoa(MaxListenerForms) + `).map((f) => {
        try {
          const buttons = Array.prototype.filter.call(f.querySelectorAll("button, input"), (e) => e.type === "submit" || e.type === "image")
            .slice(0, ` + strconv.Itoa(maxListenerButtons) + `);
          return { submit: of(f, "submit"), click: [].concat(...buttons.map((b) => of(b, "click"))),
            delegated: naming(pageSubmits, f, true).concat(...buttons.map((b) => naming(pageClicks, b, false))) };
        }
        catch (e) { return { submit: [], click: [], delegated: [] }; }
      });
    } catch (e) { listeners = null; }
  }
  let also = "", alsoErr = "";
  try { also = String((` + also + `)()); } catch (e) { alsoErr = String(e && e.message || e).slice(0, 300); }
  return '{"page":' + page + ',"listeners":' + jsonText(listeners) + ',"also":' + jsonText(also) + ',"alsoErr":' + jsonText(alsoErr) + '}';
}`
}

// pageJSONText is topology's jsonText (package pagejs), which PageScript
// writes its answer with: a page's Array.prototype.toJSON (Prototype.js
// 1.6's) would write the listeners as a string of JSON.
var pageJSONText = pagejs.MustInline("//pagejs:include json")

// ErrAlso reports that the function given to PageScript threw; the page itself
// was extracted.
var ErrAlso = errors.New("extract: the script run with the extraction threw")

// Decode reads what PageScript's function answered: the page (normalized, each
// form's ScriptSubmit set from its onsubmit attribute and submit
// listeners) and the answer of PageScript's also function. A decodable page
// whose also function threw comes back with an error wrapping ErrAlso.
func Decode(raw string) (*Page, string, error) {
	var out struct {
		Page      json.RawMessage `json:"page"`
		Listeners []struct {
			Submit    []string `json:"submit"`
			Click     []string `json:"click"`
			Delegated []string `json:"delegated"`
		} `json:"listeners"`
		Also    string `json:"also"`
		AlsoErr string `json:"alsoErr"`
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, "", &Error{Op: "decode", Err: err}
	}
	var p Page
	if err := json.Unmarshal(out.Page, &p); err != nil {
		return nil, "", &Error{URL: p.URL, Op: "decode", Err: err}
	}
	p.normalize()
	// Listeners pair with forms only when they were read for the same
	// forms; otherwise the onsubmit attribute alone speaks.
	paired := out.Listeners != nil && len(out.Listeners) == min(len(p.Forms), MaxListenerForms)
	for i := range p.Forms {
		h := Handlers{OnSubmit: p.Forms[i].OnSubmit}
		if paired && i < len(out.Listeners) {
			h.Submit, h.Click, h.Delegated = out.Listeners[i].Submit, out.Listeners[i].Click, out.Listeners[i].Delegated
		}
		p.Forms[i].ScriptSubmit = ScriptSubmitOf(h)
	}
	if out.AlsoErr != "" {
		return &p, "", fmt.Errorf("%w: %s", ErrAlso, out.AlsoErr)
	}
	return &p, out.Also, nil
}

// FromPageWith is FromPage that also runs also (the source of a function of
// no arguments returning a string) in the same Evaluate and returns its
// answer; see PageScript.
func FromPageWith(ctx context.Context, page *rod.Page, also string) (*Page, string, error) {
	if page == nil {
		return nil, "", ErrNilPage
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultEvalTimeout)
		defer cancel()
	}
	res, err := proto.RuntimeEvaluate{
		Expression:            "(" + PageScript(also) + ")()",
		IncludeCommandLineAPI: true,
		ReturnByValue:         true,
		AwaitPromise:          true,
	}.Call(page.Context(ctx))
	if err == nil && res.ExceptionDetails != nil {
		err = errors.New(exceptionText(res.ExceptionDetails))
	}
	if err != nil {
		return nil, "", &Error{URL: pageURL(page), Op: "evaluate", Err: err}
	}
	if res.Result == nil {
		return nil, "", &Error{URL: pageURL(page), Op: "evaluate", Err: errors.New("no result")}
	}
	p, also2, err := Decode(res.Result.Value.Str())
	var e *Error
	if errors.As(err, &e) && e.URL == "" {
		e.URL = pageURL(page)
	}
	return p, also2, err
}

func exceptionText(d *proto.RuntimeExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return d.Text
}
