package compiler

import (
	"bytes"
	"encoding/json"
	"net/url"

	"github.com/frontlatch/frontlatch/shared"
)

// webPlatforms are the platforms a web form or endpoint serves.
var webPlatforms = []string{"https://schema.org/DesktopWebPlatform", "https://schema.org/MobileWebPlatform"}

type jsonldDoc struct {
	Context         string         `json:"@context"`
	Type            string         `json:"@type"`
	Name            string         `json:"name"`
	URL             string         `json:"url"`
	PotentialAction []jsonldAction `json:"potentialAction"`
}

// jsonldAction is one potentialAction. Its inputs are written as
// "<field name>-input" PropertyValueSpecification objects (the object form
// throughout, never the shorthand string), keyed by the form field name
// because Schema.org has no property for an arbitrary form field.
type jsonldAction struct {
	Type         string            `json:"@type"`
	Identifier   string            `json:"identifier"`
	Name         string            `json:"name"`
	Description  string            `json:"description"`
	ActionStatus string            `json:"actionStatus"`
	Target       *jsonldEntryPoint `json:"target,omitempty"`
	inputs       object
}

// MarshalJSON appends the -input members after the fixed ones.
func (a jsonldAction) MarshalJSON() ([]byte, error) {
	type fixed jsonldAction
	head, err := marshalCompact(fixed(a))
	if err != nil || len(a.inputs) == 0 {
		return head, err
	}
	tail, err := a.inputs.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := append(head[:len(head)-1:len(head)-1], ',')
	return append(out, tail[1:]...), nil
}

type jsonldEntryPoint struct {
	Type           string   `json:"@type"`
	URLTemplate    string   `json:"urlTemplate"`
	HTTPMethod     string   `json:"httpMethod,omitempty"`
	EncodingType   string   `json:"encodingType,omitempty"`
	ContentType    string   `json:"contentType,omitempty"`
	ActionPlatform []string `json:"actionPlatform,omitempty"`
}

type propertyValueSpec struct {
	Type           string       `json:"@type"`
	ValueName      string       `json:"valueName"`
	Description    string       `json:"description"`
	ValueRequired  bool         `json:"valueRequired"`
	ValueMinLength *int         `json:"valueMinLength,omitempty"`
	ValueMaxLength *int         `json:"valueMaxLength,omitempty"`
	ValuePattern   string       `json:"valuePattern,omitempty"`
	MinValue       *json.Number `json:"minValue,omitempty"`
	MaxValue       *json.Number `json:"maxValue,omitempty"`
	StepValue      *json.Number `json:"stepValue,omitempty"`
	MultipleValues bool         `json:"multipleValues,omitempty"`
	DefaultValue   *string      `json:"defaultValue,omitempty"`
}

// schemaOrgType is the Schema.org Action type of an action kind. A booking
// that holds a slot is a ReserveAction; a request to be fitted in later is a
// ScheduleAction.
func schemaOrgType(a *shared.Action) string {
	switch a.Kind {
	case shared.KindBooking:
		for _, e := range a.SideEffects.Effects {
			if e.HoldsInventory || e.Kind == shared.EffectBooksAppointment {
				return "ReserveAction"
			}
		}
		return "ScheduleAction"
	case shared.KindQuote:
		return "QuoteAction"
	case shared.KindEnquiry:
		return "AskAction"
	case shared.KindCallback, shared.KindContact:
		return "CommunicateAction"
	}
	return "Action"
}

// contentTypeOf is the response type an agent should expect: a JSON
// endpoint answers JSON, a browser form answers a page.
func contentTypeOf(t shared.Transport) string {
	if t == shared.TransportJSONEndpoint {
		return "application/json"
	}
	return "text/html"
}

func buildJSONLD(p *plan) ([]byte, error) {
	g := p.graph
	doc := jsonldDoc{Context: "https://schema.org", Type: "Organization", Name: siteName(g), URL: g.Site.URL, PotentialAction: []jsonldAction{}}
	for i := range p.actions {
		doc.PotentialAction = append(doc.PotentialAction, jsonldActionsOf(g.Site.URL, &p.actions[i])...)
	}
	out, err := marshalDocument(doc)
	if err != nil {
		return nil, err
	}
	return scriptSafeJSON(out), nil
}

// scriptSafeJSON makes a JSON document safe to paste inside
// <script type="application/ld+json">, where JSON-LD lives: "</" (which
// would end the script, "</script" in any case) is written "<\/" and "<!--"
// "\u003c!--", escapes that read back as the same strings. Both can stand
// only inside a JSON string, so nothing else changes; "<" and "&" elsewhere
// stay as the site wrote them.
func scriptSafeJSON(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("</"), []byte(`<\/`))
	return bytes.ReplaceAll(b, []byte("<!--"), []byte(`\u003c!--`))
}

// jsonldActionsOf writes one entry per door: an offered HTTP door with its
// EntryPoint and inputs; every other door as information (a link, a tel:
// or mailto: URL, the page a form is on); an action with no door at all as
// one entry without a target, so its status is still stated.
func jsonldActionsOf(site string, ap *actionPlan) []jsonldAction {
	a := ap.action
	base := jsonldAction{Type: schemaOrgType(a), Name: title(ap), Description: actionDescription(ap), ActionStatus: "https://schema.org/PotentialActionStatus"}
	entryPoint := func(d *shared.Access) (toolPlan, *shared.Submission, bool) {
		t, offered := offeredTool(ap, d)
		sub, ok := httpRequest(d)
		return t, sub, offered && ok
	}
	// An information entry is "<action id>#<method>", and, when the action
	// has another such door of its method (two tel: numbers), a hash of the
	// door, its URL included: as a tool name, never a position.
	infoCount := map[shared.AccessMethod]int{}
	for j := range a.Access {
		if _, _, ok := entryPoint(&a.Access[j]); !ok {
			infoCount[a.Access[j].Method]++
		}
	}
	var out []jsonldAction
	for j := range a.Access {
		d := &a.Access[j]
		e := base
		e.Identifier = a.ID + "#" + string(d.Method)
		if infoCount[d.Method] > 1 {
			e.Identifier += "-" + shortHash(doorKey(d)+"|"+d.URL)
		}
		e.Target = &jsonldEntryPoint{Type: "EntryPoint", URLTemplate: d.URL}
		if t, sub, ok := entryPoint(d); ok {
			e.Identifier = t.name
			enctype := defaultEnctype(sub.Transport)
			if sub.Enctype != nil && *sub.Enctype != "" {
				enctype = *sub.Enctype
			}
			target := *sub.Endpoint
			if u, err := url.Parse(target); err == nil && !u.IsAbs() {
				if abs := endpointURL(site, d.URL, target); abs != nil {
					target = abs.String() // where a browser sends it, not a path an agent cannot resolve
				}
			}
			if u, err := url.Parse(target); err == nil && d.Method == shared.AccessHTMLForm && sub.Transport == shared.TransportFormGet {
				// A GET form replaces its action's query with its fields,
				// as a browser does (and the executor, and openapi.json).
				u.RawQuery, u.ForceQuery = "", false
				target = u.String()
			}
			e.Target = &jsonldEntryPoint{Type: "EntryPoint", URLTemplate: target, HTTPMethod: httpMethod(sub.Transport),
				EncodingType: enctype, ContentType: contentTypeOf(sub.Transport), ActionPlatform: webPlatforms}
			e.inputs = jsonldInputs(a)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		base.Identifier = a.ID
		out = append(out, base)
	}
	return out
}

func offeredTool(ap *actionPlan, d *shared.Access) (toolPlan, bool) {
	if !ap.offered {
		return toolPlan{}, false
	}
	for _, t := range ap.tools {
		if t.door == d {
			return t, true
		}
	}
	return toolPlan{}, false
}

// jsonldInputs states each agent-fillable input as a -input specification,
// from the same schema the MCP tool carries, but for valuePattern, which
// Schema.org reads as HTML reads a pattern attribute: the site's own
// pattern (htmlPattern), valueMinLength, which HTML applies to a value
// that is not empty, as the site states it, and stepValue, HTML's step.
func jsonldInputs(a *shared.Action) object {
	s := inputsSchema(a, agentInputs)
	required := map[string]bool{}
	for _, n := range s.Required {
		required[n] = true
	}
	declared := declaredRules(a)
	site := map[string]constraints{}
	for _, in := range agentInputsOf(a) {
		site[in.Name] = gather(in, declared[in.Name])
	}
	var out object
	for _, m := range s.Properties {
		ps := m.Value.(propSchema)
		minLen := ps.MinLength
		if minLen == nil { // an optional field's minLength is in its anyOf
			minLen = site[m.Key].minLen
		}
		var step *json.Number
		if ps.Type == "number" {
			// HTML's step, counted from the step base as HTML counts it:
			// JSON Schema's multipleOf, counted from zero, is none when
			// the base is off the grid (min 1, step 2).
			step = number(htmlStep(site[m.Key].step))
		}
		spec := propertyValueSpec{
			Type: "PropertyValueSpecification", ValueName: m.Key, Description: paramDescription(ps),
			ValueRequired: required[m.Key], ValueMinLength: minLen, ValueMaxLength: ps.MaxLength,
			ValuePattern: htmlPattern(site[m.Key].patterns), MinValue: ps.Minimum, MaxValue: ps.Maximum, StepValue: step,
			MultipleValues: ps.Type == "array", DefaultValue: ps.Default,
		}
		out.set(m.Key+"-input", spec)
	}
	return out
}

// htmlPattern is a field's valuePattern: the first of the site's patterns
// a browser applies (valid with the v flag, shared.HTMLPattern), as the site
// wrote it, since Schema.org reads valuePattern as HTML reads a pattern
// attribute (anchored, with the v flag); "" when there is none. The JSON
// Schema form (anchored, for the u flag) can differ from it: [\&\&] is
// [&&] to the u flag, an operator to the v flag.
func htmlPattern(patterns []string) string {
	for _, p := range patterns {
		if _, kind := shared.HTMLPattern(p); kind != shared.PatternInvalid {
			return p
		}
	}
	return ""
}
