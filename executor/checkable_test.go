package executor_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
)

// TestCheckableHoneypotNotSent: a honeypot is sent as a browser sends it
// untouched — a text field empty, a checkbox or radio honeypot not at all
// (a plugin testing isset($_POST[name]) flags a form that sends the name)
// — over every HTTP transport. Before, a checkbox honeypot went out as
// "name=".
func TestCheckableHoneypotNotSent(t *testing.T) {
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
	graph := func(t *testing.T, transport shared.Transport, enctype string) []byte {
		return editCallback(t, site.URL, transport, enctype, func(a *shared.Action) {
			a.Inputs = append(a.Inputs,
				shared.Input{Name: "hp_box", Semantic: shared.SemanticHoneypot, Type: "checkbox"},
				shared.Input{Name: "hp_radio", Semantic: shared.SemanticHoneypot, Type: "Radio"})
		})
	}
	for _, tr := range []struct {
		name      string
		transport shared.Transport
		enctype   string
	}{
		{"form post", shared.TransportFormPost, "application/x-www-form-urlencoded"},
		{"multipart", shared.TransportFormPost, "multipart/form-data"},
		{"get", shared.TransportFormGet, ""},
		{"json endpoint", shared.TransportJSONEndpoint, "application/json"},
	} {
		t.Run(tr.name, func(t *testing.T) {
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, graph(t, tr.transport, tr.enctype), callback)
			before := site.count()
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			if n := site.count() - before; n != 1 {
				t.Fatalf("%d requests reached the site, want 1", n)
			}
			got := site.lastReceived(tr.transport)
			if diff := cmp.Diff(goodCallbackSent(), got); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			assertSent(t, goodCallbackSent(), res)
		})
	}
}

// TestCheckableTokenAsThePageHasIt: a checkbox or radio group the agent
// does not fill is sent as the live page has it, as a browser sends it:
// a box only when the page checks it, with its value; a radio group's
// checked button's value, and nothing when none is checked. Before, an
// unchecked box the page carries went out with its value, and a radio
// group with its first button's.
func TestCheckableTokenAsThePageHasIt(t *testing.T) {
	const page = `<!doctype html><form method="post">
<input type="checkbox" name="tok_off" value="yes">
<input type="checkbox" name="tok_on" value="1" checked>
<input type="checkbox" name="tok_bare" checked>
<input type="radio" name="tok_radio" value="a"><input type="radio" name="tok_radio" value="b" checked>
<input type="radio" name="tok_none" value="x"><input type="radio" name="tok_none" value="y">
<input type="hidden" name="tok_hidden" value="h-1">
</form>`
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet {
			_, _ = io.WriteString(w, page)
			return
		}
		r.record(req)
	})
	for _, enctype := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		t.Run(enctype, func(t *testing.T) {
			g := editCallback(t, site.URL, shared.TransportFormPost, enctype, func(a *shared.Action) {
				for _, n := range []struct{ name, typ string }{
					{"tok_off", "checkbox"}, {"tok_on", "checkbox"}, {"tok_bare", "checkbox"},
					{"tok_radio", "radio"}, {"tok_none", "radio"}, {"tok_hidden", "hidden"},
				} {
					a.Inputs = append(a.Inputs, shared.Input{Name: n.name, Semantic: shared.SemanticSystemToken, Type: n.typ})
				}
			})
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, g, callback)
			before := site.count()
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
			if err != nil {
				t.Fatal(err)
			}
			if n := site.count() - before; n != 1 {
				t.Fatalf("%d submissions reached the site, want 1", n)
			}
			want := goodCallbackSent()
			want["tok_on"], want["tok_bare"], want["tok_radio"], want["tok_hidden"] = []string{"1"}, []string{"on"}, []string{"b"}, []string{"h-1"}
			site.mu.Lock()
			got := site.forms[len(site.forms)-1]
			site.mu.Unlock()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			assertSent(t, want, res)
		})
	}
}

// TestTokenWithItsCookie: a token the live page binds to a cookie it sets
// (Django's csrfmiddlewaretoken and csrftoken, Laravel's _token and its
// session) goes back with that cookie, as a browser sends it, and with no
// other call's. Before, the submission carried no cookie: the site
// refused the fresh token (403).
func TestTokenWithItsCookie(t *testing.T) {
	var served int
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet {
			r.mu.Lock()
			served++
			tok := fmt.Sprintf("tok-%d", served)
			r.mu.Unlock()
			http.SetCookie(w, &http.Cookie{Name: "csrftoken", Value: tok, Path: "/", HttpOnly: true})
			fmt.Fprintf(w, `<!doctype html><form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="%s"></form>`, tok)
			return
		}
		r.record(req)
		if c, err := req.Cookie("csrftoken"); err != nil || c.Value != req.Form.Get("csrfmiddlewaretoken") {
			http.Error(w, "CSRF verification failed.", http.StatusForbidden)
		}
	})
	g := editCallback(t, site.URL, shared.TransportFormPost, "application/x-www-form-urlencoded", func(a *shared.Action) {
		a.Inputs = append(a.Inputs, shared.Input{Name: "csrfmiddlewaretoken", Semantic: shared.SemanticSystemToken, Type: "hidden"})
	})
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, g, callback)
	for call := 1; call <= 2; call++ {
		res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != http.StatusOK {
			t.Errorf("call %d: the site answered %d %q, want 200", call, res.Status, res.Response)
		}
		site.mu.Lock()
		post := site.posts[len(site.posts)-1]
		site.mu.Unlock()
		want := fmt.Sprintf("csrftoken=tok-%d", call)
		if got := post.Header.Values("Cookie"); !cmp.Equal([]string{want}, got) {
			t.Errorf("call %d sent the cookies %q, want [%q]", call, got, want)
		}
	}
}

// TestCheckedBoxSendsItsValue: a checkbox the agent checks sends the
// value of the page's checkbox, not that of a hidden input of the same
// name before it — which Rails, Yii and CakePHP write so that an unticked
// box sends "0" (the mapper takes it for the checkbox's). Before, the
// first input of the name was read, and a box the agent ticked went out
// as "0", unticked.
func TestCheckedBoxSendsItsValue(t *testing.T) {
	const page = `<!doctype html><form method="post">
<input type="hidden" name="subscribe" value="0"><input type="checkbox" name="subscribe" value="1">
<input type="hidden" name="terms" value="no"><input type="checkbox" name="terms">
<input type="hidden" name="tok" value="t-1">
</form>`
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet {
			_, _ = io.WriteString(w, page)
			return
		}
		r.record(req)
	})
	g := editCallback(t, site.URL, shared.TransportFormPost, "application/x-www-form-urlencoded", func(a *shared.Action) {
		a.Inputs = append(a.Inputs,
			shared.Input{Name: "subscribe", Label: ptr("Subscribe"), Semantic: shared.SemanticMarketingOptIn, Type: "checkbox", AgentFillable: true},
			shared.Input{Name: "terms", Label: ptr("Terms"), Semantic: shared.SemanticConsent, Type: "checkbox", AgentFillable: true},
			shared.Input{Name: "tok", Semantic: shared.SemanticSystemToken, Type: "hidden"})
	})
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	in := goodCallback()
	in["subscribe"], in["terms"] = true, true
	if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, g, callback), Input: in}); err != nil {
		t.Fatal(err)
	}
	if n := site.count(); n != 1 {
		t.Fatalf("%d submissions reached the site, want 1", n)
	}
	want := goodCallbackSent()
	want["subscribe"], want["terms"], want["tok"] = []string{"1"}, []string{"on"}, []string{"t-1"}
	if diff := cmp.Diff(want, site.forms[0]); diff != "" {
		t.Errorf("the site received (-want +got):\n%s", diff)
	}
}
