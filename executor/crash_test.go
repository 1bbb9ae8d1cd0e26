package executor_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

const helperEnv = "FRONTLATCH_EXECUTOR_HELPER"

// TestHelperProcess is not a test: run as a subprocess by TestCrashRecovery,
// it fires the action in $FRONTLATCH_EXECUTOR_ACTION through the store at
// $FRONTLATCH_EXECUTOR_STORE, with a heartbeat of $FRONTLATCH_EXECUTOR_HEARTBEAT,
// and is killed while the site holds the submission.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("run as a subprocess by TestCrashRecovery")
	}
	ctx := context.Background()
	st, err := audit.Open(ctx, os.Getenv("FRONTLATCH_EXECUTOR_STORE"))
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile(os.Getenv("FRONTLATCH_EXECUTOR_ACTION"))
	if err != nil {
		t.Fatal(err)
	}
	every, err := time.ParseDuration(os.Getenv("FRONTLATCH_EXECUTOR_HEARTBEAT"))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := executor.New(executor.Options{Store: st, Instance: "crashing-child", Heartbeat: every})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ex.Execute(ctx, executor.Call{Action: action, Input: goodCallback()})
	t.Fatalf("Execute returned (%v); it should have been killed first", err)
}

// TestCrashRecovery: an executor killed (SIGKILL) between the audit record
// and the site's answer loses nothing: the attempt is there, recovery marks
// it outcome unknown, and the cap still counts it — on each SQLite
// durability setting (they differ only on a power loss). The killed
// process renewed its heartbeat lease while the site held its submission,
// so the restarted executor's recovery as it starts may find the lease
// still lasting; its ticker then marks the attempt once the lease runs out
// (the child's heartbeat is short, so that is soon). Between them they
// mark it exactly once.
func TestCrashRecovery(t *testing.T) {
	for _, sync := range []string{"", "?synchronous=" + string(audit.DurabilityFull), "?synchronous=" + string(audit.DurabilityNormal)} {
		name := "default"
		if sync != "" {
			name = sync[1:]
		}
		t.Run(name, func(t *testing.T) { crashRecovery(t, sync) })
	}
}

func crashRecovery(t *testing.T, sync string) {
	received := make(chan struct{}, 1)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body) // read it all, so the server notices the client going away
		received <- struct{}{}
		<-r.Context().Done() // hold the submission until the child dies
	}))
	defer site.Close()

	dir := t.TempDir()
	storePath := filepath.Join(dir, "audit.db")
	storeURL := "sqlite:" + storePath + sync
	st, err := audit.Open(t.Context(), storeURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	graph, err := fixtures.MappedGraph("electrician01", site.URL)
	if err != nil {
		t.Fatal(err)
	}
	action := executortest.ConfirmAction(t, st, graph, callback, executortest.Limits(1, shared.PerDay, "owner@example.test"))
	actionPath := filepath.Join(dir, "action.json")
	if err := os.WriteFile(actionPath, action, 0o600); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "FRONTLATCH_EXECUTOR_STORE="+storeURL, "FRONTLATCH_EXECUTOR_ACTION="+actionPath,
		"FRONTLATCH_EXECUTOR_HEARTBEAT=100ms")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-received:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the child never reached the site; its output:\n%s", out.String())
	}
	// The site holds the submission: the attempt must already be on disk.
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil || len(atts) != 1 || atts[0].Completed != nil {
		t.Fatalf("while the submission is in flight: attempts %+v (%v), want one pending", atts, err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = cmd.Wait()

	logged := newRecords()
	ex := newExecutor(t, st, executor.Options{Instance: "restarted", Heartbeat: 50 * time.Millisecond, Logger: slog.New(logged)})
	n, err := ex.RecoverAbandoned(t.Context(), time.Time{})
	if err != nil || n > 1 {
		t.Fatalf("RecoverAbandoned = %d, %v; want 1, or 0 while the child's lease lasts", n, err)
	}
	if n == 0 { // the ticker marks it once the lease has run out
		t.Log("the child's lease still lasted at the restart; waiting for the ticker")
		n = logged.marked(t, 60*time.Second)
	}
	if n != 1 {
		t.Fatalf("recovery marked %d attempts, want 1", n)
	}
	atts, err = st.Attempts(t.Context(), callback)
	if err != nil || len(atts) != 1 || !atts[0].Unknown {
		t.Fatalf("after recovery: attempts %+v (%v), want one marked unknown", atts, err)
	}
	if atts[0].Instance != "crashing-child" || len(atts[0].Request) == 0 {
		t.Errorf("the attempt lost what it was: %+v", atts[0])
	}
	// The cap (1 per day) still counts the attempt whose outcome is unknown.
	_, err = ex.Execute(t.Context(), executor.Call{Action: action, Input: goodCallback()})
	if !errors.Is(err, executor.ErrCapReached) {
		t.Fatalf("after the crash: err = %v, want ErrCapReached", err)
	}
	select {
	case <-received:
		t.Error("the site received a second submission")
	default:
	}
}

// TestPanicMidCall: a call that panics between the attempt's begin record
// and its completion (here in the caller's HTTP transport, as the request
// is being sent) still completes the attempt, outcome unknown, before the
// panic goes on to the caller; a repeat of its idempotency key says so and
// sends nothing. Before, the attempt stayed pending for as long as the
// process lived: only a restart's RecoverAbandoned marked it.
func TestPanicMidCall(t *testing.T) {
	site := newRecorder(t, func(r *recorder, w http.ResponseWriter, req *http.Request) { r.record(req) })
	graph, err := fixtures.MappedGraph("electrician01", site.URL)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ex := newExecutor(t, st, executor.Options{HTTPClient: &http.Client{Transport: panickingTransport{}}})
	action := confirmed(t, st, graph, callback)
	call := executor.Call{Action: action, Input: goodCallback(), IdempotencyKey: "order-1"}
	got := func() (p any) {
		defer func() { p = recover() }()
		_, _ = ex.Execute(t.Context(), call)
		return nil
	}()
	if got != errTransportPanic {
		t.Fatalf("Execute panicked with %v, want the transport's panic passed on", got)
	}
	atts, err := st.Attempts(t.Context(), callback)
	if err != nil {
		t.Fatal(err)
	}
	if len(atts) != 1 || atts[0].Completed == nil || atts[0].Completed.Outcome != audit.OutcomeUnknown {
		t.Fatalf("%d attempts, the first completed %+v; want one completed with outcome unknown", len(atts), atts[0].Completed)
	}
	var fe *executor.FirstCallError
	if _, err := ex.Execute(t.Context(), call); !errors.As(err, &fe) || fe.Outcome != audit.OutcomeUnknown {
		t.Errorf("the repeat: %v, want a *FirstCallError of outcome unknown", err)
	}
	if n := site.count(); n != 0 {
		t.Errorf("the site received %d submissions, want 0", n)
	}
}

var errTransportPanic = errors.New("the test's transport panics")

// panickingTransport panics on every request.
type panickingTransport struct{}

func (panickingTransport) RoundTrip(*http.Request) (*http.Response, error) { panic(errTransportPanic) }
