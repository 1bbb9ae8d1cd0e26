package shared

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestReadBadInput: inputs no site would produce still end in a nil value and
// issues with a code from the closed list, never a panic or a hang.
func TestReadBadInput(t *testing.T) {
	hugeString := append(append([]byte(`{"schemaVersion":"0.1","graphId":"`), bytes.Repeat([]byte("x"), 4<<20)...), `"}`...)
	tests := []struct {
		name string
		data []byte
		want IssueCode // a code Read must report among its issues
	}{
		{"nil", nil, IssueJSONSyntax},
		{"empty", []byte{}, IssueJSONSyntax},
		{"only white space", []byte(" \n\t "), IssueJSONSyntax},
		{"null", []byte("null"), IssueTypeMismatch},
		{"a list", []byte("[]"), IssueTypeMismatch},
		{"deep nesting", bytes.Repeat([]byte("["), 1<<20), IssueTypeMismatch},
		{"deep objects", bytes.Repeat([]byte(`{"actions":`), 1<<16), IssueJSONTooDeep},
		{"huge string", hugeString, IssueKeyMissing},
		{"truncated", []byte(`{"schemaVersion":"0.1","graphId":"g`), IssueJSONSyntax},
		{"byte-order mark", []byte("\xef\xbb\xbf{}"), IssueJSONSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, read := range map[string]func([]byte) (any, []Issue){
				"Read":       func(b []byte) (any, []Issue) { g, is := Read(b); return g, is },
				"ReadAction": func(b []byte) (any, []Issue) { a, is := ReadAction(b); return a, is },
			} {
				v, issues := read(tt.data)
				if !isNil(v) {
					t.Errorf("%s returned a value for an invalid document", name)
				}
				if len(issues) == 0 {
					t.Fatalf("%s returned no issue", name)
				}
				for _, is := range issues {
					if !is.Code.Valid() || is.Path == "" || is.Message == "" {
						t.Errorf("%s: issue %+v lacks a valid code, a path or a message", name, is)
					}
				}
				if name == "Read" && !hasCode(issues, tt.want) {
					t.Errorf("Read: issues %v, want one with code %s", issues, tt.want)
				}
			}
		})
	}
}

func hasCode(issues []Issue, c IssueCode) bool {
	for _, is := range issues {
		if is.Code == c {
			return true
		}
	}
	return false
}

func isNil(v any) bool {
	switch v := v.(type) {
	case *ActionGraph:
		return v == nil
	case *Action:
		return v == nil
	}
	return v == nil
}

// TestGateBadInput: the consent gate refuses, with a typed error, whatever
// it is handed when it cannot prove consent.
func TestGateBadInput(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		action []byte
	}{
		{"nil bytes", context.Background(), nil},
		{"empty object", context.Background(), []byte("{}")},
		{"a graph, not an action", context.Background(), mustRead(t, "../fixtures/graphs/clinic01.json")},
		{"deep nesting", context.Background(), bytes.Repeat([]byte("["), 1<<20)},
		{"cancelled context", cancelled, nil},
		{"nil context", nil, []byte("{}")}, // a nil ctx must not panic
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := AssertLiveExecutionAllowedContext(tt.ctx, tt.action, nil)
			var ue *UnverifiedActionError
			if !errors.Is(err, ErrUnverifiedAction) || !errors.As(err, &ue) || len(ue.Reasons) == 0 {
				t.Fatalf("err = %v, want an *UnverifiedActionError with reasons", err)
			}
			if ue.Reasons[0].Reason != RefuseActionInvalid {
				t.Errorf("first reason %s, want %s", ue.Reasons[0].Reason, RefuseActionInvalid)
			}
		})
	}
}

// TestCompletenessNilGraph: no graph is a site where nothing was found.
func TestCompletenessNilGraph(t *testing.T) {
	r := GraphCompleteness(nil)
	if r.Actions != 0 || r.Mappability != 0 || len(r.PerAction) != 0 {
		t.Errorf("GraphCompleteness(nil) = %+v, want an empty report with mappability 0", r)
	}
}
