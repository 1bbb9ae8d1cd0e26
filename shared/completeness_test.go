package shared

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

func testProvenance() Provenance {
	return Provenance{Method: MethodParsedHTML, Confidence: 0.9, At: "2026-08-25T08:39:12.596Z", By: "mapper@0.1.0", Evidence: ptr("test")}
}

func css(v string) *Locator {
	return &Locator{Strategy: StrategyCSS, Value: v, Stability: StabilityStable}
}

func testInput(name string, sem SemanticType, required, fillable bool) Input {
	return Input{
		Name: name, Semantic: sem, Type: "text", Required: required, AgentFillable: fillable,
		ValueSpace: []ValueSpace{}, Locator: css("input[name=" + name + "]"), Provenance: ptr(testProvenance()),
	}
}

// completeAction is the seed's dental booking, mapped completely, with its
// CAPTCHA barrier.
func completeAction() Action {
	a := NewAction("clinic01:booking:appointment", KindBooking, "Book a dental appointment", "https://harbourside-dental.com.au/")
	a.Access = []Access{{
		Method: AccessHTMLForm, URL: a.URL, Locator: css("form#appointment-form"), Occurrences: 2,
		Submission: &Submission{
			Transport: TransportFormPost, Endpoint: ptr("https://harbourside-dental.com.au/wp-admin/admin-ajax.php"),
			SubmitControl: css("form#appointment-form button[type=submit]"),
		},
		Provenance: testProvenance(),
	}}
	a.Inputs = []Input{
		testInput("patient-name", SemanticPersonName, true, true),
		testInput("phone", SemanticPhone, true, true),
	}
	a.SideEffects.Effects = []Effect{
		{Kind: EffectSendsEmailToBusiness, Provenance: testProvenance()},
		{Kind: EffectCreatesCallbackRequest, Provenance: testProvenance()},
	}
	a.SideEffects.Summary = "Emails the clinic a request."
	a.SideEffects.Provenance = testProvenance()
	a.Barriers = []Barrier{{Kind: BarrierCaptcha, Provenance: testProvenance()}}
	a.Provenance = ptr(testProvenance())
	return a
}

func TestCompleteness(t *testing.T) {
	door := func(m AccessMethod, sub *Submission) Access {
		return Access{Method: m, URL: "https://harbourside-dental.com.au/", Occurrences: 1, Submission: sub, Provenance: testProvenance()}
	}
	tests := []struct {
		name string
		edit func(a *Action)
		want Report
	}{
		{
			name: "complete, captcha kept apart as a blocker",
			edit: func(*Action) {},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}, Score: 0},
		},
		{
			name: "seed example: a required field whose meaning is unknown",
			edit: func(a *Action) {
				a.Inputs = append(a.Inputs, testInput("existing-patient", SemanticUnknown, true, true))
			},
			want: Report{Missing: []string{"inputs.required_semantic_unknown:existing-patient"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		// Condition 1: a door we can drive.
		{
			name: "tel link alone",
			edit: func(a *Action) { a.Access = []Access{door(AccessTelLink, nil)} },
			want: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "tel and mailto links",
			edit: func(a *Action) { a.Access = []Access{door(AccessTelLink, nil), door(AccessMailtoLink, nil)} },
			want: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "opaque third-party scheduler with no inputs",
			edit: func(a *Action) {
				d := door(AccessSchedulerWidget, nil)
				d.Opaque, d.Vendor = true, ptr("Cliniko")
				a.Access = []Access{d}
				a.Inputs = []Input{}
			},
			want: Report{Missing: []string{"access.no_drivable_door", "inputs.none_agent_fillable", "inputs.no_contact_channel"}, Blockers: []string{"barrier.captcha"}, Score: 3},
		},
		{
			name: "opaque html form",
			edit: func(a *Action) { a.Access[0].Opaque = true },
			want: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "link to a page carrying the real form",
			edit: func(a *Action) { a.Access = []Access{door(AccessLinkToPage, nil)} },
			want: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "no doors at all",
			edit: func(a *Action) { a.Access = []Access{} },
			want: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "tel link beside a usable form",
			edit: func(a *Action) { a.Access = append([]Access{door(AccessTelLink, nil)}, a.Access...) },
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		// Condition 2: a usable way to send it.
		{
			name: "javascript-only submission",
			edit: func(a *Action) { a.Access[0].Submission.Transport = TransportJavascriptOnly },
			want: Report{Missing: []string{"submission.javascript_only"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "unknown transport",
			edit: func(a *Action) { a.Access[0].Submission.Transport = TransportUnknown },
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "no transport",
			edit: func(a *Action) { a.Access[0].Submission.Transport = TransportNone },
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "no submission recorded",
			edit: func(a *Action) { a.Access[0].Submission = nil },
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "form post without a submit control",
			edit: func(a *Action) { a.Access[0].Submission.SubmitControl = nil },
			want: Report{Missing: []string{"submission.no_submit_control"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "form get with a blank submit control",
			edit: func(a *Action) {
				a.Access[0].Submission.Transport = TransportFormGet
				a.Access[0].Submission.SubmitControl = css(" ")
			},
			want: Report{Missing: []string{"submission.no_submit_control"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "html form posting json to a named endpoint",
			edit: func(a *Action) {
				a.Access[0].Submission.Transport = TransportJSONEndpoint
				a.Access[0].Submission.SubmitControl = nil
			},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		{
			name: "json endpoint without an endpoint",
			edit: func(a *Action) {
				a.Access[0].Submission.Transport = TransportJSONEndpoint
				a.Access[0].Submission.Endpoint = nil
			},
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "documented endpoint with an endpoint, no submit control needed",
			edit: func(a *Action) {
				a.Access = []Access{door(AccessDocumentedEndpoint, &Submission{Transport: TransportFormPost, Endpoint: ptr("https://harbourside-dental.com.au/api/book")})}
			},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		{
			name: "documented endpoint without an endpoint",
			edit: func(a *Action) {
				a.Access = []Access{door(AccessDocumentedEndpoint, &Submission{Transport: TransportJSONEndpoint})}
			},
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "webmcp tool with its name",
			edit: func(a *Action) {
				d := door(AccessWebMCPTool, &Submission{Transport: TransportWebMCPExecute})
				d.ToolName = ptr("book_appointment")
				a.Access = []Access{d}
			},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		{
			name: "webmcp tool without a name",
			edit: func(a *Action) {
				a.Access = []Access{door(AccessWebMCPTool, &Submission{Transport: TransportWebMCPExecute})}
			},
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "transport that does not fit the door",
			edit: func(a *Action) { a.Access[0].Submission.Transport = TransportWebMCPExecute },
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "transport outside the vocabulary",
			edit: func(a *Action) { a.Access[0].Submission.Transport = "carrier-pigeon" },
			want: Report{Missing: []string{"submission.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "two drivable doors, neither usable: both reasons, one condition",
			edit: func(a *Action) {
				a.Access[0].Submission.Transport = TransportJavascriptOnly
				a.Access = append(a.Access, door(AccessHTMLForm, &Submission{Transport: TransportFormPost}))
			},
			want: Report{Missing: []string{"submission.javascript_only", "submission.no_submit_control"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "one usable door among unusable ones is enough",
			edit: func(a *Action) {
				a.Access = append([]Access{door(AccessHTMLForm, &Submission{Transport: TransportJavascriptOnly})}, a.Access...)
			},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		{
			name: "a usable submission on an opaque door does not count",
			edit: func(a *Action) {
				a.Access[0].Opaque = true
				a.Access = append(a.Access, door(AccessHTMLForm, &Submission{Transport: TransportJavascriptOnly}))
			},
			want: Report{Missing: []string{"submission.javascript_only"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		// Condition 3: an input an agent may fill.
		{
			name: "no inputs",
			edit: func(a *Action) { a.Inputs = []Input{} },
			want: Report{Missing: []string{"inputs.none_agent_fillable", "inputs.no_contact_channel"}, Blockers: []string{"barrier.captcha"}, Score: 2},
		},
		{
			name: "only a nonce and a honeypot, even if marked fillable",
			edit: func(a *Action) {
				a.Inputs = []Input{
					testInput("_wpnonce", SemanticSystemToken, true, false),
					testInput("website2", SemanticHoneypot, false, true),
				}
			},
			want: Report{Missing: []string{"inputs.none_agent_fillable", "inputs.no_contact_channel"}, Blockers: []string{"barrier.captcha"}, Score: 2},
		},
		// Condition 4: required semantics known.
		{
			name: "two required unknowns: two codes, one condition",
			edit: func(a *Action) {
				a.Inputs = append(a.Inputs,
					testInput("field_7", SemanticUnknown, true, true),
					testInput("field_8", "not-a-semantic", true, false),
					testInput("field_9", SemanticUnknown, false, true))
			},
			want: Report{Missing: []string{"inputs.required_semantic_unknown:field_7", "inputs.required_semantic_unknown:field_8"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		// Condition 5: a way to reach the customer back.
		{
			name: "no email or phone input",
			edit: func(a *Action) { a.Inputs[1].Semantic = SemanticMessage },
			want: Report{Missing: []string{"inputs.no_contact_channel"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "email input an agent may not fill",
			edit: func(a *Action) {
				a.Inputs[1].Semantic = SemanticEmail
				a.Inputs[1].AgentFillable = false
			},
			want: Report{Missing: []string{"inputs.no_contact_channel"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "email instead of phone",
			edit: func(a *Action) { a.Inputs[1].Semantic = SemanticEmail },
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		// Condition 6: consequences stated.
		{
			name: "an unknown effect",
			edit: func(a *Action) {
				a.SideEffects.Effects = append(a.SideEffects.Effects, Effect{Kind: EffectUnknown, Provenance: testProvenance()})
			},
			want: Report{Missing: []string{"effects.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "no effects",
			edit: func(a *Action) { a.SideEffects.Effects = nil },
			want: Report{Missing: []string{"effects.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "effect kind outside the vocabulary",
			edit: func(a *Action) { a.SideEffects.Effects[0].Kind = "teleports-customer" },
			want: Report{Missing: []string{"effects.unknown"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		{
			name: "reversible unknown does not count",
			edit: func(a *Action) { a.SideEffects.Reversible = ReversibleUnknown },
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}},
		},
		// Condition 7: provenance on the action and every input.
		{
			name: "provenance missing on the action and two inputs",
			edit: func(a *Action) {
				a.Provenance = nil
				a.Inputs[0].Provenance = nil
				a.Inputs[1].Provenance = &Provenance{}
			},
			want: Report{Missing: []string{"provenance.missing:action", "provenance.missing:inputs[0]", "provenance.missing:inputs[1]"}, Blockers: []string{"barrier.captcha"}, Score: 1},
		},
		// Blockers.
		{
			name: "no barriers",
			edit: func(a *Action) { a.Barriers = nil },
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{}},
		},
		{
			name: "barrier kinds once each, in order; outside the vocabulary is unknown",
			edit: func(a *Action) {
				a.Barriers = []Barrier{
					{Kind: BarrierLogin}, {Kind: BarrierCaptcha}, {Kind: BarrierLogin}, {Kind: "moat"},
				}
			},
			want: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.login", "barrier.captcha", "barrier.unknown"}},
		},
		// Everything at once: every condition's reasons, Score 7.
		{
			name: "nothing holds",
			edit: func(a *Action) {
				*a = Action{Inputs: []Input{testInput("x", SemanticUnknown, true, false)}}
				a.Inputs[0].Provenance = nil
			},
			want: Report{
				Missing: []string{
					"access.no_drivable_door", "inputs.none_agent_fillable",
					"inputs.required_semantic_unknown:x", "inputs.no_contact_channel",
					"effects.unknown", "provenance.missing:action", "provenance.missing:inputs[0]",
				},
				Blockers: []string{}, Score: 6, // condition 2 is not assessed without a drivable door
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := completeAction()
			tt.edit(&a)
			got := Completeness(a)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Completeness mismatch (-want +got):\n%s", diff)
			}
			for _, m := range got.Missing {
				if code, _ := MissingCodeOf(m); !code.Valid() {
					t.Errorf("missing %q: code %q is not in the MissingCode vocabulary", m, code)
				}
			}
		})
	}
}

// TestCompletenessReportJSON pins the seed's example report shape.
func TestCompletenessReportJSON(t *testing.T) {
	a := completeAction()
	a.Inputs = append(a.Inputs, testInput("existing-patient", SemanticUnknown, true, true))
	got, err := json.Marshal(Completeness(a))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"complete":false,"missing":["inputs.required_semantic_unknown:existing-patient"],"blockers":["barrier.captcha"],"score":1}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("report JSON mismatch (-want +got):\n%s", diff)
	}
	// A complete report writes empty lists, never null.
	a = completeAction()
	a.Barriers = nil
	got, _ = json.Marshal(Completeness(a))
	want = `{"complete":true,"missing":[],"blockers":[],"score":0}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("complete report JSON mismatch (-want +got):\n%s", diff)
	}
}

func TestGraphCompleteness(t *testing.T) {
	incomplete := completeAction()
	incomplete.ID = "clinic01:quote:implants"
	incomplete.Inputs = append(incomplete.Inputs, testInput("existing-patient", SemanticUnknown, true, true))
	incomplete.Inputs[0].Provenance = nil
	incomplete.Inputs[1].Provenance = nil

	phoneOnly := completeAction()
	phoneOnly.ID = "clinic01:callback:phone"
	phoneOnly.Access = []Access{{Method: AccessTelLink, URL: "tel:+61290000000", Occurrences: 3, Provenance: testProvenance()}}
	phoneOnly.Barriers = nil

	graph := func(actions ...Action) *ActionGraph {
		g := NewGraph("ag_clinic01", Site{Domain: "harbourside-dental.com.au", URL: "https://harbourside-dental.com.au/"}, "2026-08-25T08:39:12.596Z", Generator{Name: "mapper", Version: "0.1.0"})
		g.Actions = append(g.Actions, actions...)
		return g
	}
	empty := GraphReport{PerAction: []ActionReport{}, MissingTally: map[string]int{}, MissingDetailTally: map[string]int{}, BlockerTally: map[string]int{}}

	tests := []struct {
		name string
		g    *ActionGraph
		want GraphReport
	}{
		{name: "no actions scores 0, not 1", g: graph(), want: empty},
		{name: "nil graph", g: nil, want: empty},
		{
			name: "one complete action",
			g:    graph(completeAction()),
			want: GraphReport{
				Actions: 1, Complete: 1, Mappability: 1,
				PerAction:    []ActionReport{{ID: "clinic01:booking:appointment", Report: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}}}},
				MissingTally: map[string]int{}, MissingDetailTally: map[string]int{},
				BlockerTally: map[string]int{"barrier.captcha": 1},
			},
		},
		{
			name: "one of three complete; tallies count actions",
			g:    graph(completeAction(), incomplete, phoneOnly),
			want: GraphReport{
				Actions: 3, Complete: 1, Mappability: 1.0 / 3,
				PerAction: []ActionReport{
					{ID: "clinic01:booking:appointment", Report: Report{Complete: true, Missing: []string{}, Blockers: []string{"barrier.captcha"}}},
					{ID: "clinic01:quote:implants", Report: Report{
						Missing:  []string{"inputs.required_semantic_unknown:existing-patient", "provenance.missing:inputs[0]", "provenance.missing:inputs[1]"},
						Blockers: []string{"barrier.captcha"}, Score: 2,
					}},
					{ID: "clinic01:callback:phone", Report: Report{Missing: []string{"access.no_drivable_door"}, Blockers: []string{}, Score: 1}},
				},
				MissingTally: map[string]int{
					"inputs.required_semantic_unknown": 1, "provenance.missing": 1, "access.no_drivable_door": 1,
				},
				MissingDetailTally: map[string]int{
					"inputs.required_semantic_unknown:existing-patient": 1,
					"provenance.missing:inputs[0]":                      1,
					"provenance.missing:inputs[1]":                      1,
					"access.no_drivable_door":                           1,
				},
				BlockerTally: map[string]int{"barrier.captcha": 2},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GraphCompleteness(tt.g)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("GraphCompleteness mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGraphReportJSONNoActions(t *testing.T) {
	got, err := json.Marshal(GraphCompleteness(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"actions":0,"complete":0,"mappability":0,"perAction":[],"missingTally":{},"missingDetailTally":{},"blockerTally":{}}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("graph report JSON mismatch (-want +got):\n%s", diff)
	}
}

func TestMissingCodeOf(t *testing.T) {
	tests := []struct {
		in         string
		wantCode   MissingCode
		wantDetail string
	}{
		{"access.no_drivable_door", MissingAccessNoDrivableDoor, ""},
		{"provenance.missing:inputs[2]", MissingProvenanceMissing, "inputs[2]"},
		{"inputs.required_semantic_unknown:a:b", MissingInputsRequiredSemanticUnknown, "a:b"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			code, detail := MissingCodeOf(tt.in)
			if diff := cmp.Diff([]string{string(tt.wantCode), tt.wantDetail}, []string{string(code), detail}); diff != "" {
				t.Errorf("MissingCodeOf(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
