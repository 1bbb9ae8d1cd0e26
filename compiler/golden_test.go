package compiler

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files and testdata/graphs from the current compiler")

// goldenGraph is one graph the golden and schema tests compile.
type goldenGraph struct {
	name  string
	graph func(t *testing.T) *shared.ActionGraph
}

func goldenGraphs() []goldenGraph {
	return []goldenGraph{
		{"clinic01", clinicGraph},
		{"doors", func(*testing.T) *shared.ActionGraph { return doorsGraph() }},
		{"effects", func(*testing.T) *shared.ActionGraph { return effectsGraph() }},
	}
}

// variant is one set of options the golden files are written for.
type variant struct {
	name string
	opts Options
}

var variants = []variant{
	{"default", Options{}},
	{"include-unverified", Options{IncludeUnverified: true}},
}

// fileMCP20251125 is the golden name of the older protocol's tools/list.
const fileMCP20251125 = "mcp-tools-2025-11-25.json"

// compileForGolden returns every file CompileAll writes plus the
// 2025-11-25 tools/list result.
func compileForGolden(t *testing.T, g *shared.ActionGraph, opts Options) map[string][]byte {
	t.Helper()
	all, err := CompileAll(g, opts)
	if err != nil {
		t.Fatalf("CompileAll: %v", err)
	}
	files := byName(all)
	opts.MCPVersion = MCPVersion20251125
	old, err := primary(g, FormatMCP, opts)
	if err != nil {
		t.Fatalf("Compile mcp 2025-11-25: %v", err)
	}
	files[fileMCP20251125] = old
	return files
}

func TestGolden(t *testing.T) {
	for _, gg := range goldenGraphs() {
		for _, v := range variants {
			t.Run(gg.name+"/"+v.name, func(t *testing.T) {
				got := compileForGolden(t, gg.graph(t), v.opts)
				dir := filepath.Join("testdata", "golden", gg.name, v.name)
				if *update {
					if err := os.RemoveAll(dir); err != nil {
						t.Fatal(err)
					}
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					for name, b := range got {
						if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
				entries, err := os.ReadDir(dir)
				if err != nil {
					t.Fatalf("%v (run go test -update to write the golden files)", err)
				}
				var onDisk, compiled []string
				for _, e := range entries {
					onDisk = append(onDisk, e.Name())
				}
				for name := range got {
					compiled = append(compiled, name)
				}
				sort.Strings(compiled)
				if diff := cmp.Diff(onDisk, compiled); diff != "" {
					t.Errorf("golden file set differs (-want +got):\n%s", diff)
				}
				for _, name := range compiled {
					want, err := os.ReadFile(filepath.Join(dir, name))
					if err != nil {
						t.Errorf("%v (run go test -update)", err)
						continue
					}
					if diff := cmp.Diff(string(want), string(got[name])); diff != "" {
						t.Errorf("%s differs from its golden file (-want +got):\n%s", name, diff)
					}
				}
			})
		}
	}
}

// TestGraphFiles keeps testdata/graphs/*.json (the Go-built graphs written
// by shared.Write) in step with the builders, and proves they read back.
func TestGraphFiles(t *testing.T) {
	for _, gg := range goldenGraphs()[1:] {
		t.Run(gg.name, func(t *testing.T) {
			want, err := shared.Write(gg.graph(t))
			if err != nil {
				t.Fatalf("the %s test graph does not validate: %v", gg.name, err)
			}
			path := filepath.Join("testdata", "graphs", gg.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s is stale (-want +got):\n%s", path, diff)
			}
			if _, issues := shared.Read(got); len(issues) > 0 {
				t.Errorf("shared.Read(%s): %v", path, issues)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, gg := range goldenGraphs() {
		t.Run(gg.name, func(t *testing.T) {
			g := gg.graph(t)
			a := compileForGolden(t, g, Options{IncludeUnverified: true})
			b := compileForGolden(t, g, Options{IncludeUnverified: true})
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("two compiles differ (-first +second):\n%s", diff)
			}
			for name, data := range a {
				if len(data) == 0 || data[len(data)-1] != '\n' {
					t.Errorf("%s does not end with a newline", name)
				}
			}
		})
	}
}
