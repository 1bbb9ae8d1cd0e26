package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
)

// generatedBlock matches one excerpt of docs/compiler.md that is real
// compiler output: the marker names a golden file under testdata/golden.
var generatedBlock = regexp.MustCompile("(?s)<!-- generated: (\\S+) -->\n```(\\w*)\n(.*?)```\n<!-- end generated -->")

// TestDocsExcerpts keeps every excerpt in docs/compiler.md equal to what
// the compiler writes now for the golden file it names
// (GRAPH/VARIANT/FILE), so the docs show real output. go test -update
// rewrites them.
func TestDocsExcerpts(t *testing.T) {
	path := filepath.Join(fixturestest.MustRepoRoot(t), "docs", "compiler.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := generatedBlock.FindAllSubmatchIndex(doc, -1)
	if len(blocks) == 0 {
		t.Fatalf("%s has no generated excerpts", path)
	}
	var out strings.Builder
	last := 0
	stale := false
	for _, m := range blocks {
		name, lang, body := string(doc[m[2]:m[3]]), string(doc[m[4]:m[5]]), string(doc[m[6]:m[7]])
		want, err := compiledFile(t, name)
		if err != nil {
			t.Errorf("excerpt %s: %v", name, err)
			continue
		}
		if diff := cmp.Diff(string(want), body); diff != "" {
			stale = true
			if !*update {
				t.Errorf("docs/compiler.md excerpt %s is stale (-want +got):\n%s", name, diff)
			}
		}
		out.Write(doc[last:m[0]])
		out.WriteString("<!-- generated: " + name + " -->\n```" + lang + "\n" + string(want) + "```\n<!-- end generated -->")
		last = m[1]
	}
	out.Write(doc[last:])
	if stale && *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compiledFile compiles the file a golden path GRAPH/VARIANT/FILE names.
func compiledFile(t *testing.T, name string) ([]byte, error) {
	parts := strings.Split(name, "/")
	if len(parts) != 3 {
		return nil, fmt.Errorf("want GRAPH/VARIANT/FILE")
	}
	for _, gg := range goldenGraphs() {
		for _, v := range variants {
			if gg.name == parts[0] && v.name == parts[1] {
				if b, ok := compileForGolden(t, gg.graph(t), v.opts)[parts[2]]; ok {
					return b, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no golden graph, variant or file by that name")
}
