package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/frontlatch/frontlatch/shared"
)

var update = flag.Bool("update", false, "rewrite the committed schema")

const schemaPath = "../../schema/action-graph-0.1.schema.json"

// TestSchemaUpToDate fails when the committed schema differs from what the
// Go types generate now; go test -update (or go generate) rewrites it.
func TestSchemaUpToDate(t *testing.T) {
	got, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatalf("%v; run go generate ./... in shared", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("schema is stale; run `go generate ./...` in shared (-want +got):\n%s", diff)
	}
}

// schemaCannotSay lists the corpus documents that are invalid only by a rule
// JSON Schema cannot express, with the rule. Every other document must get
// the same verdict from the schema as from shared.Read.
var schemaCannotSay = map[string]string{
	"duplicate-key":                  "duplicate keys: JSON parsers hand the schema one value, the last",
	"duplicate-key-different-values": "duplicate keys: JSON parsers hand the schema one value, the last",
	"invalid-utf8":                   "invalid UTF-8: encoding/json replaces it with U+FFFD before the schema sees it",
	"lone-surrogate":                 "escaped lone surrogates: encoding/json replaces them with U+FFFD",
	"confidence-one-not-owner":       "confidence exactly 1 only with method owner-confirmed (a cross-field rule)",
	"id-duplicate":                   "unique action ids (uniqueItems compares whole objects, not one key)",
	"reference-dangling":             "appliesTo must name an input of the same action",
	"length-min-above-max":           "minLength ≤ maxLength (a cross-field rule)",
}

// compile compiles the committed schema with format assertions on, as a
// strict validator would.
func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("action-graph.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("action-graph.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// schemaAccepts validates data against sch.
func schemaAccepts(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func TestDifferential(t *testing.T) {
	sch := compile(t)

	files, _ := filepath.Glob("../../testdata/docs/*/*.json")
	files = append(files, "../../../fixtures/graphs/clinic01.json")
	if len(files) < 10 {
		t.Fatalf("corpus too small: %d files", len(files))
	}
	used := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(filepath.Base(filepath.Dir(f))+"/"+name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, issues := shared.Read(data)
			readerOK := issues == nil
			schemaErr := schemaAccepts(sch, data)
			schemaOK := schemaErr == nil
			if reason, ok := schemaCannotSay[name]; ok {
				used[name] = true
				if readerOK || !schemaOK {
					t.Errorf("listed as beyond the schema (%s), but reader ok=%v, schema ok=%v (%v); update schemaCannotSay", reason, readerOK, schemaOK, schemaErr)
				}
				return
			}
			if readerOK != schemaOK {
				t.Errorf("reader ok=%v (%v), schema ok=%v (%v)", readerOK, issues, schemaOK, schemaErr)
			}
		})
	}
	for name := range schemaCannotSay {
		if !used[name] {
			t.Errorf("schemaCannotSay names %q, which is not in the corpus", name)
		}
	}
}

// TestDifferentialTimestamps gives the reader and the schema every case of
// the timestamp profile (../../testdata/timestamps.json, shared with the
// reader's own test) in every timestamp position of a verified graph: both
// must accept the valid ones and both must refuse the invalid ones, so the
// schema's pattern and the reader's Timestamp.Valid agree both ways.
func TestDifferentialTimestamps(t *testing.T) {
	sch := compile(t)
	var cases struct {
		Valid, Invalid []struct{ Value, Why string }
	}
	raw, err := os.ReadFile("../../testdata/timestamps.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cases); err != nil || len(cases.Valid) == 0 || len(cases.Invalid) == 0 {
		t.Fatalf("timestamps.json: %v (%d valid, %d invalid cases)", err, len(cases.Valid), len(cases.Invalid))
	}
	doc, err := os.ReadFile("../../testdata/docs/valid/verified.json")
	if err != nil {
		t.Fatal(err)
	}
	places := []string{
		`"generatedAt": "2026-08-25T08:39:12.596Z"`,
		`"confirmedAt": "2026-09-01T10:00:00Z"`,
		`"at": "2026-08-30T09:00:00+10:00"`,
	}
	for want, list := range map[bool][]struct{ Value, Why string }{true: cases.Valid, false: cases.Invalid} {
		for _, tc := range list {
			t.Run(fmt.Sprintf("valid=%t/%s/%s", want, tc.Why, tc.Value), func(t *testing.T) {
				for _, old := range places {
					if !bytes.Contains(doc, []byte(old)) {
						t.Fatalf("verified.json no longer holds %s", old)
					}
					key, _, _ := strings.Cut(old, ": ")
					lit, _ := json.Marshal(tc.Value)
					data := bytes.Replace(doc, []byte(old), []byte(key+": "+string(lit)), 1)
					_, issues := shared.Read(data)
					schemaErr := schemaAccepts(sch, data)
					if got := issues == nil; got != want {
						t.Errorf("%s: reader ok=%t (%v), want %t", key, got, issues, want)
					}
					if got := schemaErr == nil; got != want {
						t.Errorf("%s: schema ok=%t (%v), want %t", key, got, schemaErr, want)
					}
				}
			})
		}
	}
}
