// Package portal is the owner's portal of the verifier: the readiness
// report of a site (BuildReport, RenderReport — also written as one
// standalone HTML file by `frontlatch report`) and a local web server
// (New, Server.Serve — `frontlatch verify serve`) with a confirmation page
// per action.
//
// Confirming is the only way an action becomes verified. The page shows
// the disclosure exactly as it will be recorded (shared.DisclosureOf of the
// action's side effects), what the action collects, where its submissions
// go and its sandbox runs; the owner sets the limits and their name. On the
// POST the portal checks that the request came from its own page (session
// cookie, Origin or Referer, Sec-Fetch-Site, a per-session CSRF token and a
// single-use form nonce), recomputes the consent digest from the graph on
// disk with the submitted limits and refuses when it is not the digest of
// what was shown. Only then does it confirm through verifier.Confirm (which
// writes the audit record), check the confirmed action against the consent
// gate with the store as its lookup, and rewrite the graph atomically. A
// refusal at any step writes nothing to the graph.
//
// Who may confirm: the server listens on 127.0.0.1 unless told otherwise,
// and the URL it prints carries a random one-time token that sets an
// HttpOnly, SameSite=Strict session cookie; every page without that
// session is 403, as is any Host header that is not an IP literal or
// localhost at the server's port. Everything that came from the site is
// escaped by html/template, and pages carry a Content-Security-Policy that
// allows no script at all.
package portal
