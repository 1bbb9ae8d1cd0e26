package mapper

import (
	"encoding/json"
	"net/http"
	"net/url"
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

// Link headers are read as RFC 8288 writes them: commas and semicolons in
// quoted strings belong to the value, several values may share a header
// line or come in several lines, and only the first rel counts.
func TestParseLinkHeader(t *testing.T) {
	cases := []struct {
		name   string
		values []string
		want   []linkValue
	}{
		{"one", []string{`</cat.json>; rel="ard"`}, []linkValue{{"/cat.json", "ard"}}},
		{"token rel", []string{`</cat.json>;rel=ai-catalog`}, []linkValue{{"/cat.json", "ai-catalog"}}},
		{"quoted comma and semicolon", []string{`</a>; title="Book, then pay; or call"; rel="ard", </b>; rel=preload`}, []linkValue{{"/a", "ard"}, {"/b", "preload"}}},
		{"escaped quote", []string{`</a>; title="say \"hi\", then go"; rel="ai-catalog"`}, []linkValue{{"/a", "ai-catalog"}}},
		{"comma in the target", []string{`</x?a=1,2>; rel="ard"`}, []linkValue{{"/x?a=1,2", "ard"}}},
		{"several lines", []string{`</a>; rel=ard`, `</b>; rel="next"`}, []linkValue{{"/a", "ard"}, {"/b", "next"}}},
		{"parameter without a value", []string{`</font.woff2>; rel=preload; crossorigin`}, []linkValue{{"/font.woff2", "preload"}}},
		{"first rel counts", []string{`</a>; rel=ard; rel=next`}, []linkValue{{"/a", "ard"}}},
		{"several rels in one", []string{`</a>; REL="ard alternate"`}, []linkValue{{"/a", "ard alternate"}}},
		{"no target", []string{`rel=ard`, `<>`}, []linkValue{{"", ""}}},
		{"garbage", []string{`;;,,"`}, nil},
		{"white space around =", []string{`</a> ; rel = "ard" , </b>;rel= next`}, []linkValue{{"/a", "ard"}, {"/b", "next"}}},
		{"unterminated target", []string{`</a; rel=ard, </b>; rel=next`}, nil},
		{"unterminated quote", []string{`</a>; title="oops, </b>; rel=ard`}, []linkValue{{"/a", ""}}},
		{"empty", []string{``, ` `}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := parseLinkHeader(tc.values)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(linkValue{})); diff != "" {
				t.Errorf("parseLinkHeader(%q) (-want +got):\n%s", tc.values, diff)
			}
		})
	}
}

// ardFromLinkHeader takes rel values as RFC 8288 §3.3 says: a
// case-insensitive, space-separated list.
func TestARDFromLinkHeader(t *testing.T) {
	base, err := url.Parse("https://acme.example/shop/")
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Add("Link", `</cat.json>; REL="Alternate ARD", <https://acme.example/x>; rel=next`)
	h.Add("Link", `<ai.json>; rel=ai-catalog; title="a, b; c"`)
	want := []catalogRef{
		{"https://acme.example/cat.json", "Link header rel=Alternate ARD"},
		{"https://acme.example/shop/ai.json", "Link header rel=ai-catalog"},
	}
	if diff := cmp.Diff(want, ardFromLinkHeader(base, h), cmp.AllowUnexported(catalogRef{})); diff != "" {
		t.Errorf("ardFromLinkHeader (-want +got):\n%s", diff)
	}
}

// An MCP server card names its server in one of the shapes seen in the
// wild; relative endpoints are resolved against the card's own URL.
func TestServerCardEndpoint(t *testing.T) {
	base, err := url.Parse("https://acme.example/.well-known/mcp/card.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, card, want string }{
		{"url", `{"url":"https://mcp.acme.example/mcp"}`, "https://mcp.acme.example/mcp"},
		{"remotes[].url", `{"remotes":[{"type":"streamable-http","url":"https://mcp.acme.example/r"}]}`, "https://mcp.acme.example/r"},
		{"transport.endpoint, relative to the card", `{"transport":{"type":"streamable-http","endpoint":"/mcp"}}`, "https://acme.example/mcp"},
		{"transport.endpoint next to the card", `{"transport":{"endpoint":"server"}}`, "https://acme.example/.well-known/mcp/server"},
		{"transports[].url", `{"transports":[{"type":"sse","url":"https://acme.example/sse"}]}`, "https://acme.example/sse"},
		{"endpoints[].url", `{"endpoints":[{"url":"https://acme.example/e"}]}`, "https://acme.example/e"},
		{"url comes first", `{"url":"https://a.example/1","transport":{"endpoint":"/2"}}`, "https://a.example/1"},
		{"a transport that is only a name", `{"transport":"streamable-http","endpoints":[{"url":"/e"}]}`, "https://acme.example/e"},
		{"empty entries are skipped", `{"remotes":[{"url":""}],"transports":[{"url":" "}],"endpoints":[{"url":"/e"}]}`, "https://acme.example/e"},
		{"none", `{"name":"x","tools":[]}`, ""},
		{"a malformed url is skipped", `{"url":"%zz","endpoints":[{"url":"/e"}]}`, "https://acme.example/e"},
		{"not http(s) names no server", `{"url":"javascript:alert(1)","remotes":[{"url":"ftp://acme.example/m"}]}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c mcpServerCard
			if err := json.Unmarshal([]byte(tc.card), &c); err != nil {
				t.Fatal(err)
			}
			if got := c.endpoint(base); got != tc.want {
				t.Errorf("endpoint = %q, want %q", got, tc.want)
			}
		})
	}
}

// A card fetched from the site whose transport.endpoint is relative maps
// its tools to the server beside it; an inline card that cannot be read is
// named in the notes.
func TestServerCardShapesMapped(t *testing.T) {
	card := `{"name":"acme","transport":{"type":"streamable-http","endpoint":"/mcp"},"tools":[{"name":"request_quote","description":"Request a quote for a plumbing job.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}]}`
	cat := `{"specVersion":"1.0","entries":[
{"identifier":"urn:air:acme.example:mcp:a","type":"application/mcp-server-card+json","url":"/cards/acme.json"},
{"identifier":"urn:air:acme.example:mcp:b","type":"application/mcp-server-card+json","data":{"name":["not","a","name"]}}]}`
	srv := serveSite(t, site{pages: map[string]string{"/": page("Acme", "<h1>Acme</h1>"), "/.well-known/ai-catalog.json": cat, "/cards/acme.json": card}})
	g := mapStatic(t, srv.URL+"/", func(o *Options) { o.NoExplore = true })
	want := []actionSummary{{Kind: shared.KindQuote,
		Doors:    []doorSummary{{Method: shared.AccessDocumentedEndpoint, Transport: shared.TransportJSONEndpoint, Endpoint: "/mcp", Occurrences: 1}},
		Fillable: []string{"message:message!"},
		Effects:  []shared.EffectKind{shared.EffectRequestsQuote}}}
	if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
		t.Fatalf("graph (-want +got):\n%s", diff)
	}
	if ep := *g.Actions[0].Access[0].Submission.Endpoint; ep != srv.URL+"/mcp" {
		t.Errorf("endpoint %q, want %q", ep, srv.URL+"/mcp")
	}
	if g.Notes == nil || !strings.Contains(*g.Notes, "MCP server card urn:air:acme.example:mcp:b (inline data) could not be read") {
		t.Errorf("notes %v do not name the unreadable inline card", g.Notes)
	}
}

// A robots.txt Agentmap line is read as robots.txt lines are: a comment
// ("#" to the end of the line) is not part of the URL, the file may start
// with a byte order mark, a long line does not hide the ones after it, and
// a line that names no URL names nothing (not the robots.txt itself).
func TestARDFromRobots(t *testing.T) {
	base, err := url.Parse("https://acme.example/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, body string
		want       []string
	}{
		{"plain", "User-agent: *\nAgentmap: /cat.json\n", []string{"https://acme.example/cat.json"}},
		{"comment after the URL", "Agentmap: /cat.json # our catalog\n", []string{"https://acme.example/cat.json"}},
		{"comment with no space", "Agentmap: https://acme.example/cat.json#for-agents\n", []string{"https://acme.example/cat.json"}},
		{"byte order mark", "\ufeffAgentmap: /cat.json\r\nDisallow: /x\r\n", []string{"https://acme.example/cat.json"}},
		{"no URL", "Agentmap:\nAgentmap:   # none yet\n", nil},
		{"commented out", "# Agentmap: /old.json\n", nil},
		{"after a line of 100,000 bytes", "Disallow: /" + strings.Repeat("x", 100000) + "\nAgentmap: /cat.json\n", []string{"https://acme.example/cat.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range ardFromRobots(base, []byte(tc.body)) {
				got = append(got, r.url)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ardFromRobots (-want +got):\n%s", diff)
			}
		})
	}
}
