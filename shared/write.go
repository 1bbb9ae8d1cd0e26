package shared

// Runs after vocab.go's generator (go generate takes files in name order),
// so the schema sees freshly generated vocabularies.
//go:generate go run ./internal/schemagen -out schema/action-graph-0.1.schema.json

import (
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Write returns the canonical JSON of g, after validating it by the rules of
// Read. Canonical form: keys in the order of the Go struct fields (the
// seed's order), a union's discriminator first, every key written (null for
// a nil pointer or union, [] for a nil list), two-space indentation, no HTML
// escaping, a trailing newline. Timestamps are written as they were read.
//
// An invalid graph is refused with a *ValidationError (errors.Is(err,
// ErrInvalidGraph)): a graph built in memory that does not validate is a bug
// in the program that built it, and writing it would put an unreadable file
// on disk for the next stage to trust.
func Write(g *ActionGraph) ([]byte, error) {
	if g == nil {
		return nil, &ValidationError{What: "graph", Issues: []Issue{{Path: "$", Code: IssueTypeMismatch, Message: "the graph is nil"}}}
	}
	return write(graphType, reflect.ValueOf(g).Elem(), "graph", func(b []byte) []Issue { _, is := Read(b); return is })
}

// WriteAction returns the canonical JSON of one action, validated by the
// rules of ReadAction, in the same canonical form as Write.
func WriteAction(a *Action) ([]byte, error) {
	if a == nil {
		return nil, &ValidationError{What: "action", Issues: []Issue{{Path: "$", Code: IssueTypeMismatch, Message: "the action is nil"}}}
	}
	return write(actionType, reflect.ValueOf(a).Elem(), "action", func(b []byte) []Issue { _, is := ReadAction(b); return is })
}

// write serialises v and re-reads the bytes with the strict reader: writing
// re-validates by the very code that reads, so no second validator exists to
// drift from the first.
func write(t reflect.Type, v reflect.Value, what string, reread func([]byte) []Issue) ([]byte, error) {
	p, err := planFor(t)
	if err != nil {
		return nil, &ValidationError{What: what, Issues: []Issue{internalIssue(err)}}
	}
	w := writer{buf: make([]byte, 0, 4096)}
	w.value(p, v, 0)
	w.buf = append(w.buf, '\n')
	issues := w.issues
	flagged := map[string]bool{}
	for _, is := range issues {
		flagged[is.Path] = true
	}
	for _, is := range reread(w.buf) {
		if !flagged[is.Path] {
			issues = append(issues, is)
		}
	}
	if len(issues) > 0 {
		return nil, &ValidationError{What: what, Issues: issues}
	}
	return w.buf, nil
}

type writer struct {
	buf    []byte
	path   []seg
	issues []Issue
}

// issue records what the bytes cannot show, such as a NaN confidence (JSON
// has no NaN, so the re-read would never see it).
func (w *writer) issue(code IssueCode, msg string) {
	w.issues = append(w.issues, Issue{Path: renderPath(w.path), Code: code, Message: msg})
}

func (w *writer) indent(n int) {
	w.buf = append(w.buf, '\n')
	for range n {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *writer) value(p *plan, v reflect.Value, depth int) {
	switch p.kind {
	case kString, kTimestamp, kVocab:
		w.buf = appendJSONString(w.buf, v.String())
	case kReversible:
		switch s := v.String(); s {
		case string(ReversibleTrue), string(ReversibleFalse):
			w.buf = append(w.buf, s...)
		default:
			w.buf = appendJSONString(w.buf, s)
		}
	case kBool:
		w.buf = strconv.AppendBool(w.buf, v.Bool())
	case kInt:
		w.buf = strconv.AppendInt(w.buf, v.Int(), 10)
	case kFloat:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			code := IssueValueOutOfRange
			if n := len(w.path); n > 0 && w.path[n-1].key == "confidence" {
				code = IssueConfidenceOutOfRange
			}
			w.issue(code, "a confidence of "+strconv.FormatFloat(f, 'g', -1, 64)+" cannot be written: JSON carries only finite numbers, and a confidence lies within [0, 1]")
			f = 0
		}
		w.buf = appendJSONFloat(w.buf, f)
	case kPtr:
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return
		}
		w.value(p.elem, v.Elem(), depth)
	case kSlice:
		if v.Len() == 0 {
			w.buf = append(w.buf, "[]"...)
			return
		}
		w.buf = append(w.buf, '[')
		for i := range v.Len() {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.indent(depth + 1)
			w.path = append(w.path, seg{idx: i})
			w.value(p.elem, v.Index(i), depth+1)
			w.path = w.path[:len(w.path)-1]
		}
		w.indent(depth)
		w.buf = append(w.buf, ']')
	case kStruct:
		w.object(p, v, depth, "", "")
	case kUnion:
		if v.IsNil() {
			w.buf = append(w.buf, "null"...)
			return
		}
		dyn := v.Elem()
		if dyn.Kind() == reflect.Pointer { // *Unverified also satisfies the interface
			if dyn.IsNil() {
				w.buf = append(w.buf, "null"...)
				return
			}
			dyn = dyn.Elem()
		}
		disc, ok := p.union.byType[dyn.Type()]
		if !ok {
			w.issue(IssueTypeMismatch, "type "+dyn.Type().String()+" is not a variant of "+p.typ.Name())
			w.buf = append(w.buf, "null"...)
			return
		}
		w.object(p.union.variants[disc], dyn, depth, p.union.key, disc)
	default:
		w.issue(IssueValueInvalid, "internal error in package shared: no encoder for "+p.typ.String())
		w.buf = append(w.buf, "null"...)
	}
}

func (w *writer) object(p *plan, v reflect.Value, depth int, discKey, disc string) {
	w.buf = append(w.buf, '{')
	first := true
	if discKey != "" {
		w.indent(depth + 1)
		w.buf = appendJSONString(w.buf, discKey)
		w.buf = append(w.buf, ':', ' ')
		w.buf = appendJSONString(w.buf, disc)
		first = false
	}
	for i := range p.fields {
		f := &p.fields[i]
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		w.indent(depth + 1)
		w.buf = appendJSONString(w.buf, f.key)
		w.buf = append(w.buf, ':', ' ')
		w.path = append(w.path, seg{key: f.key, idx: -1})
		w.value(f.plan, v.Field(f.index), depth+1)
		w.path = w.path[:len(w.path)-1]
	}
	if first {
		w.buf = append(w.buf, '}')
		return
	}
	w.indent(depth)
	w.buf = append(w.buf, '}')
}

// appendJSONFloat formats f as encoding/json does: the shortest decimal that
// reads back as the same float64, in exponent form only for very small or
// very large magnitudes.
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 -> 1e-7, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as canonical JSON: no HTML escaping (a summary
// reading "A & B" stays readable), the short escapes for \" \\ \n \r \t \b
// \f, \u00XX for other control characters, and \u2028 \u2029 escaped (as
// encoding/json does) so the output is also safe inside JavaScript. Invalid
// UTF-8 is copied as is, so re-reading the output reports it.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
