package compiler

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestFormatOnlyFromDeclaredType: a property's format comes from the
// input's type (type=email is format email) or from what the site declares,
// never from the semantic type the mapper guessed, nor from an inferred
// validation; a month (YYYY-MM) or week input never has format date, and
// has a pattern only when the site declares one.
func TestFormatOnlyFromDeclaredType(t *testing.T) {
	const form = "form#f"
	type keywords struct{ Format, Pattern any }
	tests := []struct {
		name  string
		in    shared.Input
		rules []shared.Validation
		want  keywords
	}{
		{"text named your-email, semantic email, inferred format", field(form, "your-email", "Email", shared.SemanticEmail, "text", false),
			[]shared.Validation{inferredRule("your-email", shared.RuleFormat, "email")}, keywords{}},
		{"text named preferred-date, semantic date", field(form, "preferred-date", "Date", shared.SemanticDate, "text", false),
			[]shared.Validation{inferredRule("preferred-date", shared.RuleFormat, "date")}, keywords{}},
		{"text, semantic time", field(form, "at", "At", shared.SemanticTime, "text", false), nil, keywords{}},
		{"text, semantic website-url", field(form, "site", "Site", shared.SemanticWebsiteURL, "text", false), nil, keywords{}},
		{"type=email", field(form, "email", "Email", shared.SemanticEmail, "email", false), nil, keywords{Format: "email"}},
		{"type=url", field(form, "url", "URL", shared.SemanticWebsiteURL, "url", false), nil, keywords{Format: "iri"}},
		{"type=date", field(form, "day", "Day", shared.SemanticDate, "date", false), nil, keywords{Format: "date"}},
		// JSON Schema's time needs seconds and an offset; a browser sends 09:30.
		{"type=time", field(form, "time", "Time", shared.SemanticTime, "time", false), nil, keywords{}},
		// JSON Schema's date-time needs an offset; a browser sends 2026-12-03T09:30.
		{"type=datetime-local", field(form, "at", "At", shared.SemanticDate, "datetime-local", false), nil, keywords{}},
		{"text with a declared format rule", field(form, "contact", "Contact", shared.SemanticUnknown, "text", false),
			[]shared.Validation{declared("contact", shared.RuleFormat, ptr("email"), "format")}, keywords{Format: "email"}},
		{"text with a format value space", field(form, "home", "Home page", shared.SemanticUnknown, "text", false, shared.FormatSpace{Format: "uri"}),
			nil, keywords{Format: "iri"}},
		{"month, semantic date, as the mapper records it", field(form, "month", "Month", shared.SemanticDate, "month", false, shared.FormatSpace{Format: "month"}),
			[]shared.Validation{declared("month", shared.RuleFormat, ptr("month"), "type")}, keywords{}},
		{"month with a declared date format", field(form, "start", "Start", shared.SemanticDate, "month", false),
			[]shared.Validation{declared("start", shared.RuleFormat, ptr("date"), "format")}, keywords{}},
		{"month with a declared pattern", field(form, "period", "Period", shared.SemanticDate, "month", false),
			[]shared.Validation{declared("period", shared.RulePattern, ptr(`\d{4}-\d{2}`), "pattern")}, keywords{Pattern: `^(?:\d{4}-\d{2})$|^$`}},
		{"week, semantic date", field(form, "week", "Week", shared.SemanticDate, "week", false, shared.FormatSpace{Format: "week"}), nil, keywords{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const site = "https://formats.example/"
			g := shared.NewGraph("ag_formats", shared.Site{Domain: "formats.example", URL: site}, testAt, shared.Generator{Name: "test", Version: "0.1.0"})
			a := newAction("formats:contact:form", shared.KindContact, "Contact us", site)
			a.Access = []shared.Access{formDoor(site, form, site+"send", shared.TransportFormPost, nil)}
			a.Inputs = []shared.Input{tt.in}
			a.Validations = tt.rules
			if a.Validations == nil {
				a.Validations = []shared.Validation{}
			}
			a.SideEffects = sideEffects("Emails the office.", effect(shared.EffectSendsEmailToBusiness, nil, false))
			g.Actions = []shared.Action{a}
			p := property(t, compileMCP(t, g, Options{IncludeUnverified: true}), "formats.contact.form.form", tt.in.Name)
			if p == nil {
				t.Fatalf("no property %s", tt.in.Name)
			}
			got := keywords{p["format"], p["pattern"]}
			if branches, ok := p["anyOf"].([]any); ok && got.Format == nil {
				// An optional field: empty, or a value in the format.
				if diff := cmp.Diff(map[string]any{"maxLength": 0.0}, branches[0]); diff != "" {
					t.Errorf("anyOf[0] (-want +got):\n%s", diff)
				}
				got.Format = branches[1].(map[string]any)["format"]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("keywords (-want +got):\n%s", diff)
			}
		})
	}
}
