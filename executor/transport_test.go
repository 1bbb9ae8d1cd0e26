package executor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// recorder is a loopback site that counts what reaches it.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	posts []*http.Request
	forms []url.Values
	json  map[string]any // the last JSON body recorded
}

func newRecorder(t *testing.T, h func(r *recorder, w http.ResponseWriter, req *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { h(rec, w, req) }))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) record(req *http.Request) {
	var body map[string]any
	if req.Header.Get("Content-Type") == "application/json" {
		b, _ := io.ReadAll(req.Body)
		_ = json.Unmarshal(b, &body)
	}
	_ = req.ParseMultipartForm(1 << 20)
	_ = req.ParseForm()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts = append(r.posts, req)
	r.forms = append(r.forms, req.Form)
	if body != nil {
		r.json = body
	}
}

// lastJSON is the last JSON body r recorded.
func (r *recorder) lastJSON() map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.json
}

// lastReceived is what the last submission r recorded sent: its form, or
// for a JSON endpoint its body's string values.
func (r *recorder) lastReceived(transport shared.Transport) url.Values {
	if transport == shared.TransportJSONEndpoint {
		got := url.Values{}
		for k, v := range r.lastJSON() {
			got[k] = []string{v.(string)}
		}
		return got
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.forms[len(r.forms)-1]
}

// assertSent fails t unless res.Sent lists want, field by field.
func assertSent(t *testing.T, want url.Values, res *executor.Result) {
	t.Helper()
	got := url.Values{}
	for _, f := range res.Sent {
		got.Add(f.Name, f.Value)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Result.Sent (-want +got):\n%s", diff)
	}
}

// paths lists each recorded request's method and path, for messages.
func (r *recorder) paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range r.posts {
		out = append(out, p.Method+" "+p.URL.RequestURI())
	}
	return out
}

// wantGoodCallback fails t unless r received one submission, what the
// call-back form sends for goodCallback.
func (r *recorder) wantGoodCallback(t *testing.T) {
	t.Helper()
	if n := r.count(); n != 1 {
		t.Fatalf("the site received %d submissions, want 1", n)
	}
	if diff := cmp.Diff(goodCallbackSent(), r.forms[0]); diff != "" {
		t.Errorf("received (-want +got):\n%s", diff)
	}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.posts)
}

const wpformsID = "wpforms01:contact:wpforms-form-412"

func wpformsInput() map[string]any {
	return map[string]any{"wpforms[fields][0]": "Sam", "wpforms[fields][1]": "sam@example.org", "wpforms[fields][4]": "Hello"}
}

// TestFreshNonce: the system tokens are read from the live page at the
// time of the call — never from the graph — and sent back verbatim.
func TestFreshNonce(t *testing.T) {
	var served atomic.Int64
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/contact/":
			n := served.Add(1)
			fmt.Fprintf(w, `<!doctype html><form id="wpforms-form-412" method="post" action="/wp-admin/admin-ajax.php" enctype="multipart/form-data">
<input name="wpforms[fields][0]"><input type="email" name="wpforms[fields][1]"><input name="wpforms[fields][2]"><select name="wpforms[fields][3]"></select><textarea name="wpforms[fields][4]"></textarea>
<input type="hidden" name="wpforms[fields][6]" value="camp-%[1]d"><input name="wpforms[hp]">
<input type="hidden" name="wpforms[id]" value="412"><input type="hidden" name="wpforms[token]" value="tok-%[1]d &amp; &quot;q&quot;">
<input type="hidden" name="page_title" value="Contact"><input type="hidden" name="page_url" value="/contact/"><input type="hidden" name="url_referer" value="">
<input type="hidden" name="page_id" value="27"><input type="hidden" name="wpforms[post_id]" value="27"><input type="hidden" name="utm_campaign" value="camp-%[1]d"><input type="hidden" name="action" value="wpforms_submit">
</form>`, n)
		case req.Method == http.MethodPost && req.URL.Path == "/wp-admin/admin-ajax.php":
			r.record(req)
			fmt.Fprint(w, `{"success":true}`)
		default:
			http.NotFound(w, req)
		}
	})
	graph, err := fixtures.MappedGraph("wpforms01", site.URL)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, graph, wpformsID)
	input := wpformsInput()
	for call := 1; call <= 2; call++ {
		if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input}); err != nil {
			t.Fatal(err)
		}
		form := site.forms[call-1]
		if got, want := form["wpforms[token]"], []string{fmt.Sprintf(`tok-%d & "q"`, served.Load())}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("call %d sent token %q, want the page's fresh %q", call, got, want)
		}
		if got := form["utm_campaign"]; len(got) != 1 || got[0] != fmt.Sprintf("camp-%d", served.Load()) {
			t.Errorf("call %d sent campaign %q", call, got)
		}
		if got := form["wpforms[hp]"]; len(got) != 1 || got[0] != "" {
			t.Errorf("call %d sent honeypot %q, want it empty", call, got)
		}
	}
	if served.Load() != 2 {
		t.Errorf("the page was read %d times, want once per call", served.Load())
	}
}

// TestOrigin: nothing leaves the confirmed origin.
func TestOrigin(t *testing.T) {
	other := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		r.record(req)
		fmt.Fprint(w, "elsewhere")
	})
	t.Run("redirect to another origin is not followed", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			r.record(req)
			http.Redirect(w, req, other.URL+"/steal", http.StatusSeeOther)
		})
		graph, _ := fixtures.MappedGraph("electrician01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != http.StatusSeeOther || other.count() != 0 || site.count() != 1 {
			t.Errorf("status %d, other origin received %d, site %d; want 303, 0, 1", res.Status, other.count(), site.count())
		}
		if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1], "not followed") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("redirect on the same origin is followed", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/thank-you/" {
				fmt.Fprint(w, "thanks")
				return
			}
			r.record(req)
			http.Redirect(w, req, "/thank-you/", http.StatusSeeOther)
		})
		graph, _ := fixtures.MappedGraph("electrician01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != 200 || res.Response != "thanks" || site.count() != 1 {
			t.Errorf("status %d response %q posts %d", res.Status, res.Response, site.count())
		}
	})
	t.Run("an endpoint on another origin is refused", func(t *testing.T) {
		srv, graph := site(t, "electrician01")
		// The owner confirmed it this way, but the executor submits only on
		// the page's own origin.
		graph = bytes.ReplaceAll(graph, []byte(`"endpoint": "`+fixturestestURL(t, srv, "electrician01")+`/callback-request"`), []byte(`"endpoint": "`+other.URL+`/callback-request"`))
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
		if !errors.Is(err, executor.ErrOffOrigin) || !errors.Is(err, executor.ErrRefused) {
			t.Fatalf("err = %v, want ErrOffOrigin", err)
		}
		if other.count() != 0 || len(submissions(t, srv, "electrician01")) != 0 {
			t.Errorf("something was sent")
		}
	})
	t.Run("redirects on the same origin past the bound are not taken for another origin", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/callback-request" {
				r.record(req)
			}
			http.Redirect(w, req, "/loop/"+fmt.Sprint(r.count()), http.StatusFound) // for ever, on its own origin
		})
		graph, _ := fixtures.MappedGraph("electrician01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != http.StatusFound || site.count() != 1 {
			t.Errorf("status %d, site %d; want 302, 1", res.Status, site.count())
		}
		if len(res.Warnings) == 0 || strings.Contains(res.Warnings[len(res.Warnings)-1], "another origin") || !strings.Contains(res.Warnings[len(res.Warnings)-1], "not followed") {
			t.Errorf("warnings %q, want one saying the redirect on its own origin was not followed", res.Warnings)
		}
	})
	t.Run("the token page redirecting on its own origin for ever is unreadable", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet {
				http.Redirect(w, req, req.URL.Path+"x", http.StatusFound)
				return
			}
			r.record(req)
		})
		graph, _ := fixtures.MappedGraph("wpforms01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, wpformsID), Input: wpformsInput()})
		var re *executor.RefusedError
		if !errors.As(err, &re) || !errors.Is(err, executor.ErrPage) || errors.Is(err, executor.ErrOffOrigin) || !re.Has(executor.ReasonPage) || site.count() != 0 {
			t.Fatalf("err = %v, site %d; want a page.unreadable refusal, not origin.off, and nothing sent", err, site.count())
		}
	})
	t.Run("the token page redirecting away is refused", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet {
				http.Redirect(w, req, other.URL+"/contact/", http.StatusFound)
				return
			}
			r.record(req)
		})
		graph, _ := fixtures.MappedGraph("wpforms01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, wpformsID), Input: wpformsInput()})
		if !errors.Is(err, executor.ErrOffOrigin) || site.count() != 0 || other.count() != 0 {
			t.Fatalf("err = %v, site %d other %d", err, site.count(), other.count())
		}
	})
	t.Run("a token gone from the page is refused", func(t *testing.T) {
		site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet {
				fmt.Fprint(w, `<form method="post" action="/wp-admin/admin-ajax.php"><input name="wpforms[fields][0]"></form>`)
				return
			}
			r.record(req)
		})
		graph, _ := fixtures.MappedGraph("wpforms01", site.URL)
		st := openStore(t)
		ex := newExecutor(t, st, executor.Options{})
		_, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, wpformsID), Input: wpformsInput()})
		var re *executor.RefusedError
		if !errors.As(err, &re) || !errors.Is(err, executor.ErrPage) || !re.Has(executor.ReasonTokenMissing) || site.count() != 0 {
			t.Fatalf("err = %v, posts %d", err, site.count())
		}
	})
}

func fixturestestURL(t *testing.T, srv *fixtures.Server, name string) string {
	t.Helper()
	u, err := srv.URL(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestIdempotency: a repeated key returns the first result and fires
// nothing, also when the repeats race.
func TestIdempotency(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		srv, graph := site(t, "electrician01")
		ex := newExecutor(t, st, executor.Options{})
		action := confirmed(t, st, graph, callback)
		first, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		results := make([]*executor.Result, 8)
		errs := make([]error, 8)
		for i := range results {
			wg.Go(func() {
				results[i], errs[i] = ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"})
			})
		}
		wg.Wait()
		for i, res := range results {
			if errs[i] != nil {
				t.Fatalf("repeat %d: %v", i, errs[i])
			}
			if !res.Duplicate || res.AttemptID != first.AttemptID || res.Status != first.Status || res.Endpoint != first.Endpoint || len(res.Sent) != len(first.Sent) {
				t.Errorf("repeat %d = %+v, want the first result (%s, %d) marked duplicate", i, res, first.AttemptID, first.Status)
			}
		}
		if n := len(submissions(t, srv, "electrician01")); n != 1 {
			t.Errorf("the site received %d submissions, want 1", n)
		}
		// Another key fires again.
		if res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-2"}); err != nil || res.Duplicate {
			t.Fatalf("a new key: %v %+v", err, res)
		}
		if n := len(submissions(t, srv, "electrician01")); n != 2 {
			t.Errorf("the site received %d submissions, want 2", n)
		}
	})
}

// TestIdempotencyConflict: a key repeated with other agent input is a
// refusal (audited, nothing sent), not the first call's result passed off
// as this one's; the same input again is still the first result, and the
// page's fresh tokens, which differ call to call, are not compared.
func TestIdempotencyConflict(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
		srv, graph := site(t, "electrician01")
		ex := newExecutor(t, st, executor.Options{})
		action := confirmed(t, st, graph, callback)
		first, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"})
		if err != nil {
			t.Fatal(err)
		}
		other := goodCallback()
		other["full_name"] = "Ben Okafor"
		other["suburb"] = "Avondale"
		_, err = ex.Execute(t.Context(), executor.Call{Action: action, Input: other, IdempotencyKey: "order-1"})
		var re *executor.RefusedError
		if !errors.Is(err, executor.ErrIdempotencyConflict) || !errors.Is(err, executor.ErrRefused) || !errors.As(err, &re) {
			t.Fatalf("the key with other input: %v, want a refusal matching ErrIdempotencyConflict", err)
		}
		if len(re.Reasons) != 1 || re.Reasons[0].Code != executor.ReasonIdempotency ||
			!strings.Contains(re.Reasons[0].Detail, `"full_name", "suburb"`) || !strings.Contains(re.Reasons[0].Detail, first.AttemptID) {
			t.Errorf("reasons %v, want one %s naming full_name, suburb and the first attempt", re.Reasons, executor.ReasonIdempotency)
		}
		if strings.Contains(err.Error(), "Ben Okafor") || strings.Contains(err.Error(), "Ana Ruiz") {
			t.Errorf("the refusal shows the input's values: %v", err)
		}
		refusals, err := st.Refusals(t.Context(), re.ActionID)
		if err != nil || len(refusals) != 1 || refusals[0].IdempotencyKey != "order-1" {
			t.Errorf("refusals audited: %+v (%v), want the one under order-1", refusals, err)
		}
		again, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"})
		if err != nil || !again.Duplicate || again.AttemptID != first.AttemptID {
			t.Errorf("the key with the first input: %+v (%v), want the first result", again, err)
		}
		if n := len(submissions(t, srv, "electrician01")); n != 1 {
			t.Errorf("the site received %d submissions, want 1", n)
		}
	})
}

// TestIdempotencyFirstCallNotFired: a key repeated after its first call
// failed (nothing sent), ended with an unknown outcome or while it is still
// in flight returns that first result with a *FirstCallError saying so,
// and sends nothing. Before, the repeat came back without an error, as if
// the first call had fired, listing as sent the fields of a call that sent
// nothing.
func TestIdempotencyFirstCallNotFired(t *testing.T) {
	for _, tc := range []struct {
		name string
		// site answers the first call's submission; arrived is closed once
		// it has the submission, and the first call ends once release is.
		site        func(w http.ResponseWriter, arrived, release chan struct{})
		down        bool // the first call's request cannot be sent at all
		wantOutcome string
		wantSent    int // fields in the repeat's Result.Sent
		wantSite    int // submissions the site received
	}{
		{name: "failed", down: true, wantOutcome: "failed", wantSent: 0, wantSite: 0},
		{name: "unknown", site: func(w http.ResponseWriter, arrived, _ chan struct{}) {
			close(arrived)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close() // read, never answered
			}
		}, wantOutcome: "unknown", wantSent: len(goodCallbackSent()), wantSite: 1},
		{name: "in flight", site: func(w http.ResponseWriter, arrived, release chan struct{}) {
			close(arrived)
			<-release
			fmt.Fprint(w, "thanks")
		}, wantOutcome: "pending", wantSent: len(goodCallbackSent()), wantSite: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			audittest.EachStore(t, func(t *testing.T, st *audit.Store) {
				arrived, release := make(chan struct{}), make(chan struct{})
				var once sync.Once
				site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
					r.record(req)
					if r.count() == 1 && tc.site != nil {
						tc.site(w, arrived, release)
						return
					}
					fmt.Fprint(w, "thanks")
				})
				graph, err := fixtures.MappedGraph("electrician01", site.URL)
				if err != nil {
					t.Fatal(err)
				}
				tr := &flakyTransport{next: http.DefaultTransport}
				tr.down.Store(tc.down)
				ex := newExecutor(t, st, executor.Options{HTTPClient: &http.Client{Transport: tr}})
				// Before the executor's Close, which waits for the first call.
				t.Cleanup(func() { once.Do(func() { close(release) }) })
				action := confirmed(t, st, graph, callback)
				call := executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"}
				firstDone := make(chan error, 1)
				go func() {
					_, err := ex.Execute(t.Context(), call)
					firstDone <- err
				}()
				if tc.down {
					if err := <-firstDone; err == nil {
						t.Fatal("the first call, which could not be sent, succeeded")
					}
					tr.down.Store(false)
				} else {
					<-arrived
					if tc.wantOutcome != "pending" {
						if err := <-firstDone; err == nil {
							t.Fatal("the first call, never answered, succeeded")
						}
					}
				}
				res, err := ex.Execute(t.Context(), call)
				var fe *executor.FirstCallError
				if !errors.As(err, &fe) {
					t.Fatalf("the repeat: %v, want a *FirstCallError", err)
				}
				if errors.Is(err, executor.ErrRefused) {
					t.Errorf("the repeat's error %v matches ErrRefused", err)
				}
				type got struct {
					Outcome         string
					Duplicate, Same bool
					Sent, Site      int
				}
				want := got{Outcome: tc.wantOutcome, Duplicate: true, Same: true, Sent: tc.wantSent, Site: tc.wantSite}
				if diff := cmp.Diff(want, got{Outcome: fe.Outcome, Duplicate: res.Duplicate, Same: res.AttemptID == fe.AttemptID && res.AttemptID != "",
					Sent: len(res.Sent), Site: site.count()}); diff != "" {
					t.Errorf("the repeat (-want +got):\n%s", diff)
				}
				once.Do(func() { close(release) })
				if tc.wantOutcome == "pending" {
					if err := <-firstDone; err != nil {
						t.Fatalf("the first call: %v", err)
					}
					// Once it has fired, the repeat is its result.
					if res, err := ex.Execute(t.Context(), call); err != nil || !res.Duplicate || res.Status != http.StatusOK {
						t.Errorf("the repeat once the first call fired: %+v, %v; want its result", res, err)
					}
				}
				if n := site.count(); n != tc.wantSite {
					t.Errorf("the site received %d submissions, want %d", n, tc.wantSite)
				}
			})
		})
	}
}

// flakyTransport fails every request without sending it while down.
type flakyTransport struct {
	down atomic.Bool
	next http.RoundTripper
}

func (f *flakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.down.Load() {
		return nil, errors.New("connection refused (the test's transport is down)")
	}
	return f.next.RoundTrip(r)
}

// TestBoundedResponse: what is read back from the site is bounded by
// MaxBody, however much it sends.
func TestBoundedResponse(t *testing.T) {
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		r.record(req)
		chunk := strings.Repeat("x", 1<<16)
		for range 160 { // 10 MiB
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	graph, _ := fixtures.MappedGraph("electrician01", site.URL)
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{MaxBody: 1000})
	res, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, callback), Input: goodCallback()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Response) != 1000 || site.count() != 1 {
		t.Errorf("response %d bytes, posts %d; want 1000 and 1", len(res.Response), site.count())
	}
}

// TestClosed: Execute after Close refuses with ErrClosed and sends nothing.
func TestClosed(t *testing.T) {
	srv, graph := site(t, "electrician01")
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{})
	action := confirmed(t, st, graph, callback)
	if err := ex.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()}); !errors.Is(err, executor.ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	if n := len(submissions(t, srv, "electrician01")); n != 0 {
		t.Errorf("%d submissions", n)
	}
}

// TestEveryRequestHasADeadline: every request to the site — the page read
// for fresh tokens and the submission — has a deadline, also through a
// caller's HTTPClient whose Timeout is zero (http.DefaultClient's): it
// gets the default's 30 s; a Timeout the caller set is kept. Before, such
// a client's requests had none, and a site that never answered held the
// call for as long as the caller's context allowed, for ever over stdio.
func TestEveryRequestHasADeadline(t *testing.T) {
	for _, tt := range []struct {
		name    string
		timeout time.Duration // the caller's client's
		want    time.Duration // the most a request may have left
	}{
		{"no timeout", 0, 30 * time.Second},
		{"the caller's", 5 * time.Second, 5 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, graph := site(t, "wpforms01") // its form has tokens: the page is read first
			tr := &deadlineTransport{next: http.DefaultTransport}
			st := openStore(t)
			ex := newExecutor(t, st, executor.Options{HTTPClient: &http.Client{Timeout: tt.timeout, Transport: tr}})
			if _, err := ex.Execute(t.Context(), executor.Call{Action: confirmed(t, st, graph, wpformsID), Input: wpformsInput()}); err != nil {
				t.Fatal(err)
			}
			tr.mu.Lock()
			defer tr.mu.Unlock()
			if len(tr.left) != 2 {
				t.Fatalf("%d requests, want the page's and the submission", len(tr.left))
			}
			for i, left := range tr.left {
				if left <= 0 || left > tt.want {
					t.Errorf("request %d had %v left before its deadline, want some, at most %v", i, left, tt.want)
				}
			}
			if n := len(submissions(t, srv, "wpforms01")); n != 1 {
				t.Errorf("%d submissions, want 1", n)
			}
		})
	}
}

// deadlineTransport records how long each request had before its
// context's deadline (0: none).
type deadlineTransport struct {
	next http.RoundTripper
	mu   sync.Mutex
	left []time.Duration
}

func (d *deadlineTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var left time.Duration
	if dl, ok := r.Context().Deadline(); ok {
		left = time.Until(dl)
	}
	d.mu.Lock()
	d.left = append(d.left, left)
	d.mu.Unlock()
	return d.next.RoundTrip(r)
}
