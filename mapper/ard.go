package mapper

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	for _, v := range h.Values("Link") {
		for _, part := range strings.Split(v, ",") {
			segs := strings.Split(part, ";")
			target := strings.Trim(strings.TrimSpace(segs[0]), "<>")
			for _, s := range segs[1:] {
				k, val, _ := strings.Cut(strings.TrimSpace(s), "=")
				if strings.EqualFold(k, "rel") && containsAny(strings.Fields(strings.ToLower(strings.Trim(val, `"`))), ardRels) {
					if u, err := base.Parse(target); err == nil {
						out = append(out, catalogRef{u.String(), "Link header rel=" + strings.Trim(val, `"`)})
					}
				}
			}
		}
	}
	return out
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

// ardFromRobots returns the Agentmap: lines of a robots.txt.
func ardFromRobots(base *url.URL, body []byte) []catalogRef {
	var out []catalogRef
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "agentmap") {
			continue
		}
		if u, err := base.Parse(strings.TrimSpace(v)); err == nil {
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

// discoverCatalogs probes the well-known paths and robots.txt of the site
// and adds the references already found on pages and in headers. Only
// same-site URLs are fetched.
func (b *builder) discoverCatalogs(ctx context.Context, found []catalogRef) []catalogRef {
	refs := []catalogRef{}
	for _, p := range ardWellKnown {
		refs = append(refs, catalogRef{b.resolve(p), "well-known " + p})
	}
	if f, err := fetch(ctx, b.o, b.resolve("/robots.txt"), acceptText); err == nil {
		refs = append(refs, ardFromRobots(b.site, f.Body)...)
	}
	return append(refs, found...)
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

// mcpServerCard is the part of an MCP server card the mapper reads.
type mcpServerCard struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Remotes []struct {
		URL string `json:"url"`
	} `json:"remotes"`
	Endpoints []struct {
		URL string `json:"url"`
	} `json:"endpoints"`
	Tools []tool `json:"tools"`
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

// addCatalogs fetches each catalog once and maps the tools of its MCP
// server cards.
func (b *builder) addCatalogs(ctx context.Context, refs []catalogRef) {
	seen := map[string]bool{}
	for _, r := range refs {
		b.addCatalog(ctx, r, seen, 0)
	}
}

func (b *builder) addCatalog(ctx context.Context, r catalogRef, seen map[string]bool, depth int) {
	if seen[r.url] || depth > maxCatalogDepth {
		return
	}
	seen[r.url] = true
	u, err := url.Parse(r.url)
	if err != nil || !sameSite(b.site, u) {
		if err == nil {
			b.note("ARD catalog %s (%s) is on another site and was not fetched.", r.url, r.route)
		}
		return
	}
	f, err := fetch(ctx, b.o, r.url, acceptJSON)
	if err != nil {
		if fe, ok := err.(*FetchError); !ok || fe.Status != http.StatusNotFound {
			if !strings.HasPrefix(r.route, "well-known") {
				b.note("ARD catalog %s (%s) could not be read: %v.", r.url, r.route, err)
			}
		}
		return
	}
	var m ardManifest
	if err := json.Unmarshal(f.Body, &m); err != nil || m.Entries == nil {
		if !strings.HasPrefix(r.route, "well-known") || err == nil {
			b.note("ARD catalog %s (%s) is not a catalog manifest.", r.url, r.route)
		}
		return
	}
	for i, e := range m.Entries {
		typ := strings.ToLower(firstNonEmpty(e.Type, e.MediaType))
		switch typ {
		case mediaAICatalog:
			if e.URL != "" {
				if nu, err := u.Parse(e.URL); err == nil {
					b.addCatalog(ctx, catalogRef{nu.String(), r.route + " → nested catalog"}, seen, depth+1)
				}
			}
		case mediaMCPServerCard:
			card, where, ok := b.serverCard(ctx, u, e)
			if !ok {
				continue
			}
			ev := r.url + " (" + r.route + ") entries[" + itoa(&i) + "] " + e.Identifier + where
			b.addServerCard(card, ev)
		default:
			b.note("ARD entry %s (%s) is not an MCP server card and is not mapped.", e.Identifier, typ)
		}
	}
}

// serverCard returns an entry's inline card or fetches it (same site only).
func (b *builder) serverCard(ctx context.Context, base *url.URL, e ardEntry) (mcpServerCard, string, bool) {
	var card mcpServerCard
	if len(e.Data) > 0 && string(e.Data) != "null" {
		return card, " (inline data)", json.Unmarshal(e.Data, &card) == nil
	}
	cu, err := base.Parse(e.URL)
	if err != nil || !sameSite(b.site, cu) {
		b.note("MCP server card %s is on another site and was not fetched.", e.URL)
		return card, "", false
	}
	f, err := fetch(ctx, b.o, cu.String(), acceptJSON)
	if err != nil || json.Unmarshal(f.Body, &card) != nil {
		b.note("MCP server card %s could not be read.", cu)
		return card, "", false
	}
	return card, " (" + cu.String() + ")", true
}

// addServerCard maps the tools of one MCP server card.
func (b *builder) addServerCard(card mcpServerCard, ev string) {
	endpoint := card.URL
	for _, r := range card.Remotes {
		endpoint = firstNonEmpty(endpoint, r.URL)
	}
	for _, r := range card.Endpoints {
		endpoint = firstNonEmpty(endpoint, r.URL)
	}
	if endpoint == "" && len(card.Tools) > 0 {
		b.note("MCP server card %s (%s) lists tools but names no server URL: nothing answers them, so they are not doors.", card.Name, ev)
		return
	}
	for _, t := range card.Tools {
		kind, word, why := t.intent()
		if why != "" {
			b.note("MCP tool %s %s.", t.Name, why)
			continue
		}
		page := endpoint
		d, isNew := b.draftFor("ard|"+card.Name+"|"+t.Name, kind, t.label(), b.siteURL(), slugify(t.Name))
		sub := shared.Submission{Transport: shared.TransportJSONEndpoint, Endpoint: strPtr(endpoint), Enctype: ptr(acceptJSON)}
		d.addDoor("ard", shared.Access{Method: shared.AccessDocumentedEndpoint, URL: page, Submission: &sub,
			Provenance: b.prov(shared.MethodParsedArdCatalog, confCatalogAction, ev+"; MCP tool "+t.Name)}, page)
		if !isNew {
			continue
		}
		d.action.Provenance = ptr(b.prov(shared.MethodParsedArdCatalog, 0.8, "MCP tool "+t.Name+" (“"+word+"”) in "+ev))
		d.action.Inputs, d.action.Validations = b.schemaInputs(t.InputSchema, shared.MethodParsedArdCatalog, "tools."+t.Name+".inputSchema")
		d.effects.text = t.Description
	}
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
