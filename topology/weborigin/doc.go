// Package weborigin is the one rule by which Frontlatch writes a URL's
// origin: scheme://host[:port] as a browser writes it (RFC 6454's
// serialisation), the scheme and host case folded, the scheme's default
// port left out, an IPv6 host in brackets, "file://" for any file URL.
//
// Two URLs are same-origin exactly when Of gives the same non-empty
// string for both; "" is no origin (a relative URL, another scheme), equal
// to nothing. topology's tabs, runs and confined contexts, the verifier's
// sandbox and door rules, the portal's report and the executor's redirect
// rule all compare origins by it. It imports only the standard library.
package weborigin
