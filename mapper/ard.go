package mapper

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// ARD (Agentic Resource Discovery) catalogs are found by every route the
// spec and the tools that check it use (REFERENCE.md): two well-known paths,
// a robots.txt "Agentmap:" line, <link rel> elements and a Link header.
var (
	ardWellKnown = []string{"/.well-known/ai-catalog.json", "/.well-known/ard.json"}
	ardRels      = []string{"ai-catalog", "ard"}
)

// Media types of ARD entries the mapper reads.
const (
	mediaMCPServerCard = "application/mcp-server-card+json"
	mediaAICatalog     = "application/ai-catalog+json"
	// maxCatalogDepth bounds nested catalogs.
	maxCatalogDepth = 2
	// confCatalogAction: the site publishes the tool for agents; whether the
	// server behind it answers is not checked.
	confCatalogAction = 0.85
)

// catalogRef is a catalog URL and the route it was found by.
type catalogRef struct{ url, route string }

// ardFromLinkHeader returns the targets of Link header values with rel ard
// or ai-catalog.
func ardFromLinkHeader(base *url.URL, h http.Header) []catalogRef {
	var out []catalogRef
	for _, l := range parseLinkHeader(h.Values("Link")) {
		if containsAny(strings.Fields(strings.ToLower(l.rel)), ardRels) {
			if u, err := base.Parse(l.target); err == nil {
				out = append(out, catalogRef{u.String(), "Link header rel=" + l.rel})
			}
		}
	}
	return out
}

// linkValue is one link of a Link header (RFC 8288): its target and rel.
type linkValue struct{ target, rel string }

// parseLinkHeader reads Link header values (RFC 8288 §3). Link values are
// split at commas and parameters at semicolons only where they stand
// outside the <target> and outside any quoted string, so a title="a, b;
// c" stays whole; quoted values are unescaped; a parameter may have no
// value; only the first rel counts (§3.3). A value without a <target>, or
// whose target holds what no URI-reference can (<, >, a quote, white
// space: a target left unterminated), is left out.
//
// No Go Link-header library on the module list handles quoted commas:
// github.com/peterhellberg/link deletes commas and keeps one link per rel,
// github.com/tomnomnom/linkheader splits on every comma.
func parseLinkHeader(values []string) []linkValue {
	var out []linkValue
	for _, v := range values {
		for _, part := range splitOutside(v, ',') {
			params := splitOutside(part, ';')
			target := strings.TrimSpace(params[0])
			if len(target) < 2 || target[0] != '<' || target[len(target)-1] != '>' {
				continue
			}
			l := linkValue{target: strings.TrimSpace(target[1 : len(target)-1])}
			if strings.ContainsAny(l.target, "<>\" \t") {
				continue
			}
			for _, p := range params[1:] {
				k, val, _ := strings.Cut(p, "=")
				if strings.EqualFold(strings.TrimSpace(k), "rel") {
					l.rel = unquote(strings.TrimSpace(val))
					break
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// splitOutside splits v at each sep that is not inside <…> or "…" (where
// a backslash escapes the next character).
func splitOutside(v string, sep byte) []string {
	var parts []string
	start, inURI, inQuote := 0, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inQuote && c == '\\':
			i++ // the escaped character
		case inQuote:
			inQuote = c != '"'
		case inURI:
			inURI = c != '>'
		case c == '"':
			inQuote = true
		case c == '<':
			inURI = true
		case c == sep:
			parts = append(parts, v[start:i])
			start = i + 1
		}
	}
	return append(parts, v[start:])
}

// unquote returns a quoted-string's content with its escapes undone, or a
// token as it is.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		if s[i] == '\\' && i+1 < len(s)-1 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ardFromLinkRels returns <link rel="ai-catalog"|"ard"> targets of a page.
func ardFromLinkRels(p *extract.Page) []catalogRef {
	var out []catalogRef
	for _, l := range p.LinkRels {
		if containsAny(strings.Fields(strings.ToLower(l.Rel)), ardRels) && l.Href != "" {
			out = append(out, catalogRef{l.Href, "<link rel=\"" + l.Rel + "\">"})
		}
	}
	return out
}

// ardFromRobots returns the Agentmap: lines of a robots.txt, read as
// robots.txt lines are (RFC 9309 §2.2): a "#" starts a comment, to the end
// of the line; a byte order mark may open the file; a long line (a
// generated Disallow list) does not hide the lines after it. A line whose
// value is empty names no catalog.
func ardFromRobots(base *url.URL, body []byte) []catalogRef {
	var out []catalogRef
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))))
	sc.Buffer(nil, len(body)+1) // a line as long as the file (bounded by MaxFetchBytes) does not end the scan
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		k, v, ok := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		if !ok || v == "" || !strings.EqualFold(strings.TrimSpace(k), "agentmap") {
			continue
		}
		if u, err := base.Parse(v); err == nil {
			out = append(out, catalogRef{u.String(), "robots.txt Agentmap"})
		}
	}
	return out
}

func containsAny(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

// catalogFinding is what reading the ARD catalogs gave, in order: a note
// for the graph, or an MCP server card and where it was found.
type catalogFinding struct {
	note string
	card *mcpServerCard
	base *url.URL // where the card was read from: its endpoint is relative to it
	ev   string
}

// catalogReader fetches ARD catalogs and server cards over plain HTTP
// (same site only) and records what it found; build maps it (cardDoors).
type catalogReader struct {
	o     Options
	site  *url.URL
	seen  map[string]bool
	found []catalogFinding
}

func (r *catalogReader) note(format string, args ...any) {
	r.found = append(r.found, catalogFinding{note: fmt.Sprintf(format, args...)})
}

// readCatalogs probes the well-known paths and robots.txt of the site,
// adds the references already found on pages and in headers, and reads
// each catalog once. Only same-site URLs are fetched.
func readCatalogs(ctx context.Context, o Options, site *url.URL, found []catalogRef) []catalogFinding {
	refs := []catalogRef{}
	for _, p := range ardWellKnown {
		refs = append(refs, catalogRef{resolveOn(site, p), "well-known " + p})
	}
	if f, err := fetch(ctx, o, resolveOn(site, "/robots.txt"), acceptText); err == nil {
		refs = append(refs, ardFromRobots(site, f.Body)...)
	}
	r := &catalogReader{o: o, site: site, seen: map[string]bool{}}
	for _, ref := range append(refs, found...) {
		r.catalog(ctx, ref, 0)
	}
	return r.found
}

// ardManifest is the part of an ARD catalog the mapper reads.
type ardManifest struct {
	SpecVersion string     `json:"specVersion"`
	Entries     []ardEntry `json:"entries"`
}

type ardEntry struct {
	Identifier  string          `json:"identifier"`
	DisplayName string          `json:"displayName"`
	Type        string          `json:"type"`
	MediaType   string          `json:"mediaType"`
	URL         string          `json:"url"`
	Data        json.RawMessage `json:"data"`
	Description string          `json:"description"`
}

// mcpServerCard is the part of an MCP server card the mapper reads. Cards
// in the wild name their server in several shapes (endpoint reads them).
type mcpServerCard struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Remotes []struct {
		URL string `json:"url"`
	} `json:"remotes"`
	// Transport is {"endpoint": …} in the SEP-1649 draft, where the
	// endpoint may be relative to the card; some cards give a name here.
	Transport  json.RawMessage   `json:"transport"`
	Transports []json.RawMessage `json:"transports"`
	Endpoints  []struct {
		URL string `json:"url"`
	} `json:"endpoints"`
	Tools []tool `json:"tools"`
}

// endpoint is the server URL a card names, in the first of the shapes seen
// in the wild that it uses — url, remotes[].url, transport.endpoint,
// transports[].url, endpoints[].url — resolved against base, the URL the
// card was read from. "" when it names no http(s) URL.
func (c mcpServerCard) endpoint(base *url.URL) string {
	cands := []string{c.URL}
	for _, r := range c.Remotes {
		cands = append(cands, r.URL)
	}
	cands = append(cands, field(c.Transport, "endpoint"))
	for _, t := range c.Transports {
		cands = append(cands, field(t, "url"))
	}
	for _, e := range c.Endpoints {
		cands = append(cands, e.URL)
	}
	for _, e := range cands {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		u, err := url.Parse(e)
		if base != nil && err == nil {
			u = base.ResolveReference(u)
		}
		// A value that is not an http(s) URL (a transport's name, a
		// javascript: URL, malformed escapes) names no server; the next
		// shape may.
		if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return u.String()
		}
	}
	return ""
}

// field is the string member name of a JSON object, "" when raw is not an
// object or the member is not a string.
func field(raw json.RawMessage, name string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[name], &s) != nil {
		return ""
	}
	return s
}

// tool is a tool as MCP describes it: an entry of an MCP server card, or
// (inside webmcpTool) one a page registered through WebMCP, which uses the
// same shape.
type tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		ReadOnlyHint *bool `json:"readOnlyHint"`
	} `json:"annotations"`
}

// readOnlyVerbs start the names of tools that look things up rather than
// get something done; such tools are not customer actions.
var readOnlyVerbs = []string{"get", "list", "check", "search", "find", "lookup", "read", "view", "show", "describe", "fetch"}

// intent says which customer action a tool gets done, and the word that
// says so; when it gets none done, why names the reason for the notes.
func (t tool) intent() (kind shared.ActionKind, word, why string) {
	if t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint || startsWithVerb(t.Name, readOnlyVerbs) {
		return shared.KindUnknown, "", "looks things up and is not a customer action"
	}
	kind, word, ok := intentOfFirst(t.Name, t.Title, t.Description)
	if !ok {
		return shared.KindUnknown, "", "names no customer action and is left out"
	}
	return kind, word, ""
}

// label is what a person calls the tool's action.
func (t tool) label() string { return clip(firstNonEmpty(t.Title, t.Description, t.Name), 120) }

// catalog reads one catalog and, through nested catalogs, what it lists.
func (cr *catalogReader) catalog(ctx context.Context, r catalogRef, depth int) {
	if cr.seen[r.url] || depth > maxCatalogDepth {
		return
	}
	cr.seen[r.url] = true
	u, err := url.Parse(r.url)
	if err != nil || !sameSite(cr.site, u) {
		if err == nil {
			cr.note("ARD catalog %s (%s) is on another site and was not fetched.", r.url, r.route)
		}
		return
	}
	f, err := fetch(ctx, cr.o, r.url, acceptJSON)
	if err != nil {
		if fe, ok := err.(*FetchError); !ok || fe.Status != http.StatusNotFound {
			if !strings.HasPrefix(r.route, "well-known") {
				cr.note("ARD catalog %s (%s) could not be read: %v.", r.url, r.route, err)
			}
		}
		return
	}
	var m ardManifest
	if err := json.Unmarshal(f.Body, &m); err != nil || m.Entries == nil {
		if !strings.HasPrefix(r.route, "well-known") || err == nil {
			cr.note("ARD catalog %s (%s) is not a catalog manifest.", r.url, r.route)
		}
		return
	}
	for i, e := range m.Entries {
		typ := strings.ToLower(firstNonEmpty(e.Type, e.MediaType))
		switch typ {
		case mediaAICatalog:
			if e.URL != "" {
				if nu, err := u.Parse(e.URL); err == nil {
					cr.catalog(ctx, catalogRef{nu.String(), r.route + " → nested catalog"}, depth+1)
				}
			}
		case mediaMCPServerCard:
			card, cardURL, where, ok := cr.serverCard(ctx, u, e)
			if !ok {
				continue
			}
			ev := r.url + " (" + r.route + ") entries[" + itoa(&i) + "] " + e.Identifier + where
			cr.found = append(cr.found, catalogFinding{card: &card, base: cardURL, ev: ev})
		default:
			cr.note("ARD entry %s (%s) is not an MCP server card and is not mapped.", e.Identifier, typ)
		}
	}
}

// serverCard returns an entry's inline card or fetches it (same site
// only), with the URL it was read from (the catalog's, for inline data).
func (cr *catalogReader) serverCard(ctx context.Context, base *url.URL, e ardEntry) (mcpServerCard, *url.URL, string, bool) {
	var card mcpServerCard
	if len(e.Data) > 0 && string(e.Data) != "null" {
		if err := json.Unmarshal(e.Data, &card); err != nil {
			cr.note("MCP server card %s (inline data) could not be read: %s.", e.Identifier, jsonProblem(err))
			return card, nil, "", false
		}
		return card, base, " (inline data)", true
	}
	cu, err := base.Parse(e.URL)
	if err != nil || !sameSite(cr.site, cu) {
		cr.note("MCP server card %s is on another site and was not fetched.", e.URL)
		return card, nil, "", false
	}
	f, err := fetch(ctx, cr.o, cu.String(), acceptJSON)
	if err != nil || json.Unmarshal(f.Body, &card) != nil {
		cr.note("MCP server card %s could not be read.", cu)
		return card, nil, "", false
	}
	return card, cu, " (" + cu.String() + ")", true
}

// cardReading is the doors stage's output for one MCP server card: a
// door per tool, and a note when the card as a whole cannot be mapped.
type cardReading struct {
	note  string
	tools []toolDoor
}

// cardDoors reads the tools of one MCP server card read from base (ev says
// where it was found); their actions belong to the site (siteURL).
func cardDoors(s signer, cls classifier, card mcpServerCard, base *url.URL, ev, siteURL string) cardReading {
	endpoint := card.endpoint(base)
	if endpoint == "" && len(card.Tools) > 0 {
		return cardReading{note: fmt.Sprintf("MCP server card %s (%s) lists tools but names no server URL: nothing answers them, so they are not doors.", card.Name, ev)}
	}
	var out cardReading
	for _, t := range card.Tools {
		if !shared.ValidToolName(t.Name) {
			out.tools = append(out.tools, toolDoor{note: invalidToolNote("an MCP tool", t.Name, "in server card "+card.Name+" ("+ev+")")})
			continue
		}
		kind, word, why := t.intent()
		if why != "" {
			out.tools = append(out.tools, toolDoor{note: fmt.Sprintf("MCP tool %s %s.", t.Name, why)})
			continue
		}
		sub := shared.Submission{Transport: shared.TransportJSONEndpoint, Endpoint: strPtr(endpoint), Enctype: ptr(acceptJSON)}
		params, problems := readSchema(cls, t.InputSchema, shared.MethodParsedArdCatalog, "tools."+t.Name+".inputSchema", "MCP tool "+t.Name)
		out.tools = append(out.tools, toolDoor{
			head: actionHead{key: "ard|" + card.Name + "|" + t.Name, kind: kind, label: t.label(), page: siteURL, idPart: slugify(t.Name),
				provenance: s.prov(shared.MethodParsedArdCatalog, 0.8, "MCP tool "+t.Name+" (“"+word+"”) in "+ev)},
			door: keyedDoor{"ard", shared.Access{Method: shared.AccessDocumentedEndpoint, URL: endpoint, Submission: &sub,
				Provenance: s.prov(shared.MethodParsedArdCatalog, confCatalogAction, ev+"; MCP tool "+t.Name)}},
			doorPage: endpoint, params: params, problems: problems, text: t.Description,
		})
	}
	return out
}

func startsWithVerb(name string, verbs []string) bool {
	n := strings.ToLower(name)
	for _, v := range verbs {
		if n == v || strings.HasPrefix(n, v+"_") || strings.HasPrefix(n, v+"-") || strings.HasPrefix(n, v+".") {
			return true
		}
		if len(name) > len(v) && strings.HasPrefix(n, v) && name[len(v)] >= 'A' && name[len(v)] <= 'Z' {
			return true // camelCase: getHours
		}
	}
	return false
}
