package mapper

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// catalogJSON is an ARD manifest with one inline MCP server card; server is
// its "url" ("" for a card that names no server).
func catalogJSON(server string) string {
	return `{"specVersion":"1.0","host":{"displayName":"Acme Plumbing"},"entries":[
{"identifier":"urn:air:acme.example:mcp:storefront","displayName":"Storefront","type":"application/mcp-server-card+json",
 "data":{"name":"acme-storefront","url":"` + server + `","tools":[
  {"name":"request_quote","description":"Request a quote for a plumbing job.","inputSchema":{"type":"object",
   "properties":{"message":{"type":"string","description":"Describe the job"},"callback_phone":{"type":"string","description":"Customer callback number"}},
   "required":["message"]}},
  {"name":"get_business_hours","description":"Business hours","inputSchema":{"type":"object","properties":{}}},
  {"name":"check_availability","description":"Check availability","inputSchema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":true}}]}},
{"identifier":"urn:air:acme.example:agent:assistant","displayName":"Assistant","type":"application/a2a-agent-card+json","url":"/agent.json"}]}`
}

// An ARD catalog is found by each discovery route on its own, and the tools
// of its MCP server cards that get something done become actions.
func TestARDDiscoveryRoutes(t *testing.T) {
	home := page("Acme Plumbing", "<h1>Acme Plumbing</h1>")
	withHead := func(link string) string { return strings.Replace(home, "</head>", link+"</head>", 1) }
	cat := catalogJSON("https://mcp.acme.example/mcp")
	cases := []struct {
		name string
		s    site
	}{
		{"well-known ai-catalog.json", site{pages: map[string]string{"/": home, "/.well-known/ai-catalog.json": cat}}},
		{"well-known ard.json", site{pages: map[string]string{"/": home, "/.well-known/ard.json": cat}}},
		{"robots.txt Agentmap", site{pages: map[string]string{"/": home, "/robots.txt": "User-agent: *\nAllow: /\nAgentmap: /agents/catalog.json\n", "/agents/catalog.json": cat}}},
		{"link rel ai-catalog", site{pages: map[string]string{"/": withHead(`<link rel="ai-catalog" href="/cat/a.json">`), "/cat/a.json": cat}}},
		{"link rel ard", site{pages: map[string]string{"/": withHead(`<link rel="ard" href="/cat/b.json">`), "/cat/b.json": cat}}},
		{"Link header", site{pages: map[string]string{"/": home, "/cat/c.json": cat}, headers: map[string]map[string]string{"/": {"Link": `</cat/c.json>; rel="ard"`}}}},
	}
	want := []actionSummary{{Kind: shared.KindQuote,
		Doors:    []doorSummary{{Method: shared.AccessDocumentedEndpoint, Transport: shared.TransportJSONEndpoint, Endpoint: "/mcp", Occurrences: 1}},
		Fillable: []string{"message:message!", "callback_phone:phone"},
		Effects:  []shared.EffectKind{shared.EffectRequestsQuote}}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serveSite(t, tc.s)
			g := mapStatic(t, srv.URL+"/", func(o *Options) { o.NoExplore = true })
			if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
				t.Fatalf("graph (-want +got):\n%s", diff)
			}
			if m := g.Actions[0].Access[0].Provenance.Method; m != shared.MethodParsedArdCatalog {
				t.Errorf("door provenance %s, want parsed-ard-catalog", m)
			}
		})
	}
}

// A server card that names no server advertises tools nothing answers: no
// door, and a note says why.
func TestARDCardWithoutServer(t *testing.T) {
	srv := serveSite(t, site{pages: map[string]string{"/": page("Acme", "<h1>Acme</h1>"), "/.well-known/ai-catalog.json": catalogJSON("")}})
	g := mapStatic(t, srv.URL+"/", func(o *Options) { o.NoExplore = true })
	if len(g.Actions) != 0 {
		t.Errorf("want no action, got %+v", summaryOf(g))
	}
	if g.Notes == nil || !strings.Contains(*g.Notes, "names no server URL") {
		t.Errorf("notes %v do not explain the missing server", g.Notes)
	}
}
