package portal

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

const clinicBooking = "clinic01:booking:appointment"

func TestEveryPageIs403WithoutTheToken(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	for _, p := range []string{"/", actionPath(clinicBooking), "/nope", "/?token=wrong"} {
		t.Run(p, func(t *testing.T) {
			resp, _ := h.get(t, h.srv.Origin()+p)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("GET %s without a session: %d, want 403", p, resp.StatusCode)
			}
		})
	}
	resp, _ := h.post(t, actionPath(clinicBooking), url.Values{}, nil)
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST without a session: %d, want 403", resp.StatusCode)
	}
}

func TestTokenSetsAStrictCookieOnceAndLeavesTheURL(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(h.srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("token URL: %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode || cookies[0].Value == "" {
		t.Fatalf("cookies = %+v, want one HttpOnly SameSite=Strict session cookie", cookies)
	}
	// The cookie opens pages; the token does not open a second session.
	req, _ := http.NewRequest(http.MethodGet, h.srv.Origin()+"/", nil)
	req.AddCookie(cookies[0])
	if resp, err := noFollow.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("with the cookie: %v %v, want 200", resp.StatusCode, err)
	}
	if resp, err := noFollow.Get(h.srv.URL()); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("token used twice: %d %v, want 403", resp.StatusCode, err)
	}
}

func TestForeignHostIsRefused(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	req, _ := http.NewRequest(http.MethodGet, h.srv.Origin()+"/", nil)
	req.Host = "rebound.example.com:" + strings.Split(h.srv.ln.Addr().String(), ":")[1]
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host %s: %d, want 403", req.Host, resp.StatusCode)
	}
}

func TestConfirmRecordsAuditAndThePrintedGraphPassesTheGate(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, withSandboxRun(0)))
	h.login(t)
	before, err := ReadGraphFile(t.Context(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	form := h.confirmForm(t, clinicBooking)
	resp, body := h.post(t, actionPath(clinicBooking), form, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Agents may now use it") {
		t.Fatalf("confirm: %d: %s", resp.StatusCode, body)
	}
	// The files compiled before do not offer it: the page says to compile again.
	if !strings.Contains(body, "run <code>frontlatch compile</code> again and publish what it writes") {
		t.Errorf("the confirmation page does not say that the site's compiled files need compiling again")
	}
	ab := actionBytes(t, h.path, clinicBooking)
	if err := shared.AssertLiveExecutionAllowed(ab, h.store); err != nil {
		t.Fatalf("the written action does not pass the gate: %v", err)
	}
	after, err := ReadGraphFile(t.Context(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := after.Actions[0].Verification.(shared.Verified)
	if !ok {
		t.Fatalf("verification = %T, want Verified", after.Actions[0].Verification)
	}
	c := v.Confirmation
	if c.ConfirmedBy != "Dr Mira Lee" || c.Method != shared.ConfirmedOwnerPortal || c.AuditRecord == nil {
		t.Errorf("confirmation = %+v", c)
	}
	wantLimits := shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 5, Per: shared.PerDay}, Notify: strp("https://hooks.example.com/frontlatch")}
	if diff := cmp.Diff(wantLimits, c.Limits); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(shared.DisclosureOf(before.Actions[0].SideEffects), c.Disclosure); diff != "" {
		t.Errorf("disclosure is not what was shown (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(verifier.SandboxRunsOf(before.Actions[0].Verification), v.SandboxRuns); diff != "" {
		t.Errorf("sandbox runs not kept (-want +got):\n%s", diff)
	}
	// The other action is untouched, and the audit holds one confirmation
	// whose digest is the action's now.
	if after.Actions[1].Verification.Status() != shared.StatusUnverified {
		t.Errorf("the other action became %s", after.Actions[1].Verification.Status())
	}
	hist, err := h.store.History(t.Context(), clinicBooking)
	if err != nil || len(hist) != 1 {
		t.Fatalf("History = %+v, %v; want one confirmation", hist, err)
	}
	if !strings.Contains(body, *c.AuditRecord) {
		t.Errorf("the confirmed page does not show the audit record %s", *c.AuditRecord)
	}
	if fi, err := os.ReadDir(filepath.Dir(h.path)); err == nil {
		for _, f := range fi {
			if strings.HasSuffix(f.Name(), ".tmp") {
				t.Errorf("temporary file left behind: %s", f.Name())
			}
		}
	}
}

// Every refusal answers with an error status and changes nothing: the graph
// file keeps its bytes and the audit store records nothing.
func TestConfirmRefusalsWriteNothing(t *testing.T) {
	tests := []struct {
		name   string
		status int
		// prepare may edit the form and headers, or the graph on disk.
		prepare func(t *testing.T, h *harness, form url.Values, hdr map[string]string)
		want    string // in the answer
	}{
		{"cross-site origin", http.StatusForbidden, func(_ *testing.T, _ *harness, _ url.Values, hdr map[string]string) {
			hdr["Origin"] = "http://evil.example"
		}, "another origin"},
		{"sec-fetch-site cross-site", http.StatusForbidden, func(_ *testing.T, _ *harness, _ url.Values, hdr map[string]string) {
			hdr["Sec-Fetch-Site"] = "cross-site"
		}, "another site"},
		{"same-site other port", http.StatusForbidden, func(_ *testing.T, _ *harness, _ url.Values, hdr map[string]string) {
			hdr["Sec-Fetch-Site"] = "same-site"
			hdr["Origin"] = "http://127.0.0.1:1"
		}, "another site"},
		{"neither origin nor referer", http.StatusForbidden, func(_ *testing.T, _ *harness, _ url.Values, hdr map[string]string) {
			hdr["Origin"], hdr["Sec-Fetch-Site"] = "", ""
		}, "neither"},
		{"foreign referer", http.StatusForbidden, func(_ *testing.T, _ *harness, _ url.Values, hdr map[string]string) {
			hdr["Origin"], hdr["Referer"] = "", "http://evil.example/page"
		}, "another page"},
		{"wrong csrf", http.StatusForbidden, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("csrf", "forged")
		}, "security token"},
		{"unknown nonce", http.StatusConflict, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("nonce", "never-issued")
		}, "already sent"},
		{"forged shown digest", http.StatusConflict, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("shown", "sha256:0000000000000000000000000000000000000000000000000000000000000000")
		}, "not what the page showed you"},
		{"graph edited on disk between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			g, err := ReadGraphFile(t.Context(), h.path)
			if err != nil {
				t.Fatal(err)
			}
			g.Actions[0].Access[0].Submission.Endpoint = strp("https://collector.example.net/steal")
			b, err := shared.Write(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(h.path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "$.doors[0].endpoint"},
		{"summary edited on disk between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			g, err := ReadGraphFile(t.Context(), h.path)
			if err != nil {
				t.Fatal(err)
			}
			g.Actions[0].SideEffects.Summary = "Charges the customer $500."
			g.Actions[0].SideEffects.ChargesMoney = true
			b, _ := shared.Write(g)
			os.WriteFile(h.path, b, 0o644)
		}, "$.disclosure.chargesMoney"},
		// What the page shows beyond the consent subject is bound too: the
		// fields it collects, their labels, the safe test runs.
		{"personal-data field added on disk between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			editGraph(t, h, func(g *shared.ActionGraph) {
				in := g.Actions[0].Inputs[0]
				in.Name, in.Label, in.Semantic = "card-number", strp("Card number"), shared.SemanticUnknown
				g.Actions[0].Inputs = append(g.Actions[0].Inputs, in)
			})
		}, "the fields it collects"},
		{"field label edited on disk between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			editGraph(t, h, func(g *shared.ActionGraph) { g.Actions[0].Inputs[0].Label = strp("Medicare number") })
		}, "the fields it collects"},
		{"failed safe test recorded between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			editGraph(t, h, func(g *shared.ActionGraph) {
				withSandboxRun(0)(g)
				vs := g.Actions[0].Verification.(shared.SandboxTested)
				vs.SandboxRuns[0].Outcome = shared.SandboxFailed
				g.Actions[0].Verification = vs
			})
		}, "safe test runs"},
		{"action label edited on disk between GET and POST", http.StatusConflict, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			editGraph(t, h, func(g *shared.ActionGraph) { g.Actions[0].Label = "Book a free consultation" })
		}, "what the page showed of this action changed"},
		{"nonce of another action", http.StatusConflict, func(t *testing.T, h *harness, f url.Values, _ map[string]string) {
			other := h.confirmForm(t, "clinic01:contact:email")
			f.Set("nonce", other.Get("nonce"))
		}, "another action"},
		{"cap of zero", http.StatusUnprocessableEntity, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("capMax", "0")
		}, "a whole number from 1"},
		{"unknown period", http.StatusUnprocessableEntity, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("capPer", "unknown")
		}, "Choose the period"},
		{"notify not a web address", http.StatusUnprocessableEntity, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("notify", "javascript:alert(1)")
		}, "a web address"},
		{"no name", http.StatusUnprocessableEntity, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("confirmedBy", "   ")
		}, "Enter your name"},
		{"blank summary the gate would refuse", http.StatusUnprocessableEntity, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			// The page was shown with a blank summary; confirming it would
			// confirm nothing.
			editGraph(t, h, func(g *shared.ActionGraph) { g.Actions[0].SideEffects.Summary = "" })
			h.form = h.confirmForm(t, clinicBooking)
		}, "disclosure.empty[summary]"},
		{"name that shows nothing", http.StatusUnprocessableEntity, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("confirmedBy", "\u200b\u200b")
		}, "confirmation.unattributed"},
		{"body too large", http.StatusRequestEntityTooLarge, func(_ *testing.T, _ *harness, f url.Values, _ map[string]string) {
			f.Set("pad", strings.Repeat("x", defaultMaxBody))
		}, "could not be read"},
		{"audit store unreachable", http.StatusServiceUnavailable, func(t *testing.T, h *harness, _ url.Values, _ map[string]string) {
			if err := h.store.Close(); err != nil {
				t.Fatal(err)
			}
		}, "audit store could not record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
			h.login(t)
			form := h.confirmForm(t, clinicBooking)
			hdr := map[string]string{}
			tt.prepare(t, h, form, hdr)
			if h.form != nil {
				form = h.form
			}
			was := readFile(t, h.path)
			resp, body := h.post(t, actionPath(clinicBooking), form, hdr)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if !strings.Contains(html.UnescapeString(body), tt.want) {
				t.Errorf("answer does not say %q:\n%s", tt.want, body)
			}
			if now := readFile(t, h.path); string(now) != string(was) {
				t.Errorf("the graph file was rewritten by a refused confirmation")
			}
			if tt.name != "audit store unreachable" {
				if hist, err := h.store.History(context.Background(), clinicBooking); err != nil || len(hist) != 0 {
					t.Errorf("History = %+v, %v; want nothing recorded", hist, err)
				}
			}
			if err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store); err == nil {
				t.Errorf("the action passes the gate after a refused confirmation")
			}
		})
	}
}

func TestReplayedConfirmIsRefused(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	form := h.confirmForm(t, clinicBooking)
	if resp, body := h.post(t, actionPath(clinicBooking), form, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("first POST: %d: %s", resp.StatusCode, body)
	}
	was := readFile(t, h.path)
	resp, body := h.post(t, actionPath(clinicBooking), form, nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "already sent") {
		t.Errorf("replayed POST: %d, want 409 saying it was already sent: %s", resp.StatusCode, body)
	}
	if string(readFile(t, h.path)) != string(was) {
		t.Errorf("the replay rewrote the graph")
	}
	if hist, _ := h.store.History(t.Context(), clinicBooking); len(hist) != 1 {
		t.Errorf("History has %d events after a replay, want 1", len(hist))
	}
}

func TestUnknownActionIs404(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	resp, body := h.get(t, h.srv.Origin()+actionPath("no:such:action"))
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "no:such:action") {
		t.Errorf("unknown action: %d: %s", resp.StatusCode, body)
	}
	if resp, _ := h.get(t, h.srv.Origin()+"/not/a/page"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown page: %d, want 404", resp.StatusCode)
	}
}

func TestNewRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	store, err := audit.Open(t.Context(), filepath.Join(dir, "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schemaVersion":"0.1","graphId":""}`), 0o644)
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, graphBytes(t, "clinic01", testOrigin, nil), 0o644)
	huge := filepath.Join(dir, "huge.json")
	os.WriteFile(huge, nil, 0o644)
	if err := os.Truncate(huge, shared.MaxDocumentBytes+1); err != nil { // sparse
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    Options
		is   error
		says []string
	}{
		{"missing file", Options{GraphPath: filepath.Join(dir, "none.json"), Store: store}, ErrGraphUnreadable, []string{"none.json", "no such file"}},
		{"larger than any graph", Options{GraphPath: huge, Store: store}, shared.ErrDocumentTooLarge, []string{"huge.json", "document too large"}},
		{"invalid graph", Options{GraphPath: bad, Store: store}, shared.ErrInvalidGraph, []string{"bad.json", "$.graphId: value.empty", "key.missing"}},
		{"no store", Options{GraphPath: bad}, ErrNoStore, nil},
		{"address that cannot be listened on", Options{GraphPath: good, Store: store, Addr: "256.0.0.1:1"}, nil, []string{"portal: listen on 256.0.0.1:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(t.Context(), tt.o)
			if err == nil {
				s.Close()
				t.Fatal("New succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			for _, w := range tt.says {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// The confirmation passes the gate on each audit store driver: SQLite
// always, PostgreSQL when FRONTLATCH_TEST_POSTGRES_URL names a server
// (scripts/with-postgres.sh; required under CI=true).
func TestConfirmOnEveryStore(t *testing.T) {
	audittest.EachStore(t, func(t *testing.T, store *audit.Store) {
		path := filepath.Join(t.TempDir(), "graph.json")
		h := startPortalStore(t, graphBytes(t, "webmcp01", testOrigin, nil), path, store)
		h.login(t)
		const id = "webmcp01:callback:request-callback"
		if resp, body := h.post(t, actionPath(id), h.confirmForm(t, id), nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("confirm on %s: %d: %s", store.Driver(), resp.StatusCode, body)
		}
		if err := shared.AssertLiveExecutionAllowed(actionBytes(t, path, id), store); err != nil {
			t.Errorf("on %s the written action does not pass the gate: %v", store.Driver(), err)
		}
	})
}

// The page shows the disclosure that is confirmed: each fact of
// shared.DisclosureOf, for an action whose facts are not the fixture's.
func TestPageShowsTheDisclosureConfirmed(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, func(g *shared.ActionGraph) {
		se := &g.Actions[0].SideEffects
		se.ChargesMoney, se.CreatesObligation, se.TransmitsPii, se.Reversible = true, true, false, shared.ReversibleFalse
		se.Effects[0].HoldsInventory = true
		se.Effects[0].Kind = shared.EffectChargesPayment
	}))
	h.login(t)
	_, body := h.get(t, h.srv.Origin()+actionPath(clinicBooking))
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{}
	var effects []string
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "tr" {
			var cells []string
			for c := range n.ChildNodes() {
				if c.Type == html.ElementNode {
					cells = append(cells, textOf(c))
				}
			}
			if len(cells) == 2 {
				facts[cells[0]] = cells[1]
			}
		}
		if n.Type == html.ElementNode && n.Data == "ul" && attr(n, "id") == "effects" {
			for li := range n.ChildNodes() {
				if li.Type == html.ElementNode {
					effects = append(effects, textOf(li))
				}
			}
		}
	}
	want := map[string]string{
		"Does it commit you to something (a slot, a call, a quote)?": "Yes",
		"Does it hold a slot or stock for the customer?":             "Yes",
		"Does it send the customer's personal data?":                 "No",
		"Does it charge money?":                                      "Yes",
		"Can it be undone?":                                          "No",
	}
	for k, v := range want {
		if facts[k] != v {
			t.Errorf("%q shows %q, want %q", k, facts[k], v)
		}
	}
	if len(effects) != 2 || !strings.HasPrefix(effects[0], "charges the customer money") || !strings.Contains(effects[0], "charges-payment") {
		t.Errorf("effects shown = %q", effects)
	}
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// Confirming again (new limits) revokes the confirmation it replaces: the
// old one put back into the graph file no longer passes the gate.
func TestReconfirmRevokesTheReplacedConfirmation(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	form := h.confirmForm(t, clinicBooking)
	form.Set("capMax", "100")
	if resp, body := h.post(t, actionPath(clinicBooking), form, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("first confirmation: %d: %s", resp.StatusCode, body)
	}
	first := readFile(t, h.path)
	form = h.confirmForm(t, clinicBooking)
	form.Set("capMax", "2")
	if resp, body := h.post(t, actionPath(clinicBooking), form, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("second confirmation: %d: %s", resp.StatusCode, body)
	}
	if err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store); err != nil {
		t.Fatalf("the new confirmation does not pass: %v", err)
	}
	if err := os.WriteFile(h.path, first, 0o644); err != nil {
		t.Fatal(err)
	}
	err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store)
	var ue *shared.UnverifiedActionError
	if !errors.As(err, &ue) || !ue.Has(shared.RefuseConfirmationRevoked) {
		t.Errorf("the replaced confirmation, put back, passes or fails otherwise: %v", err)
	}
	hist, err := h.store.History(t.Context(), clinicBooking)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range hist {
		kinds = append(kinds, e.Kind)
	}
	if diff := cmp.Diff([]string{audit.EventConfirmation, audit.EventConfirmation, audit.EventRevocation}, kinds); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
}

// editGraph rewrites the harness's graph file through edit.
func editGraph(t *testing.T, h *harness, edit func(g *shared.ActionGraph)) {
	t.Helper()
	g, err := ReadGraphFile(t.Context(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	edit(g)
	b, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A graph that stops reading while the portal runs: every page says which
// file and which issue, and a confirmation writes nothing.
func TestGraphThatStopsReadingWhileServing(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	form := h.confirmForm(t, clinicBooking)
	broken := []byte(`{"schemaVersion": "0.1", "graphId": 7}`)
	if err := os.WriteFile(h.path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", actionPath(clinicBooking)} {
		resp, body := h.get(t, h.srv.Origin()+p)
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "graph.json") || !strings.Contains(body, "$.graphId: type.mismatch") {
			t.Errorf("GET %s: %d, want 500 naming the file and $.graphId: type.mismatch:\n%s", p, resp.StatusCode, body)
		}
	}
	resp, _ := h.post(t, actionPath(clinicBooking), form, nil)
	if resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("POST: %d, want 500", resp.StatusCode)
	}
	if string(readFile(t, h.path)) != string(broken) {
		t.Error("the broken graph file was rewritten")
	}
	if hist, _ := h.store.History(t.Context(), clinicBooking); len(hist) != 0 {
		t.Errorf("History has %d events, want none", len(hist))
	}
}

func TestMalformedFormIs400(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	req, _ := http.NewRequest(http.MethodPost, h.srv.Origin()+actionPath(clinicBooking), strings.NewReader("csrf=%zz"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", h.srv.Origin())
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed form: %d, want 400", resp.StatusCode)
	}
}

// Two portals on one machine: browsers send a host's cookies to every port,
// so each portal's session cookie has a name of its own and logging into
// one does not log the other out.
func TestTwoPortalsKeepTheirSessions(t *testing.T) {
	a := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	b := startPortal(t, graphBytes(t, "webmcp01", testOrigin, nil))
	b.client = a.client // one browser
	a.login(t)
	b.login(t)
	for _, h := range []*harness{a, b} {
		if resp, _ := h.get(t, h.srv.Origin()+"/"); resp.StatusCode != http.StatusOK {
			t.Errorf("portal %s after both logins: %d, want 200", h.srv.Origin(), resp.StatusCode)
		}
	}
}

// Confirmations sent at once are serialised: each is recorded, each but the
// last is revoked by the next, and the graph ends with one that passes.
func TestConcurrentConfirmationsAreSerialised(t *testing.T) {
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	h.login(t)
	const n = 4
	forms := make([]url.Values, n)
	for i := range forms {
		forms[i] = h.confirmForm(t, clinicBooking)
	}
	statuses := make(chan int, n)
	for _, f := range forms {
		go func() {
			req, _ := http.NewRequest(http.MethodPost, h.srv.Origin()+actionPath(clinicBooking), strings.NewReader(f.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", h.srv.Origin())
			resp, err := h.client.Do(req)
			if err != nil {
				statuses <- 0
				return
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		}()
	}
	for range n {
		if s := <-statuses; s != http.StatusOK {
			t.Errorf("a concurrent confirmation answered %d, want 200", s)
		}
	}
	if err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store); err != nil {
		t.Fatalf("the graph after concurrent confirmations does not pass: %v", err)
	}
	hist, err := h.store.History(t.Context(), clinicBooking)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range hist {
		count[e.Kind]++
	}
	if count[audit.EventConfirmation] != n || count[audit.EventRevocation] != n-1 {
		t.Errorf("history %v, want %d confirmations and %d revocations", count, n, n-1)
	}
}

// The portal's pages check the file's confirmations against its store: a
// file that says an action is verified with a record the store never
// wrote shows it as not live, on the report and on its own page, which
// offers to confirm it and shows no live limits.
func TestPortalDoesNotTakeTheFilesWord(t *testing.T) {
	var id string
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, func(g *shared.ActionGraph) {
		forgedVerified(&g.Actions[0])
		id = g.Actions[0].ID
	}))
	h.login(t)
	_, report := h.get(t, h.srv.Origin()+"/")
	if !strings.Contains(report, "The graph file says you confirmed this, but your audit record does not (confirmation.audit-unresolved") {
		t.Errorf("the report does not say the audit record does not confirm the action")
	}
	_, page := h.get(t, h.srv.Origin()+actionPath(id))
	if !strings.Contains(page, "but your audit record does not") || strings.Contains(page, "confirmed by Dr Lee") {
		t.Errorf("the action's page shows the file's confirmation as live")
	}
	// The owner confirms it for real: then it is live.
	resp, body := h.post(t, actionPath(id), h.confirmForm(t, id), nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Agents may now use it") {
		t.Fatalf("confirming over the file's own confirmation: %d: %s", resp.StatusCode, body)
	}
	if _, report := h.get(t, h.srv.Origin()+"/"); strings.Contains(report, "but your audit record does not") {
		t.Errorf("after a real confirmation the report still says the record does not confirm it")
	}
}

// storeHook is the real store with a hook run after RecordConfirmation
// and a RecordRevocation that can be made to fail.
type storeHook struct {
	*audit.Store
	afterConfirm func()
	revokeErr    error
	hang         atomic.Bool // LookupAudit waits until its context is done
}

func (s *storeHook) LookupAudit(ctx context.Context, q shared.AuditQuery) (shared.AuditAnswer, error) {
	if s.hang.Load() {
		<-ctx.Done()
		return shared.AuditAnswer{}, ctx.Err()
	}
	return s.Store.LookupAudit(ctx, q)
}

func (s *storeHook) RecordConfirmation(ctx context.Context, c audit.Confirmation) (audit.Confirmation, error) {
	rec, err := s.Store.RecordConfirmation(ctx, c)
	if s.afterConfirm != nil {
		s.afterConfirm()
	}
	return rec, err
}

func (s *storeHook) RecordRevocation(ctx context.Context, r audit.Revocation) error {
	if s.revokeErr != nil {
		return s.revokeErr
	}
	return s.Store.RecordRevocation(ctx, r)
}

// hookedPortal serves clinic01 through a storeHook of a fresh SQLite store.
func hookedPortal(t *testing.T, tweak ...func(*Options)) (*harness, *storeHook) {
	t.Helper()
	dir := t.TempDir()
	store, err := audit.Open(t.Context(), filepath.Join(dir, "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	hook := &storeHook{Store: store}
	h := startPortalOn(t, graphBytes(t, "clinic01", testOrigin, nil), filepath.Join(dir, "graph.json"), hook, store, tweak...)
	h.login(t)
	return h, hook
}

// A re-confirmation that fails after its audit record is written (here:
// the graph file changed meanwhile, so it is not rewritten) says nothing
// was confirmed, and so it is: the confirmation it would have replaced is
// still live, not revoked.
func TestFailedReconfirmKeepsTheOldConfirmation(t *testing.T) {
	h, hook := hookedPortal(t)
	if resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("first confirmation: %d: %s", resp.StatusCode, body)
	}
	form := h.confirmForm(t, clinicBooking)
	hook.afterConfirm = func() { // someone else saves the file meanwhile
		b := readFile(t, h.path)
		if err := os.WriteFile(h.path, append(b, '\n'), 0o644); err != nil {
			t.Error(err)
		}
	}
	resp, body := h.post(t, actionPath(clinicBooking), form, nil)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "Nothing was confirmed") {
		t.Fatalf("second confirmation: %d, want %d saying nothing was confirmed: %s", resp.StatusCode, http.StatusConflict, body)
	}
	if err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store); err != nil {
		t.Errorf("the first confirmation no longer passes after a confirmation that was refused: %v", err)
	}
}

// The portal revokes only this action's replaced confirmation: a graph
// file edited to name another action's audit record under this action does
// not get that record revoked when the owner confirms this action.
func TestReconfirmRevokesOnlyThisActionsRecord(t *testing.T) {
	h, _ := hookedPortal(t)
	other, err := h.store.RecordConfirmation(t.Context(), audit.Confirmation{ActionID: "elsewhere:booking:form", ConfirmedBy: "Sam",
		ConfirmedAt: "2026-09-02T09:30:00.000Z", Method: shared.ConfirmedOwnerPortal, Digest: "sha256:" + strings.Repeat("0", 64)})
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("first confirmation: %d: %s", resp.StatusCode, body)
	}
	editGraph(t, h, func(g *shared.ActionGraph) {
		v := g.Actions[0].Verification.(shared.Verified)
		v.Confirmation.AuditRecord = &other.Ref
		g.Actions[0].Verification = v
	})
	if resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("second confirmation: %d: %s", resp.StatusCode, body)
	}
	ans, err := h.store.LookupAudit(t.Context(), shared.AuditQuery{Ref: other.Ref, ActionID: other.ActionID, ConfirmedBy: other.ConfirmedBy, ConfirmedAt: other.ConfirmedAt})
	if err != nil || !ans.Found || ans.Revoked {
		t.Errorf("the other action's record: %+v (%v), want found and not revoked", ans, err)
	}
}

// A replaced confirmation the store cannot revoke is said on the
// confirmation page, with what to do: the new one is recorded and written.
func TestReconfirmSaysWhenTheOldOneStaysLive(t *testing.T) {
	h, hook := hookedPortal(t)
	if resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("first confirmation: %d: %s", resp.StatusCode, body)
	}
	first := readFile(t, h.path)
	hook.revokeErr = errors.New("disk I/O error")
	resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="not-revoked"`) || !strings.Contains(body, "disk I/O error") {
		t.Fatalf("second confirmation: %d, want 200 with the not-revoked warning: %s", resp.StatusCode, body)
	}
	if err := shared.AssertLiveExecutionAllowed(actionBytes(t, h.path, clinicBooking), h.store); err != nil {
		t.Errorf("the new confirmation does not pass: %v", err)
	}
	if bytes.Equal(first, readFile(t, h.path)) {
		t.Error("the graph file was not rewritten")
	}
}

// A store that stops answering makes the report and the action page say
// the confirmation could not be checked, within Options.StoreTimeout,
// rather than hang them or show the action as live.
func TestPagesBoundTheStore(t *testing.T) {
	h, hook := hookedPortal(t, func(o *Options) { o.StoreTimeout = 300 * time.Millisecond })
	if resp, body := h.post(t, actionPath(clinicBooking), h.confirmForm(t, clinicBooking), nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("confirmation: %d: %s", resp.StatusCode, body)
	}
	hook.hang.Store(true)
	for _, page := range []string{"/", actionPath(clinicBooking)} {
		t.Run(page, func(t *testing.T) {
			start := time.Now()
			resp, body := h.get(t, h.srv.Origin()+page)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the page took %v", took)
			}
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, "did not answer") {
				t.Errorf("%d, want 200 saying the store did not answer:\n%s", resp.StatusCode, body)
			}
		})
	}
}
