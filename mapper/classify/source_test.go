package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestSourceHasNoHiddenCharacters: no control or invisible formatting
// character stands raw in this package's source. A "\b" typed where a
// raw-string pattern wanted `\b` once left two backspaces in a table, so
// the word never matched; a raw U+200C cannot be told from no character.
// Patterns write them as escapes (`\b`, `\x{200c}`).
func TestSourceHasNoHiddenCharacters(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source files (%v)", err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(raw), "\n") {
			for _, r := range line {
				if (unicode.IsControl(r) && r != '\t') || unicode.Is(unicode.Cf, r) {
					t.Errorf("%s:%d: the character %U stands raw; write it as an escape", f, n+1, r)
					break
				}
			}
		}
	}
}

// TestASCIIBoundaryBeside: Go's \b is an ASCII word boundary, so one
// written beside a letter outside ASCII never marks a word's edge there
// (`plat[ăa]\b` never matched "plată "); compile refuses such patterns.
func TestASCIIBoundaryBeside(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{`\bemail\b`, false},
		{`sök\b`, false}, // the edge is after "k"
		{`\bpaís`, false},
		{`plat[ăa]\b`, true},
		{`mél\b|\bété`, true},
		{`\b(?:név|nom)`, false},
		{`(?:név|nomé)\b`, true},
		{`x\bй`, true},
		{`plat[ăa](?:[^\p{L}\p{N}]|$)`, false},
		{`\Bж`, true},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			if got := asciiBoundaryBeside(c.src); got != c.want {
				t.Errorf("asciiBoundaryBeside(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}
