package verifier

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// Reads of the page's own files go through until the sandbox begins filling
// the form, and never after; every submission-like request is answered by
// the sandbox, or failed when it is bound for another origin than the
// graph's endpoint.
func TestRouteRequest(t *testing.T) {
	const page, api, other = "http://127.0.0.1:1000", "http://127.0.0.1:2000", "http://127.0.0.1:3000"
	cases := []struct {
		name, method, url string
		rt                proto.NetworkResourceType
		endpointOrigin    string
		want              route
		filling           bool // the sandbox has begun filling the form (or submitted it)
	}{
		{"own script", "GET", page + "/app.js", proto.NetworkResourceTypeScript, page, routePass, false},
		{"own image", "GET", page + "/logo.png", proto.NetworkResourceTypeImage, page, routePass, false},
		{"foreign script", "GET", "https://www.google.com/recaptcha/api.js", proto.NetworkResourceTypeScript, page, routeBlock, false},
		{"form post", "POST", page + "/send", proto.NetworkResourceTypeDocument, page, routeAnswer, false},
		{"form get navigation", "GET", page + "/book/?date=x", proto.NetworkResourceTypeDocument, page, routeAnswer, false},
		{"fetch json", "POST", page + "/api", proto.NetworkResourceTypeFetch, page, routeAnswer, false},
		{"xhr get", "GET", page + "/api?q=1", proto.NetworkResourceTypeXHR, page, routeAnswer, false},
		{"beacon", "POST", page + "/collect", proto.NetworkResourceTypePing, page, routeAnswer, false},
		{"a POST typed as an image is still a submission", "POST", page + "/pixel", proto.NetworkResourceTypeImage, page, routeAnswer, false},
		{"post to another origin", "POST", other + "/collect", proto.NetworkResourceTypeDocument, page, routeRefuse, false},
		{"preflight to another origin", "OPTIONS", other + "/api", proto.NetworkResourceTypePreflight, page, routeRefuse, false},
		{"endpoint on another origin is answered", "POST", api + "/submit", proto.NetworkResourceTypeFetch, api, routeAnswer, false},
		{"then the page's own origin is not the endpoint", "POST", page + "/submit", proto.NetworkResourceTypeFetch, api, routeRefuse, false},
		{"no endpoint: the page's origin", "POST", page + "/x", proto.NetworkResourceTypeFetch, "", routeAnswer, false},
		{"data url", "GET", "data:text/plain,hi", proto.NetworkResourceTypeFetch, page, routePass, false},
		{"a pixel carrying a field while the form is filled", "GET", page + "/px.gif?name=Sandy", proto.NetworkResourceTypeImage, page, routeBlock, true},
		{"a script added while the form is filled", "GET", page + "/field.js?name=Sandy", proto.NetworkResourceTypeScript, page, routeBlock, true},
		{"a fetch while the form is filled is answered", "GET", page + "/autosave?name=Sandy", proto.NetworkResourceTypeFetch, page, routeAnswer, true},
		{"own image after the submit", "GET", page + "/spinner.gif", proto.NetworkResourceTypeImage, page, routeBlock, true},
		{"a pixel carrying the form after the submit", "GET", page + "/t.gif?name=Sandy", proto.NetworkResourceTypeImage, page, routeBlock, true},
		{"a foreign pixel after the submit", "GET", other + "/t.gif?name=Sandy", proto.NetworkResourceTypeImage, page, routeBlock, true},
		{"own image with a query before the submit", "GET", page + "/logo.png?v=3", proto.NetworkResourceTypeImage, page, routePass, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := routeRequest(tc.method, tc.url, tc.rt, page, tc.endpointOrigin, tc.filling); got != tc.want {
				t.Errorf("routeRequest = %d, want %d", got, tc.want)
			}
		})
	}
}

// The fields of an intercepted request, in the order sent, for every body
// a form or a script sends.
func TestInterceptedFields(t *testing.T) {
	multipartBody := "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nSandy Test\r\n" +
		"--XyZ\r\nContent-Disposition: form-data; name=\"cv\"; filename=\"frontlatch-sandbox.pdf\"\r\nContent-Type: application/pdf\r\n\r\n12345\r\n" +
		"--XyZ\r\nContent-Disposition: form-data; name=\"ok\"\r\n\r\nyes\r\n--XyZ--\r\n"
	cases := []struct {
		name      string
		req       interceptedRequest
		transport shared.Transport
		want      []shared.SubmittedField
		wantErr   bool
	}{
		{"urlencoded keeps order and repeats", interceptedRequest{Method: "POST", ResourceType: "Document", ContentType: "application/x-www-form-urlencoded",
			Body: []byte("z=1&a=Sandy+Test&a=%C3%A9&empty=")}, shared.TransportFormPost,
			[]shared.SubmittedField{{Name: "z", Value: "1"}, {Name: "a", Value: "Sandy Test"}, {Name: "a", Value: "é"}, {Name: "empty", Value: ""}}, false},
		{"get query", interceptedRequest{Method: "GET", URL: "http://h/book/?date=2026-12-15&party=2#top", ResourceType: "Document"}, shared.TransportFormGet,
			[]shared.SubmittedField{{Name: "date", Value: "2026-12-15"}, {Name: "party", Value: "2"}}, false},
		{"multipart records files by name and size", interceptedRequest{Method: "POST", ResourceType: "Document", ContentType: "multipart/form-data; boundary=XyZ",
			Body: []byte(multipartBody)}, shared.TransportFormPost,
			[]shared.SubmittedField{{Name: "name", Value: "Sandy Test"}, {Name: "cv", Value: "file frontlatch-sandbox.pdf (5 bytes)"}, {Name: "ok", Value: "yes"}}, false},
		{"json object in order, non-strings compact", interceptedRequest{Method: "POST", ResourceType: "Fetch", ContentType: "application/json; charset=utf-8",
			Body: []byte(`{"name":"Sandy","party":2, "tags":[ "a", "b" ],"ok":true}`)}, shared.TransportJSONEndpoint,
			[]shared.SubmittedField{{Name: "name", Value: "Sandy"}, {Name: "party", Value: "2"}, {Name: "tags", Value: `["a","b"]`}, {Name: "ok", Value: "true"}}, false},
		{"json array is one field", interceptedRequest{Method: "POST", ResourceType: "XHR", ContentType: "application/vnd.api+json", Body: []byte(`[1,2]`)},
			shared.TransportJSONEndpoint, []shared.SubmittedField{{Name: "$", Value: "[1,2]"}}, false},
		{"text/plain form", interceptedRequest{Method: "POST", ResourceType: "Document", ContentType: "text/plain", Body: []byte("a=1\r\nb=two words\r\n")},
			shared.TransportFormPost, []shared.SubmittedField{{Name: "a", Value: "1"}, {Name: "b", Value: "two words"}}, false},
		{"script posting form data is a form post", interceptedRequest{Method: "POST", ResourceType: "XHR", ContentType: "application/x-www-form-urlencoded", Body: []byte("a=1")},
			shared.TransportFormPost, []shared.SubmittedField{{Name: "a", Value: "1"}}, false},
		{"broken json", interceptedRequest{Method: "POST", ResourceType: "Fetch", ContentType: "application/json", Body: []byte(`{"a":`)},
			shared.TransportJSONEndpoint, []shared.SubmittedField{}, true},
		{"body withheld by the browser", interceptedRequest{Method: "POST", ResourceType: "Document", ContentType: "multipart/form-data; boundary=q", BodyMissing: true},
			shared.TransportFormPost, []shared.SubmittedField{}, true},
		{"octet stream", interceptedRequest{Method: "PUT", ResourceType: "Fetch", ContentType: "application/octet-stream", Body: []byte{1, 2}},
			shared.TransportUnknown, []shared.SubmittedField{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.req.fields()
			if (err != nil) != tc.wantErr {
				t.Errorf("fields error = %v, want error: %v", err, tc.wantErr)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("fields (-want +got):\n%s", d)
			}
			if d := tc.req.door(); d.Transport != tc.transport || d.ByScript != (tc.req.ResourceType != "Document") {
				t.Errorf("door = %+v, want transport %s", d, tc.transport)
			}
		})
	}
}

// A hostile page cannot make a run record unbounded data.
func TestInterceptedFieldsBounded(t *testing.T) {
	body := "big=" + strings.Repeat("é", maxFieldBytes) + strings.Repeat("&k=v", maxFields+10)
	got, err := interceptedRequest{Method: "POST", ContentType: "application/x-www-form-urlencoded", Body: []byte(body)}.fields()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxFields {
		t.Errorf("%d fields recorded, want at most %d", len(got), maxFields)
	}
	if v := got[0].Value; len(v) > maxFieldBytes+len("…") || !strings.HasSuffix(v, "…") || !utf8.ValidString(v) {
		t.Errorf("a %d-byte value was recorded as %d bytes (valid UTF-8: %v), want it cut to %d and marked", 2*maxFieldBytes, len(v), utf8.ValidString(v), maxFieldBytes)
	}
}

// The submission is the request that carries the form, not whatever the
// page sent first (an analytics beacon, say).
func TestPickSubmission(t *testing.T) {
	beacon := paused{req: interceptedRequest{Method: "POST", URL: "https://analytics.example/collect", ResourceType: "Ping",
		ContentType: "text/plain", Body: []byte("event=form_submit")}, refused: true}
	ping := paused{req: interceptedRequest{Method: "POST", URL: "http://h/track", ResourceType: "Ping"}}
	form := paused{req: interceptedRequest{Method: "POST", URL: "http://h/send", ResourceType: "Document",
		ContentType: "application/x-www-form-urlencoded", Body: []byte("name=Sandy+Test&message=This+is+a+Frontlatch+sandbox+test+message")}}
	elsewhere := paused{req: interceptedRequest{Method: "POST", URL: "http://evil/x", ResourceType: "Document",
		ContentType: "application/x-www-form-urlencoded", Body: []byte("name=Sandy+Test")}, refused: true}
	values := []string{"Sandy Test", "This is a Frontlatch sandbox test message. Please ignore it: nothing was sent."}
	cases := []struct {
		name string
		reqs []paused
		want paused
	}{
		{"the form after a beacon", []paused{beacon, form}, form},
		{"the form after an own ping", []paused{ping, form}, form},
		{"a refused form is still the form", []paused{beacon, elsewhere}, elsewhere},
		{"nothing carries the form: the first not refused", []paused{beacon, ping}, ping},
		{"only refused: the first", []paused{beacon}, beacon},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := pickSubmission(tc.reqs, values)
			if got.req.URL != tc.want.req.URL {
				t.Errorf("picked %s, want %s", got.req.URL, tc.want.req.URL)
			}
		})
	}
}

func TestSameEndpoint(t *testing.T) {
	cases := []struct {
		a, b string
		t    shared.Transport
		want bool
	}{
		{"http://h:80/send", "http://h/send", shared.TransportFormPost, true},
		{"http://H/send", "http://h/send", shared.TransportFormPost, true},
		{"http://h/book/", "http://h/book/?date=1", shared.TransportFormGet, true},
		{"http://h/send", "http://h/send?x=1", shared.TransportFormPost, false},
		{"http://h/send", "http://h/send/", shared.TransportFormPost, false},
		{"http://h:1/send", "http://h:2/send", shared.TransportFormPost, false},
		{"http://h", "http://h/", shared.TransportFormPost, true},
	}
	for _, tc := range cases {
		if got := sameEndpoint(tc.a, tc.b, tc.t); got != tc.want {
			t.Errorf("sameEndpoint(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// judge, branch by branch, without a browser.
func TestJudge(t *testing.T) {
	a := shared.NewAction("t:contact:c", shared.KindContact, "Contact", "http://h/")
	a.Inputs = []shared.Input{{Name: "name", Type: "text", Required: true, AgentFillable: true}}
	barred := a
	barred.Barriers = []shared.Barrier{{Kind: shared.BarrierCaptcha, Detail: ptr("reCAPTCHA v3")}}
	mapped := Door{Transport: shared.TransportFormPost, Method: "POST", Endpoint: "http://h/send", ContentType: "application/x-www-form-urlencoded"}
	post := &interceptedRequest{Method: "POST", URL: "http://h/send", ResourceType: "Document", ContentType: "application/x-www-form-urlencoded", Body: []byte("name=Sandy")}
	found := func(o observation) *observation {
		o.pageURL, o.doorFound, o.submitFound = "http://h/", true, true
		if o.submitHow == "" {
			o.submitHow = "clicked the submit control"
		}
		if o.inputs == nil {
			o.inputs = []inputResult{{Name: "name", Found: true}}
		}
		return &o
	}
	cases := []struct {
		name     string
		a        shared.Action
		fills    []fill
		obs      *observation
		outcome  shared.SandboxOutcome
		note     string
		mismatch string
	}{
		{"intercepted as mapped", a, nil, found(observation{request: post}), shared.SandboxPassed, "intercepted: the browser's form submission sent POST http://h/send", ""},
		{"barrier", barred, nil, found(observation{request: post}), shared.SandboxFailed, "blocked by a barrier the graph lists: captcha (reCAPTCHA v3)", ""},
		{"refused origin", a, nil, found(observation{request: &interceptedRequest{Method: "POST", URL: "http://evil/x", ResourceType: "Document", ContentType: "application/x-www-form-urlencoded"}, refused: true}),
			shared.SandboxFailed, "refused: the browser's form submission would have sent POST http://evil/x", "origin: the request would reach http://evil"},
		{"other encoding", a, nil, found(observation{request: &interceptedRequest{Method: "POST", URL: "http://h/send", ResourceType: "Document", ContentType: "multipart/form-data; boundary=b"}}),
			shared.SandboxFailed, "observed-runtime: form-post POST http://h/send (multipart/form-data)", "encoding: the graph says application/x-www-form-urlencoded"},
		{"client-side validation", a, nil, found(observation{invalid: []invalidField{{Name: "name", Message: "Please fill in this field."}}}),
			shared.SandboxFailed, "refused by client-side validation, nothing was sent: name: Please fill in this field.", ""},
		{"no request", a, nil, found(observation{}), shared.SandboxFailed, "no request: the form was submitted (clicked the submit control) and the browser sent nothing within 5s", ""},
		{"timed out", a, nil, found(observation{timedOut: "click: timed out"}), shared.SandboxUnknown, "timed out: click: timed out", ""},
		{"impossible rules", a, []fill{{Name: "name", Kind: fillUnable, Why: "no value meets every declared rule"}}, found(observation{request: post}),
			shared.SandboxUnknown, "no value meets every declared rule of name", ""},
		{"required input missing", a, nil, found(observation{request: post, inputs: []inputResult{{Name: "name"}}}),
			shared.SandboxFailed, "inputs not found on the page: name", "the required input name is not on the page"},
		{"form missing", a, nil, &observation{pageURL: "http://h/"}, shared.SandboxFailed, "the form was not found on the page http://h/", "the form the graph maps is not on http://h/"},
		{"submit control missing", a, nil, &observation{pageURL: "http://h/", doorFound: true, inputs: []inputResult{{Name: "name", Found: true}}},
			shared.SandboxFailed, "the submit control the graph records was not found", ""},
		{"page answered 404", a, nil, found(observation{status: 404}), shared.SandboxFailed, "the door's page http://h/ answered HTTP 404", ""},
		{"a GET's endpoint is where it goes, its query the fields", a, nil,
			found(observation{request: &interceptedRequest{Method: "GET", URL: "http://h/send?name=Sandy", ResourceType: "Document"}}),
			shared.SandboxFailed, "observed-runtime: form-get GET http://h/send.", "transport: the graph says form-post, the browser sent form-get"},
		{"reads stopped once filling began are counted and named", a, nil,
			found(observation{request: post, stopped: 5, stoppedSeen: []string{"GET http://h/px.gif?name=Sandy", "GET http://h/f.js?name=Sandy", "GET http://h/px.gif?e=change"}}),
			shared.SandboxPassed, "5 read(s) of files the page made once the sandbox began filling the form were stopped, none let through: GET http://h/px.gif?name=Sandy, GET http://h/f.js?name=Sandy, GET http://h/px.gif?e=change.", ""},
		{"requests stopped before the submit are counted and named", a, nil,
			found(observation{request: post, early: 2, earlySeen: []string{"POST http://h/autosave", "POST http://evil/collect"}}),
			shared.SandboxPassed, "2 request(s) the page sent before the submit were stopped too (answered by the sandbox, or failed when bound for another origin): POST http://h/autosave, POST http://evil/collect.", ""},
	}
	t.Run("a hostile page's messages are bounded", func(t *testing.T) {
		var invalid []invalidField
		for range 50 {
			invalid = append(invalid, invalidField{Name: strings.Repeat("n", 1000), Message: strings.Repeat("<script>", 1000)})
		}
		v := judge(&a, mapped, nil, found(observation{invalid: invalid}), time.Second)
		if len(v.note) > maxNote+len("…") || !strings.Contains(v.note, "and 40 more") {
			t.Errorf("note of %d bytes (%q…), want at most %d naming ten fields and 40 more", len(v.note), v.note[:80], maxNote)
		}
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := judge(&tc.a, mapped, tc.fills, tc.obs, 5*time.Second)
			if v.outcome != tc.outcome {
				t.Errorf("outcome %s, want %s (note %q)", v.outcome, tc.outcome, v.note)
			}
			if strings.Contains(v.note, "..") {
				t.Errorf("note %q doubles a full stop", v.note)
			}
			if !strings.Contains(v.note, tc.note) {
				t.Errorf("note %q lacks %q", v.note, tc.note)
			}
			if v.fields == nil {
				t.Error("fields must never be nil (the contract writes [] for none)")
			}
			switch {
			case tc.mismatch == "" && v.mismatch != nil:
				t.Errorf("unexpected mismatch %v", v.mismatch)
			case tc.mismatch != "" && (v.mismatch == nil || !strings.Contains(strings.Join(v.mismatch.Differences, "\n"), tc.mismatch)):
				t.Errorf("mismatch %v, want one saying %q", v.mismatch, tc.mismatch)
			}
		})
	}
}

// withRun moves unverified (keeping its note) and sandbox-tested to
// sandbox-tested, keeps verified, and never aliases the earlier runs.
func TestWithRun(t *testing.T) {
	r1, r2 := shared.SandboxRun{RunID: "r1"}, shared.SandboxRun{RunID: "r2"}
	note := ptr("needs your confirmation again: summary drifted")
	earlier := make([]shared.SandboxRun, 1, 4)
	earlier[0] = r1
	cases := []struct {
		name string
		in   shared.VerificationState
		want shared.VerificationState
	}{
		{"nil", nil, shared.SandboxTested{SandboxRuns: []shared.SandboxRun{r2}}},
		{"unverified keeps its note", shared.Unverified{Note: note}, shared.SandboxTested{SandboxRuns: []shared.SandboxRun{r2}, Note: note}},
		{"sandbox-tested appends", shared.SandboxTested{SandboxRuns: earlier}, shared.SandboxTested{SandboxRuns: []shared.SandboxRun{r1, r2}}},
		{"verified stays verified", shared.Verified{Confirmation: shared.OwnerConfirmation{ConfirmedBy: "o"}, SandboxRuns: earlier},
			shared.Verified{Confirmation: shared.OwnerConfirmation{ConfirmedBy: "o"}, SandboxRuns: []shared.SandboxRun{r1, r2}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, withRun(tc.in, r2)); d != "" {
				t.Errorf("withRun (-want +got):\n%s", d)
			}
			if len(earlier[:cap(earlier)][1].RunID) != 0 {
				t.Error("withRun wrote into the earlier runs' backing array")
			}
		})
	}
}

// A page chooses the names as well as the values it sends: names are cut
// like values, and both are made valid UTF-8, so whatever the page sends,
// the run is written into the graph (the contract's writer refuses a
// string that is not UTF-8, which lost the run).
func TestInterceptedFieldsNamesBoundedAndUTF8(t *testing.T) {
	long := strings.Repeat("n", 2*maxFieldBytes)
	for _, req := range []interceptedRequest{
		{Method: "POST", ContentType: "application/x-www-form-urlencoded", Body: []byte("na%FFme=v%FEal&" + long + "=v")},
		{Method: "GET", URL: "http://h/book/?na%FFme=v%FEal&" + long + "=v"},
		{Method: "POST", ContentType: "text/plain", Body: []byte("na\xffme=v\xfeal\r\n" + long + "=v\r\n")},
		{Method: "POST", ContentType: "application/json", Body: []byte("{\"na\xffme\":\"v\xfeal\",\"" + long + "\":\"v\"}")},
		{Method: "POST", ContentType: "multipart/form-data; boundary=XyZ", Body: []byte("--XyZ\r\nContent-Disposition: form-data; name=\"na\xffme\"\r\n\r\nv\xfeal\r\n" +
			"--XyZ\r\nContent-Disposition: form-data; name=\"" + long + "\"; filename=\"a\xff.pdf\"\r\n\r\n12345\r\n--XyZ--\r\n")},
	} {
		t.Run(req.ContentType+req.Method, func(t *testing.T) {
			got, err := req.fields()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d fields, want 2", len(got))
			}
			for _, f := range got {
				if !utf8.ValidString(f.Name) || !utf8.ValidString(f.Value) {
					t.Errorf("field %.20q = %.20q is not valid UTF-8", f.Name, f.Value)
				}
				if len(f.Name) > maxFieldBytes+len("…") || len(f.Value) > maxFieldBytes+len("…") {
					t.Errorf("a field of %d and %d bytes was recorded, want each cut to %d", len(f.Name), len(f.Value), maxFieldBytes)
				}
			}
			a := mappedGraph(t).Actions[0]
			a.Verification = shared.SandboxTested{SandboxRuns: []shared.SandboxRun{{RunID: "sbx-0000000000000000", At: "2026-12-01T21:00:00.000Z",
				By: sandboxBy, Outcome: shared.SandboxPassed, Fields: got}}}
			if _, err := shared.WriteAction(&a); err != nil {
				t.Errorf("a run with these fields does not write: %v", err)
			}
		})
	}
}

// A page may post to a URL of megabytes (a form's action with a long
// query). The run records the endpoint cut to maxEndpointBytes, as valid
// UTF-8, so it still writes; the note names it shorter still, so the notes
// after it (what else was stopped) are not clipped away.
func TestJudgeBoundsTheEndpoint(t *testing.T) {
	a := shared.NewAction("t:contact:c", shared.KindContact, "Contact", "http://h/")
	a.Inputs = []shared.Input{{Name: "name", Type: "text", Required: true, AgentFillable: true}}
	mapped := Door{Transport: shared.TransportFormPost, Method: "POST", Endpoint: "http://h/send", ContentType: "application/x-www-form-urlencoded"}
	tests := []struct {
		name, url string
		mismatch  bool
	}{
		{"a long query of bytes that are not UTF-8", "http://h/send?q=" + strings.Repeat("%FF", 700_000), true},
		{"elsewhere on the origin, a long path", "http://h/" + strings.Repeat("a/", 1_000_000), true},
		{"a cut inside a character", "http://h/send?x=" + strings.Repeat("é", 2*maxEndpointBytes), true},
		{"raw bytes that are not UTF-8", "http://h/send?x=" + strings.Repeat("\xff", 3*maxEndpointBytes), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs := &observation{pageURL: "http://h/", doorFound: true, submitFound: true, submitHow: "clicked the submit control",
				inputs:  []inputResult{{Name: "name", Found: true}},
				request: &interceptedRequest{Method: "POST", URL: tt.url, ResourceType: "Document", ContentType: "application/x-www-form-urlencoded", Body: []byte("name=Sandy")},
				stopped: 1, stoppedSeen: []string{"GET http://h/px.gif"}}
			v := judge(&a, mapped, nil, obs, time.Second)
			if v.endpoint == nil {
				t.Fatal("no endpoint recorded")
			}
			ep := *v.endpoint
			if len(ep) > maxEndpointBytes+len("…") || !strings.HasPrefix(ep, "http://h/") || !utf8.ValidString(ep) {
				t.Errorf("endpoint of %d bytes (%.60q…), want the URL's start, at most %d bytes, valid UTF-8", len(ep), ep, maxEndpointBytes)
			}
			if !strings.Contains(v.note, "1 read(s) of files the page made") {
				t.Errorf("the note (%d bytes) lost what follows the endpoint: %.200q…", len(v.note), v.note)
			}
			if got := v.mismatch != nil; got != tt.mismatch {
				t.Fatalf("mismatch %v, want one: %v", v.mismatch, tt.mismatch)
			}
			if v.mismatch != nil && len(v.mismatch.Error()) > 2*maxNote {
				t.Errorf("the mismatch's message is %d bytes", len(v.mismatch.Error()))
			}
			run := mappedGraph(t).Actions[0]
			run.Verification = shared.SandboxTested{SandboxRuns: []shared.SandboxRun{{RunID: "sbx-0000000000000000", At: "2026-12-01T21:00:00.000Z",
				By: sandboxBy, Outcome: v.outcome, Endpoint: v.endpoint, Fields: v.fields, Note: &v.note}}}
			if _, err := shared.WriteAction(&run); err != nil {
				t.Errorf("the run does not write: %v", err)
			}
		})
	}
}
