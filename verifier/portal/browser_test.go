package portal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/go-cmp/cmp"
)

// EnvScreenshots, when set, makes the browser tests save the screenshots
// docs/verifier.md shows (as -update does); normal runs leave them alone.
const EnvScreenshots = "FRONTLATCH_SCREENSHOTS"

const step = 30 * time.Second // every rod call's timeout

// newBrowser starts a Chromium for the test.
func newBrowser(t *testing.T) *topology.Browser {
	t.Helper()
	topologytest.NeedChromium(t)
	b, err := topology.NewBrowser(t.Context(), topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// browserPage opens a page for the test, 1000×800 CSS pixels, in b (a new
// Chromium when b is nil).
func browserPage(t *testing.T, b *topology.Browser) *rod.Page {
	t.Helper()
	if b == nil {
		b = newBrowser(t)
	}
	// The whole test's browser work is bounded, and each call by step.
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	t.Cleanup(cancel)
	p, err := b.Rod().Context(ctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Timeout(step).SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 1000, Height: 800, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	return p
}

// shoot saves a full-page screenshot as docs/img/verifier-NAME.png under
// -update or $FRONTLATCH_SCREENSHOTS.
func shoot(t *testing.T, p *rod.Page, name string) {
	t.Helper()
	if !*update && os.Getenv(EnvScreenshots) == "" {
		return
	}
	png, err := p.Timeout(step).Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(fixturestest.MustRepoRoot(t), "docs", "img")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "verifier-"+name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func text(t *testing.T, p *rod.Page, selector string) string {
	t.Helper()
	el, err := p.Timeout(step).Element(selector)
	if err != nil {
		t.Fatalf("%s: %v", selector, err)
	}
	s, err := el.Timeout(step).Text()
	if err != nil {
		t.Fatalf("%s: %v", selector, err)
	}
	return s
}

// navigate goes to u and waits for the page to load.
func navigate(t *testing.T, p *rod.Page, u string) {
	t.Helper()
	if err := p.Timeout(step).Navigate(u); err != nil {
		t.Fatal(err)
	}
	if err := p.Timeout(step).WaitLoad(); err != nil {
		t.Fatal(err)
	}
}

// typeInto focuses the field labelled by id and types s, as a keyboard does.
func typeInto(t *testing.T, p *rod.Page, id, s string) {
	t.Helper()
	el, err := p.Timeout(step).Element("#" + id)
	if err != nil {
		t.Fatal(err)
	}
	el = el.Timeout(step)
	if err := el.Focus(); err != nil {
		t.Fatal(err)
	}
	if err := el.SelectAllText(); err != nil {
		t.Fatal(err)
	}
	if err := el.Input(s); err != nil {
		t.Fatal(err)
	}
}

// submitByKeyboard focuses the confirm button and presses Enter, and waits
// for the answer page.
func submitByKeyboard(t *testing.T, p *rod.Page) {
	t.Helper()
	btn, err := p.Timeout(step).Element("#confirm-button")
	if err != nil {
		t.Fatal(err)
	}
	if err := btn.Timeout(step).Focus(); err != nil {
		t.Fatal(err)
	}
	wait := p.Timeout(step).WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := p.Keyboard.Press(input.Enter); err != nil {
		t.Fatal(err)
	}
	wait()
}

func activeElement(t *testing.T, p *rod.Page) string {
	t.Helper()
	res, err := p.Timeout(step).Eval(`() => { const e = document.activeElement; return e.tagName + "." + e.className + "#" + e.id }`)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.Str()
}

// The owner's journey: open the printed URL, read the report, open the
// action, read the disclosure, set the limits, confirm with the keyboard;
// the graph written passes the consent gate with the store as its lookup.
func TestOwnerJourneyInChromium(t *testing.T) {
	b := newBrowser(t)
	p := browserPage(t, b)
	site := fixturestest.Serve(t, "clinic01")
	origin := fixturestest.URL(t, site, "clinic01")
	// A real sandbox run first, in the same Chromium: the page shows it.
	res, err := verifier.Sandbox(t.Context(), mapped(t, "clinic01", origin), clinicBooking, verifier.SandboxOptions{Browser: b})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	tested, err := shared.Write(res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	h := startPortal(t, tested)

	navigate(t, p, h.srv.URL())
	info, err := p.Timeout(step).Info()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(info.URL, "token") || !strings.HasSuffix(info.URL, "/") {
		t.Errorf("after opening the printed URL the address is %s; the token must be gone", info.URL)
	}
	if got := text(t, p, "h1"); !strings.Contains(got, "What an AI agent can do") {
		t.Fatalf("first page heading = %q", got)
	}
	shoot(t, p, "report")
	if err := p.Keyboard.Press(input.Tab); err != nil {
		t.Fatal(err)
	}
	if got := activeElement(t, p); got != "A.skip#" {
		t.Errorf("first Tab focuses %s, want the skip link", got)
	}

	link, err := p.Timeout(step).Element(`a[href="` + actionPath(clinicBooking) + `"]`)
	if err != nil {
		t.Fatal(err)
	}
	wait := p.Timeout(step).WaitNavigation(proto.PageLifecycleEventNameLoad)
	if err := link.Timeout(step).Focus(); err != nil {
		t.Fatal(err)
	}
	if err := p.Keyboard.Press(input.Enter); err != nil {
		t.Fatal(err)
	}
	wait()

	g, err := ReadGraphFile(t.Context(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	want := g.Actions[0].SideEffects.Summary
	if got := text(t, p, "#summary"); got != want {
		t.Errorf("the page shows the summary %q, the action states %q", got, want)
	}
	if got := text(t, p, "#effects"); !strings.Contains(got, words(effectWords, g.Actions[0].SideEffects.Effects[0].Kind)) {
		t.Errorf("effects shown: %q", got)
	}
	if got := text(t, p, "#goes"); got == "" {
		t.Error("no heading for where submissions go")
	}
	if body := text(t, p, "main"); !strings.Contains(body, origin) || !strings.Contains(body, res.Run.RunID) || !strings.Contains(body, "Yes, personal data") {
		t.Errorf("the page does not show the endpoint origin, the sandbox run and the personal data:\n%s", body)
	}

	warned, _, err := p.Timeout(step).Has("#last-run-warning")
	if err != nil {
		t.Fatal(err)
	}
	if (res.Run.Outcome != shared.SandboxPassed) != warned {
		t.Errorf("sandbox run outcome %s, warning that it did not pass shown: %v", res.Run.Outcome, warned)
	}
	typeInto(t, p, "cap-max", "3")
	sel, err := p.Timeout(step).Element("#cap-per")
	if err != nil {
		t.Fatal(err)
	}
	if err := sel.Timeout(step).Select([]string{"per week"}, true, rod.SelectorTypeText); err != nil {
		t.Fatal(err)
	}
	typeInto(t, p, "notify", "https://hooks.harbourside.example/frontlatch")
	typeInto(t, p, "confirmed-by", "Dr Mira Lee")
	shoot(t, p, "confirm")
	submitByKeyboard(t, p)

	if got := text(t, p, "#confirmed-status"); !strings.Contains(got, "Agents may now use it") {
		t.Fatalf("after confirming: %q", got)
	}
	shoot(t, p, "confirmed")

	ab := actionBytes(t, h.path, clinicBooking)
	if err := shared.AssertLiveExecutionAllowed(ab, h.store); err != nil {
		t.Fatalf("the graph written does not pass the gate: %v", err)
	}
	after, _ := ReadGraphFile(t.Context(), h.path)
	c := after.Actions[0].Verification.(shared.Verified).Confirmation
	if c.ConfirmedBy != "Dr Mira Lee" || c.Limits.VolumeCap.Max != 3 || c.Limits.VolumeCap.Per != shared.PerWeek || *c.Limits.Notify != "https://hooks.harbourside.example/frontlatch" {
		t.Errorf("confirmation written = %+v", c)
	}
	if diff := cmp.Diff([]shared.SandboxRun{res.Run}, after.Actions[0].Verification.(shared.Verified).SandboxRuns); diff != "" {
		t.Errorf("the sandbox run is not kept (-want +got):\n%s", diff)
	}
	if got := text(t, p, "#audit-ref"); got != *c.AuditRecord {
		t.Errorf("page shows audit record %q, graph holds %q", got, *c.AuditRecord)
	}
	if subs, err := site.Submissions("clinic01"); err != nil || len(subs) != 0 {
		t.Errorf("the fixture site received %d submissions (%v); confirming sends nothing", len(subs), err)
	}
}

// A graph edited on disk between the page and the click is refused in the
// browser, and nothing is written.
func TestTamperedDisclosureRefusedInChromium(t *testing.T) {
	p := browserPage(t, nil)
	h := startPortal(t, graphBytes(t, "clinic01", testOrigin, nil))
	navigate(t, p, h.srv.URL())
	navigate(t, p, h.srv.Origin()+actionPath(clinicBooking))
	shown := text(t, p, "#summary")

	// Someone with write access to the graph makes the action charge money
	// and send its data elsewhere while the owner reads the page.
	g, err := ReadGraphFile(t.Context(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	g.Actions[0].SideEffects.ChargesMoney = true
	g.Actions[0].Access[0].Submission.Endpoint = strp("https://collector.example.net/steal")
	tampered, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path, tampered, 0o644); err != nil {
		t.Fatal(err)
	}

	typeInto(t, p, "cap-max", "3")
	typeInto(t, p, "notify", "https://hooks.harbourside.example/frontlatch")
	typeInto(t, p, "confirmed-by", "Dr Mira Lee")
	submitByKeyboard(t, p)

	if got := text(t, p, "h1"); got != "Nothing was confirmed" {
		t.Errorf("after a tampered confirmation the page says %q", got)
	}
	body := text(t, p, "main")
	for _, s := range []string{"$.disclosure.chargesMoney", "$.doors[0].endpoint", "collector.example.net"} {
		if !strings.Contains(body, s) {
			t.Errorf("the refusal does not name %q:\n%s", s, body)
		}
	}
	shoot(t, p, "refused")
	if got := readFile(t, h.path); string(got) != string(tampered) {
		t.Error("the graph was rewritten by a refused confirmation")
	}
	if hist, err := h.store.History(t.Context(), clinicBooking); err != nil || len(hist) != 0 {
		t.Errorf("History = %+v, %v; want nothing recorded", hist, err)
	}
	if shown == "" {
		t.Error("the page showed no summary")
	}
	// The page for the action as it is now shows the new facts.
	navigate(t, p, h.srv.Origin()+actionPath(clinicBooking))
	if facts := text(t, p, "#facts"); !strings.Contains(facts, "Does it charge money?\tYes") && !strings.Contains(facts, "Does it charge money? Yes") {
		t.Errorf("the page after the change does not say it charges money: %q", facts)
	}
}
