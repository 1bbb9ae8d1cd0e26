// Package mapper maps a small-business website into an Action Graph
// (contract 0.1, package shared): what a customer can get done there, every
// door to it, what each door needs, and what happens when it runs.
//
// There are four entry points. Map takes a URL: it checks it with a plain
// HTTP request (so an unreachable site, an error status, a redirect loop or
// a non-HTML answer fails fast with a *FetchError), opens the entry page and
// a bounded number of same-site pages that carry actions in a real browser,
// one reused tab (a topology.Session from NewSession, the WebMCP recorder
// installed before page scripts),
// reveals modals and "Book now" triggers through topology's safe
// exploration, and reads the site's ARD catalogs. MapPage maps one page an
// embedding crawler already has open. MapHTML maps static markup without a
// browser or network. MapAll maps many sites at once over one browser, a
// tab per worker and a bound per host.
//
// The doors it records: HTML forms and form-like groups without a <form>
// (html-form), tel: and mailto: links, third-party schedulers and form hosts
// (scheduler-widget, opaque, inputs empty), links to booking pages elsewhere
// (link-to-page), WebMCP tools registered imperatively or declared with
// <form toolname> (webmcp-tool), Schema.org potentialAction entry points and
// MCP tools from ARD catalogs (documented-endpoint). Field semantics and
// form purpose come from package classify; page facts from package extract.
// Every assertion carries provenance whose method and confidence follow the
// table in docs/mapper.md, and every action is Unverified: the mapper never
// submits anything.
//
// Inside, a map is a crawl and a build. The crawl (the only part that
// touches a browser or the network) collects pages; the build turns them
// into the graph without either, as a pipeline of stages with their own
// input and output types: doors (each page read alone into plain door
// values), actions (doors grouped across pages and states), inputs,
// validations, effects, barriers, and folding and naming. docs/mapper.md,
// "Inside: crawl, then build", names each stage's function and types.
package mapper
