package executor_test

import (
	"bytes"
	"net/http"
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
