package verifier

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

var testDay = time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func declared(name string, kind shared.RuleKind, value *string) shared.Validation {
	return shared.DeclaredValidation{AppliesTo: name, Rule: shared.Rule{Kind: kind, Value: value}, Attribute: string(kind), Raw: deref(value, "")}
}

// Every synthesized value meets every rule the graph states for its input,
// and is the value the rules make the natural choice.
func TestSynthesize(t *testing.T) {
	cases := []struct {
		name string
		in   shared.Input
		vals []shared.Validation
		want string
	}{
		{"person name", shared.Input{Name: "n", Type: "text", Semantic: shared.SemanticPersonName}, nil, "Sandy Test"},
		{"name cut to max length", shared.Input{Name: "n", Type: "text", Semantic: shared.SemanticPersonName,
			ValueSpace: []shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(5)}}}, nil, "Sandy"},
		{"message padded to min length", shared.Input{Name: "m", Type: "textarea", Semantic: shared.SemanticSubject}, []shared.Validation{
			declared("m", shared.RuleMinLength, ptr("30"))}, "Frontlatch sandbox test test test"},
		{"padded to the longest min length a run records", shared.Input{Name: "m", Type: "text"}, []shared.Validation{
			declared("m", shared.RuleMinLength, ptr(strconv.Itoa(maxFieldBytes)))}, "Sandbox test" + strings.Repeat(" test", (maxFieldBytes-len("Sandbox test")+4)/5)},
		{"email", shared.Input{Name: "e", Type: "email", Semantic: shared.SemanticEmail}, nil, "sandbox.test@example.com"},
		{"email with a tight max length", shared.Input{Name: "e", Type: "email", Semantic: shared.SemanticEmail,
			ValueSpace: []shared.ValueSpace{shared.LengthSpace{MaxLength: ptr(15)}}}, nil, "t@example.com"},
		{"australian landline pattern", shared.Input{Name: "p", Type: "tel", Semantic: shared.SemanticPhone,
			ValueSpace: []shared.ValueSpace{shared.PatternSpace{Pattern: `^0[2-9]\d{8}$`}}}, nil, "0412345678"},
		{"pattern the default misses", shared.Input{Name: "p", Type: "tel", Semantic: shared.SemanticPhone}, []shared.Validation{
			declared("p", shared.RulePattern, ptr(`\+61 \d{3} \d{3} \d{3}`))}, "+61 555 555 555"},
		{"reference code pattern", shared.Input{Name: "r", Type: "text"}, []shared.Validation{
			declared("r", shared.RulePattern, ptr(`REF-[A-Z]{2}[0-9]{4}`))}, "REF-AA5555"},
		{"pattern and min length together", shared.Input{Name: "r", Type: "text"}, []shared.Validation{
			declared("r", shared.RulePattern, ptr(`[a-z]+`)), declared("r", shared.RuleMinLength, ptr("5"))}, "aaaaa"},
		{"from the first pattern a browser checks", shared.Input{Name: "r", Type: "text"}, []shared.Validation{
			declared("r", shared.RulePattern, ptr(`[A-Z-]+`)), declared("r", shared.RulePattern, ptr(`REF[0-9]{4}`))}, "REF5555"},
		{"alternation", shared.Input{Name: "s", Type: "text"}, []shared.Validation{
			declared("s", shared.RulePattern, ptr(`(NSW|VIC|QLD)`))}, "NSW"},
		{"url", shared.Input{Name: "w", Type: "url", Semantic: shared.SemanticWebsiteURL}, nil, "https://example.com/"},
		{"date two weeks on", shared.Input{Name: "d", Type: "date", Semantic: shared.SemanticDate}, nil, "2026-12-15"},
		{"date after a declared min", shared.Input{Name: "d", Type: "date"}, []shared.Validation{
			declared("d", shared.RuleMin, ptr("2027-01-10"))}, "2027-01-10"},
		{"date before a declared max", shared.Input{Name: "d", Type: "date",
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Max: ptr("2026-12-05")}}}, nil, "2026-12-05"},
		{"time", shared.Input{Name: "t", Type: "time"}, nil, "10:00"},
		{"time within a window", shared.Input{Name: "t", Type: "time",
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: ptr("12:00"), Max: ptr("14:00")}}}, nil, "12:00"},
		{"party size", shared.Input{Name: "p", Type: "number", Semantic: shared.SemanticPartySize,
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: ptr("1"), Max: ptr("10"), Step: ptr("1")}}}, nil, "2"},
		{"number raised to min and onto the step", shared.Input{Name: "q", Type: "number",
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: ptr("3"), Max: ptr("20"), Step: ptr("5")}}}, nil, "3"},
		{"number onto a step from zero", shared.Input{Name: "q", Type: "number"}, []shared.Validation{
			declared("q", shared.RuleMin, ptr("0.5")), declared("q", shared.RuleStep, ptr("0.25"))}, "1"},
		{"select first option", shared.Input{Name: "s", Type: "select",
			ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: ""}, {Value: "road"}, {Value: "mountain"}}}}}, nil, "road"},
		{"radio keeps a valid default", shared.Input{Name: "r", Type: "radio", DefaultValue: ptr("Email"),
			ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "Phone"}, {Value: "Email"}}}}}, nil, "Email"},
		{"default value kept when valid", shared.Input{Name: "p", Type: "number", DefaultValue: ptr("4"),
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: ptr("1"), Max: ptr("10")}}}, nil, "4"},
		{"default value dropped when invalid", shared.Input{Name: "p", Type: "number", DefaultValue: ptr("40"),
			ValueSpace: []shared.ValueSpace{shared.RangeSpace{Min: ptr("1"), Max: ptr("10")}}}, nil, "1"},
		{"unknown meaning", shared.Input{Name: "x", Type: "text"}, nil, "Sandbox test"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.AgentFillable = true
			r := rulesOf(tc.in, tc.vals)
			got, err := synthesize(r, tc.in.DefaultValue, testDay)
			if err != nil {
				t.Fatalf("synthesize: %v", err)
			}
			if got != tc.want {
				t.Errorf("synthesize = %q, want %q", got, tc.want)
			}
			if err := check(got, r); err != nil {
				t.Errorf("check(%q) = %v, want it to meet every rule", got, err)
			}
		})
	}
}

// Rules that contradict each other give the closest value and say so.
func TestSynthesizeImpossible(t *testing.T) {
	cases := []struct {
		name string
		in   shared.Input
	}{
		{"pattern longer than max length", shared.Input{Name: "a", Type: "text", ValueSpace: []shared.ValueSpace{
			shared.PatternSpace{Pattern: `\d{6}`}, shared.LengthSpace{MaxLength: ptr(3)}}}},
		{"email too short for any address", shared.Input{Name: "e", Type: "email", ValueSpace: []shared.ValueSpace{
			shared.LengthSpace{MaxLength: ptr(4)}}}},
		{"empty one-of", shared.Input{Name: "s", Type: "select", Required: true, ValueSpace: []shared.ValueSpace{
			shared.OneOfSpace{Options: []shared.Option{{Value: ""}}}}}},
		// A site can state any minimum; the sandbox fills what a run can
		// record (maxFieldBytes), and says so for more.
		{"min length beyond what a run records", shared.Input{Name: "m", Type: "textarea", Semantic: shared.SemanticMessage, ValueSpace: []shared.ValueSpace{
			shared.LengthSpace{MinLength: ptr(maxFieldBytes + 1)}}}},
		{"declared min length of a billion", shared.Input{Name: "m", Type: "text", Required: true, ValueSpace: []shared.ValueSpace{
			shared.LengthSpace{MinLength: ptr(1_000_000_000)}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := synthesize(rulesOf(tc.in, nil), nil, testDay)
			if !errors.Is(err, errNoValue) {
				t.Fatalf("synthesize error = %v, want errNoValue", err)
			}
		})
	}
}

// check is the browser's constraint validation for the rules a graph can
// state: each case breaks exactly one rule.
func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		value string
		r     rules
		ok    bool
	}{
		{"required empty", "", rules{required: true, minLen: -1, maxLen: -1}, false},
		{"optional empty skips other rules", "", rules{minLen: 3, maxLen: -1, patterns: []string{`\d+`}}, true},
		{"too short", "ab", rules{minLen: 3, maxLen: -1}, false},
		{"too long", "abcd", rules{minLen: -1, maxLen: 3}, false},
		{"pattern is anchored", "x123", rules{minLen: -1, maxLen: -1, patterns: []string{`\d+`}}, false},
		{"pattern with alternation is anchored as a whole", "ab", rules{minLen: -1, maxLen: -1, patterns: []string{`a|ab`}}, true},
		{"pattern no browser checks", "ABC", rules{minLen: -1, maxLen: -1, patterns: []string{`[a-z-]+`}}, true},
		{"pattern as the u flag reads it", "&", rules{minLen: -1, maxLen: -1, patterns: []string{`[\&]`}}, true},
		{"not an option", "gravel", rules{minLen: -1, maxLen: -1, options: []string{"road"}}, false},
		{"bad email", "sandbox@", rules{minLen: -1, maxLen: -1, formats: []string{"email"}}, false},
		{"email without a dot in the domain", "a@b", rules{minLen: -1, maxLen: -1, formats: []string{"email"}}, false},
		{"good email", "a@b.co", rules{minLen: -1, maxLen: -1, formats: []string{"email"}}, true},
		{"bad url", "example.com", rules{minLen: -1, maxLen: -1, formats: []string{"url"}}, false},
		{"bad tel", "call me", rules{minLen: -1, maxLen: -1, formats: []string{"tel"}}, false},
		{"bad date", "15/12/2026", rules{minLen: -1, maxLen: -1, formats: []string{"date"}}, false},
		{"bad time", "25:00", rules{minLen: -1, maxLen: -1, formats: []string{"time"}}, false},
		{"time with seconds", "10:00:30", rules{minLen: -1, maxLen: -1, formats: []string{"time"}}, true},
		{"bad month", "2026-13", rules{minLen: -1, maxLen: -1, formats: []string{"month"}}, false},
		{"below min", "0", rules{typ: "number", min: "1", minLen: -1, maxLen: -1}, false},
		{"above max", "11", rules{typ: "number", max: "10", minLen: -1, maxLen: -1}, false},
		{"off step", "1.5", rules{typ: "number", step: "1", minLen: -1, maxLen: -1}, false},
		{"not a number", "two", rules{typ: "number", minLen: -1, maxLen: -1}, false},
		{"date before min", "2026-01-01", rules{typ: "date", min: "2026-02-01", minLen: -1, maxLen: -1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.value, tc.r)
			if (err == nil) != tc.ok {
				t.Errorf("check(%q) = %v, want ok=%v", tc.value, err, tc.ok)
			}
		})
	}
}

// plan leaves honeypots, system tokens and opt-ins alone, ticks required
// boxes and attaches a file only where one is required.
func TestPlan(t *testing.T) {
	a := shared.NewAction("a", shared.KindEnquiry, "Enquiry", "http://127.0.0.1/")
	a.Inputs = []shared.Input{
		{Name: "name", Type: "text", Semantic: shared.SemanticPersonName, Required: true, AgentFillable: true},
		{Name: "website", Type: "text", Semantic: shared.SemanticHoneypot, AgentFillable: true},
		{Name: "_nonce", Type: "hidden", Semantic: shared.SemanticSystemToken, DefaultValue: ptr("abc")},
		{Name: "campaign", Type: "hidden", Semantic: shared.SemanticUnknown, AgentFillable: false},
		{Name: "privacy", Type: "checkbox", Semantic: shared.SemanticConsent, Required: true, AgentFillable: true},
		{Name: "news", Type: "checkbox", Semantic: shared.SemanticMarketingOptIn, AgentFillable: true},
		{Name: "cv", Type: "file", Semantic: shared.SemanticFileAttachment, Required: true, AgentFillable: true},
		{Name: "photo", Type: "file", Semantic: shared.SemanticFileAttachment, AgentFillable: true},
		{Name: "contact", Type: "radio", AgentFillable: true, ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "Phone"}}}}},
		{Name: "contact", Type: "radio", AgentFillable: true, ValueSpace: []shared.ValueSpace{shared.OneOfSpace{Options: []shared.Option{{Value: "Phone"}}}}},
	}
	a.Validations = []shared.Validation{declared("cv", shared.RuleAccept, ptr(".pdf,.docx"))}
	got := plan(&a, testDay)
	kinds := map[string]fillKind{}
	var names []string
	for _, f := range got {
		kinds[f.Name] = f.Kind
		names = append(names, f.Name)
	}
	want := map[string]fillKind{
		"name": fillText, "website": fillLeave, "_nonce": fillLeave, "campaign": fillLeave,
		"privacy": fillCheck, "news": fillLeave, "cv": fillFile, "photo": fillLeave, "contact": fillRadio,
	}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("plan kinds (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"name", "website", "_nonce", "campaign", "privacy", "news", "cv", "photo", "contact"}, names); d != "" {
		t.Errorf("plan order, one entry per name (-want +got):\n%s", d)
	}
	for _, f := range got {
		if f.Name == "cv" && f.Value != "frontlatch-sandbox.pdf" {
			t.Errorf("cv file = %q, want an accepted .pdf", f.Value)
		}
	}
}
