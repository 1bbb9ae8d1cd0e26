package classify

import (
	"regexp/syntax"
	"unicode/utf8"
)

// asciiBoundaryBeside reports whether src puts \b or \B beside a character
// that may be outside ASCII. Go's \b is an ASCII word boundary: between a
// space and "ă" there is none, so `plat[ăa]\b` never matches "plată ". A
// pattern wanting a word edge beside such a letter writes
// (?:[^\p{L}\p{N}]|$) or (?:^|[^\p{L}\p{N}]); compile refuses the rest.
func asciiBoundaryBeside(src string) bool {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return false // compile's regexp.MustCompile reports it
	}
	return boundaryBeside(re)
}

func boundaryBeside(re *syntax.Regexp) bool {
	if re.Op == syntax.OpConcat {
		for i, s := range re.Sub {
			if s.Op != syntax.OpWordBoundary && s.Op != syntax.OpNoWordBoundary {
				continue
			}
			if (i > 0 && mayBeNonASCII(re.Sub[i-1], true)) || (i+1 < len(re.Sub) && mayBeNonASCII(re.Sub[i+1], false)) {
				return true
			}
		}
	}
	for _, s := range re.Sub {
		if boundaryBeside(s) {
			return true
		}
	}
	return false
}

// mayBeNonASCII reports whether the last (end) or first character re
// matches may be outside ASCII.
func mayBeNonASCII(re *syntax.Regexp, end bool) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return false
		}
		r := re.Rune[0]
		if end {
			r = re.Rune[len(re.Rune)-1]
		}
		return r >= utf8.RuneSelf
	case syntax.OpCharClass:
		for i := 1; i < len(re.Rune); i += 2 {
			if re.Rune[i] >= utf8.RuneSelf && re.Rune[i-1] < 0x10000 {
				return true
			}
		}
		return false
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return mayBeNonASCII(re.Sub[0], end)
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return false
		}
		if end {
			return mayBeNonASCII(re.Sub[len(re.Sub)-1], end)
		}
		return mayBeNonASCII(re.Sub[0], end)
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if mayBeNonASCII(s, end) {
				return true
			}
		}
	}
	return false
}
