package executor

import (
	"encoding/json"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// TestAgentInputDiffers: only what the agent gave is compared — each
// agent-fillable input's values, in order, and files — and never what the
// page supplied (a nonce is new every call) or a honeypot.
func TestAgentInputDiffers(t *testing.T) {
	act := &shared.Action{Inputs: []shared.Input{
		{Name: "name", AgentFillable: true},
		{Name: "services", AgentFillable: true},
		{Name: "cv", AgentFillable: true},
		{Name: "_wpnonce", AgentFillable: false},
		{Name: "website", AgentFillable: false}, // the honeypot
	}}
	field := func(kv ...string) []shared.SubmittedField {
		var out []shared.SubmittedField
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, shared.SubmittedField{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	cv := SentFile{Field: "cv", Name: "cv.pdf", MediaType: "application/pdf", Size: 3, SHA256: "aa"}
	first := request{Fields: field("name", "Ana", "services", "a", "services", "b", "_wpnonce", "n1", "website", ""), Files: []SentFile{cv}}
	otherCV := cv
	otherCV.SHA256 = "bb"
	tests := []struct {
		name string
		now  request
		want string
	}{
		{"same input, new nonce", request{Fields: field("name", "Ana", "services", "a", "services", "b", "_wpnonce", "n2", "website", ""), Files: []SentFile{cv}}, ""},
		{"a value differs", request{Fields: field("name", "Ben", "services", "a", "services", "b", "_wpnonce", "n1"), Files: []SentFile{cv}}, `input "name" differs`},
		// Recorded in another order: chooseOptions sends (and so records)
		// an agent's choices in the page's order whatever the list's
		// (TestIdempotencySameChoices), so only a page that reordered its
		// options records them so.
		{"recorded values in another order", request{Fields: field("name", "Ana", "services", "b", "services", "a"), Files: []SentFile{cv}}, `input "services" differs`},
		{"a value left out", request{Fields: field("name", "Ana", "services", "a"), Files: []SentFile{cv}}, `input "services" differs`},
		{"another file", request{Fields: field("name", "Ana", "services", "a", "services", "b"), Files: []SentFile{otherCV}}, `input "cv" differs`},
		{"no file, another name", request{Fields: field("name", "Bo", "services", "a", "services", "b")}, `inputs "name", "cv" differ`},
	}
	raw, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agentInputDiffers(act, raw, tt.now); got != tt.want {
				t.Errorf("agentInputDiffers = %q, want %q", got, tt.want)
			}
		})
	}
	if got := agentInputDiffers(act, []byte("{not json"), first); got == "" {
		t.Error("a first request that does not decode compares equal")
	}
}
