// norm(s): s as a string (null and undefined read as ""), each run of
// white space one space, leading and trailing space trimmed. It is rule N2
// of topology's normalization-v0.2 (topology/normalize.go): changing it
// changes NormalizationRuleVersion, and every text the mapper reads.
// Declares: norm.
const norm = ((ws) => (s) => (s == null ? "" : String(s)).replace(ws, " ").trim())(/\s+/g);
