package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// plan is what every format is written from: the graph, each action's
// verification status, which doors are executable, and the tool names. It
// is computed once per compile so that every format agrees.
type plan struct {
	graph   *shared.ActionGraph
	opts    Options
	actions []actionPlan
}

// actionPlan is one action as the compiler sees it.
type actionPlan struct {
	action *shared.Action
	status shared.VerificationStatus
	// offered: the action's executable doors are written as callable tools
	// (verified, or any status with Options.IncludeUnverified).
	offered bool
	// unconfirmed is why the audit store does not confirm an action the
	// graph says is verified (Options.Unconfirmed); its status is then
	// unverified.
	unconfirmed string
	// tools has one entry per executable door, in door order, whether or
	// not the action is offered (formats that only inform still name them).
	tools []toolPlan
	// info are the doors an agent cannot call: tel:, mailto:, opaque
	// schedulers, links to other pages, unusable forms.
	info []*shared.Access
}

// toolPlan is one executable door and the stable name it is offered under.
type toolPlan struct {
	name  string
	door  *shared.Access
	index int // the door's index in the action's access list
}

// offeredTools returns every tool of every offered action, in graph order.
func (p *plan) offeredTools() []toolRef {
	var out []toolRef
	for i := range p.actions {
		ap := &p.actions[i]
		if !ap.offered {
			continue
		}
		for _, t := range ap.tools {
			out = append(out, toolRef{ap, t})
		}
	}
	return out
}

// toolRef is a tool together with the action it belongs to.
type toolRef struct {
	ap *actionPlan
	t  toolPlan
}

func newPlan(g *shared.ActionGraph, opts Options) (*plan, error) {
	if g == nil {
		return nil, &GraphError{Err: shared.ErrInvalidGraph, Issues: []shared.Issue{{
			Path: "$", Code: shared.IssueValueEmpty, Message: "no graph was given: read one with shared.Read",
		}}}
	}
	if opts.MCPVersion == "" {
		opts.MCPVersion = DefaultMCPVersion
	}
	if !slices.Contains(mcpVersions[:], opts.MCPVersion) {
		return nil, fmt.Errorf("%w %q: use %s", ErrUnknownMCPVersion, opts.MCPVersion, strings.Join(mcpVersions[:], " or "))
	}
	if err := validate(g); err != nil {
		return nil, err
	}
	p := &plan{graph: g, opts: opts, actions: make([]actionPlan, len(g.Actions))}
	seen := map[string]string{} // tool name → JSON path of the door that took it
	var collisions []shared.Issue
	for i := range g.Actions {
		a := &g.Actions[i]
		ap := actionPlan{action: a, status: a.Verification.Status()}
		if why, ok := opts.Unconfirmed[a.ID]; ok && ap.status == shared.StatusVerified {
			ap.status, ap.unconfirmed = shared.StatusUnverified, strings.TrimSuffix(why, ".") // put in parentheses
		}
		ap.offered = ap.status == shared.StatusVerified || opts.IncludeUnverified
		names := doorNames(a)
		for j := range a.Access {
			d := &a.Access[j]
			if !executable(d) {
				ap.info = append(ap.info, d)
				continue
			}
			path := fmt.Sprintf("$.actions[%d].access[%d]", i, j)
			name := names[j]
			if other, dup := seen[name]; dup {
				collisions = append(collisions, shared.Issue{Path: path, Code: shared.IssueIDDuplicate,
					Message: fmt.Sprintf("tool name %q is already taken by %s: give the action a distinct id or the doors distinct locators", name, other)})
				continue
			}
			seen[name] = path
			ap.tools = append(ap.tools, toolPlan{name: name, door: d, index: j})
		}
		p.actions[i] = ap
	}
	if len(collisions) > 0 {
		return nil, &GraphError{Issues: collisions, Err: ErrNameCollision}
	}
	return p, nil
}

// validate checks g with the contract's own writer, which re-validates
// before it writes; the compiler never writes formats from a graph the
// contract would refuse.
func validate(g *shared.ActionGraph) error {
	if _, err := shared.Write(g); err != nil {
		var ve *shared.ValidationError
		if errors.As(err, &ve) {
			return &GraphError{Issues: ve.Issues, Err: shared.ErrInvalidGraph}
		}
		return &GraphError{Err: shared.ErrInvalidGraph, Issues: []shared.Issue{{Path: "$", Code: shared.IssueValueInvalid, Message: err.Error()}}}
	}
	return nil
}

// executable reports whether an agent could drive the door through a tool:
// a form with a usable submission, a WebMCP tool, or a documented endpoint.
// Opaque doors, tel:, mailto:, schedulers and links only inform.
func executable(d *shared.Access) bool {
	if d.Opaque {
		return false
	}
	switch d.Method {
	case shared.AccessHTMLForm:
		return d.Locator != nil && usableSubmission(d.Submission)
	case shared.AccessWebMCPTool:
		return d.ToolName != nil && *d.ToolName != ""
	case shared.AccessDocumentedEndpoint:
		return d.Submission != nil && d.Submission.Endpoint != nil && httpEndpoint(*d.Submission.Endpoint) && httpMethod(d.Submission.Transport) != ""
	}
	return false
}

// httpEndpoint reports whether an endpoint is where an HTTP request goes:
// an http or https URL, or a reference relative to the page (which is
// one). A form whose action is mailto: hands its fields to the visitor's
// email program: no request reaches the business, so no tool can send it.
func httpEndpoint(ep string) bool {
	u, err := url.Parse(strings.TrimSpace(ep))
	return err == nil && (u.Scheme == "" || u.Scheme == "http" || u.Scheme == "https")
}

// usableSubmission: the data reaches the business by a request we can
// describe (not JavaScript-only, not unknown, not to a mailto: address),
// and a form has a real submit control to press.
func usableSubmission(s *shared.Submission) bool {
	if s == nil || s.Endpoint == nil || *s.Endpoint == "" || !httpEndpoint(*s.Endpoint) {
		return false
	}
	switch s.Transport {
	case shared.TransportFormPost, shared.TransportFormGet:
		return s.SubmitControl != nil
	case shared.TransportJSONEndpoint:
		return true
	}
	return false
}

// httpRequest returns the submission of a door that is an HTTP request an
// OpenAPI operation or a JSON-LD EntryPoint can describe: an HTTP transport
// to an endpoint. A door executable without one (a webmcp-tool door needs
// only its tool name, whatever its submission says) is no such request.
func httpRequest(d *shared.Access) (*shared.Submission, bool) {
	s := d.Submission
	if s == nil || s.Endpoint == nil || *s.Endpoint == "" || !httpEndpoint(*s.Endpoint) || httpMethod(s.Transport) == "" {
		return nil, false
	}
	return s, true
}

// httpMethod is the HTTP method a transport sends with, "" when it is not
// an HTTP request we can describe.
func httpMethod(t shared.Transport) string {
	switch t {
	case shared.TransportFormPost, shared.TransportJSONEndpoint:
		return "POST"
	case shared.TransportFormGet:
		return "GET"
	}
	return ""
}

// doorSlug names the kind of an executable door inside a tool name.
func doorSlug(m shared.AccessMethod) string {
	switch m {
	case shared.AccessHTMLForm:
		return "form"
	case shared.AccessWebMCPTool:
		return "webmcp"
	case shared.AccessDocumentedEndpoint:
		return "api"
	}
	return "door"
}

// doorKey identifies a door by what it is, not by where it sits in a list:
// its method, locator, endpoint and tool name.
func doorKey(d *shared.Access) string {
	var b strings.Builder
	b.WriteString(string(d.Method))
	if d.Locator != nil {
		b.WriteString("|" + string(d.Locator.Strategy) + "=" + d.Locator.Value)
	}
	if d.Submission != nil && d.Submission.Endpoint != nil {
		b.WriteString("|" + *d.Submission.Endpoint)
	}
	if d.ToolName != nil {
		b.WriteString("|" + *d.ToolName)
	}
	return b.String()
}

// doorNames returns the tool name of each executable door of a (indexed
// like a.Access; "" for doors that only inform). A name is derived from the
// action id and the door alone, never from a position that shifts when
// another action or door appears: "<id>.<slug>", where the id's ":" become
// "." and other characters outside [A-Za-z0-9_.-] become "_". When an action
// has two executable doors of one kind, each gets "-<hash of the door>".
func doorNames(a *shared.Action) []string {
	count := map[shared.AccessMethod]int{}
	for i := range a.Access {
		if executable(&a.Access[i]) {
			count[a.Access[i].Method]++
		}
	}
	names := make([]string, len(a.Access))
	for i := range a.Access {
		d := &a.Access[i]
		if !executable(d) {
			continue
		}
		suffix := "." + doorSlug(d.Method)
		if count[d.Method] > 1 {
			suffix += "-" + shortHash(doorKey(d))
		}
		names[i] = toolName(a.ID, suffix)
	}
	return names
}

// toolName joins a sanitised action id and a suffix, keeping within
// shared.MaxToolNameLength by cutting the id and adding a hash of the whole id.
func toolName(id, suffix string) string {
	base := sanitizeName(id)
	if base == "" {
		base = "action"
	}
	if len(base)+len(suffix) > shared.MaxToolNameLength {
		h := "-" + shortHash(id)
		base = base[:shared.MaxToolNameLength-len(suffix)-len(h)] + h
	}
	return base + suffix
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80 && shared.ToolNameChar(byte(r)):
			b.WriteRune(r)
		case r == ':' || r == '/':
			b.WriteByte('.')
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
