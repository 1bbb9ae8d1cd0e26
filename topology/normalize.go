package topology

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// NormalizationRule is one rule of normalization-v0.2: what the engine
// rewrites or ignores before hashing, so that two runs over the same site
// produce the same ids and hashes.
type NormalizationRule struct {
	ID          string
	Description string
}

// normalizationRules is normalization-v0.2. The in-page part is implemented
// in extract.js (same rule ids in its comments; N2 is pagejs's norm, which
// extract.js includes); the Go part in this file.
// Changing any rule changes NormalizationRuleVersion.
var normalizationRules = []NormalizationRule{
	{"N1", "URL key: scheme and host lower-cased, default port dropped, tracking parameters (utm_*, gclid, fbclid, msclkid, dclid, _ga, _gl, mc_cid, mc_eid, _hsenc, _hsmi, ref_src, _) dropped, secret-named parameters (token, nonce, csrf, xsrf, captcha, timestamp) replaced by {secret}, remaining parameters sorted, fragment dropped unless it is a route (#/ or #!)."},
	{"N2", "Whitespace: every run of white space collapses to one space; leading and trailing space is trimmed."},
	{"N3", "Volatile identifiers in attribute values, URLs, names and class names: UUIDs, hex runs of 8+ characters mixing digits and letters, long mixed-case random tokens and digit runs of 5+ all become {id} (one placeholder, so a token that happens to be all digits still normalises the same way)."},
	{"N4", "Attributes ignored by the DOM hash: nonce, integrity, data-fl-*, csrf*, *-token, *nonce*, data-reactid, data-v-*; the value of hidden inputs and of secret-named inputs is {secret}; numbers in style attributes are #; class tokens are sorted."},
	{"N5", "Timestamps and clocks in text and attributes: ISO date-times become {ts}, ISO dates {date}, clock times {time}."},
	{"N6", "Scope: the DOM hash covers <body> element structure and attributes in document order (not text, not <head>); the visible-text hash covers body.innerText line by line after N2, N3 and N5; script and style contents are never hashed."},
	{"N7", "Ids and locators never use a volatile value: an element id (or test id) that N3 or N5 would rewrite is not used for css-id, css-path or test-id locators."},
	{"N8", "Counters: the engine never hashes counts it does not control (request counts, dialog counts, timings); they go to evidence, which is not part of any hash."},
}

// hashOf returns a 16-hex-digit digest of parts (joined unambiguously).
func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// idOf makes a deterministic id with a readable prefix.
func idOf(prefix string, parts ...string) string {
	return prefix + "-" + hashOf(parts...)[:12]
}

// normSpace applies N2.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
