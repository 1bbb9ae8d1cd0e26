package shared

import "testing"

// TestBlankClasses holds blank to its documented rule, one case per class of
// character: what renders as nothing is blank, alone or together; anything a
// person can see is not, wherever it sits in the string.
func TestBlankClasses(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		// Blank: nothing at all, spaces and separators.
		{"empty", "", true},
		{"ASCII spaces and controls", " \t\n\r\v\f", true},
		{"no-break space U+00A0", "\u00a0", true},
		{"ideographic space U+3000", "\u3000", true},
		{"line separator U+2028", "\u2028", true},
		{"paragraph separator U+2029", "\u2029", true},
		{"C1 control U+0085", "\u0085", true},
		// Blank: format characters (Cf) and other default-ignorables.
		{"zero-width space U+200B", "\u200b", true},
		{"zero-width joiner U+200D", "\u200d", true},
		{"soft hyphen U+00AD", "\u00ad", true},
		{"word joiner U+2060", "\u2060", true},
		{"byte-order mark U+FEFF", "\ufeff", true},
		{"Mongolian vowel separator U+180E", "\u180e", true},
		{"tag character U+E0041", "\U000E0041", true},
		{"combining grapheme joiner U+034F", "\u034f", true},
		{"Khmer inherent vowel U+17B4", "\u17b4", true},
		{"Khmer inherent vowel U+17B5", "\u17b5", true},
		// Blank: Hangul fillers (letters Unicode renders as nothing).
		{"Hangul filler U+3164", "\u3164", true},
		{"Hangul choseong filler U+115F", "\u115f", true},
		{"Hangul jungseong filler U+1160", "\u1160", true},
		{"halfwidth Hangul filler U+FFA0", "\uffa0", true},
		// Blank: the Braille pattern with no dot.
		{"Braille blank U+2800", "\u2800", true},
		// Blank: marks with nothing to mark.
		{"lone combining acute U+0301", "\u0301", true},
		{"only combining marks", "\u0301\u0308\u20dd", true},
		{"variation selector U+FE0F", "\ufe0f", true},
		{"variation selector supplement U+E0100", "\U000E0100", true},
		// Blank: unassigned code points have no glyph.
		{"unassigned U+0378", "\u0378", true},
		// Blank: mixtures of the above.
		{"fillers, joiners and spaces together", " \u3164\u200b\u2800\u0301\u115f\u1160\uffa0\u034f\u17b5 ", true},

		// Not blank: private use may have a glyph.
		{"private use U+E000", "\ue000", false},
		{"supplementary private use U+F0000", "\U000F0000", false},
		// Not blank: ordinary visible characters.
		{"ASCII letter", "x", false},
		{"letter among spaces", " x ", false},
		{"digit", "7", false},
		{"punctuation", ".", false},
		{"em dash", "—", false},
		{"currency symbol", "$", false},
		{"emoji", "\U0001F600", false},
		{"emoji with variation selector", "\u2764\ufe0f", false},
		{"CJK ideograph", "\u4e00", false},
		{"Hangul syllable", "\ud55c", false},
		{"Braille with one dot U+2801", "\u2801", false},
		{"letter with combining mark", "e\u0301", false},
		{"letter hidden among fillers", "\u3164\u200ba\u2800", false},
		{"invalid UTF-8 reads as U+FFFD", "\xff", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := blank(tt.in); got != tt.want {
				t.Errorf("blank(%+q) = %t, want %t", tt.in, got, tt.want)
			}
		})
	}
}
