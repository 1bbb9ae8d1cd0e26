package shared

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// PatternKind is what an HTML pattern attribute is to a browser, and to a
// JSON Schema (ECMA-262) validator.
type PatternKind int

const (
	// PatternPortable: a valid regular expression with the v flag, as HTML
	// compiles a pattern, that means the same with the u flag, as a JSON
	// Schema (ECMA-262) validator reads one.
	PatternPortable PatternKind = iota
	// PatternVOnly: valid with the v flag only (a class set operation, a
	// nested class, \q{…}, a property of strings): with the u flag it is
	// an error or means something else.
	PatternVOnly
	// PatternInvalid: no valid regular expression with the v flag, so a
	// browser ignores the attribute and checks nothing ([a-z-], [\w-],
	// [A-Za-z0-9._%+-]+, a lone {).
	PatternInvalid
)

// String names the kind ("portable", "v-only", "invalid").
func (k PatternKind) String() string {
	switch k {
	case PatternPortable:
		return "portable"
	case PatternVOnly:
		return "v-only"
	case PatternInvalid:
		return "invalid"
	}
	return "PatternKind(" + strconv.Itoa(int(k)) + ")"
}

// HTMLPattern reads an HTML pattern attribute p as a browser does: it
// compiles ^(?:p)$ (the whole value must match; so a)|(b is valid) as an
// ECMAScript regular expression with the v flag (ECMA-262's
// UnicodeSetsMode), and checks nothing when that fails. For a portable
// pattern it returns that anchored expression as the u flag reads it — a
// JSON Schema pattern, meaning what the browser checks: the same text,
// with the escapes only the v flag allows in a class (\& \! \# \% \, \:
// \; \< \= \> \@ \` \~) written as the plain character they stand for.
// The compiler writes that into every schema; the executor checks agent
// input against it; a PatternInvalid pattern is checked by neither, as by
// no browser.
//
// The syntax is checked whole (groups, quantifiers and their bounds,
// escapes, backreferences and group names, classes with their ranges,
// operators and reserved punctuators); a \p{…} property is checked for its
// form, not looked up in Unicode's tables. It runs no regular expression.
func HTMLPattern(p string) (string, PatternKind) {
	return readPattern("^(?:" + p + ")$")
}

// ErrPatternNeedsVFlag is CompileHTMLPattern's error for a PatternVOnly
// pattern, which Go's regexp cannot run.
var ErrPatternNeedsVFlag = errors.New("shared: the pattern needs JavaScript's v flag")

// CompileHTMLPattern compiles the pattern attribute p, read as HTMLPattern
// reads it, into a Go regular expression that checks a whole value as a
// browser would. It returns nil and no error for a pattern no browser
// checks (PatternInvalid: every value passes), ErrPatternNeedsVFlag for a
// PatternVOnly one, and regexp's error for a portable one Go's RE2 cannot
// run (a lookahead, a backreference, a \u escape). A caller cannot check
// the last two; the site will.
func CompileHTMLPattern(p string) (*regexp.Regexp, error) {
	expr, kind := HTMLPattern(p)
	switch kind {
	case PatternInvalid:
		return nil, nil
	case PatternVOnly:
		return nil, ErrPatternNeedsVFlag
	}
	return regexp.Compile(expr)
}

// readPattern reads p, as it stands, as HTMLPattern reads ^(?:p)$.
func readPattern(p string) (string, PatternKind) {
	r := &jsPatternReader{src: []rune(p), names: map[string]bool{}}
	r.disjunction()
	if r.pos < len(r.src) { // an unmatched )
		r.bad = true
	}
	for _, n := range r.refs {
		if n > r.groups {
			r.bad = true
		}
	}
	for _, n := range r.nameRefs {
		if !r.names[n] {
			r.bad = true
		}
	}
	switch {
	case r.bad:
		return "", PatternInvalid
	case r.vOnly:
		return "", PatternVOnly
	}
	return r.out.String(), PatternPortable
}

// jsPatternReader is one pass over a pattern: what it has read, written
// for the u flag, and what it found.
type jsPatternReader struct {
	src      []rune
	pos      int
	out      strings.Builder
	groups   int             // capturing groups
	names    map[string]bool // group names
	refs     []int           // \1 … backreferences
	nameRefs []string        // \k<name> backreferences
	vOnly    bool
	bad      bool
}

func (r *jsPatternReader) peek(off int) rune {
	if r.pos+off < len(r.src) {
		return r.src[r.pos+off]
	}
	return -1
}

func (r *jsPatternReader) at(s string) bool {
	for i, c := range []rune(s) {
		if r.peek(i) != c {
			return false
		}
	}
	return true
}

// take writes the next n runes as they are.
func (r *jsPatternReader) take(n int) {
	for ; n > 0 && r.pos < len(r.src); n-- {
		r.out.WriteRune(r.src[r.pos])
		r.pos++
	}
}

func (r *jsPatternReader) fail() { r.bad, r.pos = true, len(r.src) }

func (r *jsPatternReader) disjunction() {
	for !r.bad {
		for r.pos < len(r.src) && r.peek(0) != '|' && r.peek(0) != ')' && !r.bad {
			r.term()
		}
		if r.peek(0) != '|' {
			return
		}
		r.take(1)
	}
}

// group reads a group's body after its opening, up to and with its ).
func (r *jsPatternReader) group() {
	r.disjunction()
	if r.peek(0) != ')' {
		r.fail()
		return
	}
	r.take(1)
}

func (r *jsPatternReader) term() {
	switch c := r.peek(0); {
	case c == '^' || c == '$':
		r.take(1)
		return // an assertion takes no quantifier
	case r.at(`\b`) || r.at(`\B`):
		r.take(2)
		return
	case r.at("(?=") || r.at("(?!"):
		r.take(3)
		r.group()
		return
	case r.at("(?<=") || r.at("(?<!"):
		r.take(4)
		r.group()
		return
	case r.at("(?:"):
		r.take(3)
		r.group()
	case r.at("(?<"):
		r.take(3)
		name, ok := r.groupName()
		if !ok || r.names[name] {
			// A name used twice is refused here even in two alternatives,
			// which only the newest engines take (ES2025).
			r.fail()
			return
		}
		r.names[name] = true
		r.groups++
		r.group()
	case r.at("(?"):
		r.take(2)
		if !r.modifiers() {
			r.fail()
			return
		}
		r.group()
	case c == '(':
		r.take(1)
		r.groups++
		r.group()
	case c == '\\':
		r.atomEscape()
	case c == '[':
		r.class()
	case strings.ContainsRune("*+?{}])", c):
		r.fail() // nothing to repeat, or a lone syntax character
		return
	default:
		r.take(1) // . or a pattern character
	}
	r.quantifier()
}

// modifiers reads (?ims-ims: after its (?, with its colon.
func (r *jsPatternReader) modifiers() bool {
	seen := map[rune]bool{}
	flags := func() int {
		n := 0
		for c := r.peek(0); c == 'i' || c == 'm' || c == 's'; c = r.peek(0) {
			if seen[c] {
				return -1
			}
			seen[c] = true
			r.take(1)
			n++
		}
		return n
	}
	on := flags()
	if on < 0 {
		return false
	}
	if r.peek(0) == '-' {
		r.take(1)
		off := flags()
		if off < 0 || on+off == 0 {
			return false
		}
	} else if on == 0 {
		return false
	}
	if r.peek(0) != ':' {
		return false
	}
	r.take(1)
	return true
}

// groupName reads name> after (?< or \k<.
func (r *jsPatternReader) groupName() (string, bool) {
	var b strings.Builder
	for c := r.peek(0); c != '>'; c = r.peek(0) {
		ok := c == '$' || c == '_' || c >= 0x80 && c != 0xfeff ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || b.Len() > 0 && '0' <= c && c <= '9'
		if !ok {
			return "", false
		}
		b.WriteRune(c)
		r.take(1)
	}
	r.take(1)
	return b.String(), b.Len() > 0
}

func (r *jsPatternReader) quantifier() {
	switch r.peek(0) {
	case '*', '+', '?':
		r.take(1)
	case '{':
		r.take(1)
		lo, ok := r.digits()
		if !ok {
			r.fail()
			return
		}
		hi := lo
		if r.peek(0) == ',' {
			r.take(1)
			hi = ""
			if r.peek(0) != '}' {
				if hi, ok = r.digits(); !ok {
					r.fail()
					return
				}
			}
		}
		if r.peek(0) != '}' || hi != "" && lessNumeral(hi, lo) {
			r.fail()
			return
		}
		r.take(1)
	default:
		return
	}
	if r.peek(0) == '?' {
		r.take(1)
	}
}

func (r *jsPatternReader) digits() (string, bool) {
	start := r.pos
	for c := r.peek(0); '0' <= c && c <= '9'; c = r.peek(0) {
		r.take(1)
	}
	return string(r.src[start:r.pos]), r.pos > start
}

// lessNumeral compares two decimal numerals of any length.
func lessNumeral(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// atomEscape reads an escape outside a class.
func (r *jsPatternReader) atomEscape() {
	switch c := r.peek(1); {
	case '1' <= c && c <= '9':
		r.take(1)
		n, _ := r.digits()
		v, err := strconv.Atoi(n)
		if err != nil {
			v = int(^uint(0) >> 1)
		}
		r.refs = append(r.refs, v)
	case c == 'k':
		r.take(2)
		if r.peek(0) != '<' {
			r.fail()
			return
		}
		r.take(1)
		name, ok := r.groupName()
		if !ok {
			r.fail()
			return
		}
		r.nameRefs = append(r.nameRefs, name)
	case strings.ContainsRune("dDsSwW", c):
		r.take(2)
	case c == 'p' || c == 'P':
		if r.property() {
			r.vOnly = true
		}
	default:
		if _, ok := r.characterEscape(false); !ok {
			r.fail()
		}
	}
}

// stringProperties are the properties of strings, which only the v flag
// knows (ECMA-262's BinaryPropertyOfStrings).
var stringProperties = map[string]bool{
	"Basic_Emoji": true, "Emoji_Keycap_Sequence": true, "RGI_Emoji_Modifier_Sequence": true, "RGI_Emoji_Flag_Sequence": true,
	"RGI_Emoji_Tag_Sequence": true, "RGI_Emoji_ZWJ_Sequence": true, "RGI_Emoji": true,
}

// property reads \p{…} or \P{…} and reports whether it is a property of
// strings (\P{…} of one is an error).
func (r *jsPatternReader) property() bool {
	negated := r.peek(1) == 'P'
	r.take(2)
	if r.peek(0) != '{' {
		r.fail()
		return false
	}
	r.take(1)
	word := func() string {
		start := r.pos
		for c := r.peek(0); c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'; c = r.peek(0) {
			r.take(1)
		}
		return string(r.src[start:r.pos])
	}
	name := word()
	value := ""
	if r.peek(0) == '=' {
		r.take(1)
		if value = word(); value == "" {
			r.fail()
			return false
		}
	}
	if name == "" || r.peek(0) != '}' {
		r.fail()
		return false
	}
	r.take(1)
	if value == "" && stringProperties[name] {
		if negated {
			r.fail()
		}
		return true
	}
	return false
}

// characterEscape reads one escape that stands for one character and
// returns it; inClass allows what only a class allows (\b for backspace,
// \- and, written plain, the reserved punctuators).
func (r *jsPatternReader) characterEscape(inClass bool) (rune, bool) {
	c := r.peek(1)
	switch {
	case c == 'f' || c == 'n' || c == 'r' || c == 't' || c == 'v':
		r.take(2)
		return map[rune]rune{'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}[c], true
	case c == 'c':
		l := r.peek(2)
		if !('a' <= l && l <= 'z' || 'A' <= l && l <= 'Z') {
			return 0, false
		}
		r.take(3)
		return l % 32, true
	case c == '0':
		if d := r.peek(2); '0' <= d && d <= '9' {
			return 0, false
		}
		r.take(2)
		return 0, true
	case c == 'x':
		v, ok := r.hex(2, 2)
		if !ok {
			return 0, false
		}
		r.take(4)
		return v, true
	case c == 'u':
		return r.unicodeEscape()
	case strings.ContainsRune(`^$\.*+?()[]{}|/`, c):
		r.take(2)
		return c, true
	case inClass && (c == 'b' || c == '-'):
		r.take(2)
		if c == 'b' {
			return '\b', true
		}
		return '-', true
	case inClass && strings.ContainsRune("&!#%,:;<=>@`~", c):
		r.pos++ // the backslash: with the u flag the character is written plain
		r.take(1)
		return c, true
	}
	return 0, false
}

// hex reads n hexadecimal digits at off without moving.
func (r *jsPatternReader) hex(off, n int) (rune, bool) {
	var v rune
	for i := 0; i < n; i++ {
		d := r.peek(off + i)
		switch {
		case '0' <= d && d <= '9':
			v = v*16 + d - '0'
		case 'a' <= d && d <= 'f':
			v = v*16 + d - 'a' + 10
		case 'A' <= d && d <= 'F':
			v = v*16 + d - 'A' + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// unicodeEscape reads \uHHHH (a surrogate pair of two as one character)
// or \u{H…}.
func (r *jsPatternReader) unicodeEscape() (rune, bool) {
	if r.peek(2) == '{' {
		var v rune
		n := 0
		for d := r.peek(3 + n); d != '}'; d = r.peek(3 + n) {
			h, ok := r.hex(3+n, 1)
			if !ok {
				return 0, false
			}
			if v = v*16 + h; v > 0x10ffff {
				return 0, false
			}
			n++
		}
		if n == 0 {
			return 0, false
		}
		r.take(4 + n)
		return v, true
	}
	v, ok := r.hex(2, 4)
	if !ok {
		return 0, false
	}
	r.take(6)
	if 0xd800 <= v && v < 0xdc00 && r.at(`\u`) {
		if lo, ok := r.hex(2, 4); ok && 0xdc00 <= lo && lo < 0xe000 {
			r.take(6)
			return 0x10000 + (v-0xd800)<<10 + lo - 0xdc00, true
		}
	}
	return v, true
}

// classOperand is what one operand of a v-flag class is.
type classOperand struct {
	char       rune // its character, when it is one (a range may use it)
	isChar     bool
	mayStrings bool // it may match a string of other than one character
}

// class reads a v-flag class, [ … ] or [^ … ], nested ones included, and
// reports whether it may match strings.
func (r *jsPatternReader) class() bool {
	r.take(1)
	negated := r.peek(0) == '^'
	if negated {
		r.take(1)
	}
	may := r.classContents()
	if r.bad {
		return false
	}
	if r.peek(0) != ']' || negated && may {
		r.fail()
		return false
	}
	r.take(1)
	return may
}

// classContents reads a union, an intersection (&&) or a subtraction (--)
// of operands, up to the class's ].
func (r *jsPatternReader) classContents() bool {
	if r.peek(0) == ']' {
		return false
	}
	first, ok := r.classOperand()
	if !ok {
		r.fail()
		return false
	}
	for _, op := range []string{"&&", "--"} {
		if !r.at(op) {
			continue
		}
		r.vOnly = true
		may := first.mayStrings
		for r.at(op) {
			r.pos += 2
			r.out.WriteString(op)
			if op == "&&" && r.peek(0) == '&' {
				r.fail()
				return false
			}
			next, ok := r.classOperand()
			if !ok {
				r.fail()
				return false
			}
			if op == "&&" {
				may = may && next.mayStrings
			}
		}
		if r.peek(0) != ']' { // operators do not mix, nor do ranges join them
			r.fail()
		}
		return may
	}
	may := false
	for operand := first; ; {
		if operand.isChar && r.peek(0) == '-' && r.peek(1) != '-' {
			r.take(1)
			to, ok := r.classOperand()
			if !ok || !to.isChar || to.char < operand.char {
				r.fail()
				return false
			}
		} else {
			may = may || operand.mayStrings
		}
		if r.peek(0) == ']' || r.bad {
			return may
		}
		if r.at("&&") || r.at("--") {
			r.fail() // an operator after a union of more than one operand
			return false
		}
		if operand, ok = r.classOperand(); !ok {
			r.fail()
			return false
		}
	}
}

// classReservedDoubles are the v flag's reserved double punctuators.
const classReservedDoubles = "&!#$%*+,.:;<=>?@^`~"

// classOperand reads one operand: a nested class, \q{…}, a class escape or
// a character.
func (r *jsPatternReader) classOperand() (classOperand, bool) {
	c := r.peek(0)
	switch {
	case c == '[':
		r.vOnly = true
		return classOperand{mayStrings: r.class()}, !r.bad
	case r.at(`\q{`):
		r.vOnly = true
		r.take(3)
		may, n := false, 0
		for r.peek(0) != '}' {
			switch {
			case r.peek(0) == '|':
				may, n = may || n != 1, 0
				r.take(1)
			case r.bad || r.pos >= len(r.src):
				return classOperand{}, false
			default:
				if _, ok := r.classChar(); !ok {
					return classOperand{}, false
				}
				n++
			}
		}
		r.take(1)
		return classOperand{mayStrings: may || n != 1}, true
	case c == '\\' && strings.ContainsRune("dDsSwW", r.peek(1)):
		r.take(2)
		return classOperand{}, true
	case c == '\\' && (r.peek(1) == 'p' || r.peek(1) == 'P'):
		strs := r.property()
		if strs {
			r.vOnly = true
		}
		return classOperand{mayStrings: strs}, !r.bad
	}
	ch, ok := r.classChar()
	return classOperand{char: ch, isChar: true}, ok
}

// classChar reads a ClassSetCharacter.
func (r *jsPatternReader) classChar() (rune, bool) {
	c := r.peek(0)
	switch {
	case c < 0:
		return 0, false
	case c == '\\':
		return r.characterEscape(true)
	case strings.ContainsRune("()[]{}/-|", c):
		return 0, false
	case strings.ContainsRune(classReservedDoubles, c) && r.peek(1) == c:
		return 0, false
	}
	r.take(1)
	return c, true
}
