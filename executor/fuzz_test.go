package executor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/shared"
)

// FuzzAgentInput: whatever an agent sends as a confirmed action's input, the
// executor refuses it and nothing reaches the site, or fires it and the
// site receives exactly the form's fields — the declared inputs, the
// honeypot empty — and never a panic.
func FuzzAgentInput(f *testing.F) {
	for _, s := range []string{
		`{"full_name": "Ana Ruiz", "phone": "+64 9 828 7400", "call_window": "morning"}`,
		`{"full_name": 7, "phone": true, "call_window": ["morning", "evening"]}`,
		`{"full_name": "Ana", "phone": "+64 9 828 7400", "call_window": "midnight"}`,
		`{"full_name": "Ana", "phone": "+64 9 828 7400", "call_window": "morning", "website": "http://spam.example"}`,
		`{"full_name": "Ana", "phone": "+64 9 828 7400", "call_window": "morning", "admin": "1"}`,
		`{"full_name": {"a": 1}, "phone": null, "call_window": "morning"}`,
		`{"full_name": "` + string(bytes.Repeat([]byte("x"), 5000)) + `", "phone": "1", "call_window": "morning"}`,
		`{"full_name": "Ana\u0000", "phone": "+64 9 828 7400\r\nX-Injected: 1", "call_window": "morning"}`,
		`{"full_name": "Ana", "phone": {"name": "a.pdf", "content": "AAAA"}, "call_window": "morning"}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	srv, graph := site(f, "electrician01")
	st := openStore(f)
	ex := newExecutor(f, st, executor.Options{})
	action := executortest.ConfirmAction(f, st, graph, callback, executortest.Limits(1<<30, shared.PerDay, "owner@example.test"))
	a, issues := shared.ReadAction(action)
	if len(issues) > 0 {
		f.Fatal(issues)
	}
	var form []string
	for _, in := range a.Inputs {
		form = append(form, in.Name)
	}
	slices.Sort(form)
	// The property holds only if good input does fire.
	if res, err := ex.Execute(f.Context(), executor.Call{Action: action, Input: goodCallback()}); err != nil || res.Status != 200 {
		f.Fatalf("the good input does not fire: %v", err)
	}

	f.Fuzz(func(t *testing.T, raw []byte) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var input map[string]any
		if dec.Decode(&input) != nil || input == nil {
			return
		}
		before := len(submissions(t, srv, "electrician01"))
		res, err := ex.Execute(t.Context(), executor.Call{Action: action, Input: input})
		subs := submissions(t, srv, "electrician01")
		var re *executor.RefusedError
		switch {
		case errors.As(err, &re):
			if len(subs) != before {
				t.Fatalf("refused (%v) but the site received %d submissions", err, len(subs)-before)
			}
		case err != nil:
			t.Fatalf("neither fired nor refused: %v", err)
		default:
			if len(subs) != before+1 {
				t.Fatalf("fired (status %d) but the site received %d submissions", res.Status, len(subs)-before)
			}
			got := subs[len(subs)-1].Fields
			var keys []string
			for k := range got {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, form) {
				t.Fatalf("the site received the fields %v, want exactly the form's %v", keys, form)
			}
			if got.Get("website") != "" {
				t.Fatalf("the honeypot was sent %q", got.Get("website"))
			}
		}
	})
}
