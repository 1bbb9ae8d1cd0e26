package shared

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// MaxIssues bounds the issues one read lists in full. A read that finds more
// lists the first MaxIssues as it found them, then one summary issue for all
// the rest: its Path and Code are those of the first issue not listed, and
// its Message begins "at least N more issues not listed" (N counts the
// issues past the first MaxIssues, the summarised one included). No read
// returns more than MaxIssues+1 issues, however hostile the input, and
// IssuesNotListed gives N to a program.
//
// N is a lower bound: once past the cap, the read stops keeping list
// elements, so it can no longer compare them with one another, and the
// rules that do (reference.dangling, id.duplicate) go uncounted for the
// elements it dropped. Every other issue is counted.
const MaxIssues = 100

// maxDepth bounds the nesting of objects and lists. The deepest path of a
// valid graph is under ten levels; the bound keeps hostile input such as a
// million '[' from costing more than a few frames of recursion.
const maxDepth = 64

// Read parses, validates and canonicalises one Action Graph document in a
// single pass over its bytes. It returns the graph only when the document is
// valid, and otherwise nil with every issue found, each with a path and a
// code from IssueCode.
//
// Read is strict where encoding/json is forgiving: unknown keys, duplicate
// keys and keys differing only by case are rejected (encoding/json would
// match "Status" to "status" and let the last duplicate win); so are invalid
// UTF-8 anywhere, escaped lone surrogates, trailing data after the document
// and nesting deeper than 64 levels. A schemaVersion other than "0.1" is
// refused whole: one version.unsupported issue and nothing read. Nullable
// keys may be omitted and read as null; every other key must be present.
//
// At most MaxIssues+1 issues are returned (see MaxIssues). Read takes time
// and memory linear in the size of data, whatever its shape.
//
// Read never panics and is safe for concurrent use.
func Read(data []byte) (*ActionGraph, []Issue) {
	g, r, issues := readDocument[ActionGraph](graphType, data)
	if r != nil && r.versionBad && !r.aborted {
		return nil, []Issue{r.versionIssue}
	}
	if len(issues) > 0 {
		return nil, issues
	}
	return g, nil
}

// ReadAction reads the JSON of one action object with exactly the rules of
// Read; paths are rooted at the action ("$.verification.status"). The consent
// gate reads through it, so no typed value can stand in for the bytes.
func ReadAction(data []byte) (*Action, []Issue) {
	a, issues := readActionPartial(data)
	if len(issues) > 0 {
		return nil, issues
	}
	return a, nil
}

// readActionPartial is ReadAction that also returns what the single pass
// filled in beside the issues: every field that read cleanly, zero where one
// did not. The consent gate uses it to report every reason on an invalid
// document — never to grant. It is nil only when the plan cannot be built.
// Past MaxIssues issues the pass stops keeping list elements (it still reads
// them, to count their issues), so a hostile document cannot make the
// partial value, any more than the issue list, outgrow its input.
func readActionPartial(data []byte) (*Action, []Issue) {
	a, _, issues := readDocument[Action](actionType, data)
	return a, issues
}

// readDocument makes the one strict pass of the reader over data into a new
// T (typ is T's reflect.Type), returning what was filled in, the reader for
// its verdicts, and the issues. When T's plan cannot be built, the value and
// the reader are nil and the one issue says why.
func readDocument[T any](typ reflect.Type, data []byte) (*T, *reader, []Issue) {
	p, err := planFor(typ)
	if err != nil {
		return nil, nil, []Issue{internalIssue(err)}
	}
	v := new(T)
	r := newReader(data)
	r.document(p, reflect.ValueOf(v).Elem())
	r.summarise()
	return v, r, r.issues
}

// IssuesNotListed reports how many issues a read (Read, ReadAction, or the
// consent gate's UnverifiedActionError.Issues) found past the first
// MaxIssues: zero when it listed every one, and otherwise the N of the
// summary's "at least N more issues not listed" (see MaxIssues).
func IssuesNotListed(issues []Issue) int {
	if len(issues) != MaxIssues+1 {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(issues[MaxIssues].Message, "at least %d more issue", &n); err != nil || n < 1 {
		return 0
	}
	return n
}

var (
	graphType  = reflect.TypeFor[ActionGraph]()
	actionType = reflect.TypeFor[Action]()
)

func internalIssue(err error) Issue {
	return Issue{Path: "$", Code: IssueValueInvalid, Message: "internal error in package shared, please report it: " + err.Error()}
}

// seg is one step of a path: an object key, or a list index when idx >= 0.
type seg struct {
	key string
	idx int
}

type reader struct {
	data   []byte
	pos    int
	depth  int
	path   []seg
	issues []Issue
	// quiet > 0 while a union is pre-scanned for its discriminator: the real
	// pass that follows finds the same issues again, so report them once.
	quiet int
	// notListed counts the issues found after MaxIssues+1 were kept.
	notListed int
	// scratch holds the value of the last string strBytes could not slice
	// out of the document (one with escapes or non-ASCII bytes).
	scratch []byte
	// dropping > 0 while a list element the read will not keep (past
	// MaxIssues) is decoded; spare holds union variants to decode it into.
	dropping   int
	spare      []*spareValue
	sawVersion bool
	versionBad bool
	aborted    bool // a syntax error ended the read
	// where's memory: the last offset described, its line and line start.
	lineOff, line, lineStart int
	versionIssue             Issue
}

// abort unwinds the reader after a fatal syntax error; document recovers it.
// It never escapes this file.
type abort struct{}

func newReader(data []byte) *reader {
	return &reader{data: data, path: make([]seg, 0, 16), line: 1}
}

func (r *reader) document(p *plan, v reflect.Value) {
	defer func() {
		e := recover()
		if e == nil {
			return
		}
		r.aborted = true
		if _, ok := e.(abort); !ok {
			// A bug in this package, not in the document. The caller gets an
			// issue rather than a crash; the fuzz tests fail on this code.
			r.issues = append(r.issues, Issue{Path: renderPath(r.path), Code: IssueValueInvalid,
				Message: fmt.Sprintf("internal error in package shared, please report it with the document: %v", e)})
		}
	}()
	if bytes.HasPrefix(r.data, []byte("\xef\xbb\xbf")) {
		r.fail(IssueJSONSyntax, "the document starts with a UTF-8 byte-order mark, which JSON does not allow; save it without one")
	}
	r.ws()
	if r.pos == len(r.data) {
		r.fail(IssueJSONSyntax, "the document is empty; it must hold one JSON object")
	}
	r.decode(p, v)
	r.ws()
	if r.pos < len(r.data) {
		r.issue(IssueJSONTrailingData, "unexpected data after the end of the document at %s; a document holds exactly one JSON value", r.where(r.pos))
	}
}

// ---- issues and paths ----

func (r *reader) issue(code IssueCode, format string, args ...any) {
	if r.unlisted() {
		return
	}
	r.issues = append(r.issues, Issue{Path: renderPath(r.path), Code: code, Message: fmt.Sprintf(format, args...)})
}

// unlisted reports whether the next issue goes unlisted: during a quiet
// pre-scan (the real pass reports it), or once MaxIssues+1 issues are kept —
// then it is counted instead. A caller whose message is costly to build asks
// first (if !r.unlisted() { r.issue(…) }), so a flood of issues past the cap
// costs a count each, not a message; asking and then reporting counts once.
func (r *reader) unlisted() bool {
	if r.quiet > 0 {
		return true
	}
	if len(r.issues) > MaxIssues {
		r.notListed++
		return true
	}
	return false
}

// full reports whether the read has found more issues than it lists.
func (r *reader) full() bool { return len(r.issues) > MaxIssues }

// summarise turns the last kept issue into the summary of all the issues
// past the first MaxIssues, when there are any.
func (r *reader) summarise() {
	if len(r.issues) <= MaxIssues {
		return
	}
	r.issues = r.issues[:MaxIssues+1]
	n := r.notListed + 1
	plural := "s"
	if n == 1 {
		plural = ""
	}
	last := &r.issues[MaxIssues]
	last.Message = fmt.Sprintf("at least %d more issue%s not listed (a read lists the first %d in full); the first of them is here: %s", n, plural, MaxIssues, last.Message)
}

// issueAt reports an issue at the current path extended by steps (string
// keys or int indexes).
func (r *reader) issueAt(code IssueCode, steps []any, format string, args ...any) {
	n := len(r.path)
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			r.path = append(r.path, seg{key: s, idx: -1})
		case int:
			r.path = append(r.path, seg{idx: s})
		}
	}
	r.issue(code, format, args...)
	r.path = r.path[:n]
}

// fail reports a fatal syntax problem and abandons the document: past a
// syntax error nothing that follows can be trusted to mean what it says.
func (r *reader) fail(code IssueCode, format string, args ...any) {
	r.quiet = 0
	r.issue(code, format, args...)
	panic(abort{})
}

func (r *reader) push(key string) { r.path = append(r.path, seg{key: key, idx: -1}) }
func (r *reader) pushIndex(i int) { r.path = append(r.path, seg{idx: i}) }
func (r *reader) pop()            { r.path = r.path[:len(r.path)-1] }

// where describes a byte offset for a person — line, column and offset —
// when it is formatted (%s), not before: an issue that is not listed (quiet
// pre-scan, past MaxIssues) never counts lines.
func (r *reader) where(off int) position { return position{r, off} }

// position is a byte offset of the reader's document, formatted lazily.
type position struct {
	r   *reader
	off int
}

// String counts lines on from the offset described last (back from it, when
// off is earlier), so describing many offsets in a document costs linear
// time, never a rescan from the start per offset.
func (p position) String() string {
	r, off := p.r, p.off
	if off < r.lineOff {
		if n := bytes.Count(r.data[off:r.lineOff], []byte{'\n'}); n > 0 {
			r.line -= n
			r.lineStart = bytes.LastIndexByte(r.data[:off], '\n') + 1
		}
	} else {
		for i := r.lineOff; i < off; i++ {
			if r.data[i] == '\n' {
				r.line++
				r.lineStart = i + 1
			}
		}
	}
	r.lineOff = off
	return fmt.Sprintf("line %d, column %d (byte %d)", r.line, off-r.lineStart+1, off)
}

// maxPathKey bounds the bytes of one key a path writes: a longer key is
// cut (Clip) and its length said, `["abc…(4194304 bytes)"]`. Every issue
// carries its path, so without the bound one long key would be copied into
// each issue found below it — a read's memory would grow with the key's
// length times the issues, not with the input.
const maxPathKey = 64

// renderPath writes a path as "$", ".key" for identifier-like keys,
// `["key"]` for the others and "[i]" for list indexes.
func renderPath(path []seg) string {
	b := []byte{'$'}
	for _, s := range path {
		if s.idx >= 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.idx), 10)
			b = append(b, ']')
		} else if len(s.key) > maxPathKey {
			b = append(b, '[')
			b = appendJSONString(b, strings.ToValidUTF8(Clip(s.key, maxPathKey), "\uFFFD")+"("+strconv.Itoa(len(s.key))+" bytes)")
			b = append(b, ']')
		} else if isIdentifier(s.key) {
			b = append(b, '.')
			b = append(b, s.key...)
		} else {
			b = append(b, '[')
			b = appendJSONString(b, strings.ToValidUTF8(s.key, "\uFFFD"))
			b = append(b, ']')
		}
	}
	return string(b)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// ---- scanner ----

func (r *reader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

func (r *reader) enter() {
	r.depth++
	if r.depth > maxDepth {
		r.fail(IssueJSONTooDeep, "nesting deeper than %d levels at %s; an Action Graph is never this deep", maxDepth, r.where(r.pos))
	}
}

func (r *reader) leave() { r.depth-- }

func (r *reader) unexpected(want string) {
	if r.pos >= len(r.data) {
		r.fail(IssueJSONSyntax, "the document ends early: want %s", want)
	}
	c := r.data[r.pos]
	if c >= 0x20 && c < 0x7f {
		r.fail(IssueJSONSyntax, "invalid character %q at %s: want %s", c, r.where(r.pos), want)
	}
	r.fail(IssueJSONSyntax, "invalid byte 0x%02x at %s: want %s", c, r.where(r.pos), want)
}

func (r *reader) literal(lit string) {
	if !bytes.HasPrefix(r.data[r.pos:], []byte(lit)) {
		r.unexpected("a JSON value")
	}
	r.pos += len(lit)
}

// number scans a JSON number and returns its text.
func (r *reader) number() []byte {
	start := r.pos
	d := r.data
	if r.pos < len(d) && d[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(d) && d[r.pos] == '0':
		r.pos++
	case r.pos < len(d) && d[r.pos] >= '1' && d[r.pos] <= '9':
		for r.pos < len(d) && d[r.pos] >= '0' && d[r.pos] <= '9' {
			r.pos++
		}
	default:
		r.unexpected("a digit")
	}
	if r.pos < len(d) && d[r.pos] == '.' {
		r.pos++
		if r.pos >= len(d) || d[r.pos] < '0' || d[r.pos] > '9' {
			r.unexpected("a digit after the decimal point")
		}
		for r.pos < len(d) && d[r.pos] >= '0' && d[r.pos] <= '9' {
			r.pos++
		}
	}
	if r.pos < len(d) && (d[r.pos] == 'e' || d[r.pos] == 'E') {
		r.pos++
		if r.pos < len(d) && (d[r.pos] == '+' || d[r.pos] == '-') {
			r.pos++
		}
		if r.pos >= len(d) || d[r.pos] < '0' || d[r.pos] > '9' {
			r.unexpected("a digit in the exponent")
		}
		for r.pos < len(d) && d[r.pos] >= '0' && d[r.pos] <= '9' {
			r.pos++
		}
	}
	return d[start:r.pos]
}

// str reads a string token (r.data[r.pos] == '"'). Invalid UTF-8 and escaped
// lone surrogates are reported (once per string) and replaced by U+FFFD so
// reading can go on and find the document's other issues.
func (r *reader) str() string {
	i, plain := r.plainStr()
	if plain {
		s := string(r.data[r.pos+1 : i])
		r.pos = i + 1
		return s
	}
	b := r.strSlow(i, make([]byte, 0, i-r.pos+16))
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is new and never written again
}

// strBytes reads a string token as str does, checking and reporting alike,
// but returns the value as bytes that stay valid only until the next string
// is read: a slice of the document when the string is plain, else the
// reader's scratch buffer. It allocates nothing, for keys and skipped values
// whose text is compared or dropped, never kept.
func (r *reader) strBytes() []byte {
	i, plain := r.plainStr()
	if plain {
		b := r.data[r.pos+1 : i]
		r.pos = i + 1
		return b
	}
	r.scratch = r.strSlow(i, r.scratch[:0])
	return r.scratch
}

// plainStr scans the string token at r.pos for its closing quote. It returns
// the quote's offset and true when the string holds only printable ASCII
// without escapes (its bytes are its value), or the offset of the first byte
// that needs strSlow and false.
func (r *reader) plainStr() (int, bool) {
	d := r.data
	i := r.pos + 1
	for i < len(d) {
		c := d[i]
		if c == '"' {
			return i, true
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		i++
	}
	return i, false
}

// strSlow finishes reading the string token at r.pos from offset i (where
// plainStr stopped), appending its value to b, and returns b.
func (r *reader) strSlow(i int, b []byte) []byte {
	d := r.data
	start := r.pos
	b = append(b, d[start+1:i]...)
	bad := false
	// invalid reports the string's first invalid byte or lone surrogate (the
	// one at off: a surrogate u, or a byte when u < 0) and replaces it.
	invalid := func(u rune, off int) {
		if !bad && !r.unlisted() {
			if u >= 0 {
				r.issue(IssueJSONInvalidUTF8, "a lone surrogate escape \\u%04x at %s is not a character; a string must be valid Unicode", u, r.where(off))
			} else {
				r.issue(IssueJSONInvalidUTF8, "invalid UTF-8 byte 0x%02x inside a string at %s; the document must be UTF-8", d[off], r.where(off))
			}
		}
		bad = true
		b = utf8.AppendRune(b, utf8.RuneError)
	}
	for {
		if i >= len(d) {
			r.pos = start
			r.fail(IssueJSONSyntax, "unterminated string starting at %s", r.where(start))
		}
		c := d[i]
		switch {
		case c == '"':
			r.pos = i + 1
			return b
		case c < 0x20:
			r.pos = i
			r.fail(IssueJSONSyntax, "control character U+%04X inside a string at %s; escape it (\\n, \\t, \\u00XX)", c, r.where(i))
		case c == '\\':
			if i+1 >= len(d) {
				r.pos = i
				r.unexpected("an escape sequence")
			}
			e := d[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				u, ok := hex4(d, i)
				if !ok {
					r.pos = i
					r.fail(IssueJSONSyntax, "invalid \\u escape at %s: want four hex digits", r.where(i-2))
				}
				i += 4
				switch {
				case u >= 0xD800 && u < 0xDC00:
					if i+6 <= len(d) && d[i] == '\\' && d[i+1] == 'u' {
						if lo, ok := hex4(d, i+2); ok && lo >= 0xDC00 && lo < 0xE000 {
							b = utf8.AppendRune(b, 0x10000+(u-0xD800)<<10+(lo-0xDC00))
							i += 6
							continue
						}
					}
					invalid(u, i-6)
				case u >= 0xDC00 && u < 0xE000:
					invalid(u, i-6)
				default:
					b = utf8.AppendRune(b, u)
				}
			default:
				r.pos = i - 2
				r.fail(IssueJSONSyntax, "invalid escape \\%c at %s", e, r.where(i-2))
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			ru, size := utf8.DecodeRune(d[i:])
			if ru == utf8.RuneError && size == 1 {
				invalid(-1, i)
				i++
				continue
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var v rune
	for _, c := range d[i : i+4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			v |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return v, true
}

// objectKey reads `"key" :` and leaves the reader at the value. The key's
// bytes are valid until the next string is read (see strBytes): a caller
// that keeps the key converts it.
func (r *reader) objectKey() []byte {
	if r.peek() != '"' {
		r.unexpected("a key in double quotes")
	}
	k := r.strBytes()
	if r.peek() != ':' {
		r.unexpected("':' after the key")
	}
	r.pos++
	r.ws()
	return k
}

// more consumes the ',' or the closing bracket (closer: '}' or ']') after a
// member or element and reports whether the object or array goes on.
func (r *reader) more(closer byte) bool {
	switch r.peek() {
	case ',':
		r.pos++
		return true
	case closer:
		r.pos++
		return false
	}
	r.unexpected("',' or '" + string(closer) + "'")
	return false
}

// skip consumes one value of any shape, checking its syntax, its UTF-8 and
// its depth, without keeping it.
func (r *reader) skip() {
	switch c := r.peek(); {
	case c == '"':
		r.strBytes()
	case c == '{':
		r.enter()
		r.pos++
		if r.peek() == '}' {
			r.pos++
		} else {
			for {
				r.objectKey()
				r.skip()
				if !r.more('}') {
					break
				}
			}
		}
		r.leave()
	case c == '[':
		r.enter()
		r.pos++
		if r.peek() == ']' {
			r.pos++
		} else {
			for {
				r.skip()
				if !r.more(']') {
					break
				}
			}
		}
		r.leave()
	case c == 't':
		r.literal("true")
	case c == 'f':
		r.literal("false")
	case c == 'n':
		r.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		r.number()
	default:
		r.unexpected("a JSON value")
	}
}

// describe names the JSON kind of the value starting at the next byte.
func (r *reader) describe() string {
	switch c := r.peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	r.unexpected("a JSON value")
	return ""
}

// mismatch reports a value of the wrong JSON kind and skips it.
func (r *reader) mismatch(want string) {
	r.issue(IssueTypeMismatch, "want %s, got %s", want, r.describe())
	r.skip()
}

// ---- decoding by plan ----

// decode reads one value into v as p says, reporting every issue. It
// returns false when the value was of the wrong kind (so per-field rules are
// not piled on top of a type mismatch).
func (r *reader) decode(p *plan, v reflect.Value) bool {
	c := r.peek()
	switch p.kind {
	case kString, kTimestamp, kVocab:
		if c != '"' {
			r.mismatch("a string")
			return false
		}
		s := r.str()
		v.SetString(s)
		switch p.kind {
		case kTimestamp:
			if !Timestamp(s).Valid() {
				r.issue(IssueTimestampInvalid, "%q is not an RFC 3339 date-time of the contract's profile (upper-case T and Z, seconds 00-59, an offset of at most 23:59); write it like 2026-08-25T08:39:12.596Z", s)
			}
		case kVocab:
			if !v.Interface().(Vocabulary).Valid() && !r.unlisted() {
				r.issue(IssueValueNotInVocabulary, "%q is not in the %s vocabulary; use one of: %s", s, p.typ.Name(), strings.Join(p.vocab.Members(), ", "))
			}
		}
		return true
	case kReversible:
		switch c {
		case 't':
			r.literal("true")
			v.SetString(string(ReversibleTrue))
		case 'f':
			r.literal("false")
			v.SetString(string(ReversibleFalse))
		case '"':
			s := r.str()
			v.SetString(s)
			if s != string(ReversibleUnknown) {
				r.issue(IssueValueNotInVocabulary, "reversible is true, false or \"unknown\", not the string %q", s)
			}
		default:
			r.mismatch(`true, false or "unknown"`)
			return false
		}
		return true
	case kBool:
		switch c {
		case 't':
			r.literal("true")
			v.SetBool(true)
		case 'f':
			r.literal("false")
			v.SetBool(false)
		default:
			r.mismatch("true or false")
			return false
		}
		return true
	case kInt:
		if c != '-' && (c < '0' || c > '9') {
			r.mismatch("an integer")
			return false
		}
		num := r.number()
		if bytes.ContainsAny(num, ".eE") {
			r.issue(IssueTypeMismatch, "want an integer, got %s", num)
			return false
		}
		n, err := strconv.ParseInt(string(num), 10, 0)
		if err != nil {
			r.issue(IssueValueOutOfRange, "%s is too large for an integer", num)
			return false
		}
		v.SetInt(n)
		return true
	case kFloat:
		if c != '-' && (c < '0' || c > '9') {
			r.mismatch("a number")
			return false
		}
		num := r.number()
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			r.issue(IssueValueOutOfRange, "%s is too large for a number", num)
			return false
		}
		v.SetFloat(f)
		return true
	case kPtr:
		if c == 'n' {
			r.literal("null")
			v.SetZero()
			return true
		}
		e := reflect.New(p.elem.typ)
		ok := r.decode(p.elem, e.Elem())
		v.Set(e)
		return ok
	case kSlice:
		return r.decodeSlice(p, v)
	case kStruct:
		return r.decodeStruct(p, v, "")
	case kUnion:
		return r.decodeUnion(p, v)
	}
	r.fail(IssueValueInvalid, "internal error in package shared: no decoder for %v", p.typ)
	return false
}

func (r *reader) decodeSlice(p *plan, v reflect.Value) bool {
	switch r.peek() {
	case '[':
	case 'n':
		r.issue(IssueTypeMismatch, "a list is never null; write [] for an empty list")
		r.skip()
		return false
	default:
		r.mismatch("a list")
		return false
	}
	r.enter()
	r.pos++
	s := reflect.MakeSlice(p.typ, 0, 0)
	var scratch reflect.Value // where elements go once the read is full
	if r.peek() == ']' {
		r.pos++
	} else {
		for i := 0; ; i++ {
			keep := !r.full()
			var e reflect.Value
			if keep {
				e = reflect.New(p.elem.typ).Elem()
			} else {
				// Past MaxIssues the value can only be reported on, never
				// granted: read the element for its issues and drop it.
				if !scratch.IsValid() {
					scratch = reflect.New(p.elem.typ).Elem()
				}
				e = scratch
				e.SetZero()
			}
			r.pushIndex(i)
			if !keep {
				r.dropping++
			}
			if r.peek() == 'n' {
				r.issue(IssueTypeMismatch, "a list element is never null")
				r.skip()
			} else {
				r.decode(p.elem, e)
			}
			if !keep {
				r.dropping--
			}
			r.pop()
			if keep {
				s = reflect.Append(s, e)
			}
			if !r.more(']') {
				break
			}
		}
	}
	r.leave()
	v.Set(s)
	return true
}

// decodeStruct reads an object into the struct v. discKey, when not empty,
// is the discriminator of the union the struct is a variant of: it was read
// already and is skipped here.
func (r *reader) decodeStruct(p *plan, v reflect.Value, discKey string) bool {
	if r.peek() != '{' {
		r.mismatch("an object")
		return false
	}
	r.enter()
	r.pos++
	var seen uint64
	var others keySet // keys that are not fields, to spot their duplicates
	sawDisc := false  // whether the discriminator key went by
	if r.peek() == '}' {
		r.pos++
	} else {
		for {
			raw := r.objectKey()
			i, known := p.byKey[string(raw)]
			if !known && r.full() && string(raw) != discKey {
				// Past MaxIssues this key's one issue (unknown, case variant
				// or repeat: one issue each way) is counted, never shown, so
				// its text is not kept and its repeats not tracked.
				r.unlisted()
				r.skip()
				if !r.more('}') {
					break
				}
				continue
			}
			var key string
			if known {
				key = p.fields[i].key
			} else {
				key = string(raw)
			}
			r.push(key)
			if p.typ == graphType && key == "schemaVersion" {
				r.noteVersion()
			}
			if known {
				if seen&(1<<i) != 0 {
					r.issue(IssueJSONDuplicateKey, "key %q appears twice in this object; keep one (a reader that let the last one win could be fooled)", key)
					r.skip()
				} else {
					seen |= 1 << i
					r.decodeField(&p.fields[i], v.Field(p.fields[i].index))
				}
			} else {
				switch {
				case key == discKey && !sawDisc:
					sawDisc = true // read already, by decodeUnion
				case key == discKey || others.has(key):
					r.issue(IssueJSONDuplicateKey, "key %q appears twice in this object; keep one", key)
				default:
					others.add(key)
					if r.unlisted() {
						break // counted; nobody would read the message
					}
					if k := p.foldMatch(key, discKey); k != "" {
						r.issue(IssueJSONCaseVariantKey, "key %q differs from %q only by case; keys are case-sensitive, write %q", key, k, k)
					} else {
						r.issue(IssueKeyUnknown, "unknown key %q; this object has only: %s", key, strings.Join(p.keys(discKey), ", "))
					}
				}
				r.skip()
			}
			r.pop()
			if !r.more('}') {
				break
			}
		}
	}
	r.leave()
	missing := p.required &^ seen
	for i := range p.fields {
		if missing&(1<<i) == 0 {
			continue
		}
		if r.full() {
			// Past MaxIssues, each missing key left is one issue to count.
			r.notListed += bits.OnesCount64(missing >> i)
			break
		}
		f := &p.fields[i]
		code := IssueKeyMissing
		if f.rules.MissingCode != "" {
			code = IssueCode(f.rules.MissingCode)
		}
		r.issueAt(code, []any{f.key}, "%s", missingMessage(code, f))
	}
	if p.check != nil {
		p.check(r, v)
	}
	return true
}

func missingMessage(code IssueCode, f *fieldPlan) string {
	switch code {
	case IssueVerificationMissing:
		return `verification is missing; it is never defaulted: write {"status": "unverified", "note": null} if nobody has verified this action`
	case IssueVerificationConfirmationMissing:
		return `a verified action must carry the owner's confirmation; without one, write status "unverified" or "sandbox-tested"`
	}
	if f.plan.kind == kSlice {
		return fmt.Sprintf("key %q is missing; lists are never optional: write [] when empty", f.key)
	}
	return fmt.Sprintf("key %q is missing; only nullable keys may be omitted", f.key)
}

func (r *reader) decodeField(f *fieldPlan, v reflect.Value) {
	if f.plan.kind != kPtr && f.rules.MissingCode != "" && r.peek() == 'n' {
		r.literal("null")
		code := IssueCode(f.rules.MissingCode)
		r.issue(code, "%s", missingMessage(code, f))
		return
	}
	if !r.decode(f.plan, v) {
		return
	}
	rs := &f.rules
	if rs.NonEmpty {
		empty := false
		switch f.plan.kind {
		case kString, kSlice:
			empty = v.Len() == 0
		case kPtr:
			empty = !v.IsNil() && v.Elem().Kind() == reflect.String && v.Elem().Len() == 0
		}
		if empty {
			code := IssueValueEmpty
			if rs.EmptyCode != "" {
				code = IssueCode(rs.EmptyCode)
			}
			switch {
			case code == IssueEffectsEmpty:
				r.issue(code, `effects must not be empty: an action whose consequences we cannot state is one nobody should execute; list each effect, using kind "unknown" for one you cannot name`)
			case f.plan.kind == kPtr:
				r.issue(code, "%s must not be the empty string; write null when there is none", f.key)
			case f.plan.kind == kSlice:
				r.issue(code, "%s must not be empty", f.key)
			default:
				r.issue(code, "%s must not be empty", f.key)
			}
		}
	}
	if rs.Min != nil || rs.Max != nil {
		iv := v
		if iv.Kind() == reflect.Pointer {
			if iv.IsNil() {
				return
			}
			iv = iv.Elem()
		}
		n := iv.Int()
		if rs.Min != nil && n < *rs.Min || rs.Max != nil && n > *rs.Max {
			r.issue(IssueValueOutOfRange, "%s is %d; %s", f.key, n, rangeText(rs.Min, rs.Max))
		}
	}
}

func rangeText(lo, hi *int64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("it must be between %d and %d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("it must be at least %d", *lo)
	default:
		return fmt.Sprintf("it must be at most %d", *hi)
	}
}

// noteVersion looks at the graph's schemaVersion before it is decoded. A
// document at another version is refused whole: a newer producer may state
// a limit in a key this reader cannot see.
func (r *reader) noteVersion() {
	if r.sawVersion {
		return // a duplicate; reported as such
	}
	r.sawVersion = true
	save := r.pos
	var what string
	if r.peek() == '"' {
		r.quiet++
		s := r.str()
		r.quiet--
		if s == SchemaVersion {
			r.pos = save
			return
		}
		what = fmt.Sprintf("schemaVersion %q is not supported", s)
	} else {
		what = fmt.Sprintf("schemaVersion must be the string %q, not %s", SchemaVersion, r.describe())
	}
	r.pos = save
	r.versionBad = true
	r.versionIssue = Issue{
		Path:    "$.schemaVersion",
		Code:    IssueVersionUnsupported,
		Message: what + fmt.Sprintf(": this reader reads contract %s only and refuses any other version whole rather than reading the parts it recognises; migrate the document or use a reader for its version", SchemaVersion),
	}
}

// keySet remembers the keys of one object that are not fields. Objects
// almost never have any, so it starts as a short list and becomes a map only
// when hostile input piles them up.
type keySet struct {
	list []string
	set  map[string]bool
}

func (s *keySet) has(k string) bool {
	if s.set != nil {
		return s.set[k]
	}
	return slices.Contains(s.list, k)
}

func (s *keySet) add(k string) {
	if s.set == nil && len(s.list) < 16 {
		s.list = append(s.list, k)
		return
	}
	if s.set == nil {
		s.set = make(map[string]bool, 32)
		for _, x := range s.list {
			s.set[x] = true
		}
	}
	s.set[k] = true
}

// foldMatch returns the field key (or the discriminator) that key equals
// under Unicode case folding, the matching encoding/json would do silently.
func (p *plan) foldMatch(key, discKey string) string {
	for i := range p.fields {
		if strings.EqualFold(key, p.fields[i].key) {
			return p.fields[i].key
		}
	}
	if discKey != "" && strings.EqualFold(key, discKey) {
		return discKey
	}
	return ""
}

// keys lists the keys an object of this plan may carry, for messages.
func (p *plan) keys(discKey string) []string {
	var out []string
	if discKey != "" {
		out = append(out, discKey)
	}
	for i := range p.fields {
		out = append(out, p.fields[i].key)
	}
	return out
}

// decodeUnion reads a union value: it finds the discriminator wherever it
// sits in the object, then reads the object again as that variant.
func (r *reader) decodeUnion(p *plan, v reflect.Value) bool {
	u := p.union
	if r.peek() != '{' {
		r.mismatch(fmt.Sprintf("an object with a %q key", u.key))
		return false
	}
	start := r.pos
	disc, found, isString, variant := r.findDiscriminator(u.key)
	switch {
	case !found:
		if variant != "" && !r.unlisted() {
			r.issueAt(IssueJSONCaseVariantKey, []any{variant}, "key %q differs from %q only by case; keys are case-sensitive, write %q", variant, u.key, u.key)
		}
		if !r.unlisted() {
			r.issueAt(IssueKeyMissing, []any{u.key}, "key %q is missing; it says which kind of %s this is: one of %s", u.key, p.typ.Name(), quoteAll(u.vocab.Members()))
		}
		return true
	case !isString:
		if !r.unlisted() {
			r.issueAt(IssueTypeMismatch, []any{u.key}, "%q must be a string, one of %s", u.key, quoteAll(u.vocab.Members()))
		}
		return true
	}
	vp := u.variants[disc]
	if vp == nil {
		if r.unlisted() {
			return true
		}
		r.issueAt(IssueValueNotInVocabulary, []any{u.key}, "%q is not in the %s vocabulary; use one of: %s", disc, reflect.TypeOf(u.vocab).Name(), strings.Join(u.vocab.Members(), ", "))
		return true
	}
	end := r.pos
	r.pos = start
	if r.dropping > 0 {
		// In a list element the read will drop: decode into a spare value
		// of the variant and keep nothing.
		sp := r.takeSpare(vp.typ)
		r.decodeStruct(vp, sp.v, u.key)
		sp.busy = false
	} else {
		nv := reflect.New(vp.typ).Elem()
		r.decodeStruct(vp, nv, u.key)
		v.Set(nv)
	}
	if r.pos != end {
		r.fail(IssueValueInvalid, "internal error in package shared: union re-read ended at byte %d, not %d", r.pos, end)
	}
	return true
}

// spareValue is a value of a union variant that a dropped list element is
// decoded into; busy while in use (a variant may nest its own union).
type spareValue struct {
	v    reflect.Value
	busy bool
}

// takeSpare returns a zeroed, idle spare value of type t, marked busy.
func (r *reader) takeSpare(t reflect.Type) *spareValue {
	for _, sp := range r.spare {
		if !sp.busy && sp.v.Type() == t {
			sp.busy = true
			sp.v.SetZero()
			return sp
		}
	}
	sp := &spareValue{v: reflect.New(t).Elem(), busy: true}
	r.spare = append(r.spare, sp)
	return sp
}

// findDiscriminator scans the object at r.pos for the first key equal to
// key and returns its string value. It consumes the object; issues inside it
// are left for the real pass to report.
func (r *reader) findDiscriminator(key string) (disc string, found, isString bool, variant string) {
	r.quiet++
	r.enter()
	r.pos++
	if r.peek() == '}' {
		r.pos++
	} else {
		for {
			k := r.objectKey()
			if string(k) == key && !found {
				found = true
				if r.peek() == '"' {
					disc, isString = r.str(), true
				} else {
					r.skip()
				}
			} else {
				if variant == "" && bytes.EqualFold(k, []byte(key)) {
					variant = string(k)
				}
				r.skip()
			}
			if !r.more('}') {
				break
			}
		}
	}
	r.leave()
	r.quiet--
	return disc, found, isString, variant
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// ---- rules that span fields ----

// structCheck returns the cross-field rules of t, run after each value of t
// is read. Rules on one field live in its contract tag instead.
func structCheck(t reflect.Type) func(r *reader, v reflect.Value) {
	switch t {
	case graphType:
		return checkGraph
	case actionType:
		return checkAction
	case reflect.TypeFor[Provenance]():
		return checkProvenance
	case reflect.TypeFor[InferredValidation]():
		return checkInferred
	case reflect.TypeFor[LengthSpace]():
		return checkLength
	}
	return nil
}

func checkGraph(r *reader, v reflect.Value) {
	g := v.Addr().Interface().(*ActionGraph)
	first := map[string]int{}
	for i, a := range g.Actions {
		if a.ID == "" {
			continue
		}
		if j, dup := first[a.ID]; dup {
			r.issueAt(IssueIDDuplicate, []any{"actions", i, "id"}, "action id %q is already used by $.actions[%d]; ids must be unique within a graph", a.ID, j)
			continue
		}
		first[a.ID] = i
	}
}

func checkAction(r *reader, v reflect.Value) {
	a := v.Addr().Interface().(*Action)
	names := make(map[string]bool, len(a.Inputs))
	for _, in := range a.Inputs {
		names[in.Name] = true
	}
	for i, val := range a.Validations {
		if val == nil || val.Target() == "" || names[val.Target()] {
			continue
		}
		r.issueAt(IssueReferenceDangling, []any{"validations", i, "appliesTo"}, "appliesTo %q names no input of this action; use the name of one of its inputs", val.Target())
	}
}

func checkConfidence(r *reader, c float64, method ProvenanceMethod, what string) {
	switch {
	case math.IsNaN(c) || c < 0 || c > 1:
		r.issueAt(IssueConfidenceOutOfRange, []any{"confidence"}, "confidence %v is outside [0, 1]", c)
	case c == 1 && method != MethodOwnerConfirmed:
		r.issueAt(IssueConfidenceCertainNotOwner, []any{"confidence"}, "confidence 1 is reserved for owner-confirmed beliefs; %s is never certain, so state a confidence below 1", what)
	}
}

func checkProvenance(r *reader, v reflect.Value) {
	p := v.Addr().Interface().(*Provenance)
	checkConfidence(r, p.Confidence, p.Method, fmt.Sprintf("a belief formed by %q", string(p.Method)))
}

func checkInferred(r *reader, v reflect.Value) {
	iv := v.Addr().Interface().(*InferredValidation)
	checkConfidence(r, iv.Confidence, "", "an inferred validation")
}

func checkLength(r *reader, v reflect.Value) {
	l := v.Addr().Interface().(*LengthSpace)
	if l.MinLength != nil && l.MaxLength != nil && *l.MinLength > *l.MaxLength {
		r.issueAt(IssueValueOutOfRange, []any{"maxLength"}, "maxLength %d is below minLength %d", *l.MaxLength, *l.MinLength)
	}
}
