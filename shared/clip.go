package shared

import "unicode/utf8"

// Clip shortens s to at most n bytes, cut on a rune boundary and marked
// with "…", for a message or a report that quotes text from a site or a
// document. A string of n bytes or fewer is returned as it is.
func Clip(s string, n int) string {
	if n < 0 {
		n = 0
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
