package compiler

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// mcpResult decodes a compiled tools/list result.
type mcpResultView struct {
	Tools []struct {
		Name        string         `json:"name"`
		Title       string         `json:"title"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
		Annotations map[string]any `json:"annotations"`
		Meta        map[string]any `json:"_meta"`
	} `json:"tools"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

// primary is the primary file of format f: the first CompileFormat returns.
func primary(g *shared.ActionGraph, f Format, opts Options) ([]byte, error) {
	files, err := CompileFormat(g, f, opts)
	if err != nil {
		return nil, err
	}
	return files[0].Data, nil
}

// byName keys compiled files by name.
func byName(files []File) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	return out
}

func compileMCP(t *testing.T, g *shared.ActionGraph, opts Options) mcpResultView {
	t.Helper()
	b, err := primary(g, FormatMCP, opts)
	if err != nil {
		t.Fatalf("Compile mcp: %v", err)
	}
	var v mcpResultView
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func toolNames(v mcpResultView) []string {
	out := []string{}
	for _, tl := range v.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func TestOfferedTools(t *testing.T) {
	tests := []struct {
		name  string
		graph func(t *testing.T) *shared.ActionGraph
		opts  Options
		want  []string
	}{
		{"clinic01 unverified is left out", clinicGraph, Options{}, []string{}},
		{"clinic01 with include-unverified", clinicGraph, Options{IncludeUnverified: true}, []string{"clinic01.booking.appointment.form"}},
		{"doors: verified executable doors only", func(*testing.T) *shared.ActionGraph { return doorsGraph() }, Options{},
			[]string{"plumber.quote.job.form", "plumber.quote.job.api", "plumber.quote.job.webmcp", "plumber.enquiry.question.form-408ca2cb", "plumber.enquiry.question.form-f1729606"}},
		{"doors: sandbox-tested added, javascript-only form never", func(*testing.T) *shared.ActionGraph { return doorsGraph() }, Options{IncludeUnverified: true},
			[]string{"plumber.quote.job.form", "plumber.quote.job.api", "plumber.quote.job.webmcp", "plumber.booking.service.form", "plumber.enquiry.question.form-408ca2cb", "plumber.enquiry.question.form-f1729606"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := toolNames(compileMCP(t, tt.graph(t), tt.opts))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnverifiedIsMarked(t *testing.T) {
	tests := []struct {
		id, marker, status string
	}{
		{"plumber.quote.job.form", "", "verified"},
		{"plumber.booking.service.form", "[SANDBOX-TESTED, NOT VERIFIED] ", "sandbox-tested"},
	}
	v := compileMCP(t, doorsGraph(), Options{IncludeUnverified: true})
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			for _, tl := range v.Tools {
				if tl.Name != tt.id {
					continue
				}
				if tt.marker != "" && !strings.HasPrefix(tl.Title, tt.marker) || tt.marker == "" && strings.HasPrefix(tl.Title, "[") {
					t.Errorf("title %q, want marker %q", tl.Title, tt.marker)
				}
				if !strings.Contains(tl.Description, "Verification: ") {
					t.Errorf("description does not state the verification status: %q", tl.Description)
				}
				st := tl.Meta[metaPrefix+"verification"].(map[string]any)["status"]
				if st != tt.status {
					t.Errorf("_meta status %v, want %s", st, tt.status)
				}
				return
			}
			t.Fatalf("tool %s not offered", tt.id)
		})
	}
}

// TestEveryActionStatusStated: each output names every action's status,
// including actions it offers no tool for.
func TestEveryActionStatusStated(t *testing.T) {
	g := doorsGraph()
	files, err := CompileAll(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range byName(files) {
		t.Run(name, func(t *testing.T) {
			for _, a := range g.Actions {
				if !strings.Contains(string(data), a.ID) && !strings.Contains(string(data), a.Label) {
					t.Errorf("%s does not mention action %s", name, a.ID)
				}
			}
			for _, word := range []string{"verified", "sandbox-tested", "unverified"} {
				if !strings.Contains(strings.ToLower(string(data)), word) {
					t.Errorf("%s never states the status %q", name, word)
				}
			}
		})
	}
}

func property(t *testing.T, v mcpResultView, tool, prop string) map[string]any {
	t.Helper()
	for _, tl := range v.Tools {
		if tl.Name == tool {
			p, ok := tl.InputSchema["properties"].(map[string]any)[prop]
			if !ok {
				return nil
			}
			return p.(map[string]any)
		}
	}
	t.Fatalf("no tool %s", tool)
	return nil
}

func TestInputSchema(t *testing.T) {
	v := compileMCP(t, doorsGraph(), Options{})
	const quote = "plumber.quote.job.form"
	tests := []struct {
		prop    string
		keyword string
		want    any // nil: the keyword (or, with keyword "", the property) must be absent
	}{
		{"company-url", "", nil},                    // honeypot never offered
		{"_wpnonce", "", nil},                       // system token never offered
		{"message", "minLength", 1.0},               // required: not empty; the inferred min-length 20 never becomes a keyword
		{"message", "maxLength", 1000.0},            // declared value space does
		{"suburb", "pattern", nil},                  // inferred pattern never becomes a keyword
		{"phone", "pattern", "^(?:04[0-9]{8})$|^$"}, // HTML pattern anchored; optional, so empty too
		{"full-name", "minLength", 2.0},
		{"full-name", "maxLength", 60.0},
		{"email", "format", "email"},
		{"website", "format", nil}, // optional: "" or a URI, as HTML's type check skips an empty value
		{"website", "anyOf", []any{map[string]any{"maxLength": 0.0}, map[string]any{"format": "iri"}}},
		{"preferred-date", "anyOf", []any{map[string]any{"maxLength": 0.0}, map[string]any{"format": "date"}}},
		{"preferred-time", "format", nil}, // JSON Schema's time is not a browser's 09:30
		{"preferred-time", "description", "Semantic type: time. The value as a browser's time input sends it: HH:MM in 24 hours, or HH:MM:SS (09:30)."},
		{"service", "enum", []any{"blocked-drain", "hot-water", "leak"}},
		{"budget", "type", "number"},
		{"budget", "minimum", 100.0},
		{"budget", "maximum", 5000.0},
		{"budget", "multipleOf", 50.0},
		{"news", "type", "boolean"},
		{"photos", "type", "object"}, // a file: {name, mediaType, content} (decision 0007)
		{"photos", "required", []any{"content"}},
		{"photos", "contentEncoding", nil}, // on content, not on the object
		{"full-name", "title", "Full name"},
		{"email", "description", "We reply by email. Semantic type: email."},
	}
	for _, tt := range tests {
		t.Run(tt.prop+"/"+tt.keyword, func(t *testing.T) {
			p := property(t, v, quote, tt.prop)
			if tt.keyword == "" {
				if p != nil {
					t.Fatalf("property %s offered to agents: %v", tt.prop, p)
				}
				return
			}
			if p == nil {
				t.Fatalf("property %s missing", tt.prop)
			}
			if diff := cmp.Diff(tt.want, p[tt.keyword]); diff != "" {
				t.Errorf("%s.%s (-want +got):\n%s", tt.prop, tt.keyword, diff)
			}
		})
	}
	t.Run("required", func(t *testing.T) {
		for _, tl := range v.Tools {
			if tl.Name == quote {
				want := []any{"full-name", "email", "service", "message"}
				if diff := cmp.Diff(want, tl.InputSchema["required"]); diff != "" {
					t.Errorf("required (-want +got):\n%s", diff)
				}
				if tl.InputSchema["additionalProperties"] != false {
					t.Errorf("additionalProperties = %v, want false", tl.InputSchema["additionalProperties"])
				}
			}
		}
	})
	t.Run("required checkbox must be ticked", func(t *testing.T) {
		if got := property(t, v, "plumber.enquiry.question.form-408ca2cb", "agree")["const"]; got != true {
			t.Errorf("agree const = %v, want true", got)
		}
	})
}

func TestAnnotations(t *testing.T) {
	// Money, inventory, obligation, irreversibility and unknown effects are
	// destructive; the other effect kinds only add.
	destructiveKinds := map[shared.EffectKind]bool{
		shared.EffectBooksAppointment: true, // holds inventory in effectsGraph
		shared.EffectChargesPayment:   true,
		shared.EffectPlacesOrder:      true,
		shared.EffectUnknown:          true,
	}
	v := compileMCP(t, effectsGraph(), Options{})
	if len(v.Tools) != len(allEffectKinds()) {
		t.Fatalf("%d tools for %d effect kinds", len(v.Tools), len(allEffectKinds()))
	}
	for i, k := range allEffectKinds() {
		t.Run(string(k), func(t *testing.T) {
			want := map[string]any{
				"title": "Action that " + words(k), "readOnlyHint": false, "destructiveHint": destructiveKinds[k],
				"idempotentHint": false, "openWorldHint": true,
			}
			if diff := cmp.Diff(want, v.Tools[i].Annotations); diff != "" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("obligation and irreversibility", func(t *testing.T) {
		tests := []struct {
			mutate func(*shared.SideEffects)
			want   bool
		}{
			{func(*shared.SideEffects) {}, false},
			{func(se *shared.SideEffects) { se.CreatesObligation = true }, true},
			{func(se *shared.SideEffects) { se.Reversible = shared.ReversibleFalse }, true},
			{func(se *shared.SideEffects) { se.Reversible = shared.ReversibleTrue }, false},
			{func(se *shared.SideEffects) { se.ChargesMoney = true }, true},
		}
		for i, tt := range tests {
			se := sideEffects("s", effect(shared.EffectSendsEmailToBusiness, nil, false))
			tt.mutate(&se)
			if got := destructive(&se); got != tt.want {
				t.Errorf("case %d: destructive = %v, want %v", i, got, tt.want)
			}
		}
	})
}

// TestNamesStable: a tool's name depends on its action and door only, not
// on what else the graph holds.
func TestNamesStable(t *testing.T) {
	before := toolNames(compileMCP(t, doorsGraph(), Options{IncludeUnverified: true}))
	g := doorsGraph()
	extra := g.Actions[0]
	extra.ID = "plumber:quote:another"
	g.Actions = append([]shared.Action{extra}, g.Actions...)
	after := toolNames(compileMCP(t, g, Options{IncludeUnverified: true}))
	if diff := cmp.Diff(before, after[3:]); diff != "" {
		t.Errorf("names changed when an action was added in front (-before +after):\n%s", diff)
	}
}

func TestToolNames(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct {
		id, suffix, want string
	}{
		{"clinic01:booking:appointment", ".form", "clinic01.booking.appointment.form"},
		{"site/quote job#1", ".api", "site.quote_job_1.api"},
		{"", ".form", "action.form"},
		{"café", ".form", "caf_.form"},
		{long, ".form", strings.Repeat("x", 114) + "-" + shortHash(long) + ".form"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got := toolName(tt.id, tt.suffix)
			if got != tt.want {
				t.Errorf("toolName(%q) = %q, want %q", tt.id, got, tt.want)
			}
			if !shared.ValidToolName(got) {
				t.Errorf("%q is not a valid tool name", got)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	collide := doorsGraph()
	twin := collide.Actions[0]
	twin.ID = "plumber.quote.job" // sanitises to the same name as plumber:quote:job
	collide.Actions = append(collide.Actions, twin)

	noEffects := doorsGraph()
	noEffects.Actions[0].SideEffects.Effects = []shared.Effect{}

	type errCase struct {
		name   string
		run    func() error
		target error
	}
	tests := []errCase{
		{"unknown format", func() error { _, err := primary(doorsGraph(), Format("pdf"), Options{}); return err }, ErrUnknownFormat},
		{"unknown format in ParseFormat", func() error { _, err := ParseFormat("yaml"); return err }, ErrUnknownFormat},
		{"unknown MCP version", func() error {
			_, err := primary(doorsGraph(), FormatMCP, Options{MCPVersion: "2024-01-01"})
			return err
		}, ErrUnknownMCPVersion},
		{"nil graph", func() error { _, err := CompileAll(nil, Options{}); return err }, shared.ErrInvalidGraph},
		{"invalid graph", func() error { _, err := CompileAll(noEffects, Options{}); return err }, shared.ErrInvalidGraph},
		{"tool names collide", func() error { _, err := CompileAll(collide, Options{}); return err }, ErrNameCollision},
		{"unknown format in CompileFormat", func() error { _, err := CompileFormat(doorsGraph(), Format(""), Options{}); return err }, ErrUnknownFormat},
	}
	// Every format refuses a nil graph the same way.
	for _, format := range FormatValues() {
		tests = append(tests, errCase{"CompileFormat nil graph " + string(format), func() error { _, err := CompileFormat(nil, format, Options{}); return err }, shared.ErrInvalidGraph})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if !errors.Is(err, tt.target) {
				t.Fatalf("err = %v, want errors.Is %v", err, tt.target)
			}
			var ge *GraphError
			var fe *FormatError
			switch tt.target {
			case shared.ErrInvalidGraph, ErrNameCollision:
				if !errors.As(err, &ge) || len(ge.Issues) == 0 {
					t.Errorf("want a *GraphError with issues, got %#v", err)
				}
			case ErrUnknownFormat:
				if !errors.As(err, &fe) {
					t.Errorf("want a *FormatError, got %#v", err)
				}
			}
		})
	}
}

func TestFormats(t *testing.T) {
	want := []Format{FormatMCP, FormatWebMCP, FormatOpenAPI, FormatJSONLD, FormatARD, FormatLLMs}
	if diff := cmp.Diff(want, FormatValues()); diff != "" {
		t.Errorf("FormatValues (-want +got):\n%s", diff)
	}
	all, err := CompileAll(doorsGraph(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// CompileAll is every format's CompileFormat, in FormatValues order.
	var each []File
	for _, f := range FormatValues() {
		one, err := CompileFormat(doorsGraph(), f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		each = append(each, one...)
	}
	if diff := cmp.Diff(each, all); diff != "" {
		t.Errorf("CompileAll differs from each format's CompileFormat (-want +got):\n%s", diff)
	}
	files := byName(all)
	if len(files) != len(all) {
		t.Errorf("CompileAll wrote %d files under %d names", len(all), len(files))
	}
	if string(files[FileAICatalog]) != string(files[FileARD]) {
		t.Error("ai-catalog.json and ard.json differ")
	}
	web, err := CompileFormat(doorsGraph(), FormatWebMCP, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range web {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{FileWebMCPScript, FileWebMCPDeclarative, FileWebMCPDeclarativeJ}, names); diff != "" {
		t.Errorf("webmcp files, primary first (-want +got):\n%s", diff)
	}
}

func TestOpenAPIOperations(t *testing.T) {
	b, err := primary(doorsGraph(), FormatOpenAPI, Options{IncludeUnverified: true})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]map[string]any `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for path, item := range doc.Paths {
		for method, op := range item {
			got[op.OperationID] = method + " " + path
		}
	}
	want := map[string]string{
		"plumber.quote.job.form":                 "post /wp-admin/admin-ajax.php",
		"plumber.quote.job.api":                  "post /api/quotes",
		"plumber.booking.service.form":           "get /book/",
		"plumber.enquiry.question.form-408ca2cb": "post /wp-json/contact-form-7/v1/contact-forms/12/feedback#plumber.enquiry.question.form-408ca2cb",
		"plumber.enquiry.question.form-f1729606": "post /wp-json/contact-form-7/v1/contact-forms/12/feedback#plumber.enquiry.question.form-f1729606",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	quote := doc.Paths["/wp-admin/admin-ajax.php"]["post"]
	if _, ok := quote.RequestBody.Content["multipart/form-data"]; !ok {
		t.Errorf("quote form request body is not multipart/form-data: %v", quote.RequestBody.Content)
	}
	props := quote.RequestBody.Content["multipart/form-data"].Schema.Properties
	if props["company-url"]["maxLength"] != 0.0 || props["_wpnonce"]["x-frontlatch-field"] == nil {
		t.Errorf("the wire schema must carry the honeypot (maxLength 0) and the system token (marked): %v / %v", props["company-url"], props["_wpnonce"])
	}
	if diff := cmp.Diff([]struct {
		Name string `json:"name"`
		In   string `json:"in"`
	}{{"action", "query"}}, quote.Parameters); diff != "" {
		t.Errorf("query parameter from the endpoint URL (-want +got):\n%s", diff)
	}
	if _, ok := doc.Paths["/api/quotes"]["post"].RequestBody.Content["application/json"]; !ok {
		t.Error("documented JSON endpoint body is not application/json")
	}
}

func TestJSONLDTypes(t *testing.T) {
	b, err := primary(doorsGraph(), FormatJSONLD, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		PotentialAction []map[string]any `json:"potentialAction"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	inputs := map[string]int{}
	for _, a := range doc.PotentialAction {
		id := a["identifier"].(string)
		got[id] = a["@type"].(string)
		for k := range a {
			if strings.HasSuffix(k, "-input") {
				inputs[id]++
			}
		}
	}
	want := map[string]string{
		"plumber.quote.job.form":                   "QuoteAction",
		"plumber:quote:job#tel-link":               "QuoteAction",
		"plumber.quote.job.api":                    "QuoteAction",
		"plumber:quote:job#webmcp-tool":            "QuoteAction",
		"plumber:booking:service#html-form":        "ReserveAction", // not offered by default: information only
		"plumber:booking:service#scheduler-widget": "ReserveAction",
		"plumber:contact:email#mailto-link":        "CommunicateAction",
		"plumber:callback:request#html-form":       "CommunicateAction",
		"plumber:callback:request#link-to-page":    "CommunicateAction",
		"plumber.enquiry.question.form-408ca2cb":   "AskAction",
		"plumber.enquiry.question.form-f1729606":   "AskAction",
		"plumber:unknown:widget#unknown":           "Action",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("potentialAction types (-want +got):\n%s", diff)
	}
	if inputs["plumber.quote.job.form"] != 12 || inputs["plumber:booking:service#html-form"] != 0 || inputs["plumber:contact:email#mailto-link"] != 0 {
		t.Errorf("-input specifications: %v (want 12 on the quote form, none on information-only doors)", inputs)
	}
}

func TestRadioButtonsRecordedSeparately(t *testing.T) {
	g := doorsGraph()
	a := &g.Actions[0]
	for _, v := range []string{"am", "pm"} {
		in := field("form#quote", "slot", "Slot "+v, shared.SemanticPreferredTimeWindow, "radio", true)
		a.Inputs = append(a.Inputs, in)
	}
	v := compileMCP(t, g, Options{})
	req := v.Tools[0].InputSchema["required"].([]any)
	n := 0
	for _, r := range req {
		if r == "slot" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("slot is required %d times in %v, want once", n, req)
	}
	checkSchemaCompiles(t, "radio", v.Tools[0].InputSchema)
}

// TestOpenAPIDoorAgreesWithMCP: each OpenAPI operation's x-frontlatch-door
// is the MCP tool's _meta door of the same name, index included (the
// door's index in the action's access list, which tells look-alike doors
// apart).
func TestOpenAPIDoorAgreesWithMCP(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			g := doorsGraph()
			files, err := CompileAll(g, v.opts)
			if err != nil {
				t.Fatal(err)
			}
			out := byName(files)
			var mcp mcpResultView
			if err := json.Unmarshal(out[FileMCPTools], &mcp); err != nil {
				t.Fatal(err)
			}
			var openapi struct {
				Paths map[string]map[string]struct {
					OperationID string         `json:"operationId"`
					Door        map[string]any `json:"x-frontlatch-door"`
				} `json:"paths"`
			}
			if err := json.Unmarshal(out[FileOpenAPI], &openapi); err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			for _, item := range openapi.Paths {
				for _, op := range item {
					got[op.OperationID] = op.Door
				}
			}
			want := map[string]any{} // every tool but the WebMCP one is an HTTP operation
			for _, tl := range mcp.Tools {
				if door := tl.Meta[metaPrefix+"door"].(map[string]any); door["door"] != string(shared.AccessWebMCPTool) {
					want[tl.Name] = door
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("OpenAPI's x-frontlatch-door by operation (-MCP's _meta door +OpenAPI's):\n%s", diff)
			}
			// The documented endpoint is the quote action's third door.
			if door, ok := got["plumber.quote.job.api"].(map[string]any); !ok || door["index"] != 2.0 {
				t.Errorf("plumber.quote.job.api's door %v, want index 2", got["plumber.quote.job.api"])
			}
		})
	}
}
