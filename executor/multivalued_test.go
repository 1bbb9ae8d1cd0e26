package executor_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// multiGraph is electrician01's graph served by site, its callback form
// given a group of same-name checkboxes and a <select multiple> (decision
// 0006), sent by transport.
func multiGraph(t *testing.T, site string, transport shared.Transport, enctype string) []byte {
	t.Helper()
	return editCallback(t, site, transport, enctype, func(a *shared.Action) {
		opts := func(vs ...string) []shared.ValueSpace {
			var o []shared.Option
			for _, v := range vs {
				o = append(o, shared.Option{Value: v, Label: &v})
			}
			return []shared.ValueSpace{shared.OneOfSpace{Options: o}}
		}
		a.Inputs = append(a.Inputs,
			shared.Input{Name: "services[]", Label: ptr("Services"), Semantic: shared.SemanticServiceRequested, Type: "checkbox", Required: true, AgentFillable: true, ValueSpace: opts("wiring", "lighting", "solar")},
			shared.Input{Name: "rooms", Label: ptr("Rooms"), Semantic: shared.SemanticUnknown, Type: "select-multiple", AgentFillable: true, ValueSpace: opts("kitchen", "lounge"), DefaultValue: ptr("lounge")},
		)
		for _, v := range a.Validations {
			if d, ok := v.(shared.DeclaredValidation); ok && d.Rule.Kind == shared.RuleRequired {
				d.AppliesTo = "services[]"
				a.Validations = append(a.Validations, d)
				break
			}
		}
	})
}

// callbackGraph is electrician01's graph served by site with its callback
// action changed by edit (nil: unchanged), checked by the contract's writer.
func callbackGraph(t *testing.T, site string, edit func(a *shared.Action)) *shared.ActionGraph {
	t.Helper()
	raw, err := fixtures.MappedGraph("electrician01", site)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(raw)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	for i := range g.Actions {
		if a := &g.Actions[i]; a.ID == callback && edit != nil {
			edit(a)
		}
	}
	if _, err := shared.Write(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// editCallback is callbackGraph with every door's submission of the
// callback action sent by transport with enctype ("": none stated, the
// browser's default), as a document.
func editCallback(t *testing.T, site string, transport shared.Transport, enctype string, edit func(a *shared.Action)) []byte {
	t.Helper()
	g := callbackGraph(t, site, func(a *shared.Action) {
		if edit != nil {
			edit(a)
		}
		for j := range a.Access {
			if s := a.Access[j].Submission; s != nil {
				s.Transport, s.Enctype = transport, nil
				if enctype != "" {
					s.Enctype = &enctype
				}
			}
		}
	})
	out, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// TestMultiValued: a multi-valued input takes a list of its options and
// each chosen value is sent under its name in the page's order, over every
// HTTP transport; a wrong list is refused with its field and rule, and
// nothing is sent.
func TestMultiValued(t *testing.T) {
	type got struct {
		services, rooms []string
	}
	var last got
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		r.record(req)
		if req.Header.Get("Content-Type") != "application/json" {
			last = got{req.Form["services[]"], req.Form["rooms"]}
		}
	})
	input := func(services, rooms any) map[string]any {
		in := goodCallback()
		if services != nil {
			in["services[]"] = services
		}
		if rooms != nil {
			in["rooms"] = rooms
		}
		return in
	}
	for _, tc := range []struct {
		name      string
		transport shared.Transport
		enctype   string
	}{
		{"form post", shared.TransportFormPost, "application/x-www-form-urlencoded"},
		{"multipart", shared.TransportFormPost, "multipart/form-data"},
		{"get", shared.TransportFormGet, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, multiGraph(t, site.URL, tc.transport, tc.enctype), callback)
			last = got{}
			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input([]any{"solar", "wiring"}, []string{"kitchen", "lounge"})})
			if err != nil {
				t.Fatal(err)
			}
			want := got{[]string{"wiring", "solar"}, []string{"kitchen", "lounge"}}
			if diff := cmp.Diff(want, last, cmp.AllowUnexported(got{})); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			var sent []string
			for _, f := range res.Sent {
				if f.Name == "services[]" || f.Name == "rooms" {
					sent = append(sent, f.Name+"="+f.Value)
				}
			}
			if diff := cmp.Diff([]string{"services[]=wiring", "services[]=solar", "rooms=kitchen", "rooms=lounge"}, sent); diff != "" {
				t.Errorf("Result.Sent (-want +got):\n%s", diff)
			}
			// Not given: the option the page pre-selects.
			last = got{}
			if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input([]any{"lighting"}, nil)}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got{[]string{"lighting"}, []string{"lounge"}}, last, cmp.AllowUnexported(got{})); diff != "" {
				t.Errorf("with the default (-want +got):\n%s", diff)
			}
			// An empty list: nothing sent under the name.
			last = got{}
			if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input([]any{"lighting"}, []any{})}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got{services: []string{"lighting"}}, last, cmp.AllowUnexported(got{})); diff != "" {
				t.Errorf("with an empty list (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("json endpoint", func(t *testing.T) {
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		action := confirmed(t, st, multiGraph(t, site.URL, shared.TransportJSONEndpoint, "application/json"), callback)
		if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input([]any{"solar", "lighting"}, []any{})}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]any{"lighting", "solar"}, site.lastJSON()["services[]"]); diff != "" {
			t.Errorf("services[] (-want +got):\n%s", diff)
		}
		if _, ok := site.lastJSON()["rooms"]; ok {
			t.Errorf("rooms sent with nothing chosen: %v", site.lastJSON())
		}
		if site.lastJSON()["full_name"] != "Ana Ruiz" {
			t.Errorf("body %v", site.lastJSON())
		}
	})
	t.Run("refused", func(t *testing.T) {
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		action := confirmed(t, st, multiGraph(t, site.URL, shared.TransportFormPost, "application/x-www-form-urlencoded"), callback)
		before := site.count()
		for _, tc := range []struct {
			name           string
			services, room any
			field, rule    string
		}{
			{"a boolean for a group", true, nil, "services[]", "type"},
			{"a string for a group", "wiring", nil, "services[]", "type"},
			{"an unknown option", []any{"wiring", "gas"}, nil, "services[]", "one-of"},
			{"an option twice", []any{"solar", "solar"}, nil, "services[]", "unique"},
			{"a number in the list", []any{"wiring", 3.0}, nil, "services[]", "type"},
			{"more values than options", []any{"wiring", "lighting", "solar", "wiring"}, nil, "services[]", "size"},
			{"required, nothing chosen", []any{}, nil, "services[]", "required"},
			{"required, not given", nil, nil, "services[]", "required"},
			{"a string for a multi-select", []any{"wiring"}, "kitchen", "rooms", "type"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input(tc.services, tc.room)})
				var re *executor.RefusedError
				if !errors.As(err, &re) {
					t.Fatalf("err = %v, want a refusal", err)
				}
				found := false
				for _, r := range re.Reasons {
					found = found || (r.Field == tc.field && r.Rule == tc.rule)
				}
				if !found {
					t.Errorf("reasons %+v, want one on %s (%s)", re.Reasons, tc.field, tc.rule)
				}
			})
		}
		if n := site.count() - before; n != 0 {
			t.Errorf("%d requests reached the site from refused calls", n)
		}
	})
}

// TestIdempotencySameChoices: an idempotency key repeated with the same
// choices of a multi-valued input listed in another order is the same call
// (they are sent and recorded in the page's order): the first result, and
// nothing sent; with another set of choices it is a conflict, audited, and
// nothing is sent either.
func TestIdempotencySameChoices(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
		ex := newExecutor(t, st, executor.Options{})
		action := confirmed(t, st, multiGraph(t, site.URL, shared.TransportFormPost, "application/x-www-form-urlencoded"), callback)
		call := func(services ...any) (*executor.Result, error) {
			in := goodCallback()
			in["services[]"] = services
			return ex.Execute(t.Context(), executor.Call{Action: action, Input: in, IdempotencyKey: "job-7"})
		}
		first, err := call("solar", "wiring")
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name     string
			services []any
			conflict bool
		}{
			{"the same choices in another order", []any{"wiring", "solar"}, false},
			{"the same choices in the same order", []any{"solar", "wiring"}, false},
			{"another set of choices", []any{"wiring"}, true},
			{"the same choices and one more", []any{"lighting", "solar", "wiring"}, true},
		}
		conflicts := 0
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res, err := call(tt.services...)
				if tt.conflict {
					conflicts++
					if !errors.Is(err, executor.ErrIdempotencyConflict) {
						t.Fatalf("err = %v, want ErrIdempotencyConflict", err)
					}
					assertRefusals(t, st, callback, conflicts, `input "services[]" differs`)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !res.Duplicate || res.AttemptID != first.AttemptID {
					t.Errorf("result %+v, want the first (%s) marked duplicate", res, first.AttemptID)
				}
			})
		}
		if n := site.count(); n != 1 {
			t.Errorf("the site received %d submissions, want 1", n)
		}
	})
}

// TestRadioGroupLeftOut: a radio group the agent leaves out, with none of
// its buttons checked by the page, is not sent at all, as a browser sends
// nothing for it (on the code before it went out as "contact_by="); the
// button the page checks is sent when the agent gives none, and the one
// the agent chooses otherwise; a select left out without a default is
// still sent empty; over every HTTP transport.
func TestRadioGroupLeftOut(t *testing.T) {
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
	radioGraph := func(t *testing.T, transport shared.Transport, enctype string, dflt *string) []byte {
		return editCallback(t, site.URL, transport, enctype, func(a *shared.Action) {
			var o []shared.Option
			for _, v := range []string{"phone", "email"} {
				o = append(o, shared.Option{Value: v, Label: &v})
			}
			a.Inputs = append(a.Inputs, shared.Input{Name: "contact_by", Label: ptr("Contact me by"), Semantic: shared.SemanticUnknown, Type: "radio",
				AgentFillable: true, ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: o}}, DefaultValue: dflt},
				// A select left out, without a default: sent "", as a
				// browser sends its empty placeholder option.
				shared.Input{Name: "best_day", Label: ptr("Best day"), Semantic: shared.SemanticUnknown, Type: "select",
					AgentFillable: true, ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: o}}})
		})
	}
	input := func(contactBy any) map[string]any {
		in := goodCallback()
		if contactBy != nil {
			in["contact_by"] = contactBy
		}
		return in
	}
	sent := func(contactBy ...string) url.Values {
		want := goodCallbackSent()
		want["best_day"] = []string{""}
		if len(contactBy) > 0 {
			want["contact_by"] = contactBy
		}
		return want
	}
	cases := []struct {
		name      string
		dflt      *string
		contactBy any
		want      url.Values // what a form transport sends
	}{
		{"left out", nil, nil, sent()},
		{"given empty", nil, "", sent()},
		{"chosen", nil, "email", sent("email")},
		{"left out, the page checks one", ptr("phone"), nil, sent("phone")},
		{"chosen, the page checks another", ptr("phone"), "email", sent("email")},
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
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					st := openStore(t)
					ex := newExecutor(t, st, executor.Options{})
					action := confirmed(t, st, radioGraph(t, tr.transport, tr.enctype, tc.dflt), callback)
					before := site.count()
					res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input(tc.contactBy)})
					if err != nil {
						t.Fatal(err)
					}
					if n := site.count() - before; n != 1 {
						t.Fatalf("%d requests reached the site, want 1", n)
					}
					got := site.lastReceived(tr.transport)
					if diff := cmp.Diff(tc.want, got); diff != "" {
						t.Errorf("the site received (-want +got):\n%s", diff)
					}
					assertSent(t, tc.want, res)
				})
			}
		})
	}
}

// TestMultiValuedInBrowser: a page filled in Chromium has exactly the boxes
// and options the agent chose ticked, the page's own defaults cleared.
func TestMultiValuedInBrowser(t *testing.T) {
	b := browser(t)
	page := `<!doctype html><html><body><div id="app"></div>
<form id="callback-form"><input name="full_name"><input name="phone" type="tel">
<select name="call_window"><option value="">-</option><option>morning</option><option>afternoon</option></select>
<input name="suburb"><textarea name="about"></textarea><input name="website" value="">
<label><input type="checkbox" name="services[]" value="wiring"> Wiring</label>
<label><input type="checkbox" name="services[]" value="lighting" checked> Lighting</label>
<label><input type="checkbox" name="services[]" value="solar"> Solar</label>
<select name="rooms" multiple><option value="kitchen">Kitchen</option><option value="lounge" selected>Lounge</option></select>
<button type="submit">Call me</button></form>
<script>
const f = document.getElementById("callback-form");
f.addEventListener("submit", (e) => {
  e.preventDefault();
  fetch("/callback-request", {method: "POST", body: new URLSearchParams(new FormData(f))})
    .then(r => r.text()).then(t => { document.getElementById("app").textContent = t; });
});
</script></body></html>`
	site := callbackSite(t, page, "Thanks.")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{Browser: b})
	action := confirmed(t, st, multiGraph(t, site.URL, shared.TransportJavascriptOnly, "application/x-www-form-urlencoded"), callback)
	in := goodCallback()
	in["services[]"] = []any{"solar", "wiring"}
	in["rooms"] = []any{}
	if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: in}); err != nil {
		t.Fatal(err)
	}
	if site.count() != 1 {
		t.Fatalf("the site received %d submissions, want 1", site.count())
	}
	got := map[string][]string{"services[]": site.forms[0]["services[]"], "rooms": site.forms[0]["rooms"]}
	want := map[string][]string{"services[]": {"wiring", "solar"}, "rooms": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("received (-want +got):\n%s", diff)
	}
}
