package fleet

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"golang.org/x/text/encoding/unicode"
)

// MapArgs is the River job that maps one site.
type MapArgs struct {
	// URL is the site's canonical URL (SiteURL).
	URL string `json:"url"`
	// Rescan marks a re-scan of a site with confirmed actions; Window
	// makes each re-scan period's job distinct from the last.
	Rescan bool   `json:"rescan,omitempty"`
	Window string `json:"window,omitempty"`
}

// Kind is the job kind in River's tables.
func (MapArgs) Kind() string { return "frontlatch_map" }

// UniqueWindow is how long the same site is not queued twice: a site
// queued or running is not queued again, however long it has waited, and
// one mapped within the last UniqueWindow (a rolling window, not a
// calendar day) is not queued again either.
const UniqueWindow = 24 * time.Hour

// queuedStates are the states in which a map job keeps its site from being
// queued again (River's unique jobs by state): every state before it is
// finished. A finished job is a map (fleet_maps, UniqueWindow) or a failure
// (discarded or cancelled: adding the site again retries it).
var queuedStates = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}

// InsertOpts makes map jobs unique per site while queued or running;
// Add also skips a site mapped within UniqueWindow. A re-scan (Rescan, its
// Window the hour it was queued in) is unique in any state, so one per
// site per hour.
func (a MapArgs) InsertOpts() river.InsertOpts {
	if a.Rescan {
		return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
	}
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: queuedStates}}
}

// Input is one site to queue and where it was read from.
type Input struct {
	URL    string
	Source string // "line 3 of sites.txt", "argument 1"
}

// maxListLine bounds a line of a site list.
const maxListLine = 64 << 10

// ReadList reads a list of sites, one URL per line; blank lines and lines
// starting with # are skipped, and so is a UTF-8 byte order mark before the
// first line (as editors and spreadsheets on Windows write one). A list
// that starts with a UTF-16 byte order mark (Notepad's and Excel's
// "Unicode" text) is read as UTF-16, little- or big-endian as the mark
// says. name is used in Source ("line N of NAME").
func ReadList(r io.Reader, name string) ([]Input, error) {
	var out []Input
	br := bufio.NewReader(r)
	r = br
	if bom, _ := br.Peek(2); len(bom) == 2 {
		switch {
		case bom[0] == 0xff && bom[1] == 0xfe:
			r = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Reader(br)
		case bom[0] == 0xfe && bom[1] == 0xff:
			r = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder().Reader(br)
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxListLine)
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, Input{URL: line, Source: fmt.Sprintf("line %d of %s", n, name)})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("fleet: reading %s: line %d is longer than %d bytes, which no site URL is: %w", name, n+1, maxListLine, err)
		}
		return nil, fmt.Errorf("fleet: reading %s: %w", name, err)
	}
	return out, nil
}

// AddResult says what Add queued.
type AddResult struct {
	Queued     []string // canonical URLs now queued
	Duplicates []string // already queued or mapped within UniqueWindow, or repeated in the input
}

// InvalidInputError lists every input that is not a site URL; Add queues
// nothing when it returns one.
type InvalidInputError struct{ Errs []*URLError }

func (e *InvalidInputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fleet: %d invalid site URL", len(e.Errs))
	if len(e.Errs) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(", nothing queued")
	for _, u := range e.Errs {
		b.WriteString("; ")
		b.WriteString(strings.TrimPrefix(u.Error(), "fleet: "))
	}
	return b.String()
}

// Unwrap returns each URL error, so errors.Is(err, ErrInvalidURL) holds.
func (e *InvalidInputError) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, u := range e.Errs {
		out[i] = u
	}
	return out
}

// Add queues one map job per site. Every input is checked first: if any is
// not a site URL, nothing is queued and the *InvalidInputError names each
// (with its line). A site already queued or mapped within UniqueWindow is
// not queued again (River's unique jobs while it is queued or running, and
// a check of fleet_maps in the same transaction); that is a duplicate, not
// an error.
// What is already queued is never touched.
func (f *Fleet) Add(ctx context.Context, inputs []Input) (AddResult, error) {
	if err := f.checkOpen(); err != nil {
		return AddResult{}, err
	}
	var res AddResult
	var bad []*URLError
	seen := map[string]bool{}
	var params []river.InsertManyParams
	for _, in := range inputs {
		u, err := SiteURL(in.URL)
		if err != nil {
			bad = append(bad, &URLError{Input: in.URL, Source: in.Source, Reason: err.Error()})
			continue
		}
		if seen[u] {
			res.Duplicates = append(res.Duplicates, u)
			continue
		}
		seen[u] = true
		a := MapArgs{URL: u}
		params = append(params, river.InsertManyParams{Args: a, InsertOpts: f.insertOpts(a)})
	}
	if len(bad) > 0 {
		return AddResult{}, &InvalidInputError{Errs: bad}
	}
	if len(params) == 0 {
		return res, nil
	}
	results, recent, err := f.queue.insertManyChecked(ctx, params, f.mappedWithin(time.Now(), UniqueWindow))
	if err != nil {
		return AddResult{}, unavailableIn(fmt.Sprintf("queueing %d sites (nothing was queued)", len(params)), err)
	}
	for _, p := range recent {
		res.Duplicates = append(res.Duplicates, p.Args.(MapArgs).URL)
	}
	for _, r := range results {
		var a MapArgs
		if err := json.Unmarshal(r.Job.EncodedArgs, &a); err != nil {
			return res, fmt.Errorf("fleet: a queued job's arguments do not decode: %w", err)
		}
		if r.UniqueSkippedAsDuplicate {
			res.Duplicates = append(res.Duplicates, a.URL)
		} else {
			res.Queued = append(res.Queued, a.URL)
		}
	}
	return res, nil
}

// recentChunk is how many sites one query of mappedWithin asks about,
// well within SQLite's and PostgreSQL's bounds on parameters.
const recentChunk = 500

// mappedWithin keeps out of an insert the sites mapped (by a job: an
// imported graph is no map) within window before now: fleet_maps' ok rows,
// read in the insert's transaction.
func (f *Fleet) mappedWithin(now time.Time, window time.Duration) checkFunc {
	cutoff := now.Add(-window).UTC().Format(mappedAtLayout)
	return func(ctx context.Context, query queryStrings, params []river.InsertManyParams) (keep, drop []river.InsertManyParams, err error) {
		if len(params) == 0 {
			return nil, nil, nil
		}
		// Only the sites being inserted are looked up (by the site index),
		// a chunk at a time: a fleet maps millions a day.
		recent := map[string]bool{}
		for chunk := range slices.Chunk(params, recentChunk) {
			args := []any{importedJobID, cutoff}
			marks := make([]string, 0, len(chunk))
			for _, p := range chunk {
				args = append(args, p.Args.(MapArgs).URL)
				marks = append(marks, "$"+strconv.Itoa(len(args)))
			}
			sites, err := query(ctx, `SELECT DISTINCT site FROM fleet_maps WHERE ok = 1 AND job_id <> $1 AND mapped_at > $2 AND site IN (`+strings.Join(marks, ", ")+`)`, args...)
			if err != nil {
				return nil, nil, err
			}
			for _, s := range sites {
				recent[s] = true
			}
		}
		for _, p := range params {
			if recent[p.Args.(MapArgs).URL] {
				drop = append(drop, p)
			} else {
				keep = append(keep, p)
			}
		}
		return keep, drop, nil
	}
}

// unavailable marks an error that came from the database as ErrUnavailable
// unless it is a context error, with the package's one prefix.
func unavailable(err error) error { return unavailableIn("", err) }

// unavailableIn is unavailable for an error met doing what.
func unavailableIn(what string, err error) error {
	if what != "" {
		what += ": "
	}
	switch {
	case errors.Is(err, ErrUnavailable):
		if what == "" {
			return err
		}
		return fmt.Errorf("fleet: %s%w", what, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("fleet: %s%w", what, err)
	}
	return fmt.Errorf("%w: %s%w", ErrUnavailable, what, err)
}

// insertOpts are a map job's options: MapArgs's own, with the fleet's
// attempts.
func (f *Fleet) insertOpts(a MapArgs) *river.InsertOpts {
	o := a.InsertOpts()
	o.MaxAttempts = f.MaxAttempts
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	return &o
}
