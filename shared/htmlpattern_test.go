package shared

import (
	"errors"
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
		kind    PatternKind
		u       string // the pattern as the u flag reads it, when portable
	}{
		{`^0[2-9]\d{8}$`, PatternPortable, `^0[2-9]\d{8}$`},
		{`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+`, PatternInvalid, ""},
		{`[a-z\-]+`, PatternPortable, `[a-z\-]+`},
		{`[-]`, PatternInvalid, ""},
		{`[.-]`, PatternInvalid, ""},
		{`[(]`, PatternInvalid, ""},
		{`[{}]`, PatternInvalid, ""},
		{`[|]`, PatternInvalid, ""},
		{`[\(\)\|\{\}]`, PatternPortable, `[\(\)\|\{\}]`},
		{`[$$]`, PatternInvalid, ""},
		{`[a!]`, PatternPortable, `[a!]`},
		{`[\&\!\#\%\,\:\;\<\=\>\@\` + "`" + `\~]`, PatternPortable, "[&!#%,:;<=>@`~]"},
		{`[\b\-]`, PatternPortable, `[\b\-]`},
		{`[z-a]`, PatternInvalid, ""},
		{`[\d-z]`, PatternInvalid, ""},
		{`[^]`, PatternPortable, `[^]`},
		{`[]`, PatternPortable, `[]`},
		{`[a&&b]`, PatternVOnly, ""},
		{`[&&]`, PatternInvalid, ""},
		{`[a--b]`, PatternVOnly, ""},
		{`[ab--c]`, PatternInvalid, ""},
		{`[a-b--c]`, PatternInvalid, ""},
		{`[\p{L}--[a-z]]`, PatternVOnly, ""},
		{`[\q{abc|d}]`, PatternVOnly, ""},
		{`[^\q{a|b}]`, PatternVOnly, ""},
		{`[^\q{abc}]`, PatternInvalid, ""},
		{`\p{RGI_Emoji}`, PatternVOnly, ""},
		{`\P{RGI_Emoji}`, PatternInvalid, ""},
		{`[^\p{RGI_Emoji}]`, PatternInvalid, ""},
		{`\p{Script=Latin}\P{Lu}`, PatternPortable, `\p{Script=Latin}\P{Lu}`},
		{`\p{L=}`, PatternInvalid, ""},
		{`(?<y>\d{4})-\k<y>`, PatternPortable, `(?<y>\d{4})-\k<y>`},
		{`(?<a>x)(?<a>y)`, PatternInvalid, ""},
		{`\k<y>`, PatternInvalid, ""},
		{`(\d)\1`, PatternPortable, `(\d)\1`},
		{`(\d)\2`, PatternInvalid, ""},
		{`(?=.*\d)(?<!a).{8,}`, PatternPortable, `(?=.*\d)(?<!a).{8,}`},
		{`(?=a)*`, PatternInvalid, ""},
		{`^*`, PatternInvalid, ""},
		{`a{1,2}?`, PatternPortable, `a{1,2}?`},
		{`a{2,1}`, PatternInvalid, ""},
		{`a{,2}`, PatternInvalid, ""},
		{`a{`, PatternInvalid, ""},
		{`}`, PatternInvalid, ""},
		{`]`, PatternInvalid, ""},
		{`a|b)`, PatternInvalid, ""},
		{`(a|b`, PatternInvalid, ""},
		{`\-`, PatternInvalid, ""},
		{`\a`, PatternInvalid, ""},
		{`\c`, PatternInvalid, ""},
		{`\01`, PatternInvalid, ""},
		{`\x4`, PatternInvalid, ""},
		{`\u{110000}`, PatternInvalid, ""},
		{`\0\cA\x41\u0041\u{1F600}\uD83D\uDE00\/`, PatternPortable, `\0\cA\x41\u0041\u{1F600}\uD83D\uDE00\/`},
		{`(?i:a)(?-s:b)`, PatternPortable, `(?i:a)(?-s:b)`},
		{`(?-:a)`, PatternInvalid, ""},
		{`(?ii:a)`, PatternInvalid, ""},
		{`(?<1a>x)`, PatternInvalid, ""},
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

// TestHTMLPattern: the attribute is read anchored, as HTML compiles it, and
// a portable one comes back as the anchored JSON Schema pattern.
func TestHTMLPattern(t *testing.T) {
	tests := []struct {
		attr string
		want string
		kind PatternKind
	}{
		{`0[2-9]\d{8}`, `^(?:0[2-9]\d{8})$`, PatternPortable},
		{`a)|(b`, `^(?:a)|(b)$`, PatternPortable},
		{`^a|b$`, `^(?:^a|b$)$`, PatternPortable},
		{`[\&\-\!]+`, `^(?:[&\-!]+)$`, PatternPortable},
		{`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+`, "", PatternInvalid},
		{`a|b)`, "", PatternInvalid},
		{`[\p{L}--[a-z]]+`, "", PatternVOnly},
	}
	for _, tt := range tests {
		t.Run(tt.attr, func(t *testing.T) {
			got, kind := HTMLPattern(tt.attr)
			if diff := cmp.Diff(tt.kind.String()+" "+tt.want, kind.String()+" "+got); diff != "" {
				t.Errorf("HTMLPattern(%q) (-want +got):\n%s", tt.attr, diff)
			}
		})
	}
}

// TestCompileHTMLPattern: the Go expression checks a whole value as the
// browser does; a pattern no browser checks compiles to nothing, one only
// the v flag reads and one RE2 cannot run are errors.
func TestCompileHTMLPattern(t *testing.T) {
	tests := []struct {
		attr    string
		nilRe   bool
		err     bool
		takes   string
		refuses string
	}{
		{attr: `0[2-9]\d{8}`, takes: "0292471234", refuses: "x0292471234"},
		{attr: `a)|(b`, takes: "ab", refuses: "ba"}, // ^(?:a)|(b)$, as a browser compiles it
		{attr: `[a-z-]+`, nilRe: true},
		{attr: `[\p{L}--[a-z]]+`, err: true},
		{attr: `(?=.*\d).{8,}`, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.attr, func(t *testing.T) {
			re, err := CompileHTMLPattern(tt.attr)
			if (err != nil) != tt.err || (re == nil) != (tt.nilRe || tt.err) {
				t.Fatalf("CompileHTMLPattern(%q) = %v, %v; want nil %v, error %v", tt.attr, re, err, tt.nilRe || tt.err, tt.err)
			}
			if tt.attr == `[\p{L}--[a-z]]+` && !errors.Is(err, ErrPatternNeedsVFlag) {
				t.Errorf("error %v, want ErrPatternNeedsVFlag", err)
			}
			if re != nil && (!re.MatchString(tt.takes) || re.MatchString(tt.refuses)) {
				t.Errorf("%s: takes %q %v, refuses %q %v", re, tt.takes, re.MatchString(tt.takes), tt.refuses, !re.MatchString(tt.refuses))
			}
		})
	}
}
