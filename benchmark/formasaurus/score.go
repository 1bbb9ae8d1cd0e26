package formasaurus

import (
	"fmt"
	"io"
	"sort"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// LabelSemantic is the README's mapping from field labels to the
// contract's semantic types. Labels absent from it are not scored.
var LabelSemantic = map[string]shared.SemanticType{
	"nf": shared.SemanticPersonName, "ch": shared.SemanticPersonName,
	"n1": shared.SemanticGivenName, "n3": shared.SemanticFamilyName,
	"e1": shared.SemanticEmail, "e2": shared.SemanticEmail,
	"ph": shared.SemanticPhone, "P0": shared.SemanticPhone, "P1": shared.SemanticPhone, "P2": shared.SemanticPhone, "P3": shared.SemanticPhone,
	"no": shared.SemanticCompany,
	"Ad": shared.SemanticStreetAddress, "Sa": shared.SemanticStreetAddress, "Sn": shared.SemanticStreetAddress, "S#": shared.SemanticStreetAddress,
	"A#": shared.SemanticStreetAddress, "A1": shared.SemanticStreetAddress, "A2": shared.SemanticStreetAddress, "PO": shared.SemanticStreetAddress, "cA": shared.SemanticStreetAddress,
	"Ci": shared.SemanticLocality, "St": shared.SemanticRegion, "Zi": shared.SemanticPostcode, "Co": shared.SemanticCountry,
	"CC": shared.SemanticMessage, "CT": shared.SemanticSubject,
	"ws": shared.SemanticWebsiteURL, "hp": shared.SemanticHoneypot,
	"tC": shared.SemanticConsent, "eC": shared.SemanticMarketingOptIn,
	"OD": shared.SemanticDate, "bD": shared.SemanticDate,
	"av": shared.SemanticFileAttachment, "OU": shared.SemanticFileAttachment,
}

// unknownLabels map to none of our types (README): right when we say
// unknown.
var unknownLabels = map[string]bool{"us": true, "p1": true, "p2": true, "qq": true, "qc": true, "c#": true, "cs": true, "sq": true, "sa": true,
	"rC": true, "ca": true, "pi": true, "in": true, "qt": true, "tz": true, "ds": true, "ge": true, "oi": true, "sp": true, "st": true}

// formPurposes: which purposes are right for a form label (after the
// corpus's own simplification P,V,N,C → o). "c" is contact/comment: any
// customer action, or comment.
var formPurposes = map[string][]classify.Purpose{
	"s": {classify.PurposeSearch}, "l": {classify.PurposeLogin}, "r": {classify.PurposeRegistration},
	"p": {classify.PurposePasswordRecovery}, "m": {classify.PurposeNewsletter}, "b": {classify.PurposeOrder},
	"c": {classify.PurposeContact, classify.PurposeEnquiry, classify.PurposeBooking, classify.PurposeQuote, classify.PurposeCallback, classify.PurposeComment},
	"o": {classify.PurposeOther},
}

var simplifyForm = map[string]string{"P": "o", "V": "o", "N": "o", "C": "o"}

// Counts accumulates the scores of one split.
type Counts struct {
	Pages, PagesFailed           int
	PagesStatic                  int // scored from markup after the browser failed
	FormsLabelled, FormsAligned  int
	FormsDropped, FormsUnaligned int
	FieldsScored, FieldsRight    int
	FieldsMissing                int
	UnknownScored, UnknownRight  int
	Honeypots, HoneypotsFound    int
	HoneypotsClaimed             int // fields we call honeypot among scored and unknown-labelled ones
	HoneypotsClaimedRight        int
	PurposeScored, PurposeRight  int
	TP, FP, FN, TN               int // customer action (incl. comment) vs label c
	StrictTP, StrictFP, StrictFN int // customerAction only
	perType                      map[shared.SemanticType]*typeCount
	Confusions                   map[string]int // "want→got" for scored fields
	PurposeConfusions            map[string]int
	explain                      io.Writer
	page                         string
	// tallies holds each page's share of the headline counts, for the
	// bootstrap intervals (figures).
	tallies []tally
}

// tally is one page's share of the counts behind the headline figures.
type tally struct {
	page                                                             string
	fieldsScored, fieldsRight, tp, fp, fn, honeypots, honeypotsFound int
}

func (c *Counts) tally() tally {
	return tally{"", c.FieldsScored, c.FieldsRight, c.TP, c.FP, c.FN, c.Honeypots, c.HoneypotsFound}
}

func (t tally) minus(u tally) tally {
	return tally{t.page, t.fieldsScored - u.fieldsScored, t.fieldsRight - u.fieldsRight, t.tp - u.tp, t.fp - u.fp, t.fn - u.fn, t.honeypots - u.honeypots, t.honeypotsFound - u.honeypotsFound}
}

func (t tally) plus(u tally) tally {
	return tally{t.page, t.fieldsScored + u.fieldsScored, t.fieldsRight + u.fieldsRight, t.tp + u.tp, t.fp + u.fp, t.fn + u.fn, t.honeypots + u.honeypots, t.honeypotsFound + u.honeypotsFound}
}

type typeCount struct{ tp, fp, fn int }

func newCounts() *Counts {
	return &Counts{perType: map[shared.SemanticType]*typeCount{}, Confusions: map[string]int{}, PurposeConfusions: map[string]int{}}
}

func (c *Counts) tc(s shared.SemanticType) *typeCount {
	t := c.perType[s]
	if t == nil {
		t = &typeCount{}
		c.perType[s] = t
	}
	return t
}

// align lines up the labelled forms a browser builds with the forms found.
// Equal counts align by order; otherwise a monotone greedy match on the
// overlap of field names. It returns, per labelled form, the index of the
// found form or -1.
func align(p Page, dropped []bool, found []extract.Form) ([]int, int) {
	out := make([]int, len(p.Forms))
	var kept []int
	nDropped := 0
	for i := range p.Forms {
		out[i] = -1
		if i < len(dropped) && dropped[i] {
			nDropped++
			continue
		}
		kept = append(kept, i)
	}
	if len(kept) == len(found) {
		for k, i := range kept {
			out[i] = k
		}
		return out, nDropped
	}
	next := 0
	for _, i := range kept {
		want := map[string]bool{}
		if i < len(p.Fields) {
			for n := range p.Fields[i] {
				want[n] = true
			}
		}
		best, bestScore := -1, 0.0
		for j := next; j < len(found); j++ {
			have := map[string]bool{}
			for _, f := range found[j].Fields {
				have[f.Name] = true
			}
			inter := 0
			for n := range want {
				if have[n] {
					inter++
				}
			}
			union := len(want) + len(have) - inter
			s := 0.0
			if union > 0 {
				s = float64(inter) / float64(union)
			}
			if s > bestScore {
				best, bestScore = j, s
			}
		}
		if best >= 0 && bestScore >= 0.5 {
			out[i] = best
			next = best + 1
		}
	}
	return out, nDropped
}

// reading is one page's labelled forms lined up with the forms found and
// classified, once: each split the page belongs to scores the same reading.
type reading struct {
	page    Page
	dropped int // labelled forms the parser never builds
	forms   []labelledForm
}

// labelledForm is one scored label and, when aligned, its form's
// classification.
type labelledForm struct {
	index   int    // position among the page's labelled forms
	label   string // simplified form label
	aligned bool
	form    extract.Form
	fields  []classify.FieldResult
	purpose classify.FormResult
}

// read aligns and classifies the labelled forms of p found in ep.
func read(p Page, dropped []bool, ep *extract.Page) reading {
	idx, nDropped := align(p, dropped, ep.Forms)
	r := reading{page: p, dropped: nDropped}
	for i, label := range p.Forms {
		if s, ok := simplifyForm[label]; ok {
			label = s
		}
		if label == "X" || label == "-" || i < len(dropped) && dropped[i] {
			continue
		}
		lf := labelledForm{index: i, label: label, aligned: idx[i] >= 0}
		if lf.aligned {
			lf.form = ep.Forms[idx[i]]
			lf.fields = classify.Fields(lf.form, ep)
			lf.purpose = classify.FormWith(lf.form, ep, lf.fields)
		}
		r.forms = append(r.forms, lf)
	}
	return r
}

// rulesOnly is r classified by the rules alone, without the learned model:
// the comparison formeval reports beside the combined figures.
func (r reading) rulesOnly(ep *extract.Page) reading {
	out := reading{page: r.page, dropped: r.dropped}
	for _, lf := range r.forms {
		if lf.aligned {
			lf.fields = classify.FieldsWith(lf.form, ep, nil)
			lf.purpose = classify.FormWith(lf.form, ep, lf.fields)
		}
		out.forms = append(out.forms, lf)
	}
	return out
}

// scorePage adds one page's scores to c.
func (c *Counts) scorePage(r reading) {
	c.Pages++
	c.page = r.page.File
	before := c.tally()
	defer func() {
		t := c.tally().minus(before)
		t.page = r.page.File
		c.tallies = append(c.tallies, t)
	}()
	c.FormsDropped += r.dropped
	for _, lf := range r.forms {
		c.FormsLabelled++
		if !lf.aligned {
			c.FormsUnaligned++
			continue
		}
		c.FormsAligned++
		c.scoreForm(lf.label, lf.purpose)
		if c.explain != nil && !contains(formPurposes[lf.label], lf.purpose.Purpose) {
			fmt.Fprintf(c.explain, "FORM %s #%d want %s got %s %v | heading=%q submits=%v fields=%d\n", r.page.File, lf.index, lf.label, lf.purpose.Purpose, lf.purpose.Evidence, lf.form.Heading, submitTexts(lf.form), len(lf.form.Fields))
		}
		if lf.index < len(r.page.Fields) {
			c.scoreFields(r.page.Fields[lf.index], lf.form, lf.fields)
		}
	}
}

func (c *Counts) scoreForm(label string, fr classify.FormResult) {
	want := formPurposes[label]
	c.PurposeScored++
	right := false
	for _, w := range want {
		if fr.Purpose == w {
			right = true
		}
	}
	if right {
		c.PurposeRight++
	} else {
		c.PurposeConfusions[label+"→"+string(fr.Purpose)]++
	}
	if label == "o" {
		return
	}
	pos := label == "c"
	pred := fr.CustomerAction || fr.Purpose == classify.PurposeComment
	switch {
	case pos && pred:
		c.TP++
	case pos && !pred:
		c.FN++
	case !pos && pred:
		c.FP++
	default:
		c.TN++
	}
	switch {
	case pos && fr.CustomerAction:
		c.StrictTP++
	case pos && !fr.CustomerAction:
		c.StrictFN++
	case !pos && fr.CustomerAction:
		c.StrictFP++
	}
}

func (c *Counts) scoreFields(labels map[string]string, form extract.Form, res []classify.FieldResult) {
	byName := map[string]int{}
	for i, f := range form.Fields {
		if _, dup := byName[f.Name]; !dup && f.Name != "" {
			byName[f.Name] = i
		}
	}
	names := make([]string, 0, len(labels))
	for n := range labels {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		label := labels[name]
		want, scored := LabelSemantic[label]
		unk := unknownLabels[label]
		if !scored && !unk {
			continue
		}
		got := shared.SemanticType("")
		if i, ok := byName[name]; ok {
			got = res[i].Semantic
		}
		if got == shared.SemanticHoneypot {
			c.HoneypotsClaimed++
			if label == "hp" {
				c.HoneypotsClaimedRight++
			}
		}
		if unk {
			c.UnknownScored++
			if got == shared.SemanticUnknown {
				c.UnknownRight++
			} else {
				c.explainField(name, label, shared.SemanticUnknown, got, form, res, byName)
			}
			if got != "" && got != shared.SemanticUnknown {
				c.tc(got).fp++
			}
			continue
		}
		c.FieldsScored++
		if label == "hp" {
			c.Honeypots++
			if got == shared.SemanticHoneypot {
				c.HoneypotsFound++
			}
		}
		if got == "" {
			c.explainField(name, label, want, got, form, res, byName)
			c.FieldsMissing++
			c.tc(want).fn++
			c.Confusions[string(want)+"→(not found)"]++
			continue
		}
		if got != want {
			c.explainField(name, label, want, got, form, res, byName)
		}
		if got == want {
			c.FieldsRight++
			c.tc(want).tp++
		} else {
			c.tc(want).fn++
			c.tc(got).fp++
			c.Confusions[string(want)+"→"+string(got)]++
		}
	}
}

// explainField writes one wrong field (want, got; got "" when the field
// was not found, want unknown for a label of none of our types) to the
// explain writer, if any.
func (c *Counts) explainField(name, label string, want, got shared.SemanticType, form extract.Form, res []classify.FieldResult, byName map[string]int) {
	if c.explain == nil {
		return
	}
	var ev []string
	var f extract.Field
	if i, ok := byName[name]; ok {
		ev = res[i].Evidence
		f = form.Fields[i]
	}
	if got == "" {
		got = "(not found)"
	}
	fmt.Fprintf(c.explain, "FIELD %s %q want %s(%s) got %s | type=%s label=%q(%s) ph=%q vis=%v %v | %v\n", c.page, name, want, label, got, f.Type, f.Label, f.LabelSource, f.Placeholder, f.Visibility.Reasons, f.Visibility.HiddenBy, ev)
}

func contains(ps []classify.Purpose, p classify.Purpose) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

func submitTexts(f extract.Form) []string {
	var out []string
	for _, s := range f.Submits {
		out = append(out, s.Text)
	}
	return out
}
