package executor_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/executor"
	"github.com/frontlatch/frontlatch/executor/executortest"
	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/fixtures/fixturestest"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

// openStore opens a fresh SQLite audit store in the test's temporary folder.
func openStore(tb testing.TB) *audit.Store {
	tb.Helper()
	st, err := audit.Open(tb.Context(), filepath.Join(tb.TempDir(), "audit.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = st.Close() })
	return st
}

// newExecutor returns an executor over st, closed at the test's end.
func newExecutor(tb testing.TB, st *audit.Store, opts executor.Options) *executor.Executor {
	tb.Helper()
	opts.Store = st
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 20 * time.Second}
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
