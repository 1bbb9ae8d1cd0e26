package mapper

import (
	"strings"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// fieldReading is what the classifier says about one field.
type fieldReading struct {
	Semantic      shared.SemanticType
	Confidence    float64
	Evidence      string
	AgentFillable bool
}

// formReading is what the classifier says about one form or group.
type formReading struct {
	Purpose        string
	Login          bool // the form signs a member in: its page is a login wall
	Kind           shared.ActionKind
	CustomerAction bool
	Confidence     float64
	Evidence       string
}

// classifier is the seam to the classify package: field semantics and form
// purpose are its job and are never re-derived here. One made by
// newClassifier remembers its readings, so the crawl (deciding what to
// explore) and the build read each form once; the zero value does not.
type classifier struct {
	memo map[*extract.Form]classified
}

type classified struct {
	form   formReading
	fields []fieldReading
}

func newClassifier() classifier { return classifier{memo: map[*extract.Form]classified{}} }

// form classifies a form or group and each of its fields, in field order.
func (c classifier) form(p *extract.Page, f *extract.Form) (formReading, []fieldReading) {
	if r, ok := c.memo[f]; ok {
		return r.form, r.fields
	}
	r, fields := readForm(p, f)
	if c.memo != nil {
		c.memo[f] = classified{r, fields}
	}
	return r, fields
}

func readForm(p *extract.Page, f *extract.Form) (formReading, []fieldReading) {
	res := classify.Fields(*f, p)
	fr := classify.FormWith(*f, p, res)
	fields := make([]fieldReading, len(res))
	for i, r := range res {
		fields[i] = fieldReading{Semantic: r.Semantic, Confidence: r.Confidence, Evidence: strings.Join(r.Evidence, "; "), AgentFillable: r.AgentFillable}
	}
	out := formReading{Purpose: string(fr.Purpose), Login: fr.Purpose == classify.PurposeLogin, CustomerAction: fr.CustomerAction, Confidence: fr.Confidence, Evidence: strings.Join(fr.Evidence, "; "), Kind: shared.KindUnknown}
	if fr.Kind != nil {
		out.Kind = *fr.Kind
	}
	return out, fields
}

// field classifies one field outside any form: a tool parameter or a
// structured-data input, described as a synthetic control.
func (classifier) field(f extract.Field) fieldReading {
	r := classify.Field(f, extract.Form{Fields: []extract.Field{f}}, nil)
	return fieldReading{Semantic: r.Semantic, Confidence: r.Confidence, Evidence: strings.Join(r.Evidence, "; "), AgentFillable: r.AgentFillable}
}
