package topology

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite schemas/topology-graph.schema.json and golden files")

const schemaPath = "schemas/topology-graph.schema.json"

// enumSchemas maps each closed vocabulary type to its list, so the schema's
// enums come from the same slices the engine uses.
func enumSchemas() map[reflect.Type][]any {
	list := func(v any) []any {
		rv := reflect.ValueOf(v)
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = rv.Index(i).String()
		}
		return out
	}
	return map[reflect.Type][]any{
		reflect.TypeFor[Mode]():            list(modes),
		reflect.TypeFor[EvidenceLevel]():   list(evidenceLevels),
		reflect.TypeFor[Lifecycle]():       list(lifecycles),
		reflect.TypeFor[EffectType]():      list(effectTypes),
		reflect.TypeFor[FailReason]():      list(failReasons),
		reflect.TypeFor[LocatorStrategy](): list(locatorStrategies),
		reflect.TypeFor[RiskLevel]():       list(riskLevels),
		reflect.TypeFor[RiskCategory]():    list(riskCategories),
	}
}

func generateSchema(t testing.TB) []byte {
	t.Helper()
	enums := enumSchemas()
	r := &jsonschema.Reflector{
		Mapper: func(rt reflect.Type) *jsonschema.Schema {
			if e, ok := enums[rt]; ok {
				return &jsonschema.Schema{Type: "string", Enum: e}
			}
			return nil
		},
	}
	s := r.Reflect(&Graph{})
	s.ID = "https://frontlatch.dev/schemas/topology-graph-v0.2.schema.json"
	s.Title = "Frontlatch Topology Graph v0.2"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestSchemaUpToDate checks the committed schema matches the Go types; run
// `go generate` (or this test with -update) after changing types.go.
func TestSchemaUpToDate(t *testing.T) {
	want := generateSchema(t)
	if *update {
		if err := os.WriteFile(schemaPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatalf("%v (run go generate ./... in topology)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale; run `go generate` in topology (-want +got):\n%s", schemaPath, diff)
	}
}

var (
	compiled    *sjs.Schema
	compileErr  error
	compileOnce sync.Once
)

// validateGraph checks g against the committed schema, field for field.
func validateGraph(t testing.TB, g *Graph) {
	t.Helper()
	compileOnce.Do(func() {
		raw, err := os.ReadFile(schemaPath)
		if err != nil {
			compileErr = err
			return
		}
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			compileErr = err
			return
		}
		c := sjs.NewCompiler()
		abs, _ := filepath.Abs(schemaPath)
		if err := c.AddResource(abs, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(abs)
	})
	if compileErr != nil {
		t.Fatalf("compile schema: %v", compileErr)
	}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := compiled.Validate(inst); err != nil {
		t.Errorf("graph does not validate against %s: %v", schemaPath, err)
	}
}
