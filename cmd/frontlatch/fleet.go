package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/fleet"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

func init() {
	register(command{
		name:    "fleet",
		usage:   "frontlatch fleet add|work|status|changes|export|import …",
		summary: "map thousands of sites on a River queue (SQLite by default, PostgreSQL for many machines)",
		run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
			return runParent(ctx, "fleet", args, stdout, stderr)
		},
	})
	registerSub("fleet", command{
		name:    "add",
		usage:   "frontlatch fleet add [--db URL] FILE|URL...",
		summary: "queue one map job per site (a FILE lists one URL per line); a site still queued, or mapped in the last 24 hours, is not queued again",
		run:     runFleetAdd,
	})
	registerSub("fleet", command{
		name:    "work",
		usage:   "frontlatch fleet work [--db URL] [--workers N] [--per-host N] [--browser-url ws://…|http://host:9222] [--metrics 127.0.0.1:9464 [--metrics-token T]] [--rescan-every 24h --store URL]",
		summary: "map queued sites until interrupted: retries with backoff, a per-host limit, local or remote Chromium, Prometheus /metrics",
		run:     runFleetWork,
	})
	registerSub("fleet", command{
		name:    "status",
		usage:   "frontlatch fleet status [--db URL] [--json] [--watch]",
		summary: "queued, running, done and failed jobs, with the sites that failed and why",
		run:     runFleetStatus,
	})
	registerSub("fleet", command{
		name:    "changes",
		usage:   "frontlatch fleet changes [--db URL] [--since 168h] [--json]",
		summary: "the sites that gained or lost a complete action since then (default: a week ago)",
		run:     runFleetChanges,
	})
	registerSub("fleet", command{
		name:    "export",
		usage:   "frontlatch fleet export [--db URL] DIR",
		summary: "write every site's latest graph into DIR",
		run:     runFleetExport,
	})
	registerSub("fleet", command{
		name:    "import",
		usage:   "frontlatch fleet import [--db URL] FILE...",
		summary: "record graphs the owner confirmed in the verifier's portal (on files fleet export wrote) as their sites' latest, so re-scans reconcile them",
		run:     runFleetImport,
	})
}

// runParent dispatches a command with subcommands ("verify", "fleet").
func runParent(ctx context.Context, parent string, args []string, stdout, stderr io.Writer) int {
	names := subcommandNames(parent)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(stderr, "usage: frontlatch %s %s …\n", parent, strings.Join(names, "|"))
		for _, n := range names {
			c := subcommands[parent+" "+n]
			fmt.Fprintf(stderr, "  %s\n      %s\n", c.usage, c.summary)
		}
		if len(args) > 0 {
			return exitOK // the usage was asked for
		}
		return exitUsage
	}
	c, ok := subcommands[parent+" "+args[0]]
	if !ok {
		fmt.Fprintf(stderr, "frontlatch %s: unknown subcommand %q; use one of %s\n", parent, args[0], strings.Join(names, ", "))
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

// envFleetDB names the environment variable that stands in for --db.
const envFleetDB = "FRONTLATCH_FLEET_DB"

// defaultFleetDB is the fleet database used when --db is not given:
// $FRONTLATCH_FLEET_DB, else fleet.db beside audit.DefaultPath (in the
// user's data directory, whatever $FRONTLATCH_STORE says), else "".
func defaultFleetDB() string {
	if s := os.Getenv(envFleetDB); s != "" {
		return s
	}
	p, err := audit.DefaultPath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "fleet.db")
}

const fleetDBHelp = "the fleet database: a SQLite file path or a postgres:// URL ($" + envFleetDB + ", when set, is the default)"

// fleetDB refuses, among the command's flag rules, a fleet database that is
// neither a SQLite path nor a postgres:// URL — given with --db or by
// $FRONTLATCH_FLEET_DB — before anything is opened or created (a
// postgres:/typo made a SQLite file under ./postgres:).
func fleetDB(r *flagRules, db string) {
	if err := fleet.CheckDatabaseURL(db); err != nil {
		reason := "is not a fleet database: " + strings.TrimPrefix(strings.TrimPrefix(err.Error(), fleet.ErrDatabaseURL.Error()), ": ")
		if !r.given("db") {
			reason += " (it is $" + envFleetDB + ")"
		}
		r.refuse("db", db, reason)
	}
}

// existingFleetDB refuses, among the flag rules of a command that only
// reads the fleet (status, changes, export), a SQLite database that is not
// there: opening it would create an empty one at a mistyped path and
// report an empty fleet. (fleet add and fleet work create it.)
func existingFleetDB(r *flagRules, db string) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") || fleet.CheckDatabaseURL(db) != nil {
		return
	}
	path := strings.TrimPrefix(db, "sqlite:")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		reason := path + ": there is no fleet database there; `frontlatch fleet add` creates one, or give the --db that fleet add and fleet work use"
		if !r.given("db") {
			reason += " (it is $" + envFleetDB + ")"
		}
		r.refuse("db", db, reason)
	}
}

// openFleet opens the fleet database, or reports why not and returns nil
// and the exit code: 2 for a --db that is no database (a folder, a file of
// something else), 1 for one that cannot be reached.
func openFleet(ctx context.Context, url string, stderr io.Writer, cmd string) (*fleet.Fleet, int) {
	if !strings.Contains(url, "://") {
		if err := os.MkdirAll(filepath.Dir(strings.TrimPrefix(url, "sqlite:")), 0o700); err != nil {
			fmt.Fprintf(stderr, "frontlatch %s: %v\n", cmd, err)
			return nil, exitFail
		}
	}
	f, err := fleet.Open(ctx, url)
	switch {
	case errors.Is(err, fleet.ErrNotDatabase):
		fmt.Fprintf(stderr, "frontlatch %s: %v\n  give --db the fleet's own SQLite file (fleet add creates one) or a postgres:// URL; nothing was changed\n", cmd, err)
		return nil, exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "frontlatch %s: %v\n  (nothing was changed; is the database reachable?)\n", cmd, err)
		return nil, exitFail
	}
	return f, exitOK
}

func runFleetAdd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fleet add", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	if !rules.ok("fleet add", stderr) {
		return exitUsage
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "frontlatch fleet add: give a FILE of URLs or URLs")
		fs.Usage()
		return exitUsage
	}
	var in []fleet.Input
	for i, p := range pos {
		if strings.Contains(p, "://") {
			in = append(in, fleet.Input{URL: p, Source: fmt.Sprintf("argument %d", i+1)})
			continue
		}
		file, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet add: %v (an argument is a URL with a scheme or a file of URLs)\n", err)
			return exitUsage
		}
		list, err := fleet.ReadList(file, p)
		file.Close()
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet add: %v\n", err)
			return exitUsage
		}
		in = append(in, list...)
	}
	// Every input is checked before the database is opened (or created),
	// by the rule Add itself applies (fleet.SiteURL).
	var bad []*fleet.URLError
	for _, i := range in {
		if _, err := fleet.SiteURL(i.URL); err != nil {
			bad = append(bad, &fleet.URLError{Input: i.URL, Source: i.Source, Reason: err.Error()})
		}
	}
	if len(bad) > 0 {
		return invalidInputs(stderr, &fleet.InvalidInputError{Errs: bad}, len(in))
	}
	f, code := openFleet(ctx, *db, stderr, "fleet add")
	if f == nil {
		return code
	}
	defer f.Close()
	res, err := f.Add(ctx, in)
	var inv *fleet.InvalidInputError
	switch {
	case errors.As(err, &inv):
		return invalidInputs(stderr, inv, len(in))
	case err != nil:
		fmt.Fprintf(stderr, "frontlatch fleet add: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "queued %d sites, %d already queued or mapped in the last 24 hours\n", len(res.Queued), len(res.Duplicates))
	return exitOK
}

// maxListedInputs bounds the bad inputs fleet add names: a file that is
// no list of sites (a CSV, a binary) would otherwise print a line per line.
const maxListedInputs = 20

// invalidInputs reports the inputs of fleet add that are not site URLs.
func invalidInputs(stderr io.Writer, inv *fleet.InvalidInputError, n int) int {
	fmt.Fprintf(stderr, "frontlatch fleet add: %d of %d inputs are not site URLs; nothing was queued, fix them and add again:\n", len(inv.Errs), n)
	for i, e := range inv.Errs {
		if i == maxListedInputs {
			fmt.Fprintf(stderr, "  and %d more (a list has one URL per line, and # comments)\n", len(inv.Errs)-i)
			break
		}
		fmt.Fprintf(stderr, "  %s: %q: %s\n", e.Source, e.Input, e.Reason)
	}
	return exitUsage
}

func runFleetWork(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fleet work", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	workers := fs.Int("workers", 2, "sites mapped at once by this process")
	perHost := fs.Int("per-host", 1, "maps of one host at once")
	browserURL := fs.String("browser-url", "", "drive a remote Chromium over CDP (ws://… or http://host:9222) instead of launching one")
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics (e.g. 127.0.0.1:9464), to clients that send the metrics token")
	metricsToken := fs.String("metrics-token", "", "with --metrics: the bearer token scrapers must send (default $"+envMetricsToken+", else a new one, printed)")
	jobTimeout := fs.Duration("job-timeout", 3*time.Minute, "cancel and retry a map that runs longer")
	pages := fs.Int("pages", 6, "pages opened per site")
	rescan := fs.Duration("rescan-every", 0, "re-scan sites with confirmed actions at this interval and reconcile them (needs --store, or $"+envStore+")")
	storeURL := fs.String("store", os.Getenv(envStore), "the verifier's audit store, for reconciling re-scans: a SQLite file path or a postgres:// URL (default $"+envStore+" when set, else none: a site whose latest graph holds confirmed actions is not re-mapped, failing with code audit)")
	offline := fs.Bool("offline", false, "keep the browser on loopback and the site itself")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if !noArgs(fs, stderr, "fleet work", pos, "queue sites with fleet add") {
		return exitUsage
	}
	// Before the database or the audit store is opened.
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	rules.atLeast("workers", *workers, 1)
	rules.atLeast("per-host", *perHost, 1)
	rules.positive("job-timeout", *jobTimeout)
	rules.atLeast("pages", *pages, 1)
	rules.notNegative("rescan-every", *rescan)
	rules.rule("rescan-every", *rescan > 0 && *storeURL == "", rescan.String(), "re-scans are reconciled against the audit store: give --store too (or set $"+envStore+")")
	rules.needs("metrics-token", "metrics", "the token guards the metrics endpoint")
	rules.hostPort("metrics", *metricsAddr, "127.0.0.1:9464")
	rules.engine("browser-url", *browserURL, topology.BrowserOptions{ControlURL: *browserURL}.Validate())
	if !rules.ok("fleet work", stderr) {
		return exitUsage
	}
	// The metrics address is taken before anything is opened, too: a port
	// in use is a usage error, not a worker that starts without metrics.
	var metrics net.Listener
	if *metricsAddr != "" {
		l, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet work: --metrics: %v\n", err)
			return exitUsage
		}
		defer l.Close()
		metrics = l
	}
	f, code := openFleet(ctx, *db, stderr, "fleet work")
	if f == nil {
		return code
	}
	defer f.Close()
	opts := fleet.WorkOptions{
		Workers: *workers, PerHost: *perHost, BrowserURL: *browserURL, JobTimeout: *jobTimeout,
		RescanEvery: *rescan, Offline: *offline,
		Map:    mapper.Options{MaxPages: *pages, Offline: *offline},
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
	if *storeURL != "" {
		store, err := openStore(ctx, *storeURL)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet work: the audit store: %v\n", err)
			return storeExit(err)
		}
		defer store.Close()
		opts.Audit = store
	}
	if metrics != nil {
		opts.Metrics = fleet.NewMetrics()
		tok, generated := bearerToken(*metricsToken, envMetricsToken)
		srv := metricsServer(opts.Metrics.Handler(), tok)
		go srv.Serve(metrics)
		defer srv.Close()
		fmt.Fprintf(stderr, "metrics on http://%s/metrics\n", metrics.Addr())
		warnNotLoopback(stderr, "fleet work", *metricsAddr, "anyone who can reach it and has the token can read the fleet's metrics")
		if generated {
			fmt.Fprintf(stderr, "metrics bearer token: %s\n", tok)
		}
	}
	fmt.Fprintf(stderr, "fleet: %d workers on %s; interrupt to stop\n", *workers, f.Driver())
	if err := f.Work(ctx, opts); err != nil {
		fmt.Fprintf(stderr, "frontlatch fleet work: %v\n", err)
		return exitFail
	}
	return exitOK
}

func runFleetStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fleet status", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	asJSON := fs.Bool("json", false, "one JSON object: counts and failures")
	watch := fs.Bool("watch", false, "redraw every second until everything is done or failed")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if !noArgs(fs, stderr, "fleet status", pos, "") {
		return exitUsage
	}
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	rules.rule("watch", *asJSON, "", "redraws the text every second: give --json or --watch, not both")
	existingFleetDB(rules, *db)
	if !rules.ok("fleet status", stderr) {
		return exitUsage
	}
	f, code := openFleet(ctx, *db, stderr, "fleet status")
	if f == nil {
		return code
	}
	defer f.Close()
	for {
		st, err := f.Status(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet status: %v\n", err)
			return exitFail
		}
		fails, err := f.Failures(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet status: %v\n", err)
			return exitFail
		}
		if *asJSON {
			if fails == nil {
				fails = []fleet.Failure{}
			}
			out, _ := json.MarshalIndent(struct {
				fleet.Status
				Failures []fleet.Failure `json:"failures"`
			}{st, fails}, "", "  ")
			fmt.Fprintln(stdout, string(out))
			return exitOK
		}
		tty := isTerminal(stdout)
		if tty && *watch {
			fmt.Fprint(stdout, "\033[H\033[2J")
		}
		fmt.Fprintf(stdout, "%s queued %d · running %d · done %d · failed %d\n", progressBar(st, 30, tty), st.Queued, st.Running, st.Done, st.Failed)
		fmt.Fprintf(stdout, "sites mapped %d, with a complete action %d\n", st.Sites, st.Complete)
		for _, fl := range fails {
			fmt.Fprintf(termSafe(stdout), "  failed %s (%s, attempt %d): %s\n", fl.Site, fl.Code, fl.Attempt, fl.Error)
		}
		if !*watch || st.Queued+st.Running == 0 {
			return exitOK
		}
		select {
		case <-ctx.Done():
			return exitOK
		case <-time.After(time.Second):
		}
	}
}

// progressBar draws done and failed over the total; plain brackets when
// stdout is not a terminal.
func progressBar(st fleet.Status, width int, tty bool) string {
	total := st.Total()
	if total == 0 {
		return "[" + strings.Repeat(" ", width) + "]"
	}
	done := (st.Done + st.Failed) * width / total
	full, empty := "#", "."
	if tty {
		full, empty = "█", "░"
	}
	return "[" + strings.Repeat(full, done) + strings.Repeat(empty, width-done) + "]"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func runFleetExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fleet export", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "frontlatch fleet export: want exactly one DIR")
		fs.Usage()
		return exitUsage
	}
	if reason := notAFolder(pos[0]); reason != "" {
		fmt.Fprintf(stderr, "frontlatch fleet export: %s\n", reason)
		fs.Usage()
		return exitUsage
	}
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	existingFleetDB(rules, *db)
	if !rules.ok("fleet export", stderr) {
		return exitUsage
	}
	f, code := openFleet(ctx, *db, stderr, "fleet export")
	if f == nil {
		return code
	}
	defer f.Close()
	n, err := f.Export(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch fleet export: %v\n", err)
		if n > 0 {
			fmt.Fprintf(stderr, "  the %d graphs before it were written to %s\n", n, pos[0])
		}
		var pe *os.PathError
		var le *os.LinkError
		if !errors.Is(err, fleet.ErrUnavailable) && (errors.As(err, &pe) || errors.As(err, &le)) {
			return exitUsage // a file that cannot be written: an I/O error
		}
		return exitFail
	}
	fmt.Fprintf(stdout, "wrote %d graphs to %s\n", n, pos[0])
	return exitOK
}

// runFleetImport records each FILE's graph as its site's latest. Every file
// is read and checked first: one that cannot be read is a usage error
// (exit 2), one that is not a valid graph of a site a failure (exit 1), and
// either way nothing is recorded and the database is not opened.
func runFleetImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout = termSafe(stdout) // sites and action ids came from the files
	fs := newFlagSet("fleet import", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "frontlatch fleet import: give the graph FILEs the owner confirmed (as fleet export wrote them, after verify serve)")
		fs.Usage()
		return exitUsage
	}
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	if !rules.ok("fleet import", stderr) {
		return exitUsage
	}
	code := exitOK
	graphs := make([]*shared.ActionGraph, 0, len(pos))
	for _, p := range pos {
		data, err := shared.ReadDocumentFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet import: %v\n", err)
			code = exitUsage
			continue
		}
		g, issues := shared.Read(data)
		if len(issues) > 0 {
			fmt.Fprintf(stderr, "frontlatch fleet import: %s is not a valid Action Graph (%s):\n", p, countIssues(issues))
			for _, is := range issues {
				fmt.Fprintf(stderr, "  %s: %s\n", p, is)
			}
			code = max(code, exitFail)
			continue
		}
		if _, err := fleet.SiteURL(g.Site.URL); err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet import: %s: site.url %q is not a site URL: %v\n", p, g.Site.URL, err)
			code = max(code, exitFail)
			continue
		}
		graphs = append(graphs, g)
	}
	if code != exitOK {
		fmt.Fprintln(stderr, "frontlatch fleet import: nothing was recorded")
		return code
	}
	f, code := openFleet(ctx, *db, stderr, "fleet import")
	if f == nil {
		return code
	}
	defer f.Close()
	for i, g := range graphs {
		site, err := f.Import(ctx, g)
		if err != nil {
			fmt.Fprintf(stderr, "frontlatch fleet import: %s: %v\n", pos[i], err)
			if i > 0 {
				fmt.Fprintf(stderr, "  the %d files before it were recorded\n", i)
			}
			return exitFail
		}
		confirmed := 0
		for _, a := range g.Actions {
			if a.Verification != nil && a.Verification.Status() == shared.StatusVerified {
				confirmed++
			}
		}
		fmt.Fprintf(stdout, "recorded %s from %s: %d actions, %d confirmed by the owner", site, pos[i], len(g.Actions), confirmed)
		if confirmed == 0 {
			fmt.Fprint(stdout, " (none confirmed: re-scans pass it by)")
		}
		fmt.Fprintln(stdout)
	}
	return exitOK
}

func runFleetChanges(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fleet changes", stderr)
	db := fs.String("db", defaultFleetDB(), fleetDBHelp)
	since := fs.Duration("since", 7*24*time.Hour, "how far back to compare")
	asJSON := fs.Bool("json", false, "one JSON list of {site, gained, lost}")
	pos, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if !noArgs(fs, stderr, "fleet changes", pos, "") {
		return exitUsage
	}
	rules := rulesFor(fs)
	fleetDB(rules, *db)
	existingFleetDB(rules, *db)
	if !rules.ok("fleet changes", stderr) {
		return exitUsage
	}
	if *since <= 0 {
		fmt.Fprintln(stderr, "frontlatch fleet changes: --since must be positive")
		return exitUsage
	}
	f, code := openFleet(ctx, *db, stderr, "fleet changes")
	if f == nil {
		return code
	}
	defer f.Close()
	changes, err := f.Changes(ctx, time.Now().Add(-*since))
	if err != nil {
		fmt.Fprintf(stderr, "frontlatch fleet changes: %v\n", err)
		return exitFail
	}
	if *asJSON {
		if changes == nil {
			changes = []fleet.Change{}
		}
		out, _ := json.MarshalIndent(changes, "", "  ")
		fmt.Fprintln(stdout, string(out))
		return exitOK
	}
	stdout = termSafe(stdout) // sites and action ids came from the sites
	for _, c := range changes {
		fmt.Fprintf(stdout, "%s: gained %d, lost %d complete actions\n", c.Site, len(c.Gained), len(c.Lost))
		for _, id := range c.Gained {
			fmt.Fprintf(stdout, "  + %s\n", id)
		}
		for _, id := range c.Lost {
			fmt.Fprintf(stdout, "  - %s\n", id)
		}
	}
	fmt.Fprintf(stdout, "%d sites changed since %s\n", len(changes), time.Now().Add(-*since).UTC().Format(time.RFC3339))
	return exitOK
}
