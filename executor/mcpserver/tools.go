package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/frontlatch/frontlatch/compiler"
	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/door"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english prints the schema validator's messages.
var english = message.NewPrinter(language.English)

// Graph is where the server reads the Action Graph from. Read is called on
// every re-check and before every tool call, so that the gate always sees
// the action as it is now.
type Graph interface {
	// Read returns the graph document as it is now.
	Read(ctx context.Context) ([]byte, error)
	// String names the source, for messages.
	String() string
}

// File is a Graph read from a file on every re-check; an edit to the file
// is picked up by the next re-check (its content hash is compared).
func File(path string) Graph { return fileGraph(path) }

type fileGraph string

func (f fileGraph) Read(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return shared.ReadDocumentFile(string(f))
}

func (f fileGraph) String() string { return string(f) }

// Bytes is a Graph that never changes: the document data, named name in
// messages.
func Bytes(name string, data []byte) Graph {
	return bytesGraph{name: name, data: bytes.Clone(data)}
}

type bytesGraph struct {
	name string
	data []byte
}

func (b bytesGraph) Read(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return bytes.Clone(b.data), nil
}

func (b bytesGraph) String() string { return b.name }

// metaDoor is the _meta key under which compiler.CompileFormat with FormatMCP records the
// action and door a tool drives (the compiler's metaPrefix + "door"); a test
// fails if a compiled tool lacks it.
const metaDoor = "dev.frontlatch/door"

// toolDef is one tool of the graph, as the compiler defines it.
type toolDef struct {
	name     string
	actionID string
	door     int // the index of the door it drives in the action's access list
	tool     *mcp.Tool
	sum      [32]byte           // of the compiler's JSON for the tool: a changed definition is re-added
	schema   *jsonschema.Schema // the compiled inputSchema
}

// snapshot is the graph as last read, and the tools compiled from it.
type snapshot struct {
	graph []byte
	sum   [32]byte
	tools map[string]*toolDef
	names []string // in the compiler's order
	err   error    // non-nil: the graph could not be read or compiled, and nothing is listed
}

func (s *snapshot) action(id string) ([]byte, error) {
	return executor.ActionBytes(s.graph, id)
}

// compile turns a graph document into its tool definitions, with the
// compiler as the one source of them.
func compile(source string, data []byte) *snapshot {
	snap := &snapshot{graph: data, sum: sha256.Sum256(data), tools: map[string]*toolDef{}}
	fail := func(err error) *snapshot {
		snap.err = &GraphError{Source: source, Err: err}
		snap.tools, snap.names = map[string]*toolDef{}, nil
		return snap
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		return fail(&shared.ValidationError{What: "graph", Issues: issues})
	}
	files, err := compiler.CompileFormat(g, compiler.FormatMCP, compiler.Options{})
	if err != nil {
		return fail(err)
	}
	// The compiler writes a tool for every executable door; the executor
	// fires an action's one door (door.Of), whichever tool is called. Only
	// that door's tool is served, so a tool never names a door it does not
	// drive.
	chosen := make(map[string]int, len(g.Actions))
	for i := range g.Actions {
		_, chosen[g.Actions[i].ID] = door.Of(&g.Actions[i])
	}
	list := files[0].Data // the tools/list result is the format's primary file
	var doc struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(list, &doc); err != nil {
		return fail(fmt.Errorf("reading the compiler's tools/list: %w", err))
	}
	for _, raw := range doc.Tools {
		def, err := toolOf(raw)
		if err != nil {
			return fail(err)
		}
		if def.door != chosen[def.actionID] {
			continue
		}
		snap.tools[def.name] = def
		snap.names = append(snap.names, def.name)
	}
	return snap
}

// toolOf reads one tool definition the compiler wrote.
func toolOf(raw json.RawMessage) (*toolDef, error) {
	var t mcp.Tool
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("reading a compiled tool: %w", err)
	}
	var parts struct {
		InputSchema json.RawMessage `json:"inputSchema"`
		Meta        struct {
			Door struct {
				ActionID string `json:"actionId"`
				Index    *int   `json:"index"`
			} `json:"dev.frontlatch/door"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("reading compiled tool %q: %w", t.Name, err)
	}
	if parts.Meta.Door.ActionID == "" || parts.Meta.Door.Index == nil {
		return nil, fmt.Errorf("compiled tool %q names no action and door under _meta[%q]", t.Name, metaDoor)
	}
	// The schema goes out exactly as the compiler wrote it.
	t.InputSchema = parts.InputSchema
	schema, err := compileSchema(t.Name, parts.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("compiled tool %q: input schema: %w", t.Name, err)
	}
	return &toolDef{name: t.Name, actionID: parts.Meta.Door.ActionID, door: *parts.Meta.Door.Index, tool: &t, sum: sha256.Sum256(raw), schema: schema}, nil
}

// compileSchema compiles a tool's input schema for checking arguments.
func compileSchema(name string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(lenientRegexp)
	url := "urn:frontlatch:tool:" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// lenientRegexp compiles a pattern with Go's regexp. A site's pattern is an
// ECMAScript regular expression and Go cannot read every one; such a
// pattern matches anything here and is left to the executor, which checks
// every declared validation itself.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	if re, err := regexp.Compile(s); err == nil {
		return re, nil
	}
	return anyRegexp(s), nil
}

type anyRegexp string

func (a anyRegexp) MatchString(string) bool { return true }
func (a anyRegexp) String() string          { return string(a) }

// checkArguments decodes a call's arguments and checks them against the
// tool's input schema. It returns the decoded object, or the reasons it is
// refused, each naming the field.
func (d *toolDef) checkArguments(raw json.RawMessage) (map[string]any, []executor.Reason) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, []executor.Reason{{Code: executor.ReasonInvalidInput, Rule: "type", Detail: "the arguments are not JSON: " + err.Error()}}
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return nil, []executor.Reason{{Code: executor.ReasonInvalidInput, Rule: "type", Detail: fmt.Sprintf("the arguments must be a JSON object, not %s", jsonKind(inst))}}
	}
	if len(obj) > executor.MaxInputKeys {
		// As the executor bounds them: not one reason (and one line of the
		// audit record) per key of a body of millions.
		return nil, []executor.Reason{{Code: executor.ReasonInvalidInput, Rule: "size", Err: executor.ErrInvalidInput,
			Detail: fmt.Sprintf("the arguments have %d keys; at most %d are accepted", len(obj), executor.MaxInputKeys)}}
	}
	if err := d.schema.Validate(inst); err != nil {
		return nil, schemaReasons(err)
	}
	// The executor takes encoding/json's values, numbers as json.Number:
	// sent as the agent wrote them (a float64 would lose the digits of an
	// integer past 2^53, and rewrite 2.50 as 2.5).
	var plain map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&plain); err != nil {
		return nil, []executor.Reason{{Code: executor.ReasonInvalidInput, Rule: "type", Detail: "the arguments are not JSON: " + err.Error(), Err: executor.ErrInvalidInput}}
	}
	return plain, nil
}

// schemaReasons turns a validation error into one reason per failed leaf,
// each naming its field and the schema keyword it broke, with the
// executor's reason codes.
func schemaReasons(err error) []executor.Reason {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []executor.Reason{{Code: executor.ReasonInvalidInput, Detail: err.Error()}}
	}
	var out []executor.Reason
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		rule := "schema"
		if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
			rule = kp[len(kp)-1]
		}
		add := func(code, field, detail string) {
			out = append(out, executor.Reason{Code: code, Field: field, Rule: rule, Detail: detail, Err: executor.ErrInvalidInput})
		}
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, f := range k.Properties {
				add(executor.ReasonUnknownInput, f, fmt.Sprintf("argument %q is not one of this tool's arguments (see its inputSchema)", f))
			}
		case *kind.Required:
			for _, f := range k.Missing {
				add(executor.ReasonInvalidInput, f, fmt.Sprintf("argument %q is required", f))
			}
		default:
			f := strings.Join(e.InstanceLocation, "/")
			add(executor.ReasonInvalidInput, f, fieldDetail(f, e.ErrorKind.LocalizedString(english)))
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b executor.Reason) int { return strings.Compare(a.Field, b.Field) })
	if len(out) == 0 {
		out = append(out, executor.Reason{Code: executor.ReasonInvalidInput, Detail: ve.Error()})
	}
	if len(out) > maxReasons {
		// A list argument of a million wrong items is not a million
		// reasons, returned and audited.
		more := len(out) - maxReasons
		out = append(out[:maxReasons:maxReasons], executor.Reason{Code: executor.ReasonInvalidInput, Err: executor.ErrInvalidInput,
			Detail: fmt.Sprintf("and %d more reasons, not listed: at most %d are", more, maxReasons)})
	}
	return out
}

// maxReasons bounds the reasons of one refusal by the schema listed, past
// which one more says how many were left out: as many as the keys the
// executor accepts.
const maxReasons = executor.MaxInputKeys

func fieldDetail(field, msg string) string {
	if field == "" {
		return "arguments: " + msg
	}
	return fmt.Sprintf("argument %q: %s", field, msg)
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
