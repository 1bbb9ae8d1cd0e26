package executor_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
)

// TestFixtureEndpoints fires each kind of fixture endpoint for real and
// checks the site received exactly what the action declares: the agent's
// values, system tokens as the live page serves them, empty honeypots, and
// nothing else.
func TestFixtureEndpoints(t *testing.T) {
	tests := []struct {
		site, action string
		input        map[string]any
		handler      string // fixtures.Submission.Handler
		contentType  string
		// want is what the site must receive besides the system tokens,
		// which are checked against the live page.
		want url.Values
		// tokens are the fields that must carry the live page's value.
		tokens []string
		page   string // the page the tokens are served on
	}{
		{
			site: "electrician01", action: "electrician01:callback:callback",
			input:   map[string]any{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning", "about": "Fuse box trips"},
			handler: "form", contentType: "application/x-www-form-urlencoded",
			want: url.Values{"full_name": {"Ana Ruiz"}, "phone": {"+64 9 828 7400"}, "call_window": {"morning"}, "suburb": {""}, "about": {"Fuse box trips"}, "website": {""}},
		},
		{
			site: "lawfirm01", action: "lawfirm01:enquiry:enquiry",
			input: map[string]any{"full_name": "Jo Carter", "email": "jo@example.org", "practice_area": "Employment",
				"message": "I would like advice about a contract.", "privacy_consent": true, "newsletter_opt_in": false},
			handler: "form", contentType: "multipart/form-data",
			want: url.Values{"full_name": {"Jo Carter"}, "email": {"jo@example.org"}, "telephone": {""}, "practice_area": {"Employment"},
				"message": {"I would like advice about a contract."}},
			tokens: []string{"privacy_consent"}, page: "/enquiry/",
		},
		{
			site: "wpforms01", action: "wpforms01:contact:wpforms-form-412",
			input:   map[string]any{"wpforms[fields][0]": "Sam Lee", "wpforms[fields][1]": "sam@example.org", "wpforms[fields][4]": "A quote for a xeriscape garden, please."},
			handler: "wpforms", contentType: "multipart/form-data",
			want: url.Values{"wpforms[fields][0]": {"Sam Lee"}, "wpforms[fields][1]": {"sam@example.org"}, "wpforms[fields][2]": {""}, "wpforms[fields][3]": {""},
				"wpforms[fields][4]": {"A quote for a xeriscape garden, please."}, "wpforms[hp]": {""}},
			tokens: []string{"wpforms[fields][6]", "wpforms[id]", "wpforms[token]", "page_title", "page_url", "url_referer", "page_id", "wpforms[post_id]", "utm_campaign", "action"},
			page:   "/contact/",
		},
		{
			site: "plumber01", action: "plumber01:quote:gform-3",
			input:   map[string]any{"input_1": "Kim Tran", "input_2": "kim@example.org", "input_3": "0412 345 678", "input_5": "Hot water", "input_6": "The hot water system leaks."},
			handler: "gravity-forms", contentType: "multipart/form-data",
			want: url.Values{"input_1": {"Kim Tran"}, "input_2": {"kim@example.org"}, "input_3": {"0412 345 678"}, "input_4": {""}, "input_5": {"Hot water"},
				"input_6": {"The hot water system leaks."}, "input_7": {"Phone"}, "input_8": {""}},
			tokens: []string{"gform_submission_method", "gform_theme", "gform_style_settings", "is_submit_3", "gform_submit", "gform_unique_id", "state_3",
				"gform_target_page_number_3", "gform_source_page_number_3", "gform_field_values"},
			page: "/quote/",
		},
		{
			site: "jsbooking01", action: "jsbooking01:contact:quick-message",
			input:   map[string]any{"name": "Lou Park", "email": "lou@example.org", "message": "Do you clean ovens?"},
			handler: "json", contentType: "application/json",
			want: url.Values{"name": {"Lou Park"}, "email": {"lou@example.org"}, "message": {"Do you clean ovens?"}},
		},
		{
			site: "jsonld01", action: "jsonld01:booking:table-request",
			input:   map[string]any{"date": "2026-12-24", "time": "19:00", "party": 4, "name": "Ivy Chen", "email": "ivy@example.org", "phone": "+61 3 6224 7788"},
			handler: "form", contentType: "",
			want: url.Values{"date": {"2026-12-24"}, "time": {"19:00"}, "party": {"4"}, "name": {"Ivy Chen"}, "email": {"ivy@example.org"}, "phone": {"+61 3 6224 7788"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.site, func(t *testing.T) {
			srv, graph := site(t, tt.site)
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			action := confirmed(t, st, graph, tt.action)

			res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: tt.input})
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			subs := submissions(t, srv, tt.site)
			if len(subs) != 1 {
				t.Fatalf("the site received %d submissions, want 1", len(subs))
			}
			sub := subs[0]
			if sub.Handler != tt.handler || sub.ContentType != tt.contentType {
				t.Errorf("handler %q content type %q, want %q %q", sub.Handler, sub.ContentType, tt.handler, tt.contentType)
			}
			if sub.Outcome != fixtures.OutcomeAccepted {
				t.Errorf("outcome %s (invalid %v), want accepted; site answered %d %s", sub.Outcome, sub.Invalid, res.Status, res.Response)
			}
			want := url.Values{}
			for k, v := range tt.want {
				want[k] = v
			}
			if len(tt.tokens) > 0 {
				page := fixturestest.Get(t, fixturestest.URL(t, srv, tt.site)+tt.page)
				for _, name := range tt.tokens {
					v, ok := hiddenValue(page, name)
					if !ok {
						t.Fatalf("the live page has no input %q", name)
					}
					want[name] = []string{v}
				}
			}
			if diff := cmp.Diff(want, sub.Fields); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			// Result.Sent says the same, field by field.
			assertSent(t, want, res)
			if res.Status != 200 || res.AttemptID == "" || res.Duplicate {
				t.Errorf("result status %d attempt %q duplicate %v", res.Status, res.AttemptID, res.Duplicate)
			}
			atts, err := st.Attempts(t.Context(), tt.action)
			if err != nil || len(atts) != 1 || atts[0].Completed == nil || atts[0].Completed.Outcome != "fired" {
				t.Fatalf("attempts %+v, %v: want one fired", atts, err)
			}
		})
	}
}

// hiddenValue finds the value attribute of the input named name in page,
// independently of the executor's parser (the fixture pages write
// name="…" before value="…" on one tag).
func hiddenValue(page, name string) (string, bool) {
	for _, tag := range strings.Split(page, "<input")[1:] {
		tag, _, _ = strings.Cut(tag, ">")
		if !strings.Contains(tag, `name="`+name+`"`) {
			continue
		}
		_, v, ok := strings.Cut(tag, `value="`)
		if !ok {
			if strings.Contains(tag, `type="checkbox"`) {
				return "on", true
			}
			return "", true
		}
		v, _, _ = strings.Cut(v, `"`)
		return strings.NewReplacer("&amp;", "&", "&quot;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(v), true
	}
	return "", false
}

// TestCaptchaRefused: Contact Form 7 on clinic01 loads reCAPTCHA; the
// executor refuses with the barrier and sends nothing.
func TestCaptchaRefused(t *testing.T) {
	srv, graph := site(t, "clinic01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, graph, "clinic01:booking:appointment")
	_, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: map[string]any{"patient-name": "Mia Wong", "phone": "0292471234"}})
	var re *executor.RefusedError
	if !errors.As(err, &re) || !errors.Is(err, executor.ErrBarrier) || !errors.Is(err, executor.ErrRefused) {
		t.Fatalf("err = %v, want a refusal matching ErrBarrier", err)
	}
	if !re.Has(executor.ReasonBarrier) || !strings.Contains(err.Error(), "CAPTCHA") {
		t.Errorf("reasons %v do not name the CAPTCHA", re.Reasons)
	}
	if n := len(submissions(t, srv, "clinic01")); n != 0 {
		t.Errorf("the site received %d submissions, want 0", n)
	}
	assertRefusals(t, st, "clinic01:booking:appointment", 1, "CAPTCHA")
	if atts, _ := st.Attempts(t.Context(), "clinic01:booking:appointment"); len(atts) != 0 {
		t.Errorf("a refusal began %d attempts", len(atts))
	}
}

// TestContactForm7WireFormat: with the reCAPTCHA barrier taken off the
// graph (as if the site had dropped it), the Contact Form 7 submission
// carries the form's tokens fresh from the live page, and the site — which
// still loads reCAPTCHA — files it as spam: the executor never fakes a
// CAPTCHA token.
func TestContactForm7WireFormat(t *testing.T) {
	srv, graph := site(t, "clinic01")
	graph = withoutBarriers(t, graph)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, graph, "clinic01:booking:appointment")
	res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: map[string]any{"patient-name": "Mia Wong", "phone": "0292471234"}})
	if err != nil {
		t.Fatal(err)
	}
	subs := submissions(t, srv, "clinic01")
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1", len(subs))
	}
	page := fixturestest.Get(t, fixturestest.URL(t, srv, "clinic01")+"/")
	want := url.Values{"patient-name": {"Mia Wong"}, "phone": {"0292471234"}}
	for _, name := range []string{"_wpcf7", "_wpcf7_version", "_wpcf7_locale", "_wpcf7_unit_tag", "_wpcf7_container_post", "_wpcf7_posted_data_hash"} {
		v, ok := hiddenValue(page, name)
		if !ok {
			t.Fatalf("no %s on the page", name)
		}
		want[name] = []string{v}
	}
	if diff := cmp.Diff(want, subs[0].Fields); diff != "" {
		t.Errorf("received (-want +got):\n%s", diff)
	}
	if subs[0].Handler != "contact-form-7" || subs[0].Outcome != fixtures.OutcomeSpam {
		t.Errorf("handler %s outcome %s, want contact-form-7 spam (no CAPTCHA token is ever made up)", subs[0].Handler, subs[0].Outcome)
	}
	if !strings.Contains(res.Response, `"status":"spam"`) {
		t.Errorf("response %q", res.Response)
	}
}

// withoutBarriers returns graph with every action's barriers removed, as if
// the site had dropped them.
func withoutBarriers(t *testing.T, graph []byte) []byte {
	t.Helper()
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	for i := range g.Actions {
		g.Actions[i].Barriers = []shared.Barrier{}
	}
	out, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBarrierKinds: every barrier kind refuses, naming it, and sends
// nothing; loginbooking01's members-only booking is refused for its login.
func TestBarrierKinds(t *testing.T) {
	for _, kind := range shared.BarrierKindValues() {
		t.Run(string(kind), func(t *testing.T) {
			srv, graph := site(t, "electrician01")
			g, issues := shared.Read(graph)
			if len(issues) > 0 {
				t.Fatal(issues)
			}
			for i := range g.Actions {
				g.Actions[i].Barriers = []shared.Barrier{{Kind: kind, Provenance: g.Actions[i].SideEffects.Provenance}}
			}
			graph, err := shared.Write(g)
			if err != nil {
				t.Fatal(err)
			}
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{})
			_, err = ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, "electrician01:callback:callback"), Input: map[string]any{"full_name": "Ana", "phone": "021 555", "call_window": "morning"}})
			var re *executor.RefusedError
			if !errors.As(err, &re) || !errors.Is(err, executor.ErrBarrier) || len(re.Reasons) != 1 || re.Reasons[0].Field != string(kind) {
				t.Fatalf("err = %v, want one barrier reason naming %s", err, kind)
			}
			if n := len(submissions(t, srv, "electrician01")); n != 0 {
				t.Errorf("%d submissions", n)
			}
		})
	}
	t.Run("loginbooking01", func(t *testing.T) {
		_, graph := site(t, "loginbooking01")
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, "loginbooking01:booking:members-book")})
		var re *executor.RefusedError
		if !errors.As(err, &re) || !errors.Is(err, executor.ErrBarrier) || !strings.Contains(err.Error(), "never signs in") {
			t.Fatalf("err = %v, want the login barrier", err)
		}
	})
}
