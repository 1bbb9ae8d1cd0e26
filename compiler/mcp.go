package compiler

import (
	"github.com/frontlatch/frontlatch/shared"
)

// metaPrefix is the reverse-DNS prefix of the compiler's _meta keys (MCP
// reserves prefixes whose second label is "mcp" or "modelcontextprotocol").
const metaPrefix = "dev.frontlatch/"

// mcpCacheTTLMs is the 2026-07-28 ttlMs hint: the list changes only when the
// graph is recompiled, so an hour is safe.
const mcpCacheTTLMs = 3_600_000

// mcpListResult is a tools/list result. The first three fields exist only
// in protocol 2026-07-28, which requires them.
type mcpListResult struct {
	ResultType string    `json:"resultType,omitempty"`
	CacheScope string    `json:"cacheScope,omitempty"`
	TTLMs      *int      `json:"ttlMs,omitempty"`
	Tools      []mcpTool `json:"tools"`
	Meta       object    `json:"_meta"`
}

// mcpTool is one MCP tool definition.
type mcpTool struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema objectSchema   `json:"inputSchema"`
	Annotations mcpAnnotations `json:"annotations"`
	Meta        object         `json:"_meta"`
}

// mcpAnnotations are hints derived from the side effects. Every field is
// written, defaults included, so a reader never has to know the defaults.
type mcpAnnotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// actionStatus is how every JSON format lists each action's verification
// status, offered or not.
type actionStatus struct {
	ID      string                    `json:"id"`
	Kind    shared.ActionKind         `json:"kind"`
	Label   string                    `json:"label"`
	Status  shared.VerificationStatus `json:"status"`
	Offered bool                      `json:"offered"`
	Tools   []string                  `json:"tools"`
	Reason  string                    `json:"reason"`
}

// statuses lists every action of the graph with its status and why it is or
// is not offered.
func (p *plan) statuses() []actionStatus {
	out := make([]actionStatus, len(p.actions))
	for i := range p.actions {
		ap := &p.actions[i]
		st := actionStatus{ID: ap.action.ID, Kind: ap.action.Kind, Label: ap.action.Label, Status: ap.status, Tools: []string{}}
		switch {
		case len(ap.tools) == 0:
			st.Reason = "no executable door: it is reached by phone, email, a third-party scheduler or a page an agent cannot drive"
		case !ap.offered && ap.unconfirmed != "":
			st.Reason = "left out: the graph says verified, but its audit record does not confirm it (" + ap.unconfirmed + ")"
		case !ap.offered:
			st.Reason = "left out: not verified by the business (compile with --include-unverified to list it, marked)"
		case ap.unconfirmed != "":
			st.Offered, st.Reason = true, "offered although its audit record does not confirm it (--include-unverified): an agent must not execute it"
		case ap.status != shared.StatusVerified:
			st.Offered, st.Reason = true, "offered although not verified (--include-unverified): an agent must not execute it"
		default:
			st.Offered, st.Reason = true, "offered: verified by the business"
		}
		if st.Offered {
			for _, t := range ap.tools {
				st.Tools = append(st.Tools, t.name)
			}
		}
		out[i] = st
	}
	return out
}

// graphMeta identifies the graph an output was compiled from.
type graphMeta struct {
	GraphID       string           `json:"graphId"`
	SchemaVersion string           `json:"schemaVersion"`
	GeneratedAt   shared.Timestamp `json:"generatedAt"`
	Site          string           `json:"site"`
}

func (p *plan) graphMeta() graphMeta {
	g := p.graph
	return graphMeta{GraphID: g.GraphID, SchemaVersion: g.SchemaVersion, GeneratedAt: g.GeneratedAt, Site: g.Site.URL}
}

// destructive: money moves, a slot or stock is held, the business owes
// somebody something, the action cannot be undone, or a consequence is
// unknown. An unknown reversibility alone does not count: every request a
// form sends is additive until something above says otherwise.
func destructive(se *shared.SideEffects) bool {
	if se.ChargesMoney || se.CreatesObligation || se.Reversible == shared.ReversibleFalse {
		return true
	}
	for _, e := range se.Effects {
		switch {
		case e.HoldsInventory, e.Kind == shared.EffectChargesPayment, e.Kind == shared.EffectPlacesOrder, e.Kind == shared.EffectUnknown:
			return true
		}
	}
	return false
}

// doorMeta records which action and door a tool drives: Index is the
// door's index in the action's access list, which says which door it is
// when two look alike.
type doorMeta struct {
	ActionID string              `json:"actionId"`
	Index    int                 `json:"index"`
	Kind     shared.ActionKind   `json:"kind"`
	Door     shared.AccessMethod `json:"door"`
	URL      string              `json:"url"`
	Locator  *shared.Locator     `json:"locator,omitempty"`
	Endpoint *string             `json:"endpoint,omitempty"`
	ToolName *string             `json:"webmcpToolName,omitempty"`
}

type statusMeta struct {
	Status shared.VerificationStatus `json:"status"`
	Text   string                    `json:"text"`
}

func mcpToolOf(r toolRef) mcpTool {
	a := r.ap.action
	d := r.t.door
	dm := doorMeta{ActionID: a.ID, Index: r.t.index, Kind: a.Kind, Door: d.Method, URL: d.URL, Locator: d.Locator, ToolName: d.ToolName}
	if d.Submission != nil {
		dm.Endpoint = d.Submission.Endpoint
	}
	return mcpTool{
		Name:        r.t.name,
		Title:       title(r.ap),
		Description: actionDescription(r.ap),
		InputSchema: inputsSchema(a, agentInputs),
		Annotations: mcpAnnotations{
			Title:           title(r.ap),
			ReadOnlyHint:    false,
			DestructiveHint: destructive(&a.SideEffects),
			IdempotentHint:  false,
			OpenWorldHint:   true,
		},
		Meta: object{
			{metaPrefix + "verification", statusMeta{r.ap.status, statusSentence(r.ap)}},
			{metaPrefix + "door", dm},
		},
	}
}

// mcpTools returns the tool definitions of every offered door.
func mcpTools(p *plan) []mcpTool {
	refs := p.offeredTools()
	out := make([]mcpTool, len(refs))
	for i, r := range refs {
		out[i] = mcpToolOf(r)
	}
	return out
}

func buildMCP(p *plan) ([]byte, error) {
	res := mcpListResult{
		Tools: mcpTools(p),
		Meta: object{
			{metaPrefix + "graph", p.graphMeta()},
			{metaPrefix + "actions", p.statuses()},
		},
	}
	if p.opts.MCPVersion == MCPVersion20260728 {
		ttl := mcpCacheTTLMs
		res.ResultType, res.CacheScope, res.TTLMs = "complete", "public", &ttl
	}
	return marshalDocument(res)
}
