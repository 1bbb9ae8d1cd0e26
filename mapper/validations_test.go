package mapper

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// Declared rules quote the attribute and its raw value; inferred ones give
// a basis and a confidence below 1.
func TestValidations(t *testing.T) {
	body := `<h2>Request a quote</h2><form id="q" action="/quote" method="post">
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required minlength="2" maxlength="60">
<label for="e">Email</label><input id="e" name="email" type="email" required aria-required="true">
<label for="c">Company</label><input id="c" name="company" autocomplete="organization" aria-required="true">
<label for="p">Phone</label><input id="p" name="phone" type="tel">
<label for="b">Budget</label><input id="b" name="budget" type="number" min="100" max="5000" step="50">
<label for="f">Photos</label><input id="f" name="photos" type="file" accept="image/*">
<label for="z">Postcode</label><input id="z" name="postcode" autocomplete="postal-code" pattern="[0-9]{4}">
<label for="m">Job details</label><textarea id="m" name="message" required></textarea>
<button type="submit">Get a quote</button></form>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Quote", body)}}, nil)
	a := findAction(t, g, shared.KindQuote)
	type rule struct {
		Source    shared.ValidationSource
		AppliesTo string
		Kind      shared.RuleKind
		Value     string
		Attribute string // declared: attribute; inferred: basis non-empty
		Raw       string
	}
	var got []rule
	for _, v := range a.Validations {
		switch v := v.(type) {
		case shared.DeclaredValidation:
			got = append(got, rule{v.ValidationSource(), v.AppliesTo, v.Rule.Kind, deref(v.Rule.Value), v.Attribute, v.Raw})
			if v.Rule.Kind == shared.RuleRequired {
				quoted := "[" + v.Attribute + "]"
				if v.Raw != "" {
					quoted = "[" + v.Attribute + "=" + v.Raw + "]"
				}
				if ev := deref(v.Provenance.Evidence); !strings.HasSuffix(ev, quoted) {
					t.Errorf("required rule of %s: evidence %q does not quote %s", v.AppliesTo, ev, quoted)
				}
			}
		case shared.InferredValidation:
			if v.Basis == "" || v.Confidence >= 1 || v.Confidence != v.Provenance.Confidence {
				t.Errorf("inferred rule %+v: want a basis and one confidence below 1", v)
			}
			got = append(got, rule{v.ValidationSource(), v.AppliesTo, v.Rule.Kind, deref(v.Rule.Value), "", ""})
		}
	}
	want := []rule{
		{shared.SourceDeclared, "name", shared.RuleRequired, "", "required", ""},
		{shared.SourceDeclared, "name", shared.RuleMinLength, "2", "minlength", "2"},
		{shared.SourceDeclared, "name", shared.RuleMaxLength, "60", "maxlength", "60"},
		{shared.SourceDeclared, "email", shared.RuleRequired, "", "required", ""},
		{shared.SourceDeclared, "email", shared.RuleFormat, "email", "type", "email"},
		// Gravity Forms marks required fields with aria-required only.
		{shared.SourceDeclared, "company", shared.RuleRequired, "", "aria-required", "true"},
		{shared.SourceInferred, "phone", shared.RuleFormat, "tel", "", ""},
		{shared.SourceDeclared, "budget", shared.RuleMin, "100", "min", "100"},
		{shared.SourceDeclared, "budget", shared.RuleMax, "5000", "max", "5000"},
		{shared.SourceDeclared, "budget", shared.RuleStep, "50", "step", "50"},
		{shared.SourceDeclared, "photos", shared.RuleAccept, "image/*", "accept", "image/*"},
		{shared.SourceDeclared, "postcode", shared.RulePattern, "[0-9]{4}", "pattern", "[0-9]{4}"},
		{shared.SourceDeclared, "message", shared.RuleRequired, "", "required", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("validations (-want +got):\n%s", diff)
	}
	spaces := map[string][]shared.ValueSpace{}
	for _, in := range a.Inputs {
		spaces[in.Name] = in.ValueSpace
	}
	wantSpaces := map[string][]shared.ValueSpace{
		"name":     {shared.LengthSpace{MinLength: ptr(2), MaxLength: ptr(60)}},
		"email":    {shared.FormatSpace{Format: "email"}},
		"company":  {},
		"phone":    {},
		"budget":   {shared.RangeSpace{Min: ptr("100"), Max: ptr("5000"), Step: ptr("50")}},
		"photos":   {},
		"postcode": {shared.PatternSpace{Pattern: "[0-9]{4}"}},
		"message":  {},
	}
	if diff := cmp.Diff(wantSpaces, spaces); diff != "" {
		t.Errorf("value spaces (-want +got):\n%s", diff)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The "date field declared as a plain text box" rule is inferred only for a
// text box: no browser date or time control (date, month, week, time,
// datetime-local) and no field that declares its own pattern gets it.
func TestInferredDateRule(t *testing.T) {
	cases := []struct {
		typ, pattern string
		want         []string
	}{
		{"text", "", []string{"date"}},
		{"search", "", []string{"date"}},
		{"text", `\d{2}/\d{2}/\d{4}`, nil},
		{"date", "", nil},
		{"month", "", nil},
		{"week", "", nil},
		{"time", "", nil},
		{"datetime-local", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.pattern, func(t *testing.T) {
			var got []string
			for _, v := range stageSigner.inferredValidations("when", shared.SemanticDate, extract.Field{Name: "when", Type: tc.typ, Pattern: tc.pattern}) {
				got = append(got, deref(v.(shared.InferredValidation).Rule.Value))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("inferred rules (-want +got):\n%s", diff)
			}
		})
	}
}
