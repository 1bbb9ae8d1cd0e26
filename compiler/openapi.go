package compiler

import (
	"net/url"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// openAPIVersion is the OpenAPI version the document declares.
const openAPIVersion = "3.1.1"

type openapiDoc struct {
	OpenAPI string          `json:"openapi"`
	Info    openapiInfo     `json:"info"`
	Servers []openapiServer `json:"servers"`
	Paths   object          `json:"paths"`
	Graph   graphMeta       `json:"x-frontlatch-graph"`
	Actions []actionStatus  `json:"x-frontlatch-actions"`
}

type openapiInfo struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Version     string `json:"version"`
}

type openapiServer struct {
	URL string `json:"url"`
}

type openapiOperation struct {
	OperationID  string              `json:"operationId"`
	Summary      string              `json:"summary"`
	Description  string              `json:"description"`
	Tags         []string            `json:"tags"`
	Servers      []openapiServer     `json:"servers"`
	Parameters   []openapiParameter  `json:"parameters,omitempty"`
	RequestBody  *openapiRequestBody `json:"requestBody,omitempty"`
	Responses    object              `json:"responses"`
	Verification statusMeta          `json:"x-frontlatch-verification"`
	Door         doorMeta            `json:"x-frontlatch-door"`
}

type openapiParameter struct {
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
	Schema   any    `json:"schema"`
}

type openapiRequestBody struct {
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Content     object `json:"content"`
}

type openapiMedia struct {
	Schema objectSchema `json:"schema"`
}

type openapiResponse struct {
	Description string `json:"description"`
}

// constString is the schema of a query parameter the endpoint URL fixes.
type constString struct {
	Type  string `json:"type"`
	Const string `json:"const"`
}

// defaultEnctype is what a browser sends when a form names no enctype.
func defaultEnctype(t shared.Transport) string {
	if t == shared.TransportJSONEndpoint {
		return "application/json"
	}
	return "application/x-www-form-urlencoded"
}

// httpDoors are the offered doors that are HTTP requests (httpRequest):
// forms and documented endpoints (a WebMCP tool is not an HTTP operation).
func httpDoors(p *plan) []toolRef {
	var out []toolRef
	for _, r := range p.offeredTools() {
		if _, ok := httpRequest(r.t.door); ok {
			out = append(out, r)
		}
	}
	return out
}

func buildOpenAPI(p *plan) ([]byte, error) {
	g := p.graph
	doc := openapiDoc{
		OpenAPI: openAPIVersion,
		Info: openapiInfo{
			Title: siteName(g) + " — actions",
			Description: "The actions of " + g.Site.URL + " an agent may take, one operation per web form or documented endpoint, compiled by Frontlatch from " +
				provenanceLine(p) + ". Only actions the business verified are offered unless the document was compiled with --include-unverified; " +
				"x-frontlatch-actions states every action's verification status, and an unverified action must not be executed.",
			Version: g.GraphID,
		},
		Servers: []openapiServer{{URL: origin(g.Site.URL)}},
		Paths:   object{},
		Graph:   p.graphMeta(),
		Actions: p.statuses(),
	}
	refs := httpDoors(p)
	type placed struct {
		key, method string
		op          openapiOperation
	}
	ops := make([]placed, len(refs))
	uses := map[string]int{}
	for i, r := range refs {
		op, path, method := openapiOperationOf(g.Site.URL, r)
		ops[i] = placed{path, method, op}
		uses[method+" "+path]++
	}
	for _, o := range ops {
		key := o.key
		// Two forms posting to one endpoint (admin-ajax.php) would share a
		// path item; each gets its own key, "<path>#<operationId>".
		if uses[o.method+" "+o.key] > 1 {
			key += "#" + o.op.OperationID
		}
		var item object
		for _, m := range doc.Paths {
			if m.Key == key {
				item = m.Value.(object)
			}
		}
		item.set(o.method, o.op)
		doc.Paths.set(key, item)
	}
	return marshalDocument(doc)
}

// openapiOperationOf returns the operation of one door (one of httpDoors),
// its path key and its lower-case method.
func openapiOperationOf(site string, r toolRef) (openapiOperation, string, string) {
	a := r.ap.action
	d := r.t.door
	sub, _ := httpRequest(d)
	u := endpointURL(site, d.URL, *sub.Endpoint)
	// The path as the request writes it (EscapedPath): decoded, a %7Bid%7D
	// would be a path template naming a parameter nothing declares, and a
	// %2F a segment break the site never sent.
	path := "/"
	if u != nil && u.EscapedPath() != "" {
		path = u.EscapedPath()
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // a Paths Object's keys start with "/"
	}
	server := *sub.Endpoint
	if u != nil {
		server = origin(u.String())
	}
	op := openapiOperation{
		OperationID:  r.t.name,
		Summary:      title(r.ap),
		Description:  actionDescription(r.ap),
		Tags:         []string{string(a.Kind)},
		Servers:      []openapiServer{{URL: server}},
		Responses:    object{{"default", openapiResponse{Description: "Whatever the business's site answers (a page or JSON); Frontlatch does not model it."}}},
		Verification: statusMeta{r.ap.status, statusSentence(r.ap)},
		Door:         doorMeta{ActionID: a.ID, Index: r.t.index, Kind: a.Kind, Door: d.Method, URL: d.URL, Locator: d.Locator, Endpoint: sub.Endpoint, ToolName: d.ToolName},
	}
	method := httpMethod(sub.Transport)
	// A GET form replaces its action's query with the form's fields, as a
	// browser does (and the executor): the endpoint's own query is sent
	// only in a body-carrying request.
	if u != nil && method != "GET" {
		q := u.Query()
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			op.Parameters = append(op.Parameters, openapiParameter{Name: k, In: "query", Required: true, Schema: constString{"string", q.Get(k)}})
		}
	}
	schema := inputsSchema(a, wireInputs)
	if method == "GET" {
		required := map[string]bool{}
		for _, n := range schema.Required {
			required[n] = true
		}
		for _, m := range schema.Properties {
			op.Parameters = append(op.Parameters, openapiParameter{Name: m.Key, In: "query", Required: required[m.Key], Schema: m.Value})
		}
		return op, path, "get"
	}
	enctype := defaultEnctype(sub.Transport)
	if sub.Enctype != nil && *sub.Enctype != "" {
		enctype = *sub.Enctype
	}
	op.RequestBody = &openapiRequestBody{
		Description: "The fields the form sends, as " + enctype + ". System tokens are sent back verbatim from the live page and honeypots empty (see x-frontlatch-field).",
		Required:    true,
		Content:     object{{enctype, openapiMedia{Schema: schema}}},
	}
	return op, path, "post"
}

// endpointURL is where a door's request goes: its endpoint resolved, as a
// browser resolves a form's action, against the page the door is on (itself
// resolved against the site's URL), so that a relative endpoint
// ("contact.php", "/contact") names the path it is sent to. Nil when the
// endpoint is no URL reference.
func endpointURL(site, page, endpoint string) *url.URL {
	ref, err := url.Parse(endpoint)
	if err != nil {
		return nil
	}
	for _, base := range []string{page, site} {
		b, err := url.Parse(base)
		if err != nil {
			continue
		}
		ref = b.ResolveReference(ref)
		if ref.IsAbs() {
			break
		}
	}
	return ref
}

// origin returns scheme://host of a URL, or the URL itself if it has none.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

// siteName is the business's name when the graph knows it, else its domain.
func siteName(g *shared.ActionGraph) string {
	if g.Site.Name != nil && *g.Site.Name != "" {
		return *g.Site.Name
	}
	return g.Site.Domain
}
