package main

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// termSafe returns a writer for text a person reads in a terminal: every
// control character but newline and tab (ESC, CR, BEL, DEL, the C1
// controls), every bidirectional formatting character and every byte that
// is not UTF-8 is written as an escape (\u001b, \xff) instead. Labels, ids,
// URLs and summaries in a graph came from a site, or from whoever edited
// the file, and an escape sequence in them would otherwise be run by the
// terminal: retitle it, rewrite what was printed before, write to the
// clipboard. Each Write is filtered on its own, so a caller writes whole
// lines (as fmt.Fprintf does).
func termSafe(w io.Writer) io.Writer {
	if t, ok := w.(termWriter); ok {
		return t
	}
	return termWriter{w}
}

type termWriter struct{ w io.Writer }

func (t termWriter) Write(p []byte) (int, error) {
	clean := true
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if needsEscape(r, n) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return t.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, p[i])
		case needsEscape(r, n):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, p[i:i+n]...)
		}
		i += n
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// needsEscape: the rune r, n bytes long, would act on a terminal rather
// than be shown.
func needsEscape(r rune, n int) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r == utf8.RuneError && n == 1:
		return true
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case unicode.Is(unicode.Bidi_Control, r):
		return true
	}
	return false
}
