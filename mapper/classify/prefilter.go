package classify

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A literal prefilter for the word patterns. Reading one field runs some
// seven hundred patterns over each of its texts, and nearly all of them
// fail: a pattern that needs the word "mail" cannot match a text without
// it. required works out, from a pattern's syntax tree, a set of strings
// one of which every match contains. Every such string is registered once
// in lits; scanText finds, in one pass over a text, which of them it
// contains; compiled.matches runs a pattern only when one of its strings
// is there. The prefilter only ever skips patterns that cannot match, so
// results are those of the patterns alone (TestPrefilterAgrees), at a
// fraction of the cost (BenchmarkFieldsPerField).

// need is one string a match may contain; fold: compare case-folded
// (foldCanon), for the parts of a pattern under (?i).
type need struct {
	s    string
	fold bool
	id   int32 // index in lits
}

// literalIndex holds every need string of every compiled pattern, indexed
// by its first two bytes (one-byte strings by their byte). It is filled
// while the package's pattern tables compile and only read afterwards.
type literalIndex struct {
	ids   map[need]int32
	byTwo map[uint16][]int32
	byOne [256][]int32
	strs  []need
}

var lits = &literalIndex{ids: map[need]int32{}, byTwo: map[uint16][]int32{}}

func (x *literalIndex) add(n need) int32 {
	key := need{s: n.s, fold: n.fold}
	if id, ok := x.ids[key]; ok {
		return id
	}
	id := int32(len(x.strs))
	x.ids[key] = id
	x.strs = append(x.strs, key)
	if len(n.s) == 1 {
		x.byOne[n.s[0]] = append(x.byOne[n.s[0]], id)
	} else {
		k := uint16(n.s[0])<<8 | uint16(n.s[1])
		x.byTwo[k] = append(x.byTwo[k], id)
	}
	return id
}

// foldLetters writes letters that one language spells two ways as one,
// in text and in patterns alike (compile folds every pattern the same
// way), so a pattern meets either spelling:
//   - the Arabic yeh (ي), alef maksura (ى) and kaf (ك) as the Persian yeh
//     (ی) and keheh (ک): Persian pages are often typed on Arabic keyboards
//     ("دريافت ايميل" for "دریافت ایمیل");
//   - the Turkish dotless ı, the dotted capital İ (which (?i) does not
//     fold to i) and the "i" and combining dot above (U+0307) that
//     JavaScript's toLowerCase makes of İ, as "i": a label typed in
//     capitals ("ADI SOYADI") loses its ı when lower-cased, so a pattern
//     spelled "adı soyadı" would miss it.
func foldLetters(s string) string {
	if !strings.ContainsAny(s, "يىكİı\u0307") {
		return s
	}
	return letterFold.Replace(s)
}

var letterFold = strings.NewReplacer("ي", "ی", "ى", "ی", "ك", "ک", "i\u0307", "i", "İ", "i", "ı", "i")

// scan is the set of lits strings one text contains.
type scan struct {
	text  string
	found []uint64
}

// scanText finds every registered string in text (and the folded ones in
// its case-folded form) in one pass per form.
func scanText(text string) *scan {
	text = foldLetters(text)
	sc := &scan{text: text, found: make([]uint64, (len(lits.strs)+63)/64)}
	sc.mark(text, false)
	if hasFold {
		sc.mark(foldCanon(text), true)
	}
	return sc
}

func (sc *scan) mark(t string, fold bool) {
	for i := 0; i < len(t); i++ {
		for _, id := range lits.byOne[t[i]] {
			if lits.strs[id].fold == fold {
				sc.found[id/64] |= 1 << (id % 64)
			}
		}
		if i+1 >= len(t) {
			break
		}
		for _, id := range lits.byTwo[uint16(t[i])<<8|uint16(t[i+1])] {
			if n := lits.strs[id]; n.fold == fold && strings.HasPrefix(t[i:], n.s) {
				sc.found[id/64] |= 1 << (id % 64)
			}
		}
	}
}

func (sc *scan) has(id int32) bool { return sc.found[id/64]&(1<<(id%64)) != 0 }

// hasFold: some compiled pattern ignores case; texts are then also scanned
// case-folded.
var hasFold bool

// matches reports whether c.re matches the scanned text.
func (c compiled) matches(sc *scan) bool {
	if c.need != nil {
		ok := false
		for _, n := range c.need {
			if sc.has(n.id) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return c.re.MatchString(sc.text)
}

// required returns strings one of which every match of the pattern src
// contains, registered in lits, or nil when it cannot tell (a pattern
// that may match without any literal, or one that does not parse:
// regexp.MustCompile reports that).
func required(src string) []need {
	re, err := parsePattern(src)
	if err != nil {
		return nil
	}
	ns, ok := requiredOf(re)
	if !ok || len(ns) == 0 {
		return nil
	}
	for i := range ns {
		ns[i].id = lits.add(ns[i])
		hasFold = hasFold || ns[i].fold
	}
	return ns
}

// parsePattern parses src as regexp.Compile does.
func parsePattern(src string) (*syntax.Regexp, error) { return syntax.Parse(src, syntax.Perl) }

func requiredOf(re *syntax.Regexp) ([]need, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil, false
		}
		if re.Flags&syntax.FoldCase != 0 {
			return []need{{s: foldCanon(string(re.Rune)), fold: true}}, true
		}
		return []need{{s: string(re.Rune)}}, true
	case syntax.OpCapture, syntax.OpPlus:
		return requiredOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredOf(re.Sub[0])
		}
	case syntax.OpConcat:
		// Any part's set will do; the one whose shortest string is
		// longest rejects most texts.
		var best []need
		score := 0
		for _, sub := range re.Sub {
			ns, ok := requiredOf(sub)
			if !ok {
				continue
			}
			if m := shortest(ns); best == nil || m > score {
				best, score = ns, m
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []need
		for _, sub := range re.Sub {
			ns, ok := requiredOf(sub)
			if !ok {
				return nil, false
			}
			all = append(all, ns...)
		}
		return all, true
	}
	return nil, false
}

func shortest(ns []need) int {
	m := -1
	for _, n := range ns {
		if l := len(n.s); m < 0 || l < m {
			m = l
		}
	}
	return m
}

// foldCanon maps every rune to the smallest rune of its case-folding orbit
// (the orbits (?i) matches by: k, K and the Kelvin sign are one), so two
// strings a case-insensitive pattern treats alike map to the same string.
func foldCanon(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(canonRune(r))
	}
	return b.String()
}

func canonRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < m {
			m = f
		}
	}
	return m
}
