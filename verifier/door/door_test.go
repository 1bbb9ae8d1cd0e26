package door_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/door"
)

const origin = "https://example.test"

func ptr(s string) *string { return &s }

// an access entry of method m whose submission (when t is not "") travels by
// t to endpoint ep ("" for none).
func access(m shared.AccessMethod, t shared.Transport, ep string) shared.Access {
	a := shared.Access{Method: m, URL: origin + "/page/", Occurrences: 1}
	if t != "" {
		a.Submission = &shared.Submission{Transport: t}
		if ep != "" {
			a.Submission.Endpoint = ptr(origin + ep)
		}
	}
	return a
}

func opaque(a shared.Access) shared.Access { a.Opaque = true; return a }

func TestOf(t *testing.T) {
	var (
		form      = access(shared.AccessHTMLForm, shared.TransportFormPost, "/send")
		getForm   = access(shared.AccessHTMLForm, shared.TransportFormGet, "/search")
		jsForm    = access(shared.AccessHTMLForm, shared.TransportJavascriptOnly, "")
		oddForm   = access(shared.AccessHTMLForm, shared.TransportUnknown, "")
		bareForm  = access(shared.AccessHTMLForm, "", "")
		api       = access(shared.AccessDocumentedEndpoint, shared.TransportJSONEndpoint, "/api/send")
		template  = access(shared.AccessDocumentedEndpoint, shared.TransportJSONEndpoint, "/api/slots/{date}")
		webmcp    = access(shared.AccessWebMCPTool, shared.TransportWebMCPExecute, "")
		tel       = access(shared.AccessTelLink, "", "")
		mailto    = access(shared.AccessMailtoLink, "", "")
		widget    = opaque(access(shared.AccessSchedulerWidget, shared.TransportJSONEndpoint, "/widget"))
		closedBox = opaque(form)
	)
	tests := []struct {
		name  string
		doors []shared.Access
		want  int
	}{
		{"one form", []shared.Access{form, tel}, 0},
		{"a json endpoint before the form", []shared.Access{api, form}, 1},
		{"a webmcp tool before a script-sent form", []shared.Access{webmcp, jsForm}, 1},
		{"a json endpoint before a script-sent form", []shared.Access{api, jsForm}, 1},
		{"a phone link before the form", []shared.Access{tel, getForm}, 1},
		{"the first of two forms", []shared.Access{getForm, form}, 0},
		{"an opaque form is passed over", []shared.Access{closedBox, api, form}, 2},
		// The sandbox runs a form whatever the graph knows of its submission:
		// what the browser sends is what to map. The executor then refuses.
		{"a form whose transport is unknown, before an endpoint", []shared.Access{api, oddForm}, 1},
		{"a form without a submission", []shared.Access{bareForm, webmcp}, 0},
		{"no form: the first sendable door", []shared.Access{tel, webmcp, api}, 1},
		{"no form: a templated endpoint is passed over", []shared.Access{template, webmcp}, 1},
		{"no form: an opaque widget is passed over", []shared.Access{widget, api}, 1},
		{"links only", []shared.Access{tel, mailto}, -1},
		{"nothing sendable", []shared.Access{template, widget}, -1},
		{"no doors", nil, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &shared.Action{ID: "test:contact:form", Access: tt.doors}
			got, i := door.Of(a)
			if diff := cmp.Diff(tt.want, i); diff != "" {
				t.Fatalf("index (-want +got):\n%s", diff)
			}
			switch {
			case i < 0 && got != nil:
				t.Errorf("Of = %+v with index -1", got)
			case i >= 0 && got != &a.Access[i]:
				t.Errorf("Of returned %p, not the action's own door %p", got, &a.Access[i])
			}
		})
	}
	if d, i := door.Of(nil); d != nil || i != -1 {
		t.Errorf("Of(nil) = %v, %d", d, i)
	}
}

func TestSendable(t *testing.T) {
	tests := []struct {
		name string
		d    shared.Access
		want bool
	}{
		{"form post", access(shared.AccessHTMLForm, shared.TransportFormPost, "/send"), true},
		{"form get", access(shared.AccessHTMLForm, shared.TransportFormGet, "/send"), true},
		{"json endpoint", access(shared.AccessDocumentedEndpoint, shared.TransportJSONEndpoint, "/api"), true},
		{"javascript-only without an endpoint", access(shared.AccessHTMLForm, shared.TransportJavascriptOnly, ""), true},
		{"webmcp", access(shared.AccessWebMCPTool, shared.TransportWebMCPExecute, ""), true},
		{"form post without an endpoint", access(shared.AccessHTMLForm, shared.TransportFormPost, ""), false},
		{"templated endpoint", access(shared.AccessDocumentedEndpoint, shared.TransportJSONEndpoint, "/api/{id}"), false},
		{"none", access(shared.AccessHTMLForm, shared.TransportNone, ""), false},
		{"unknown", access(shared.AccessHTMLForm, shared.TransportUnknown, "/send"), false},
		{"no submission", access(shared.AccessTelLink, "", ""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := door.Sendable(&tt.d); got != tt.want {
				t.Errorf("Sendable = %v, want %v", got, tt.want)
			}
		})
	}
	if door.Sendable(nil) {
		t.Error("Sendable(nil) = true")
	}
}

func TestRunnable(t *testing.T) {
	form := access(shared.AccessHTMLForm, shared.TransportFormPost, "/send")
	for _, tt := range []struct {
		name string
		d    *shared.Access
		want bool
	}{
		{"form", &form, true},
		{"opaque form", new(opaque(form)), false},
		{"webmcp", new(access(shared.AccessWebMCPTool, shared.TransportWebMCPExecute, "")), false},
		{"nil", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := door.Runnable(tt.d); got != tt.want {
				t.Errorf("Runnable = %v, want %v", got, tt.want)
			}
		})
	}
}
