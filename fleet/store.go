package fleet

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
)

// mapRecord is one row of fleet_maps: one map of one site, ok or failed.
// Rows are only ever inserted: the history is append-only, and a site's
// latest graph is its newest ok row.
type mapRecord struct {
	site       string
	jobID      int64
	attempt    int
	at         time.Time
	errCode    string
	err        string
	actions    int
	complete   int
	completeID []string
	confirmed  int // actions verified by their owner
	report     []byte
	graph      []byte
	reconciled string
}

// setGraph fills the row from g, validating it as shared.Write does: an
// invalid graph is a *shared.ValidationError.
func (r *mapRecord) setGraph(g *shared.ActionGraph) error {
	data, err := shared.Write(g)
	if err != nil {
		return err
	}
	rep := shared.GraphCompleteness(g)
	r.report, err = json.Marshal(rep)
	if err != nil {
		return err
	}
	r.graph = data
	r.actions = len(g.Actions)
	for _, a := range g.Actions {
		if a.Verification != nil && a.Verification.Status() == shared.StatusVerified {
			r.confirmed++
		}
		if shared.Completeness(a).Complete {
			r.complete++
			r.completeID = append(r.completeID, a.ID)
		}
	}
	sort.Strings(r.completeID)
	return nil
}

// importedJobID is the job id of a row Import recorded: a graph given to
// the fleet, not mapped by one of its jobs (River's job ids start at 1).
const importedJobID = 0

// Import records g as its site's latest graph: the graph whose actions the
// owner confirmed in the verifier's portal (frontlatch verify serve on a
// file Export wrote), so that QueueRescans re-scans the site and the worker
// reconciles the re-scan against the audit store. It closes the loop:
// export, confirm, import, re-scan.
//
// g is validated first (shared.Write's rules): an invalid graph is a
// *shared.ValidationError matching shared.ErrInvalidGraph, and nothing is
// recorded. Its site is SiteURL of g.Site.URL, the rule Add applies (a
// *URLError when that is not a site URL). Import returns that site. The
// row is inserted like a map's, never updating one; a later map of the
// site, or a later Import, supersedes it.
func (f *Fleet) Import(ctx context.Context, g *shared.ActionGraph) (string, error) {
	if err := f.checkOpen(); err != nil {
		return "", err
	}
	if g == nil {
		return "", fmt.Errorf("fleet: import: %w: no graph", shared.ErrInvalidGraph)
	}
	site, err := SiteURL(g.Site.URL)
	if err != nil {
		return "", &URLError{Input: g.Site.URL, Source: "the graph's site.url", Reason: err.Error()}
	}
	rec := mapRecord{site: site, jobID: importedJobID, at: time.Now().UTC(), reconciled: "imported"}
	if err := rec.setGraph(g); err != nil {
		return "", fmt.Errorf("fleet: import of a graph of %s: %w", site, err)
	}
	if err := f.record(ctx, rec); err != nil {
		return "", err
	}
	return site, nil
}

// mappedAtLayout is how fleet_maps.mapped_at is written: UTC with all
// nine fractional digits, so that the text sorts as the time does and
// SQL compares it so on either database (RFC3339Nano drops trailing
// zeros: 10:00:00Z sorted after 10:00:00.5Z). Migration 0004 rewrote the
// rows written before. time.RFC3339Nano parses it.
const mappedAtLayout = "2006-01-02T15:04:05.000000000Z"

// record inserts the row. A second ok row for the same job (a job rescued
// after its worker died between writing and completing) is ignored: each
// job's graph is written exactly once.
func (f *Fleet) record(ctx context.Context, r mapRecord) error {
	ok := 0
	if r.errCode == "" {
		ok = 1
	}
	ids, _ := json.Marshal(r.completeID)
	if r.completeID == nil {
		ids = []byte("[]")
	}
	report := string(r.report)
	if report == "" {
		report = "null"
	}
	_, err := f.db.ExecContext(ctx, `INSERT INTO fleet_maps
		(site, job_id, attempt, mapped_at, ok, error_code, error, actions, complete_actions, complete_ids, confirmed, completeness, graph, reconciled)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT DO NOTHING`,
		r.site, r.jobID, r.attempt, r.at.UTC().Format(mappedAtLayout), ok, r.errCode, r.err,
		r.actions, r.complete, string(ids), r.confirmed, report, string(r.graph), r.reconciled)
	if err != nil {
		return unavailableIn("recording the map of "+r.site, err)
	}
	return nil
}

// Latest returns the newest graph mapped of site (ErrNoSuchSite when none).
func (f *Fleet) Latest(ctx context.Context, site string) (*shared.ActionGraph, error) {
	if err := f.checkOpen(); err != nil {
		return nil, err
	}
	return f.latest(ctx, site)
}

// latest is Latest, also for the jobs of a Work that a Close is stopping
// (they are given StopGrace to finish and be recorded).
func (f *Fleet) latest(ctx context.Context, site string) (*shared.ActionGraph, error) {
	u, err := SiteURL(site)
	if err != nil {
		return nil, &URLError{Input: site, Source: "site", Reason: err.Error()}
	}
	var data string
	err = f.db.QueryRowContext(ctx, `SELECT graph FROM fleet_maps WHERE site = $1 AND ok = 1 ORDER BY id DESC LIMIT 1`, u).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", ErrNoSuchSite, u)
	}
	if err != nil {
		return nil, unavailable(err)
	}
	g, issues := shared.Read([]byte(data))
	if len(issues) > 0 {
		return nil, &shared.ValidationError{What: "stored graph of " + u, Issues: issues}
	}
	return g, nil
}

// reconcile carries the confirmations of site's latest graph over to g.
// Without an audit store it refuses (ErrNoAuditStore) when there are
// confirmations to carry: as a store that does not answer, a store that
// is not there must neither withdraw nor keep consent.
func (f *Fleet) reconcile(ctx context.Context, site string, g *shared.ActionGraph, audit shared.AuditLookup) (*shared.ActionGraph, string, error) {
	prev, err := f.latest(ctx, site)
	if errors.Is(err, ErrNoSuchSite) {
		return g, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	if !hasConfirmed(prev) {
		return g, "", nil
	}
	if audit == nil {
		return nil, "", fmt.Errorf("%w: %s's latest graph holds owner-confirmed actions, which a graph recorded unreconciled would drop", ErrNoAuditStore, site)
	}
	out, report, err := verifier.Reconcile(ctx, prev, g, audit)
	if err != nil {
		return nil, "", err
	}
	var parts []string
	for _, r := range report {
		if r.Kept {
			parts = append(parts, r.ActionID+": kept")
		} else {
			parts = append(parts, r.ActionID+": needs confirmation again")
		}
	}
	return out, strings.Join(parts, "; "), nil
}

func hasConfirmed(g *shared.ActionGraph) bool {
	for _, a := range g.Actions {
		if a.Verification != nil && a.Verification.Status() == shared.StatusVerified {
			return true
		}
	}
	return false
}

// Status counts the fleet's jobs by state.
type Status struct {
	Queued   int `json:"queued"`   // available, scheduled or retryable
	Running  int `json:"running"`  // being mapped now
	Done     int `json:"done"`     // mapped
	Failed   int `json:"failed"`   // discarded after their last attempt, or cancelled
	Sites    int `json:"sites"`    // distinct sites with at least one graph
	Complete int `json:"complete"` // of those, sites whose latest graph has a complete action
}

// Total is every job counted.
func (s Status) Total() int { return s.Queued + s.Running + s.Done + s.Failed }

// Status reads the queue and the results.
func (f *Fleet) Status(ctx context.Context) (Status, error) {
	if err := f.checkOpen(); err != nil {
		return Status{}, err
	}
	var st Status
	rows, err := f.db.QueryContext(ctx, `SELECT state, COUNT(*) FROM river_job WHERE kind = $1 GROUP BY state`, MapArgs{}.Kind())
	if err != nil {
		return st, unavailable(err)
	}
	defer rows.Close()
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return st, unavailable(err)
		}
		switch state {
		case "available", "scheduled", "retryable", "pending":
			st.Queued += n
		case "running":
			st.Running += n
		case "completed":
			st.Done += n
		case "discarded", "cancelled":
			st.Failed += n
		}
	}
	if err := rows.Err(); err != nil {
		return st, unavailable(err)
	}
	err = f.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN m.complete_actions > 0 THEN 1 ELSE 0 END), 0)
		FROM fleet_maps m WHERE m.ok = 1 AND m.id = (SELECT MAX(id) FROM fleet_maps l WHERE l.site = m.site AND l.ok = 1)`).Scan(&st.Sites, &st.Complete)
	if err != nil {
		return st, unavailable(err)
	}
	return st, nil
}

// Failure is a site's last failed map.
type Failure struct {
	Site    string    `json:"site"`
	Code    string    `json:"code"`
	Error   string    `json:"error"`
	Attempt int       `json:"attempt"`
	At      time.Time `json:"at"`
}

// Failures lists, per site whose newest row is a failure, that failure, in
// the order of the sites' URLs (byte by byte, as every list of sites here:
// not in a PostgreSQL database's collation, which SQLite does not share).
func (f *Fleet) Failures(ctx context.Context) ([]Failure, error) {
	if err := f.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := f.db.QueryContext(ctx, `SELECT site, error_code, error, attempt, mapped_at FROM fleet_maps m
		WHERE m.ok = 0 AND m.id = (SELECT MAX(id) FROM fleet_maps l WHERE l.site = m.site)`)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	var out []Failure
	for rows.Next() {
		var fl Failure
		var at string
		if err := rows.Scan(&fl.Site, &fl.Code, &fl.Error, &fl.Attempt, &at); err != nil {
			return nil, unavailable(err)
		}
		fl.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, fl)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out, nil
}

// Change is a site whose complete actions differ between two moments.
type Change struct {
	Site   string   `json:"site"`
	Gained []string `json:"gained"` // complete now, not then
	Lost   []string `json:"lost"`   // complete then, not now
}

// Changes answers "which sites gained or lost a complete action since
// then": for every site, its latest graph at or before then against its
// latest graph now (a site first mapped after then gains all it has), in
// the order of the sites' URLs.
func (f *Fleet) Changes(ctx context.Context, since time.Time) ([]Change, error) {
	if err := f.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := f.db.QueryContext(ctx, `SELECT site, mapped_at, complete_ids FROM fleet_maps WHERE ok = 1 ORDER BY id`)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	type snap struct{ then, now []string }
	per := map[string]*snap{}
	var order []string
	for rows.Next() {
		var site, at, ids string
		if err := rows.Scan(&site, &at, &ids); err != nil {
			return nil, unavailable(err)
		}
		var list []string
		if err := json.Unmarshal([]byte(ids), &list); err != nil {
			return nil, fmt.Errorf("fleet: the map of %s at %s: its complete actions do not decode: %w", site, at, err)
		}
		s := per[site]
		if s == nil {
			s = &snap{}
			per[site] = s
			order = append(order, site)
		}
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && !t.After(since) {
			s.then = list
		}
		s.now = list
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(err)
	}
	sort.Strings(order)
	var out []Change
	for _, site := range order {
		s := per[site]
		c := Change{Site: site, Gained: minus(s.now, s.then), Lost: minus(s.then, s.now)}
		if len(c.Gained)+len(c.Lost) > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// Export writes every site's latest graph into dir as <host>[_<path>].json
// (canonical JSON) and returns how many it wrote. Sites whose names would
// be one file, even where case does not matter, get "-2", "-3"… after it,
// in the order of their URLs.
// Each file is written whole (writeExportFile): an export that fails or is
// killed leaves each file old or new, and no temporary file.
func (f *Fleet) Export(ctx context.Context, dir string) (int, error) {
	if err := f.checkOpen(); err != nil {
		return 0, err
	}
	// Names are given in the order of the sites' URLs, so the "-2" goes to
	// the same site on either database; the graphs are read after, in any
	// order.
	rows, err := f.db.QueryContext(ctx, `SELECT DISTINCT site FROM fleet_maps WHERE ok = 1`)
	if err != nil {
		return 0, unavailable(err)
	}
	sites, err := scanStrings(rows)
	if err != nil {
		return 0, unavailable(err)
	}
	sort.Strings(sites)
	names := exportNames{used: map[string]bool{}, of: map[string]string{}}
	for _, site := range sites {
		names.name(site)
	}
	rows, err = f.db.QueryContext(ctx, `SELECT m.site, m.graph FROM fleet_maps m
		WHERE m.ok = 1 AND m.id = (SELECT MAX(id) FROM fleet_maps l WHERE l.site = m.site AND l.ok = 1)`)
	if err != nil {
		return 0, unavailable(err)
	}
	defer rows.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("fleet: export: %w", err)
	}
	n := 0
	for rows.Next() {
		var site, graph string
		if err := rows.Scan(&site, &graph); err != nil {
			return n, unavailable(err)
		}
		name := names.name(site) // a site first mapped meanwhile gets one now
		if err := writeExportFile(filepath.Join(dir, name+".json"), []byte(graph)); err != nil {
			return n, fmt.Errorf("fleet: export: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, unavailable(err)
	}
	return n, nil
}

// exportNames gives each site of an export its file name, apart from
// every name given before: a name taken gets "-2", "-3"… after it. Names
// are compared in lower case: a path is case-sensitive, and the file
// systems of macOS and Windows are not (a.example_Menu and a.example_menu
// are one file there).
type exportNames struct {
	used map[string]bool   // names given, lower-cased
	of   map[string]string // site → its name
}

func (e *exportNames) name(site string) string {
	if n, ok := e.of[site]; ok {
		return n
	}
	base := exportName(site)
	n := base
	for i := 2; e.used[strings.ToLower(n)]; i++ {
		n = fmt.Sprintf("%s-%d", base, i)
	}
	e.used[strings.ToLower(n)] = true
	e.of[site] = n
	return n
}

// writeExportFile writes data to path through a temporary file of its
// own in the same folder, synced before it is renamed over path: the
// folder holds the old file or the new one, never half of one, and no
// temporary file is left behind when a step fails.
func writeExportFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o644) // CreateTemp makes it 0600
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// maxExportName bounds exportName: a file name is at most 255 bytes, and
// Export adds a "-N" for a name already used, ".json", and a leading "."
// with a random part and ".tmp" for the temporary file.
const maxExportName = 200

// exportName is a file name for a site URL: host and path, with anything
// but letters, digits, dots and dashes as '_'. A longer name than
// maxExportName is cut there and ends with a hash of the whole URL, so
// that it is still a file name and still the site's own.
func exportName(site string) string {
	s := strings.TrimPrefix(strings.TrimPrefix(site, "https://"), "http://")
	s = strings.TrimSuffix(s, "/")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String() // one byte per rune
	if len(name) > maxExportName {
		sum := sha256.Sum256([]byte(site))
		name = name[:maxExportName-17] + "-" + hex.EncodeToString(sum[:8])
	}
	return name
}

// confirmedSites lists the sites whose latest graph has an action its owner
// confirmed: the ones a re-scan must reconcile.
func (f *Fleet) confirmedSites(ctx context.Context) ([]string, error) {
	rows, err := f.db.QueryContext(ctx, `SELECT m.site FROM fleet_maps m
		WHERE m.ok = 1 AND m.confirmed > 0 AND m.id = (SELECT MAX(id) FROM fleet_maps l WHERE l.site = m.site AND l.ok = 1)`)
	if err != nil {
		return nil, unavailable(err)
	}
	sites, err := scanStrings(rows)
	if err != nil {
		return nil, unavailable(err)
	}
	sort.Strings(sites)
	return sites, nil
}

// scanStrings reads rows of one text column and closes them.
func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
