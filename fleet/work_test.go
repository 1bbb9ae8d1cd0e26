package fleet

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/fixtures"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/frontlatch/frontlatch/verifier/audit/audittest"
)

// variantSites are the fixture sites the fleet tests map many copies of:
// quick to map, with and without actions.
var variantSites = []string{"brochure01", "electrician01", "wpforms01", "jsonld01", "brochure02", "webmcp01"}

// serveVariants serves n copies of the fixture sites, each on its own
// loopback origin, and returns their URLs.
func serveVariants(t testing.TB, n int) []string {
	t.Helper()
	urls := make([]string, n)
	for i := range n {
		name := variantSites[i%len(variantSites)]
		srv, err := fixtures.ServeSite(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		u, err := srv.URL(name)
		if err != nil {
			t.Fatal(err)
		}
		urls[i] = u + "/"
	}
	return urls
}

func testMapOptions() mapper.Options {
	return mapper.Options{MaxPages: 2, NoExplore: true, Offline: true, PageTimeout: 20 * time.Second, RunTimeout: 60 * time.Second}
}

func inputs(urls []string) []Input {
	in := make([]Input, len(urls))
	for i, u := range urls {
		in[i] = Input{URL: u, Source: "argument " + strconv.Itoa(i+1)}
	}
	return in
}

// waitDone polls until every job is done or failed, or the deadline.
func waitDone(t *testing.T, f *Fleet, total int, limit time.Duration) Status {
	t.Helper()
	deadline := time.Now().Add(limit)
	var st Status
	for time.Now().Before(deadline) {
		var err error
		st, err = f.Status(t.Context())
		if err == nil && st.Done+st.Failed >= total {
			return st
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("not done after %s: %+v", limit, st)
	return st
}

// okRows counts fleet_maps' ok rows: total, distinct sites, distinct jobs.
func okRows(t *testing.T, f *Fleet) (rows, sites, jobs int) {
	t.Helper()
	err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(*), COUNT(DISTINCT site), COUNT(DISTINCT job_id) FROM fleet_maps WHERE ok = 1`).Scan(&rows, &sites, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	return
}

// TestWork maps a dozen sites in this process, records a down site's
// failure and discards it after its attempts, exports the graphs and
// answers what changed.
func TestWork(t *testing.T) {
	topologytest.NeedChromium(t)
	f := openTemp(t)
	f.MaxAttempts = 2
	urls := serveVariants(t, 12)
	// A site that is down: a port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String() + "/"
	l.Close()
	before := time.Now()
	if _, err := f.Add(t.Context(), inputs(append(urls, down))); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	metrics := NewMetrics()
	var pages atomic.Int64 // what the mapper reports opening, for the pages metric
	mo := testMapOptions()
	mo.OnPage = func(string) { pages.Add(1) }
	go func() {
		done <- f.Work(ctx, WorkOptions{Workers: 2, Offline: true, Map: mo,
			Backoff: func(int) time.Duration { return 100 * time.Millisecond }, Metrics: metrics})
	}()
	st := waitDone(t, f, len(urls)+1, 4*time.Minute)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Work: %v", err)
	}
	if st.Done != len(urls) || st.Failed != 1 {
		t.Errorf("status %+v, want %d done and 1 failed", st, len(urls))
	}
	if rows, sites, jobs := okRows(t, f); rows != len(urls) || sites != len(urls) || jobs != len(urls) {
		t.Errorf("ok rows %d, sites %d, jobs %d; want %d each (every graph written exactly once)", rows, sites, jobs, len(urls))
	}
	fails, err := f.Failures(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) != 1 || fails[0].Site != down || fails[0].Code != "unreachable" || fails[0].Attempt != 2 {
		t.Errorf("failures %+v, want the down site, unreachable, after 2 attempts", fails)
	}
	dir := t.TempDir()
	if n, err := f.Export(t.Context(), dir); err != nil || n != len(urls) {
		t.Errorf("Export = %d, %v; want %d", n, err, len(urls))
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != len(urls) {
		t.Errorf("%d files exported, want %d", len(files), len(urls))
	}
	changes, err := f.Changes(t.Context(), before)
	if err != nil {
		t.Fatal(err)
	}
	gained := 0
	for _, c := range changes {
		gained += len(c.Gained)
		if len(c.Lost) > 0 {
			t.Errorf("%s lost %v on its first map", c.Site, c.Lost)
		}
	}
	if gained == 0 {
		t.Error("no site gained a complete action on its first map")
	}
	if pages.Load() < int64(len(urls)) {
		t.Errorf("%d pages opened for %d sites", pages.Load(), len(urls))
	}
	// The worker's metrics saw every job.
	rec := httptest.NewRecorder()
	metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{
		fmt.Sprintf(`frontlatch_fleet_jobs_total{outcome="mapped"} %d`, len(urls)),
		`frontlatch_fleet_failures_total{reason="unreachable"} 2`,
		fmt.Sprintf("frontlatch_fleet_pages_total %d", pages.Load()),
		"frontlatch_fleet_map_seconds_count",
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// Queued again within the window: nothing new.
	if res, err := f.Add(t.Context(), inputs(urls)); err != nil || len(res.Queued) != 0 {
		t.Errorf("re-add after mapping = %+v, %v; want all duplicates", res, err)
	}
}

// TestTwoWorkerProcesses: a few hundred sites, two worker processes on one
// SQLite file; every site is mapped and every graph written exactly once.
func TestTwoWorkerProcesses(t *testing.T) {
	topologytest.NeedChromium(t)
	n := 200
	if s := os.Getenv("FLEET_TEST_SITES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	db := filepath.Join(t.TempDir(), "fleet.db")
	f, err := Open(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	urls := serveVariants(t, n)
	if _, err := f.Add(t.Context(), inputs(urls)); err != nil {
		t.Fatal(err)
	}
	var procs []*exec.Cmd
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWorker$")
		cmd.Env = append(os.Environ(), "FLEET_HELPER_DB="+db, fmt.Sprintf("FLEET_HELPER_ID=%d", i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	defer func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}()
	start := time.Now()
	st := waitDone(t, f, n, 12*time.Minute)
	t.Logf("%d sites mapped by two worker processes in %s (%.1f sites/min)", n, time.Since(start).Round(time.Second), float64(n)/time.Since(start).Minutes())
	if st.Done != n {
		t.Errorf("status %+v, want %d done", st, n)
	}
	if rows, sites, jobs := okRows(t, f); rows != n || sites != n || jobs != n {
		t.Errorf("ok rows %d, sites %d, jobs %d; want %d each", rows, sites, jobs, n)
	}
	// Both processes took part: River records each job's client.
	var workers int
	if err := f.db.QueryRowContext(t.Context(), `SELECT COUNT(DISTINCT attempted_by) FROM river_job WHERE state = 'completed'`).Scan(&workers); err != nil {
		t.Fatal(err)
	}
	if workers < 2 {
		t.Errorf("jobs were finished by %d distinct clients, want both worker processes", workers)
	}
}

// TestHelperWorker is a worker process for TestTwoWorkerProcesses.
func TestHelperWorker(t *testing.T) {
	db := os.Getenv("FLEET_HELPER_DB")
	if db == "" {
		t.Skip("a helper process of TestTwoWorkerProcesses")
	}
	f, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	mo := testMapOptions()
	mo.MaxPages = 1 // the entry page: the test is about the queue, not the crawl
	wo := WorkOptions{Workers: 2, Offline: true, Map: mo}
	if os.Getenv("FLEET_HELPER_FAST_RESCUE") != "" { // a killed worker's job is rescued within seconds
		wo.JobTimeout, wo.RescueAfter = 20*time.Second, 25*time.Second
	}
	if err := f.Work(ctx, wo); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresWorkersSurviveKillAndRestart: two worker processes on one
// PostgreSQL database; one is SIGKILLed mid-run and the server is restarted
// — River rescues the dead worker's job, the other worker reconnects and
// finishes, and no site is lost or written twice.
func TestPostgresWorkersSurviveKillAndRestart(t *testing.T) {
	topologytest.NeedChromium(t)
	db := audittest.PostgresURL(t)
	pgctl := os.Getenv("FRONTLATCH_TEST_POSTGRES_PGCTL")
	f, err := Open(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const n = 24
	urls := serveVariants(t, n)
	if _, err := f.Add(t.Context(), inputs(urls)); err != nil {
		t.Fatal(err)
	}
	start := func(i int) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWorker$")
		cmd.Env = append(os.Environ(), "FLEET_HELPER_DB="+db, fmt.Sprintf("FLEET_HELPER_ID=%d", i), "FLEET_HELPER_FAST_RESCUE=1")
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	a, b := start(0), start(1)
	defer func() {
		for _, p := range []*exec.Cmd{a, b} {
			p.Process.Kill()
			p.Wait()
		}
	}()
	// Kill worker a while it holds a running job.
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		var running int
		f.db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM river_job WHERE state = 'running'`).Scan(&running)
		if st, _ := f.Status(t.Context()); st.Done >= 3 && running > 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := a.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	a.Wait()
	t.Log("worker 0 killed")
	if pgctl != "" {
		// The restarted server inherits pg_ctl's output: give it a file of
		// its own, not a pipe (this test's, or go test's) that would then
		// never close.
		logf, err := os.Create(filepath.Join(t.TempDir(), "pg_ctl.log"))
		if err != nil {
			t.Fatal(err)
		}
		defer logf.Close()
		restart := exec.Command("sh", "-c", pgctl+" restart -m fast -w -t 60")
		restart.Stdout, restart.Stderr = logf, logf
		if err := restart.Run(); err != nil {
			t.Fatalf("restarting PostgreSQL: %v", err)
		}
		t.Log("PostgreSQL restarted")
	} else if os.Getenv("CI") == "true" {
		t.Fatal("FRONTLATCH_TEST_POSTGRES_PGCTL is unset: scripts/with-postgres.sh sets it")
	}
	st := waitDone(t, f, n, 6*time.Minute)
	if st.Done != n {
		t.Errorf("status %+v, want %d done", st, n)
	}
	if rows, sites, jobs := okRows(t, f); rows != n || sites != n || jobs != n {
		t.Errorf("ok rows %d, sites %d, jobs %d; want %d each: nothing lost, nothing written twice", rows, sites, jobs, n)
	}
}

// TestJobTimeout: a map that runs past the job timeout (a site whose pages
// never answer) is cancelled and retried, then discarded with a timeout.
func TestJobTimeout(t *testing.T) {
	topologytest.NeedChromium(t)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never answers, until the test ends
		case <-r.Context().Done():
		case <-t.Context().Done():
		}
	}))
	defer hang.Close()
	f := openTemp(t)
	f.MaxAttempts = 2
	if _, err := f.Add(t.Context(), []Input{{URL: hang.URL + "/"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	mo := testMapOptions()
	mo.FetchTimeout, mo.RunTimeout = time.Minute, 2*time.Minute // the job's timeout must be what ends it
	start := time.Now()
	go func() {
		done <- f.Work(ctx, WorkOptions{Workers: 1, Offline: true, Map: mo, JobTimeout: 2 * time.Second,
			Backoff: func(int) time.Duration { return 100 * time.Millisecond }})
	}()
	st := waitDone(t, f, 1, 2*time.Minute)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if st.Failed != 1 {
		t.Fatalf("status %+v, want the hanging site discarded", st)
	}
	fails, err := f.Failures(t.Context())
	if err != nil || len(fails) != 1 || fails[0].Code != "timeout" || fails[0].Attempt != 2 {
		t.Errorf("failures %+v (%v), want one timeout after 2 attempts", fails, err)
	}
	if took := time.Since(start); took > time.Minute {
		t.Errorf("two 2 s attempts took %s", took)
	}
}
