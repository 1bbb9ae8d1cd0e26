package extract_test

import (
	"context"
	"fmt"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/topology"
)

func ExampleFromHTML() {
	markup := `<form id="contact" method="post" action="/send">
	  <label for="n">Your name</label><input id="n" name="name" required>
	  <div style="display:none"><input name="website"></div>
	  <button>Send</button>
	</form>`
	p, err := extract.FromHTML("https://example.com/contact", []byte(markup))
	if err != nil {
		fmt.Println(err)
		return
	}
	f := p.Forms[0]
	fmt.Println(f.Index, f.Method, f.Action, f.Locator, f.Submits[0].Text)
	for _, fl := range f.Fields {
		fmt.Printf("%s %q %s required=%v hidden=%v by %q\n", fl.Name, fl.Label, fl.LabelSource, fl.Required, fl.Visibility.Hidden, fl.Visibility.HiddenBy)
	}
	// Output:
	// 0 post https://example.com/send form#contact Send
	// name "Your name" label-for required=true hidden=false by ""
	// website ""  required=false hidden=true by "wrapper"
}

func ExampleFromPage() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	page, err := b.OpenPage(ctx, "http://127.0.0.1:8080/contact", topology.PageOptions{Offline: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Timeout(5 * time.Second).Close()
	p, err := extract.FromPage(ctx, page)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(p.Forms), "forms,", len(p.Groups), "formless groups")
}

// ScriptSubmitOf reads the code a page gives a form's submission — here a
// submit listener as FromPage reads it in a browser — and says whether a
// script sends the form instead of the browser.
func ExampleScriptSubmitOf() {
	listener := `function (ev) { ev.preventDefault(); fetch("/api/bookings", {method: "POST", body: new FormData(this)}); }`
	fmt.Println(extract.ScriptSubmitOf(extract.Handlers{Submit: []string{listener}}))
	fmt.Println(extract.ScriptSubmitOf(extract.Handlers{OnSubmit: "return validate(this)"}) == "")
	// Output:
	// a submit listener stops the browser's submission and sends the form with fetch()
	// true
}

// FromPageWith reads the page and runs the caller's own script in the same
// Evaluate: one round trip for both.
func ExampleFromPageWith() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	page, err := b.OpenPage(ctx, "http://127.0.0.1:8080/contact", topology.PageOptions{Offline: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Timeout(5 * time.Second).Close()
	p, title, err := extract.FromPageWith(ctx, page, `() => document.title`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(title, len(p.Forms), "forms")
}

// PageScript is FromPage's in-page function, for an engine that evaluates
// it itself (topology's Session.Read, ScanOptions.StateScript); Decode reads
// its answer.
func ExamplePageScript() {
	script := extract.PageScript(`() => document.title`)
	fmt.Println(len(script) > 0)
	_, _, err := extract.Decode("not an answer")
	fmt.Println(err != nil)
	// Output:
	// true
	// true
}
