package fleet

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// signalHandler is a slog handler that closes started when a record's
// message contains msg.
type signalHandler struct {
	msg     string
	started chan struct{}
	once    *sync.Once
}

func (h signalHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h signalHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h signalHandler) WithGroup(string) slog.Handler            { return h }
func (h signalHandler) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, h.msg) {
		h.once.Do(func() { close(h.started) })
	}
	return nil
}

// TestCloseStopsWork: Close stops a running Work, as its godoc says, and
// returns only once Work has returned (it closed the database under the
// running workers, and Work went on until its context ended); Work on a
// closed Fleet is ErrClosed.
func TestCloseStopsWork(t *testing.T) {
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			started := make(chan struct{})
			h := signalHandler{msg: "River client started", started: started, once: new(sync.Once)}
			done := make(chan error, 1)
			go func() {
				done <- f.Work(t.Context(), WorkOptions{Workers: 1, Logger: slog.New(h), Metrics: NewMetrics()})
			}()
			select {
			case <-started:
			case err := <-done:
				t.Fatalf("Work returned before it started: %v", err)
			case <-time.After(time.Minute):
				t.Fatal("the worker did not start")
			}
			closed := make(chan error, 1)
			go func() { closed <- f.Close() }()
			select {
			case err := <-closed:
				select {
				case werr := <-done:
					if err != nil || werr != nil {
						t.Errorf("Close = %v, Work = %v; want nil, nil", err, werr)
					}
				default:
					t.Fatalf("Close returned (%v) while Work was still running", err)
				}
			case <-time.After(StopGrace + time.Minute):
				t.Fatal("Close did not return: it did not stop Work")
			}
			if err := f.Work(t.Context(), WorkOptions{}); !errors.Is(err, ErrClosed) {
				t.Errorf("Work on a closed Fleet = %v, want ErrClosed", err)
			}
			if err := f.Close(); err != nil {
				t.Errorf("a second Close = %v", err)
			}
		})
	}
}

// TestWorkStoppedBeforeStart: Work whose context is done before its
// workers start (Ctrl-C at once, or a Close at that moment) stops as it
// does after: nil, not River's "starting workers: error making initial
// connection to database: context canceled".
func TestWorkStoppedBeforeStart(t *testing.T) {
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if err := f.Work(ctx, WorkOptions{Workers: 1}); err != nil {
				t.Errorf("Work with its context done = %v, want nil", err)
			}
		})
	}
}

// TestClosedFleet: every call on a closed Fleet is ErrClosed, not
// ErrUnavailable ("database unavailable: sql: database is closed" sent
// the operator to a database that was fine).
func TestClosedFleet(t *testing.T) {
	f := openTemp(t)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, clinicGraph)
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Add", func(ctx context.Context) error {
			_, err := f.Add(ctx, inputs([]string{"https://a.example/"}))
			return err
		}},
		{"Import", func(ctx context.Context) error { _, err := f.Import(ctx, g); return err }},
		{"Latest", func(ctx context.Context) error { _, err := f.Latest(ctx, "https://a.example/"); return err }},
		{"Status", func(ctx context.Context) error { _, err := f.Status(ctx); return err }},
		{"Failures", func(ctx context.Context) error { _, err := f.Failures(ctx); return err }},
		{"Changes", func(ctx context.Context) error { _, err := f.Changes(ctx, time.Now()); return err }},
		{"Export", func(ctx context.Context) error { _, err := f.Export(ctx, t.TempDir()); return err }},
		{"QueueRescans", func(ctx context.Context) error { _, err := f.QueueRescans(ctx, time.Now()); return err }},
		{"Work", func(ctx context.Context) error { return f.Work(ctx, WorkOptions{}) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(t.Context()); !errors.Is(err, ErrClosed) || errors.Is(err, ErrUnavailable) {
				t.Errorf("%s on a closed Fleet = %v, want ErrClosed", c.name, err)
			}
		})
	}
}
