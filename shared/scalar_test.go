package shared

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// timestampCase is one entry of testdata/timestamps.json, the profile's cases
// shared with the JSON Schema's differential test.
type timestampCase struct {
	Value string `json:"value"`
	Why   string `json:"why"`
}

func timestampCases(t *testing.T) (valid, invalid []timestampCase) {
	t.Helper()
	var f struct{ Valid, Invalid []timestampCase }
	if err := json.Unmarshal(mustRead(t, "testdata/timestamps.json"), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Valid) == 0 || len(f.Invalid) == 0 {
		t.Fatal("testdata/timestamps.json has no cases")
	}
	return f.Valid, f.Invalid
}

// TestReadTimestampProfile: the reader refuses every timestamp outside the
// profile — offsets past 23:59, lower-case t and z, leap seconds — with
// timestamp.invalid at the timestamp's own path and nothing else, wherever
// the timestamp sits, and accepts (and round-trips) every one inside it.
func TestReadTimestampProfile(t *testing.T) {
	valid, invalid := timestampCases(t)
	doc := mustRead(t, "testdata/docs/valid/verified.json")
	g, issues := Read(doc)
	if g == nil {
		t.Fatalf("verified.json does not read:\n%s", formatIssues(issues))
	}
	act, err := WriteAction(&g.Actions[0])
	if err != nil {
		t.Fatal(err)
	}
	readGraph := func(b []byte) (bool, []Issue) { g, is := Read(b); return g != nil, is }
	readAction := func(b []byte) (bool, []Issue) { a, is := ReadAction(b); return a != nil, is }
	// Where a timestamp is substituted: the document, the original text and
	// the path the issue must carry.
	places := []struct {
		name string
		doc  []byte
		read func([]byte) (bool, []Issue)
		old  string
		path string
	}{
		{"generatedAt", doc, readGraph, `"generatedAt": "2026-08-25T08:39:12.596Z"`, "$.generatedAt"},
		{"confirmedAt", doc, readGraph, `"confirmedAt": "2026-09-01T10:00:00Z"`, "$.actions[0].verification.confirmation.confirmedAt"},
		{"sandbox run at", doc, readGraph, `"at": "2026-08-30T09:00:00+10:00"`, "$.actions[0].verification.sandboxRuns[0].at"},
		{"ReadAction confirmedAt", act, readAction, `"confirmedAt": "2026-09-01T10:00:00Z"`, "$.verification.confirmation.confirmedAt"},
	}
	run := func(tc timestampCase, wantValid bool) {
		t.Run(tc.Why+"/"+tc.Value, func(t *testing.T) {
			if got := Timestamp(tc.Value).Valid(); got != wantValid {
				t.Errorf("Timestamp(%q).Valid() = %t, want %t", tc.Value, got, wantValid)
			}
			_, err := Timestamp(tc.Value).Time()
			var pe *time.ParseError
			if wantValid && err != nil || !wantValid && !errors.As(err, &pe) {
				t.Errorf("Timestamp(%q).Time() error = %v, want a *time.ParseError exactly when invalid", tc.Value, err)
			}
			for _, pl := range places {
				if !bytes.Contains(pl.doc, []byte(pl.old)) {
					t.Fatalf("%s: the document no longer holds %s", pl.name, pl.old)
				}
				key, _, _ := bytes.Cut([]byte(pl.old), []byte(": "))
				lit, _ := json.Marshal(tc.Value)
				data := bytes.Replace(pl.doc, []byte(pl.old), append(append(key, ": "...), lit...), 1)
				ok, issues := pl.read(data)
				if wantValid {
					if !ok {
						t.Errorf("%s: the reader refused a valid timestamp:\n%s", pl.name, formatIssues(issues))
					} else if pl.name == "confirmedAt" {
						g, _ := Read(data)
						checkRoundTrip(t, g)
					}
					continue
				}
				want := []string{pl.path + " " + string(IssueTimestampInvalid)}
				var got []string
				for _, is := range issues {
					got = append(got, is.Path+" "+string(is.Code))
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: issues (-want +got):\n%s", pl.name, diff)
				}
			}
		})
	}
	for _, tc := range valid {
		run(tc, true)
	}
	for _, tc := range invalid {
		run(tc, false)
	}
}
