package compiler

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadPattern: readPattern reads a pattern as a browser compiles it,
// with the v flag. Every case's kind agrees with V8's (new RegExp(p, "v")
// and new RegExp(p, "u"), node 20), the modifiers aside, which V8 took
// later (ES2025).
func TestReadPattern(t *testing.T) {
	tests := []struct {
		pattern string
		kind    patternKind
		u       string // the pattern as the u flag reads it, when portable
	}{
		{`^0[2-9]\d{8}$`, patternPortable, `^0[2-9]\d{8}$`},
		{`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+`, patternInvalid, ""},
		{`[a-z\-]+`, patternPortable, `[a-z\-]+`},
		{`[-]`, patternInvalid, ""},
		{`[.-]`, patternInvalid, ""},
		{`[(]`, patternInvalid, ""},
		{`[{}]`, patternInvalid, ""},
		{`[|]`, patternInvalid, ""},
		{`[\(\)\|\{\}]`, patternPortable, `[\(\)\|\{\}]`},
		{`[$$]`, patternInvalid, ""},
		{`[a!]`, patternPortable, `[a!]`},
		{`[\&\!\#\%\,\:\;\<\=\>\@\` + "`" + `\~]`, patternPortable, "[&!#%,:;<=>@`~]"},
		{`[\b\-]`, patternPortable, `[\b\-]`},
		{`[z-a]`, patternInvalid, ""},
		{`[\d-z]`, patternInvalid, ""},
		{`[^]`, patternPortable, `[^]`},
		{`[]`, patternPortable, `[]`},
		{`[a&&b]`, patternVOnly, ""},
		{`[&&]`, patternInvalid, ""},
		{`[a--b]`, patternVOnly, ""},
		{`[ab--c]`, patternInvalid, ""},
		{`[a-b--c]`, patternInvalid, ""},
		{`[\p{L}--[a-z]]`, patternVOnly, ""},
		{`[\q{abc|d}]`, patternVOnly, ""},
		{`[^\q{a|b}]`, patternVOnly, ""},
		{`[^\q{abc}]`, patternInvalid, ""},
		{`\p{RGI_Emoji}`, patternVOnly, ""},
		{`\P{RGI_Emoji}`, patternInvalid, ""},
		{`[^\p{RGI_Emoji}]`, patternInvalid, ""},
		{`\p{Script=Latin}\P{Lu}`, patternPortable, `\p{Script=Latin}\P{Lu}`},
		{`\p{L=}`, patternInvalid, ""},
		{`(?<y>\d{4})-\k<y>`, patternPortable, `(?<y>\d{4})-\k<y>`},
		{`(?<a>x)(?<a>y)`, patternInvalid, ""},
		{`\k<y>`, patternInvalid, ""},
		{`(\d)\1`, patternPortable, `(\d)\1`},
		{`(\d)\2`, patternInvalid, ""},
		{`(?=.*\d)(?<!a).{8,}`, patternPortable, `(?=.*\d)(?<!a).{8,}`},
		{`(?=a)*`, patternInvalid, ""},
		{`^*`, patternInvalid, ""},
		{`a{1,2}?`, patternPortable, `a{1,2}?`},
		{`a{2,1}`, patternInvalid, ""},
		{`a{,2}`, patternInvalid, ""},
		{`a{`, patternInvalid, ""},
		{`}`, patternInvalid, ""},
		{`]`, patternInvalid, ""},
		{`a|b)`, patternInvalid, ""},
		{`(a|b`, patternInvalid, ""},
		{`\-`, patternInvalid, ""},
		{`\a`, patternInvalid, ""},
		{`\c`, patternInvalid, ""},
		{`\01`, patternInvalid, ""},
		{`\x4`, patternInvalid, ""},
		{`\u{110000}`, patternInvalid, ""},
		{`\0\cA\x41\u0041\u{1F600}\uD83D\uDE00\/`, patternPortable, `\0\cA\x41\u0041\u{1F600}\uD83D\uDE00\/`},
		{`(?i:a)(?-s:b)`, patternPortable, `(?i:a)(?-s:b)`},
		{`(?-:a)`, patternInvalid, ""},
		{`(?ii:a)`, patternInvalid, ""},
		{`(?<1a>x)`, patternInvalid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			u, kind := readPattern(tt.pattern)
			if diff := cmp.Diff([]any{tt.kind, tt.u}, []any{kind, u}); diff != "" {
				t.Errorf("[kind u] (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzReadPattern: any text is read without a panic, and the same way
// twice.
func FuzzReadPattern(f *testing.F) {
	for _, s := range []string{`[\p{L}--[a-z]]`, `(?<n>a)\k<n>`, `[\q{a|bc}]`, `\u{1F600}`, `a{2,3}?`, `[\&-\~]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		u1, k1 := readPattern(p)
		u2, k2 := readPattern(p)
		if u1 != u2 || k1 != k2 {
			t.Fatalf("read twice: %q %d, then %q %d", u1, k1, u2, k2)
		}
	})
}
