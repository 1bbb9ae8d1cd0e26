package fleet

import (
	"context"
	"database/sql"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// stubClock is a River time generator that says what the test wants.
type stubClock struct{ now time.Time }

func (c *stubClock) Now() time.Time       { return c.now }
func (c *stubClock) NowOrNil() *time.Time { return &c.now }

// stubInsertClock makes f's River inserts happen at clock's time (River's
// TestConfig.Time), as a queue used on another day would.
func stubInsertClock(t *testing.T, f *Fleet, clock *stubClock) {
	t.Helper()
	cfg := &river.Config{Test: river.TestConfig{Time: clock}}
	var err error
	switch q := f.queue.(type) {
	case *riverQueue[*sql.Tx]:
		q.inserter, err = river.NewClient(q.driver, cfg)
	case *riverQueue[pgx.Tx]:
		q.inserter, err = river.NewClient(q.driver, cfg)
	default:
		t.Fatalf("queue %T", f.queue)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestAddUniqueWindow: a site is not queued twice while queued or running,
// however long it waited (not until a UTC day boundary), nor within a
// rolling UniqueWindow after it was mapped; it is queued again after that,
// after a failure, and after a graph of it was imported (no map); and the
// spellings of one site are one site.
func TestAddUniqueWindow(t *testing.T) {
	const site = "https://a.example/"
	midnight := time.Now().UTC().Truncate(24 * time.Hour)
	mapped := func(ago time.Duration, ok bool) func(t *testing.T, f *Fleet) {
		return func(t *testing.T, f *Fleet) {
			rec := mapRecord{site: site, jobID: 7, attempt: 1, at: time.Now().UTC().Add(-ago)}
			if ok {
				if err := rec.setGraph(readGraph(t, clinicGraph)); err != nil {
					t.Fatal(err)
				}
			} else {
				rec.errCode, rec.err = "unreachable", "down"
			}
			if err := f.record(t.Context(), rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name   string
		before func(t *testing.T, f *Fleet)
		add    []string
		want   AddResult
	}{
		{
			name: "queued at 23:59, still waiting at 00:01",
			before: func(t *testing.T, f *Fleet) {
				clock := &stubClock{now: midnight.Add(-time.Minute)}
				stubInsertClock(t, f, clock)
				if res, err := f.Add(t.Context(), inputs([]string{site})); err != nil || len(res.Queued) != 1 {
					t.Fatalf("first Add = %+v, %v", res, err)
				}
				clock.now = midnight.Add(time.Minute)
			},
			add:  []string{site},
			want: AddResult{Duplicates: []string{site}},
		},
		{name: "mapped 23 hours ago", before: mapped(23*time.Hour, true), add: []string{site}, want: AddResult{Duplicates: []string{site}}},
		{name: "mapped 25 hours ago", before: mapped(25*time.Hour, true), add: []string{site}, want: AddResult{Queued: []string{site}}},
		{name: "failed an hour ago", before: mapped(time.Hour, false), add: []string{site}, want: AddResult{Queued: []string{site}}},
		{
			name: "imported an hour ago",
			before: func(t *testing.T, f *Fleet) {
				if _, err := f.Import(t.Context(), readGraph(t, clinicGraph)); err != nil {
					t.Fatal(err)
				}
			},
			add:  []string{"https://harbourside-dental.com.au/"},
			want: AddResult{Queued: []string{"https://harbourside-dental.com.au/"}},
		},
		{
			name: "spellings of one site",
			add:  []string{"https://a.example/", "https://a.example:443/", "https://a.example./", "HTTPS://A.EXAMPLE.:443", "http://a.example:80/"},
			want: AddResult{Queued: []string{site, "http://a.example/"}, Duplicates: []string{site, site, site}},
		},
	}
	for _, driver := range drivers {
		for _, tt := range tests {
			t.Run(driver+"/"+tt.name, func(t *testing.T) {
				f := openFor(t, driver)
				if tt.before != nil {
					tt.before(t, f)
				}
				got, err := f.Add(t.Context(), inputs(tt.add))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Add (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestInsertManyCheckedLate: a site mapped by another worker between the
// check and the insert (its row committed after the first check, so seen
// by the second) is rolled back and reported, not queued.
func TestInsertManyCheckedLate(t *testing.T) {
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			sites := []string{"https://a.example/", "https://b.example/", "https://c.example/"}
			var params []river.InsertManyParams
			for _, s := range sites {
				a := MapArgs{URL: s}
				params = append(params, river.InsertManyParams{Args: a, InsertOpts: f.insertOpts(a)})
			}
			calls := 0
			check := func(ctx context.Context, query queryStrings, in []river.InsertManyParams) (keep, drop []river.InsertManyParams, err error) {
				calls++
				if _, err := query(ctx, `SELECT site FROM fleet_maps`); err != nil {
					return nil, nil, err // the query runs in the transaction
				}
				for _, p := range in {
					if calls == 2 && p.Args.(MapArgs).URL == sites[1] {
						drop = append(drop, p) // mapped meanwhile
					} else {
						keep = append(keep, p)
					}
				}
				if calls%2 == 0 {
					return nil, drop, nil // after the insert: what must not be
				}
				return keep, drop, nil
			}
			res, skipped, err := f.queue.insertManyChecked(t.Context(), params, check)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 2 {
				t.Errorf("%d insert results, want the 2 others", len(res))
			}
			var late []string
			for _, p := range skipped {
				late = append(late, p.Args.(MapArgs).URL)
			}
			if diff := cmp.Diff([]string{sites[1]}, late); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			st, err := f.Status(t.Context())
			if err != nil || st.Queued != 2 || st.Total() != 2 {
				t.Errorf("status %+v, %v; want the 2 others queued, the late one rolled back", st, err)
			}
		})
	}
}

// TestInsertedParams: which params were inserted is read from each
// result's job arguments, not from its position (neither SQLite nor
// PostgreSQL promises RETURNING's rows in the order of the insert): the
// second check of insertManyChecked is asked about the sites that were
// inserted, not about their neighbours.
func TestInsertedParams(t *testing.T) {
	sites := []string{"https://a.example/", "https://b.example/", "https://c.example/"}
	var keep []river.InsertManyParams
	for _, s := range sites {
		keep = append(keep, river.InsertManyParams{Args: MapArgs{URL: s}})
	}
	result := func(site string, skipped bool) *rivertype.JobInsertResult {
		args, err := json.Marshal(MapArgs{URL: site})
		if err != nil {
			t.Fatal(err)
		}
		return &rivertype.JobInsertResult{Job: &rivertype.JobRow{EncodedArgs: args}, UniqueSkippedAsDuplicate: skipped}
	}
	tests := []struct {
		name    string
		res     []*rivertype.JobInsertResult
		want    []string
		wantErr bool
	}{
		{name: "in order", res: []*rivertype.JobInsertResult{result(sites[0], false), result(sites[1], true), result(sites[2], false)}, want: []string{sites[0], sites[2]}},
		{name: "reversed", res: []*rivertype.JobInsertResult{result(sites[2], false), result(sites[1], true), result(sites[0], true)}, want: []string{sites[2]}},
		{name: "a job of no param", res: []*rivertype.JobInsertResult{result(sites[0], false), result("https://d.example/", false), result(sites[2], false)}, wantErr: true},
		{name: "more results than params", res: []*rivertype.JobInsertResult{result(sites[0], false), result(sites[1], false), result(sites[2], false), result(sites[2], false)}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := insertedParams(keep, tt.res)
			if (err != nil) != tt.wantErr {
				t.Fatalf("insertedParams: error %v, want one: %v", err, tt.wantErr)
			}
			var urls []string
			for _, p := range got {
				urls = append(urls, p.Args.(MapArgs).URL)
			}
			if diff := cmp.Diff(tt.want, urls); diff != "" {
				t.Errorf("inserted (-want +got):\n%s", diff)
			}
		})
	}
}
