package executor_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
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
	var lastJSON map[string]any
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Content-Type") == "application/json" {
			b, _ := io.ReadAll(req.Body)
			lastJSON = nil
			_ = json.Unmarshal(b, &lastJSON)
		}
		r.record(req)
	})
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
			var got url.Values
			if tr.transport == shared.TransportJSONEndpoint {
				got = url.Values{}
				for k, v := range lastJSON {
					got[k] = []string{v.(string)}
				}
			} else {
				site.mu.Lock()
				got = site.forms[len(site.forms)-1]
				site.mu.Unlock()
			}
			if diff := cmp.Diff(goodCallbackSent(), got); diff != "" {
				t.Errorf("the site received (-want +got):\n%s", diff)
			}
			gotSent := url.Values{}
			for _, f := range res.Sent {
				gotSent.Add(f.Name, f.Value)
			}
			if diff := cmp.Diff(goodCallbackSent(), gotSent); diff != "" {
				t.Errorf("Result.Sent (-want +got):\n%s", diff)
			}
		})
	}
}
