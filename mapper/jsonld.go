package mapper

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// schemaActionKinds maps Schema.org Action types to action kinds. Types not
// listed (SearchAction, ViewAction…) are not customer actions.
var schemaActionKinds = map[string]shared.ActionKind{
	"ReserveAction": shared.KindBooking, "ScheduleAction": shared.KindBooking, "BookAction": shared.KindBooking,
	"QuoteAction":       shared.KindQuote,
	"CommunicateAction": shared.KindContact, "ContactAction": shared.KindContact, "InformAction": shared.KindContact,
	"ReplyAction": shared.KindContact, "CommentAction": shared.KindContact,
	"AskAction": shared.KindEnquiry,
}

// confStructuredAction: the site itself declares the action, in a format
// made for machines; only the server can say whether it still works.
const confStructuredAction = 0.9

// ldAction is one potentialAction found in a page's JSON-LD.
type ldAction struct {
	typ    string
	kind   shared.ActionKind
	name   string
	desc   string
	target ldTarget
	inputs []ldInput
	path   string // where in the JSON-LD, for evidence
}

type ldTarget struct{ urlTemplate, httpMethod, encodingType, contentType string }

// ldInput is one <prop>-input specification.
type ldInput struct {
	prop                          string
	name                          string
	required, readonly, multiple  bool
	minLength, maxLength          *int
	pattern, min, max, step, dflt string
	raw                           string // the shorthand text or the spec's JSON, for evidence
}

// ldDoor is one potentialAction of a page's JSON-LD as the doors stage
// reads it: a documented-endpoint door (door), the action it opens when
// no form of the site sends to the same endpoint (head), and its input
// specifications.
type ldDoor struct {
	typ    string // the Schema.org Action type
	target string // the resolved target, "" when none
	door   shared.Access
	head   actionHead
	text   string // name and description, for effects
	inputs ldSpecs
}

// structuredDoors reads the potentialActions of a page's JSON-LD blocks,
// and a note for each block that is not JSON.
func structuredDoors(s signer, site *url.URL, cls classifier, p *extract.Page) (doors []ldDoor, notes []string) {
	for i, block := range p.JSONLD {
		var v any
		if err := json.Unmarshal([]byte(block), &v); err != nil {
			notes = append(notes, fmt.Sprintf("JSON-LD block %d on %s is not valid JSON and is left out.", i, relPath(site, p.URL)))
			continue
		}
		for _, a := range findActions(v, fmt.Sprintf("jsonld[%d]", i)) {
			doors = append(doors, ldDoorOf(s, site, cls, p.URL, a))
		}
	}
	return doors, notes
}

// findActions walks a JSON-LD value for potentialAction objects of a known type.
func findActions(v any, path string) []ldAction {
	var out []ldAction
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			out = append(out, findActions(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
	case map[string]any:
		for _, k := range sortedKeys(t) {
			sub := path + "." + k
			if k != "potentialAction" {
				out = append(out, findActions(t[k], sub)...)
				continue
			}
			pas, ok := t[k].([]any)
			if !ok {
				pas = []any{t[k]}
			}
			for i, pa := range pas {
				obj, ok := pa.(map[string]any)
				if !ok {
					continue
				}
				ap := sub
				if len(pas) > 1 {
					ap = fmt.Sprintf("%s[%d]", sub, i)
				}
				if a, ok := readLDAction(obj, ap); ok {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

func readLDAction(obj map[string]any, path string) (ldAction, bool) {
	a := ldAction{path: path}
	for _, t := range typesOf(obj["@type"]) {
		if k, ok := schemaActionKinds[t]; ok {
			a.typ, a.kind = t, k
			break
		}
	}
	if a.typ == "" {
		return a, false
	}
	a.name, _ = obj["name"].(string)
	a.desc, _ = obj["description"].(string)
	a.target = readTarget(obj["target"])
	for _, k := range sortedKeys(obj) {
		if strings.HasSuffix(k, "-input") {
			a.inputs = append(a.inputs, readLDInput(strings.TrimSuffix(k, "-input"), obj[k]))
		}
	}
	// Inputs may also sit on the target (EntryPoint) object in real markup.
	if t, ok := obj["target"].(map[string]any); ok {
		for _, k := range sortedKeys(t) {
			if strings.HasSuffix(k, "-input") {
				a.inputs = append(a.inputs, readLDInput(strings.TrimSuffix(k, "-input"), t[k]))
			}
		}
	}
	return a, true
}

func typesOf(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(t, "http://schema.org/"), "https://schema.org/"))
	case []any:
		for _, e := range t {
			out = append(out, typesOf(e)...)
		}
	}
	return out
}

// readTarget reads Action.target: a URL, an EntryPoint, or a list of them
// (the first with a URL wins).
func readTarget(v any) ldTarget {
	switch t := v.(type) {
	case string:
		return ldTarget{urlTemplate: t}
	case []any:
		for _, e := range t {
			if tg := readTarget(e); tg.urlTemplate != "" {
				return tg
			}
		}
	case map[string]any:
		s := func(k string) string { x, _ := t[k].(string); return x }
		tg := ldTarget{urlTemplate: firstNonEmpty(s("urlTemplate"), s("url")), httpMethod: strings.ToUpper(s("httpMethod")), encodingType: s("encodingType"), contentType: s("contentType")}
		return tg
	}
	return ldTarget{}
}

// readLDInput reads a PropertyValueSpecification object or its shorthand
// text ("required maxlength=100 name=q").
func readLDInput(prop string, v any) ldInput {
	in := ldInput{prop: prop, name: prop}
	switch t := v.(type) {
	case string:
		in.raw = t
		for _, tok := range strings.Fields(t) {
			k, val, _ := strings.Cut(tok, "=")
			switch strings.ToLower(k) {
			case "required":
				in.required = true
			case "readonly":
				in.readonly = true
			case "multiple":
				in.multiple = true
			case "name":
				in.name = val
			case "maxlength":
				in.maxLength = atoiPtr(val)
			case "minlength":
				in.minLength = atoiPtr(val)
			case "pattern":
				in.pattern = val
			case "min":
				in.min = val
			case "max":
				in.max = val
			case "step":
				in.step = val
			case "value":
				in.dflt = val
			}
		}
	case map[string]any:
		raw, _ := json.Marshal(t)
		in.raw = string(raw)
		str := func(k string) string {
			switch x := t[k].(type) {
			case string:
				return x
			case float64:
				return num(x)
			case bool:
				return strconv.FormatBool(x)
			}
			return ""
		}
		in.required = str("valueRequired") == "true"
		in.readonly = str("readonlyValue") == "true"
		in.multiple = str("multipleValues") == "true"
		if n := str("valueName"); n != "" {
			in.name = n
		}
		in.minLength = atoiPtr(str("valueMinLength"))
		// Real pages misspell valueMaxLength as valueMaxlength.
		in.maxLength = atoiPtr(firstNonEmpty(str("valueMaxLength"), str("valueMaxlength")))
		in.pattern, in.min, in.max, in.step, in.dflt = str("valuePattern"), str("minValue"), str("maxValue"), str("stepValue"), str("defaultValue")
	}
	return in
}

// ldDoorOf reads one potentialAction declared on pageURL.
func ldDoorOf(s signer, site *url.URL, cls classifier, pageURL string, a ldAction) ldDoor {
	ev := a.path + " " + a.typ
	tgt := resolveOn(site, a.target.urlTemplate)
	sub := shared.Submission{Transport: shared.TransportFormGet, Endpoint: strPtr(tgt)}
	enc := firstNonEmpty(a.target.encodingType, a.target.contentType)
	switch {
	case a.target.urlTemplate == "":
		sub.Transport = shared.TransportUnknown
	case strings.Contains(strings.ToLower(enc), "json"):
		sub.Transport = shared.TransportJSONEndpoint
	case a.target.httpMethod == "POST" || a.target.httpMethod == "PUT":
		sub.Transport = shared.TransportFormPost
		if enc == "" {
			enc = "application/x-www-form-urlencoded"
		}
	}
	sub.Enctype = strPtr(enc)
	d := ldDoor{
		typ: a.typ, target: tgt,
		door: shared.Access{Method: shared.AccessDocumentedEndpoint, URL: firstNonEmpty(tgt, pageURL), Submission: &sub,
			Provenance: s.prov(shared.MethodParsedStructuredData, confStructuredAction, ev)},
		head: actionHead{key: "ld|" + a.typ + "|" + tgt, kind: a.kind, label: clip(firstNonEmpty(a.name, a.desc, kindLabel(a.kind)), 120),
			page: pageURL, idPart: slugify(firstNonEmpty(a.name, a.typ)),
			provenance: s.prov(shared.MethodParsedStructuredData, confStructuredAction, ev+" declared by the site")},
		text: a.name + " " + a.desc,
	}
	for _, in := range a.inputs {
		fl := extract.Field{Tag: "input", Type: "text", Name: in.name, Label: in.prop, Required: in.required, Pattern: in.pattern}
		d.inputs = append(d.inputs, ldSpec{in: in, reading: cls.field(fl), path: a.path + "." + in.prop + "-input"})
	}
	return d
}

func itoa(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
