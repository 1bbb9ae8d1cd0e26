package mapper

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
)

// FuzzMapHTML: whatever a page holds, MapHTML returns an error or a graph
// the contract accepts — never a panic, never a graph shared.Write refuses.
// Seeds: every page of the fifteen fixture sites.
func FuzzMapHTML(f *testing.F) {
	err := fs.WalkDir(fixtures.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		raw, err := fs.ReadFile(fixtures.FS(), p)
		if err == nil {
			f.Add(raw)
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`<form action="javascript:alert(1)"><input name="email" type="email" required><button>Send</button></form>`))
	f.Add([]byte(`<script type="application/ld+json">{"@type":"ReserveAction","target":{"urlTemplate":"ftp://x/{a}"}}</script>`))
	now := func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) }
	f.Fuzz(func(t *testing.T, page []byte) {
		g, err := MapHTML("https://fuzz.example/contact", page, Options{Now: now})
		if err != nil {
			return
		}
		if _, err := shared.Write(g); err != nil {
			t.Fatalf("MapHTML built a graph the contract refuses: %v", err)
		}
	})
}

// FuzzParseLinkHeader: a site's Link header never panics the reader, and
// no target read holds what no URI-reference can (an unterminated one).
func FuzzParseLinkHeader(f *testing.F) {
	for _, s := range []string{
		`</.well-known/ard.json>; rel="ard-catalog"`,
		`<https://a.example/x,y>; rel="ard-catalog service-desc", </b>; rel=describedby`,
		`<a>;rel="x;y"`, `<`, `>;`, `"`, `<>; rel=`, `</c>; title="a, \"b\"", </d>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		base, _ := url.Parse("https://fuzz.example/")
		for _, l := range parseLinkHeader([]string{v}) {
			if strings.ContainsAny(l.target, "<>\" \t") {
				t.Fatalf("parseLinkHeader(%q) read the target %q", v, l.target)
			}
		}
		h := http.Header{}
		h.Add("Link", v)
		_ = ardFromLinkHeader(base, h)
	})
}

// FuzzServerCardEndpoint: an MCP server card from a site, however shaped,
// names no endpoint or an absolute http(s) URL.
func FuzzServerCardEndpoint(f *testing.F) {
	for _, s := range []string{
		`{"url":"https://mcp.example/mcp"}`,
		`{"remotes":[{"url":"/mcp"}]}`,
		`{"transport":{"endpoint":"mcp"}}`,
		`{"transport":"streamable-http","transports":[{"url":"https://x.example/m"}]}`,
		`{"endpoints":[{"url":" //other.example/m "}]}`,
		`{"url":"%zz"}`, `{"url":"javascript:alert(1)"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var c mcpServerCard
		if json.Unmarshal(raw, &c) != nil {
			return
		}
		base, _ := url.Parse("https://fuzz.example/.well-known/mcp/server-card.json")
		e := c.endpoint(base)
		if e == "" {
			return
		}
		if u, err := url.Parse(e); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Fatalf("endpoint %q of card %s is not an absolute http(s) URL (%v)", e, raw, err)
		}
	})
}
