package compiler

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"

	"github.com/frontlatch/frontlatch/shared"
)

// ardSpecVersion is the ai-catalog format version the ARD schema accepts
// (the spec text calls itself draft 0.9).
const ardSpecVersion = "1.0"

// mediaTypeMCPServerCard is the catalog entry type of an MCP server card.
const mediaTypeMCPServerCard = "application/mcp-server-card+json"

type ardCatalog struct {
	SpecVersion string     `json:"specVersion"`
	Host        ardHost    `json:"host"`
	Entries     []ardEntry `json:"entries"`
}

type ardHost struct {
	DisplayName      string `json:"displayName"`
	DocumentationURL string `json:"documentationUrl"`
}

// ardEntry lists the site's MCP server card, inline in data (never url:
// the schema allows exactly one of the two).
type ardEntry struct {
	Identifier   string           `json:"identifier"`
	DisplayName  string           `json:"displayName"`
	Type         string           `json:"type"`
	Description  string           `json:"description"`
	Tags         []string         `json:"tags"`
	Capabilities []string         `json:"capabilities"`
	Version      string           `json:"version"`
	UpdatedAt    shared.Timestamp `json:"updatedAt"`
	Metadata     object           `json:"metadata"`
	Data         mcpServerCard    `json:"data"`
}

// mcpServerCard is the inline card: the server's name and its tools, the
// same definitions mcp-tools.json carries.
type mcpServerCard struct {
	Name        string    `json:"name"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Version     string    `json:"version"`
	Tools       []mcpTool `json:"tools"`
}

// publisher is the domain part of an ARD identifier: the site's host,
// without a port, in the characters the identifier allows. An
// internationalised name is written in its ASCII form (bäckerei.de is
// xn--bckerei-5wa.de), the name DNS knows it by: dropping its other
// letters would name another domain (bckerei.de).
func publisher(g *shared.ActionGraph) string {
	host := g.Site.Domain
	if u, err := url.Parse(g.Site.URL); host == "" && err == nil {
		host = u.Host
	}
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	host = strings.ToLower(host)
	if a, err := idna.Punycode.ToASCII(host); err == nil {
		host = a
	}
	var b strings.Builder
	for _, r := range strings.ToLower(host) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "localhost"
	}
	return b.String()
}

func buildARD(p *plan) ([]byte, error) {
	g := p.graph
	tools := mcpTools(p)
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	var tags []string
	seen := map[string]bool{}
	for _, r := range p.offeredTools() {
		if k := string(r.ap.action.Kind); !seen[k] {
			seen[k] = true
			tags = append(tags, k)
		}
	}
	desc := "What an agent can do on " + g.Site.URL + ", compiled by Frontlatch from " + provenanceLine(p) + ": " +
		strconv.Itoa(len(tools)) + " callable tool(s). Only actions the business verified are offered unless compiled with --include-unverified; " +
		"metadata states every action's verification status, and an unverified action must not be executed."
	meta := object{{"graphId", g.GraphID}, {"schemaVersion", g.SchemaVersion}}
	for _, st := range p.statuses() {
		meta.set("action:"+st.ID, string(st.Status))
	}
	pub := publisher(g)
	entry := ardEntry{
		Identifier:   "urn:air:" + pub + ":mcp:actions",
		DisplayName:  siteName(g) + " actions",
		Type:         mediaTypeMCPServerCard,
		Description:  desc,
		Tags:         append([]string{"local-business"}, tags...),
		Capabilities: names,
		Version:      g.GraphID,
		UpdatedAt:    g.GeneratedAt,
		Metadata:     meta,
		Data: mcpServerCard{
			Name: pub + "-actions", Title: siteName(g) + " actions", Description: desc, Version: g.GraphID, Tools: tools,
		},
	}
	return marshalDocument(ardCatalog{
		SpecVersion: ardSpecVersion,
		Host:        ardHost{DisplayName: siteName(g), DocumentationURL: g.Site.URL},
		Entries:     []ardEntry{entry},
	})
}
