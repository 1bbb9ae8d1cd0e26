package e2e

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// shadowPage keeps its enquiry form, with its fields and labels, inside a
// web component's declarative open shadow root. A search form of the
// document repeats the shadow root's ids and a label's text: each label
// names the control of its own tree only. The submit button has a name: a
// browser sends it only when the button itself submits the form.
const shadowPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour Plumbing</title></head><body>
<h1>Harbour Plumbing</h1>
<form id="search" action="/search" method="get">
  <label for="who">Your name</label><input id="who" name="q"><button>Search</button>
</form>
<contact-form>
  <template shadowrootmode="open">
    <h2>Send us an enquiry</h2>
    <form id="enquiry" action="/enquire" method="post">
      <label for="who">Your name</label><input id="who" name="name" autocomplete="name" required>
      <label for="em">Email</label><input id="em" name="email" type="email" data-testid="enquiry-email" required>
      <label for="msg">Your message</label><textarea id="msg" name="message" required></textarea>
      <fieldset><legend>Reply by</legend>
        <label><input type="radio" name="reply-by" value="email"> Email me</label>
        <label><input type="radio" name="reply-by" value="phone"> Phone me</label></fieldset>
      <label><input type="checkbox" name="agree" required> I agree to the privacy policy</label>
      <input type="hidden" name="_token" value="tok-7">
      <button type="submit" name="via" value="enquiry-button">Send enquiry</button>
    </form>
  </template>
</contact-form>
</body></html>`

// The compiled script drives a form inside an open shadow root: the
// mapper's shadow-including CSS locators (the host's selector, then the
// form's and each field's within the host's shadow root) are resolved
// through the root, and so are label, testid, text and role locators, by
// topology/pagejs's locate, the rule the executor's browser door follows.
func TestWebMCPScriptFillsAFormInShadowDOM(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Chromium test in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	site := newFormSite(shadowPage)
	srv := httptest.NewServer(site)
	defer srv.Close()
	b := newBrowser(t, ctx)

	g, err := mapper.Map(ctx, srv.URL+"/", mapper.Options{Browser: b, Offline: true, NoExplore: true, MaxPages: 1})
	if err != nil {
		t.Fatalf("mapping the page: %v", err)
	}
	const formLoc = "contact-form form#enquiry"
	a := actionOfDoor(t, g, formLoc)

	// relocate returns a change to the graph that gives the enquiry form's
	// submit control and some fields the other strategies locate resolves
	// in the open trees. The fields are renamed (the agent's keys, not the
	// controls' names) so that inForm's fallback by name finds none of
	// them: only their locators do.
	type renamed struct {
		name string
		loc  shared.Locator
	}
	relocate := func(fields map[string]renamed, submit shared.Locator) func(*shared.ActionGraph) {
		return func(g *shared.ActionGraph) {
			a := actionOfDoor(t, g, formLoc)
			for i := range a.Inputs {
				if r, ok := fields[a.Inputs[i].Name]; ok {
					loc := r.loc
					a.Inputs[i].Name, a.Inputs[i].Locator = r.name, &loc
				}
			}
			// The rules the graph read of them (the form checks them itself)
			// name them by their old names: left out.
			kept := []shared.Validation{}
			for _, v := range a.Validations {
				if _, ok := fields[v.Target()]; !ok {
					kept = append(kept, v)
				}
			}
			a.Validations = kept
			for i := range a.Access {
				if d := &a.Access[i]; d.Locator != nil && d.Locator.Value == formLoc && d.Submission != nil {
					d.Submission.SubmitControl = &submit
				}
			}
		}
	}
	loc := func(s shared.LocatorStrategy, v string) shared.Locator {
		return shared.Locator{Strategy: s, Value: v, Stability: shared.StabilityUnknown}
	}
	// "Your name" also labels the document's search box, which is not the
	// form's.
	relocated := relocate(map[string]renamed{
		"name":  {"full-name", loc(shared.StrategyLabel, "Your name")},
		"email": {"e-mail", loc(shared.StrategyTestID, "enquiry-email")},
	}, loc(shared.StrategyText, "Send enquiry"))
	// Role locators carry the accessible name in quotes, as Playwright's
	// getByRole does: the control's role and its name must both match.
	byRole := relocate(map[string]renamed{
		"message": {"note", loc(shared.StrategyRole, `textbox "Your message"`)},
	}, loc(shared.StrategyRole, `button "Send enquiry"`))
	rest := map[string]any{"message": "Do you service Manly?", "reply-by": "phone", "agree": true}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	// Exactly the form's fields, the hidden token as the page has it, and
	// the submit button that was pressed.
	want := received{Path: "/enquire", Query: url.Values{}, Fields: url.Values{"name": {"Ana Silva"}, "email": {"ana@example.test"}, "message": {"Do you service Manly?"},
		"reply-by": {"phone"}, "agree": {"on"}, "_token": {"tok-7"}, "via": {"enquiry-button"}}}

	tests := []struct {
		name   string
		modify func(*shared.ActionGraph)
		input  map[string]any
		// replace: a first call the form refuses (its required consent
		// left out) reads the page, which then replaces the component with
		// one of its own making, as a page re-rendering it does; the call
		// that follows must fill the new component's form: the open trees
		// are read afresh on each call.
		replace bool
	}{
		{"the mapper's shadow-including css locators", func(*shared.ActionGraph) {},
			with(rest, "name", "Ana Silva", "email", "ana@example.test"), false},
		{"label, testid and text locators", relocated,
			with(rest, "full-name", "Ana Silva", "e-mail", "ana@example.test"), false},
		{"role locators with an accessible name", byRole,
			map[string]any{"name": "Ana Silva", "email": "ana@example.test", "note": "Do you service Manly?", "reply-by": "phone", "agree": true}, false},
		{"a submit locator that names nothing: the form's default button is pressed", func(g *shared.ActionGraph) {
			a := actionOfDoor(t, g, formLoc)
			for i := range a.Access {
				if sub := a.Access[i].Submission; sub != nil {
					sub.SubmitControl = &shared.Locator{Strategy: shared.StrategyCSS, Value: formLoc + " button.renamed", Stability: shared.StabilityUnknown}
				}
			}
		}, with(rest, "name", "Ana Silva", "email", "ana@example.test"), false},
		{"a component the page re-renders after a call", relocated,
			with(rest, "full-name", "Ana Silva", "e-mail", "ana@example.test"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := cloneGraph(t, g)
			tt.modify(g)
			// A mapped graph is unverified: the owner's script carries it when asked.
			opts := compiler.Options{IncludeUnverified: true}
			script := compiled(t, g, compiler.FormatWebMCP, opts)
			tool, ok := toolsByForm(t, g, opts)[formLoc]
			if !ok {
				t.Fatalf("no tool for the door %s; the action's inputs: %v", formLoc, inputLocators(a))
			}
			page := openWithScript(t, ctx, b, srv.URL+"/", script)
			if tt.replace {
				refused := with(tt.input)
				delete(refused, "agree")
				if msg := executeTool(t, page, tool, refused); !strings.Contains(msg, "the form refused the input") {
					t.Fatalf("execute without the required consent = %q, want the form's refusal", msg)
				}
				page.MustEval(`() => {
				  const old = document.querySelector("contact-form");
				  const host = document.createElement("contact-form");
				  host.attachShadow({ mode: "open" }).innerHTML = old.shadowRoot.innerHTML;
				  old.replaceWith(host);
				}`)
			}
			if msg := executeTool(t, page, tool, tt.input); msg != "" {
				t.Fatalf("execute failed: %s", msg)
			}
			got := site.await(t)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("submission (-want +got):\n%s\nthe action's inputs: %v", diff, inputLocators(a))
			}
		})
	}
}

// actionOfDoor is the action with an html-form door at the locator loc.
func actionOfDoor(t *testing.T, g *shared.ActionGraph, loc string) *shared.Action {
	t.Helper()
	for i := range g.Actions {
		for _, d := range g.Actions[i].Access {
			if d.Method == shared.AccessHTMLForm && d.Locator != nil && d.Locator.Value == loc {
				return &g.Actions[i]
			}
		}
	}
	var doors []string
	for _, a := range g.Actions {
		for _, d := range a.Access {
			if d.Locator != nil {
				doors = append(doors, string(a.Kind)+" "+string(d.Method)+" "+d.Locator.Value)
			}
		}
	}
	t.Fatalf("no html-form door at %s; the graph's doors: %v", loc, doors)
	return nil
}

// inputLocators names each input's locator, for a failure message.
func inputLocators(a *shared.Action) map[string]string {
	m := map[string]string{}
	for _, in := range a.Inputs {
		if in.Locator != nil {
			m[in.Name] = string(in.Locator.Strategy) + "=" + in.Locator.Value
		}
	}
	return m
}

// cloneGraph is a deep copy of g, through its JSON document.
func cloneGraph(t *testing.T, g *shared.ActionGraph) *shared.ActionGraph {
	t.Helper()
	data, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return readGraph(t, data)
}
