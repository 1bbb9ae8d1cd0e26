package compiler

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/frontlatch/frontlatch/shared"
)

// fileProps is the properties of every file object (decision 0007).
const fileProps = `"properties":{"name":{"type":"string","description":"The file's name, with its extension (quote.pdf): sent as the site's browser would. Any folder part is dropped; without a name the file is named from its media type.","minLength":1},` +
	`"mediaType":{"type":"string","description":"The file's media type (image/jpeg), without parameters; by default from the name's extension, else from the content.","pattern":"^[!#$%&'*+.^_` + "`" + `|~0-9A-Za-z-]+/[!#$%&'*+.^_` + "`" + `|~0-9A-Za-z-]+$"},`

// A file input is offered to an agent as one object {name, mediaType,
// content} with content in base64, content alone required (decision 0007);
// on the wire (OpenAPI) it stays a file part's bytes; an input whose
// semantic is file-attachment but whose control is not a file input is text.
func TestFileSchema(t *testing.T) {
	content := func(mt string) string {
		s := `"content":{"type":"string","description":"The file's bytes, base64-encoded (RFC 4648, the standard alphabet).","contentEncoding":"base64"`
		if mt != "" {
			s += `,"contentMediaType":"` + mt + `"`
		}
		return s + `}},"required":["content"],"additionalProperties":false}`
	}
	photos := field("form", "photos", "Photos", shared.SemanticFileAttachment, "file", false)
	for _, tc := range []struct {
		name     string
		in       shared.Input
		rules    []shared.Rule
		mode     schemaMode
		want     string
		required bool
	}{
		{"images or a PDF", photos, []shared.Rule{{Kind: shared.RuleAccept, Value: ptr("image/*,.pdf")}, {Kind: shared.RuleMaxFileSize, Value: ptr("5 MB")}}, agentInputs,
			`{"type":"object","title":"Photos","description":"Semantic type: file-attachment. Accepted files: image/*,.pdf. Largest file accepted: 5 MB.",` + fileProps + content(""), false},
		{"one media type names the content's", photos, []shared.Rule{{Kind: shared.RuleAccept, Value: ptr(" Application/PDF ")}}, agentInputs,
			`{"type":"object","title":"Photos","description":"Semantic type: file-attachment. Accepted files:  Application/PDF .",` + fileProps + content("application/pdf"), false},
		{"required, nothing accepted said", field("form", "cv", "CV", shared.SemanticFileAttachment, "file", true), nil, agentInputs,
			`{"type":"object","title":"CV","description":"Semantic type: file-attachment.",` + fileProps + content(""), true},
		{"on the wire", photos, nil, wireInputs,
			`{"type":"string","title":"Photos","description":"Semantic type: file-attachment.","contentMediaType":"application/octet-stream"}`, false},
		{"a text field about files", field("form", "files-link", "Link to your photos", shared.SemanticFileAttachment, "text", false), nil, agentInputs,
			`{"type":"string","title":"Link to your photos","description":"Semantic type: file-attachment."}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, required := inputSchema(&tc.in, tc.rules, tc.mode)
			b, err := marshalCompact(ps)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(bytes.TrimSpace(b))); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
			if required != tc.required {
				t.Errorf("required = %v, want %v", required, tc.required)
			}
		})
	}
}

// The file object's schema accepts what the executor takes and refuses the
// shapes it refuses: a bare string, an unknown key, no content, a media type
// with parameters.
func TestFileSchemaInstances(t *testing.T) {
	in := field("form", "photos", "Photos", shared.SemanticFileAttachment, "file", false)
	ps, _ := inputSchema(&in, nil, agentInputs)
	raw, err := marshalCompact(ps)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	sch := compileSchema(t, doc)
	for _, tc := range []struct {
		name, instance string
		valid          bool
	}{
		{"content alone", `{"content":"aGVsbG8="}`, true},
		{"all three", `{"name":"leak.jpg","mediaType":"image/jpeg","content":"/9j/4AAQ"}`, true},
		{"a vendor type", `{"mediaType":"application/vnd.openxmlformats-officedocument.wordprocessingml.document","content":""}`, true},
		{"a bare base64 string", `"aGVsbG8="`, false},
		{"no content", `{"name":"a.pdf"}`, false},
		{"an unknown key", `{"content":"","size":3}`, false},
		{"an empty name", `{"name":"","content":""}`, false},
		{"a media type with parameters", `{"mediaType":"text/plain; charset=utf-8","content":""}`, false},
		{"a media type without a subtype", `{"mediaType":"image","content":""}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.instance), &v); err != nil {
				t.Fatal(err)
			}
			err := sch.Validate(v)
			if (err == nil) != tc.valid {
				t.Errorf("valid = %v, want %v (%v)", err == nil, tc.valid, err)
			}
		})
	}
}

// compileSchema compiles one JSON Schema document (a decoded value, as
// jsonschema.UnmarshalJSON gives) for validating instances against it,
// asserting formats as a strict agent's validator does.
func compileSchema(t *testing.T, doc any) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}
