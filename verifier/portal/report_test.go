package portal

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata (and, with a browser, docs/img/verifier-*.png)")

// testOrigin stands in for a served fixture's origin where nothing is served.
const testOrigin = "http://127.0.0.1:8080"

// mapped reads a fixture site's committed graph.
func mapped(t *testing.T, name, origin string) *shared.ActionGraph {
	t.Helper()
	data, err := fixtures.MappedGraph(name, origin)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if g == nil {
		t.Fatalf("%s: %v", name, issues)
	}
	return g
}

// shape is what a report test compares: the decisions, not the prose.
type shape struct {
	Total, Complete, Incomplete, Live, Mappability int
	Actions                                        []actionShape
	Reconfirm                                      []string
}

type actionShape struct {
	ID       string
	Complete bool
	Status   shared.VerificationStatus
	Reasons  []string
	Blockers []string
	Drivable []bool
	Steps    int
}

func shapeOf(r Report) shape {
	s := shape{Total: r.Total, Complete: r.Complete, Incomplete: r.Incomplete, Live: r.Live, Mappability: r.Mappability}
	for _, a := range r.Actions {
		as := actionShape{ID: a.ID, Complete: a.Complete, Status: a.Status, Steps: len(a.NextSteps)}
		for _, x := range a.Reasons {
			as.Reasons = append(as.Reasons, x.Code)
		}
		for _, x := range a.Blockers {
			as.Blockers = append(as.Blockers, x.Code)
		}
		for _, d := range a.Doors {
			as.Drivable = append(as.Drivable, d.Drivable)
		}
		s.Actions = append(s.Actions, as)
	}
	for _, x := range r.Reconfirm {
		s.Reconfirm = append(s.Reconfirm, x.ID)
	}
	return s
}

func TestBuildReportOnFixtureSites(t *testing.T) {
	un := shared.StatusUnverified
	tests := []struct {
		site string
		want shape
	}{
		{"clinic01", shape{Total: 2, Complete: 1, Incomplete: 1, Mappability: 50, Actions: []actionShape{
			{ID: "clinic01:booking:appointment", Complete: true, Status: un, Blockers: []string{"barrier.captcha"}, Drivable: []bool{true, false}, Steps: 3},
			{ID: "clinic01:contact:email", Status: un, Reasons: []string{"access.no_drivable_door", "inputs.none_agent_fillable", "inputs.no_contact_channel"}, Drivable: []bool{false}, Steps: 3},
		}}},
		{"loginbooking01", shape{Total: 2, Incomplete: 2, Actions: []actionShape{
			{ID: "loginbooking01:booking:members-book", Status: un, Reasons: []string{"access.no_drivable_door", "inputs.none_agent_fillable", "inputs.no_contact_channel"}, Blockers: []string{"barrier.login"}, Drivable: []bool{false}, Steps: 4},
			{ID: "loginbooking01:contact:email", Status: un, Reasons: []string{"access.no_drivable_door", "inputs.none_agent_fillable", "inputs.no_contact_channel"}, Drivable: []bool{false, false}, Steps: 3},
		}}},
		{"webmcp01", shape{Total: 2, Complete: 2, Mappability: 100, Actions: []actionShape{
			{ID: "webmcp01:callback:request-callback", Complete: true, Status: un, Drivable: []bool{true}, Steps: 2},
			{ID: "webmcp01:booking:service-booking", Complete: true, Status: un, Drivable: []bool{true, true}, Steps: 2},
		}}},
		{"brochure01", shape{}},
	}
	for _, tt := range tests {
		t.Run(tt.site, func(t *testing.T) {
			got := shapeOf(BuildReport(mapped(t, tt.site, testOrigin), nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BuildReport(%s) (-want +got):\n%s", tt.site, diff)
			}
		})
	}
}

// Every code of every fixture site's report has its sentence, with no
// placeholder left, and the report's counts agree with shared's.
func TestEveryFixtureReasonIsASentence(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			g := mapped(t, name, testOrigin)
			r := BuildReport(g, nil)
			gr := shared.GraphCompleteness(g)
			if r.Total != gr.Actions || r.Complete != gr.Complete {
				t.Errorf("report counts %d of %d complete, shared %d of %d", r.Complete, r.Total, gr.Complete, gr.Actions)
			}
			for _, a := range r.Actions {
				for _, x := range append(append([]Reason{}, a.Reasons...), a.Blockers...) {
					if !sentence(x.Sentence) || strings.Contains(x.Sentence, "{") {
						t.Errorf("%s: %s: not a finished sentence: %q", a.ID, x.Code, x.Sentence)
					}
				}
				if len(a.NextSteps) == 0 && a.Status != shared.StatusVerified {
					t.Errorf("%s: no next step for an action agents may not use", a.ID)
				}
			}
		})
	}
}

func strp(s string) *string { return &s }

// A built action exercises what the fixtures do not: details in sentences,
// drift, a verified action's limits, an endpoint on another origin.
func TestBuildReportStates(t *testing.T) {
	base := mapped(t, "clinic01", testOrigin).Actions[0]
	tests := []struct {
		name  string
		edit  func(a *shared.Action)
		check func(t *testing.T, r Report)
	}{
		{"required field of unknown meaning names the field", func(a *shared.Action) {
			a.Inputs = append(a.Inputs, shared.Input{Name: "ref-no", Label: strp("Your file reference"), Semantic: shared.SemanticUnknown, Type: "text", Required: true, AgentFillable: true, ValueSpace: []shared.ValueSpace{}, Provenance: a.Inputs[0].Provenance})
		}, func(t *testing.T, r Report) {
			want := "A required field, “Your file reference” (ref-no), asks for something we could not understand, so an agent would not know what to put in it."
			if got := r.Actions[0].Reasons; len(got) != 1 || got[0].Sentence != want || got[0].Code != "inputs.required_semantic_unknown:ref-no" {
				t.Errorf("reasons = %+v, want one with %q", got, want)
			}
		}},
		{"missing provenance names the field and the action", func(a *shared.Action) {
			a.Provenance = nil
			a.Inputs[6].Provenance = nil
		}, func(t *testing.T, r Report) {
			var got []string
			for _, x := range r.Actions[0].Reasons {
				got = append(got, x.Sentence)
			}
			want := []string{
				"We did not record how we learned about the action itself, so it cannot be trusted as it stands.",
				"We did not record how we learned about the field “Your name” (patient-name), so it cannot be trusted as it stands.",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{"drifted action needs confirmation again", func(a *shared.Action) {
			a.Verification = shared.Unverified{Note: strp(verifier.DriftedNotePrefix + "$.doors[0].endpoint: confirmed \"a\", now \"b\"")}
		}, func(t *testing.T, r Report) {
			want := []Reconfirm{{ID: base.ID, Label: base.Label, Note: `$.doors[0].endpoint: confirmed "a", now "b"`}}
			if diff := cmp.Diff(want, r.Reconfirm); diff != "" {
				t.Errorf("Reconfirm (-want +got):\n%s", diff)
			}
			if r.Actions[0].NextSteps[len(r.Actions[0].NextSteps)-1] != stepReconfirm {
				t.Errorf("next steps %q do not end with reconfirming", r.Actions[0].NextSteps)
			}
		}},
		{"a revoked action is not listed for reconfirmation, and says why", func(a *shared.Action) {
			a.Verification = shared.Unverified{Note: strp(verifier.RevokedNotePrefix + "the clinic moved")}
		}, func(t *testing.T, r Report) {
			if len(r.Reconfirm) != 0 || r.Actions[0].Revoked != "the clinic moved" {
				t.Errorf("Reconfirm = %+v, Revoked = %q", r.Reconfirm, r.Actions[0].Revoked)
			}
		}},
		{"another note is neither", func(a *shared.Action) {
			a.Verification = shared.Unverified{Note: strp("mapped on Tuesday")}
		}, func(t *testing.T, r Report) {
			if len(r.Reconfirm) != 0 || r.Actions[0].Revoked != "" {
				t.Errorf("Reconfirm = %+v, Revoked = %q", r.Reconfirm, r.Actions[0].Revoked)
			}
		}},
		{"verified action is live with its limits", func(a *shared.Action) {
			a.Verification = shared.Verified{Confirmation: shared.OwnerConfirmation{
				ConfirmedBy: "Dr Lee", ConfirmedAt: "2026-12-01T10:00:00.000Z", Method: shared.ConfirmedOwnerPortal, AuditRecord: strp("aud_x"),
				Limits:     shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 1, Per: shared.PerWeek}, Notify: strp("https://hooks.example/n")},
				Disclosure: shared.DisclosureOf(a.SideEffects),
			}, SandboxRuns: []shared.SandboxRun{}}
		}, func(t *testing.T, r Report) {
			if r.Live != 1 || r.Actions[0].Limits != "at most 1 time per week; you are told at https://hooks.example/n" {
				t.Errorf("Live = %d, Limits = %q", r.Live, r.Actions[0].Limits)
			}
		}},
		{"a WebMCP door names its tool", func(a *shared.Action) {
			a.Access[0].Method = shared.AccessWebMCPTool
			a.Access[0].ToolName = strp("book_appointment")
			a.Access[0].Submission.Transport = shared.TransportWebMCPExecute
		}, func(t *testing.T, r Report) {
			d := r.Actions[0].Doors[0]
			if d.ToolName != "book_appointment" || !d.Drivable || d.Words != doorWords[shared.AccessWebMCPTool] {
				t.Errorf("door = %+v", d)
			}
		}},
		{"the door that fires is marked: the form, not a WebMCP door before it", func(a *shared.Action) {
			tool := a.Access[0]
			tool.Method, tool.ToolName, tool.Locator = shared.AccessWebMCPTool, strp("book_appointment"), nil
			tool.Submission = &shared.Submission{Transport: shared.TransportWebMCPExecute}
			a.Access = append([]shared.Access{tool}, a.Access...)
		}, func(t *testing.T, r Report) {
			var fires []bool
			for _, d := range r.Actions[0].Doors {
				fires = append(fires, d.Fires)
			}
			if diff := cmp.Diff([]bool{false, true, false}, fires); diff != "" {
				t.Errorf("Fires (-want +got):\n%s", diff)
			}
			if d := r.Actions[0].Doors[1]; !d.Tested {
				t.Errorf("the form that fires is not marked as the one the safe test runs: %+v", d)
			}
		}},
		{"a WebMCP tool alone fires, and no safe test runs it", func(a *shared.Action) {
			a.Access[0].Method, a.Access[0].ToolName, a.Access[0].Locator = shared.AccessWebMCPTool, strp("book_appointment"), nil
			a.Access[0].Submission = &shared.Submission{Transport: shared.TransportWebMCPExecute}
		}, func(t *testing.T, r Report) {
			if d := r.Actions[0].Doors[0]; !d.Fires || d.Tested {
				t.Errorf("door = %+v, want it to fire, untested", d)
			}
		}},
		{"a failed sandbox run is reported, with a step", func(a *shared.Action) {
			a.Verification = shared.SandboxTested{SandboxRuns: []shared.SandboxRun{
				{RunID: "r1", At: "2026-12-01T09:00:00.000Z", By: "v", Outcome: shared.SandboxPassed, Fields: []shared.SubmittedField{}},
				{RunID: "r2", At: "2026-12-01T10:00:00.000Z", By: "v", Outcome: shared.SandboxFailed, Fields: []shared.SubmittedField{}},
			}}
		}, func(t *testing.T, r Report) {
			a := r.Actions[0]
			if a.LastRun != "failed on 2026-12-01T10:00:00.000Z" || a.LastRunPassed || !slices.Contains(a.NextSteps, stepFailedRun) {
				t.Errorf("LastRun = %q, passed %v, steps %q", a.LastRun, a.LastRunPassed, a.NextSteps)
			}
		}},
		{"endpoint on another origin is flagged", func(a *shared.Action) {
			a.Access[0].Submission.Endpoint = strp("https://forms.example.net/submit")
		}, func(t *testing.T, r Report) {
			d := r.Actions[0].Doors[0]
			if d.EndpointOrigin != "https://forms.example.net" || !d.Elsewhere {
				t.Errorf("door = %+v, want origin https://forms.example.net elsewhere", d)
			}
			if r.Actions[0].Doors[1].Elsewhere {
				t.Errorf("a door without a submission is flagged as elsewhere")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mapped(t, "clinic01", testOrigin)
			g.Actions = g.Actions[:1]
			tt.edit(&g.Actions[0])
			// The edited graph must still be a valid graph.
			if _, err := shared.Write(g); err != nil {
				t.Fatal(err)
			}
			tt.check(t, BuildReport(g, nil))
		})
	}
}

func TestNextStepsCountActionsMostCommonFirst(t *testing.T) {
	r := BuildReport(mapped(t, "loginbooking01", testOrigin), nil)
	for i := 1; i < len(r.NextSteps); i++ {
		if r.NextSteps[i].Actions > r.NextSteps[i-1].Actions {
			t.Errorf("step %d (%d actions) after step %d (%d actions)", i, r.NextSteps[i].Actions, i-1, r.NextSteps[i-1].Actions)
		}
	}
	if r.NextSteps[0].Actions != 2 || r.NextSteps[0].Text != missingSentences[shared.MissingAccessNoDrivableDoor].Next {
		t.Errorf("first step = %+v, want the drivable-door step for 2 actions", r.NextSteps[0])
	}
}

func TestChartScalesTheLongerBar(t *testing.T) {
	tests := []struct {
		complete, incomplete int
		want                 [2]int
	}{
		{1, 1, [2]int{chartWidth - chartLabelW - chartCountW, chartWidth - chartLabelW - chartCountW}},
		{1, 3, [2]int{(chartWidth - chartLabelW - chartCountW) / 3, chartWidth - chartLabelW - chartCountW}},
		{0, 0, [2]int{0, 0}},
	}
	for _, tt := range tests {
		c := chartOf(tt.complete, tt.incomplete)
		if got := [2]int{c.Bars[0].BarWidth, c.Bars[1].BarWidth}; got != tt.want {
			t.Errorf("chartOf(%d, %d) widths = %v, want %v", tt.complete, tt.incomplete, got, tt.want)
		}
	}
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", p, diff)
	}
}

func TestReportGolden(t *testing.T) {
	// states: one action live with its limits, one that drifted.
	states := mapped(t, "clinic01", testOrigin)
	states.Actions[0].Verification = shared.Verified{Confirmation: shared.OwnerConfirmation{
		ConfirmedBy: "Dr Mira Lee", ConfirmedAt: "2026-12-01T10:00:00.000Z", Method: shared.ConfirmedOwnerPortal, AuditRecord: strp("aud_golden"),
		Limits:     shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 20, Per: shared.PerDay}, Notify: strp("https://hooks.example/n")},
		Disclosure: shared.DisclosureOf(states.Actions[0].SideEffects),
	}, SandboxRuns: []shared.SandboxRun{}}
	states.Actions[1].Verification = shared.Unverified{Note: strp(`drifted: $.doors[0].url: confirmed "mailto:old@example.com", now "mailto:reception@harbourside-dental.com.au"`)}
	tests := []struct {
		name string
		g    *shared.ActionGraph
	}{
		{"clinic01", mapped(t, "clinic01", testOrigin)},
		{"loginbooking01", mapped(t, "loginbooking01", testOrigin)},
		{"brochure01", mapped(t, "brochure01", testOrigin)},
		{"webmcp01", mapped(t, "webmcp01", testOrigin)},
		{"states", states},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RenderReport(&buf, BuildReport(tt.g, nil)); err != nil {
				t.Fatal(err)
			}
			golden(t, "report-"+tt.name+".html", buf.Bytes())
		})
	}
}

// forgedVerified marks a's file as confirmed with a record no store holds.
func forgedVerified(a *shared.Action) {
	a.Verification = shared.Verified{Confirmation: shared.OwnerConfirmation{
		ConfirmedBy: "Dr Lee", ConfirmedAt: "2026-12-01T10:00:00.000Z", Method: shared.ConfirmedOwnerPortal, AuditRecord: strp("aud_forged"),
		Limits:     shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 1000, Per: shared.PerDay}, Notify: strp("https://hooks.example/n")},
		Disclosure: shared.DisclosureOf(a.SideEffects),
	}, SandboxRuns: []shared.SandboxRun{}}
}

// An action the graph file says is verified but the audit store does not
// confirm is not live: the report says so and why, shows no limits, and
// asks for a confirmation.
func TestReportUnconfirmed(t *testing.T) {
	g := mapped(t, "clinic01", testOrigin)
	g.Actions = g.Actions[:1]
	forgedVerified(&g.Actions[0])
	why := `confirmation.audit-unresolved: no record "aud_forged" <script>`
	r := BuildReport(g, map[string]string{g.Actions[0].ID: why})
	a := r.Actions[0]
	if r.Live != 0 || a.Status != shared.StatusUnverified || a.Unconfirmed != why || a.Limits != "" {
		t.Errorf("Live %d, status %s, Unconfirmed %q, Limits %q; want not live, unverified, the reason, no limits", r.Live, a.Status, a.Unconfirmed, a.Limits)
	}
	if !slices.Contains(a.NextSteps, stepConfirm) {
		t.Errorf("next steps %q, want %q", a.NextSteps, stepConfirm)
	}
	var page bytes.Buffer
	if err := RenderReport(&page, r); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if !strings.Contains(html, "but your audit record does not (confirmation.audit-unresolved: no record &#34;aud_forged&#34; &lt;script&gt;)") {
		t.Errorf("the page does not say the record does not confirm it, escaped")
	}
	if live := BuildReport(g, nil); live.Live != 1 {
		t.Errorf("with nil, the graph's word: Live = %d, want 1", live.Live)
	}
}
