package shared

import "unicode"

// blank reports whether s shows a person nothing: it holds no visible
// character. The consent gate refuses a blank confirmedBy, notify, auditRecord
// or disclosure string, and completeness a blank submit control, so a string
// that renders as empty space must not pass for a statement.
//
// The rule, from the Unicode properties in the standard unicode tables (no
// code point is listed by hand): a rune is visible when its General_Category
// is a letter (L*), number (N*), punctuation (P*), symbol (S*) or private use
// (Co: a font may give it a glyph) — and it is neither
//
//   - Other_Default_Ignorable_Code_Point, the letters and marks Unicode
//     says to render as nothing (the Hangul fillers U+115F, U+1160, U+3164,
//     U+FFA0, the combining grapheme joiner U+034F, the Khmer inherent vowels
//     U+17B4 and U+17B5, …), nor
//   - a Braille pattern with no dot raised: the Braille Patterns block encodes
//     the eight dots as the low eight bits of the code point, so U+2800 is
//     the one pattern with none.
//
// Everything else is invisible: separators and spaces (Z*, and anything
// White_Space), marks (M*: a combining mark, a variation selector, only
// decorate a visible character and show nothing alone) and the other C*
// categories (controls, format characters such as U+200B and U+00AD,
// unassigned code points). So s is blank when it is empty or made only of
// invisible runes; a mark after a visible character does not make it blank.
//
// An invalid UTF-8 byte reads as U+FFFD, a visible symbol, so a string that is
// not UTF-8 is not blank (the reader rejects it anyway).
func blank(s string) bool {
	for _, r := range s {
		if visible(r) {
			return false
		}
	}
	return true
}

// visible is blank's per-rune rule; see blank.
func visible(r rune) bool {
	switch {
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.White_Space, r):
		return false
	case unicode.Is(unicode.Braille, r):
		return r&0xFF != 0 // the low eight bits are the raised dots
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S, unicode.Co)
}
