package executor_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// openStore opens a fresh SQLite audit store in the test's temporary folder.
func openStore(t testing.TB) *audit.Store {
	t.Helper()
	return audittest.Open(t, audittest.URL(t, audit.DriverSQLite))
}

// newExecutor returns an executor over st, closed at the test's end.
func newExecutor(tb testing.TB, st *audit.Store, opts executor.Options) *executor.Executor {
	tb.Helper()
	opts.Store = st
	if opts.HTTPClient == nil {
		// Its own transport, whose idle connections are closed before the
		// test's servers stop (a server waits for connections it has not
		// yet read a request from).
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tb.Cleanup(tr.CloseIdleConnections)
		opts.HTTPClient = &http.Client{Timeout: 20 * time.Second, Transport: tr}
	}
	ex, err := executor.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = ex.Close() })
	return ex
}

// site serves one fixture site and returns the server and its mapped graph.
func site(tb testing.TB, name string) (*fixtures.Server, []byte) {
	tb.Helper()
	srv := fixturestest.Serve(tb, name)
	g, err := fixtures.MappedGraph(name, fixturestest.URL(tb, srv, name))
	if err != nil {
		tb.Fatal(err)
	}
	return srv, g
}

// confirmed returns the raw bytes of actionID confirmed with a generous cap.
func confirmed(tb testing.TB, st *audit.Store, graph []byte, actionID string) []byte {
	tb.Helper()
	return executortest.ConfirmAction(tb, st, graph, actionID, executortest.Limits(100, shared.PerDay, "owner@example.test"))
}

func submissions(tb testing.TB, srv *fixtures.Server, name string) []fixtures.Submission {
	tb.Helper()
	subs, err := srv.Submissions(name)
	if err != nil {
		tb.Fatal(err)
	}
	return subs
}

type storeT = *audit.Store

// lockedBuffer collects a subprocess's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// records is a slog.Handler for an executor's Logger: it passes on the
// executor's reports of the attempts it marked outcome unknown while it
// runs (the "attempts" of such a record), and keeps every message.
type records struct {
	marks chan int
	mu    sync.Mutex
	all   []string
}

func newRecords() *records { return &records{marks: make(chan int, 16)} }

func (r *records) Enabled(context.Context, slog.Level) bool { return true }

func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	r.all = append(r.all, rec.Level.String()+" "+rec.Message)
	r.mu.Unlock()
	if !strings.Contains(rec.Message, "marked outcome unknown") {
		return nil
	}
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key != "attempts" {
			return true
		}
		select {
		case r.marks <- int(a.Value.Int64()):
		default:
		}
		return false
	})
	return nil
}

func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

// marked waits up to within for the executor's next report of attempts it
// marked outcome unknown, and returns how many.
func (r *records) marked(t testing.TB, within time.Duration) int {
	t.Helper()
	select {
	case n := <-r.marks:
		return n
	case <-time.After(within):
		r.mu.Lock()
		defer r.mu.Unlock()
		t.Fatalf("no attempt was marked outcome unknown within %v; the executor logged %q", within, r.all)
		return 0
	}
}
