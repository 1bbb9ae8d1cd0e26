package fleet

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river"
)

// TestMappedWithinSubSecond: whether a map is within the unique window is
// decided by its time, to the nanosecond, not by how its text sorts
// (RFC3339Nano drops trailing zeros, so 10:00:00Z sorted after
// 10:00:00.5Z and a map half a second too old kept its site out).
func TestMappedWithinSubSecond(t *testing.T) {
	cutoff := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC).Add(-UniqueWindow)
	tests := []struct {
		name   string
		at     time.Duration // after the window's start
		cutoff time.Duration // of the window's start
		recent bool
	}{
		{name: "whole second, before a cutoff half a second later", at: 0, cutoff: 500 * time.Millisecond, recent: false},
		{name: "100 ms, before a cutoff at 150 ms", at: 100 * time.Millisecond, cutoff: 150 * time.Millisecond, recent: false},
		{name: "150 ms, after a cutoff at 100 ms", at: 150 * time.Millisecond, cutoff: 100 * time.Millisecond, recent: true},
		{name: "half a second, after a cutoff on the whole second", at: 500 * time.Millisecond, cutoff: 0, recent: true},
		{name: "1 ns after the cutoff", at: time.Second + time.Nanosecond, cutoff: time.Second, recent: true},
	}
	const site = "https://a.example/"
	for _, driver := range drivers {
		for _, tt := range tests {
			t.Run(driver+"/"+tt.name, func(t *testing.T) {
				f := openFor(t, driver)
				rec := mapRecord{site: site, jobID: 7, attempt: 1, at: cutoff.Add(tt.at)}
				if err := rec.setGraph(readGraph(t, clinicGraph)); err != nil {
					t.Fatal(err)
				}
				if err := f.record(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
				query := func(ctx context.Context, q string, args ...any) ([]string, error) {
					rows, err := f.db.QueryContext(ctx, q, args...)
					if err != nil {
						return nil, err
					}
					return scanStrings(rows)
				}
				a := MapArgs{URL: site}
				params := []river.InsertManyParams{{Args: a, InsertOpts: f.insertOpts(a)}}
				now := cutoff.Add(tt.cutoff).Add(UniqueWindow)
				_, drop, err := f.mappedWithin(now, UniqueWindow)(t.Context(), query, params)
				if err != nil {
					t.Fatal(err)
				}
				if got := len(drop) == 1; got != tt.recent {
					t.Errorf("mapped at %s, window from %s: within = %v, want %v", rec.at.Format(time.RFC3339Nano), now.Add(-UniqueWindow).Format(time.RFC3339Nano), got, tt.recent)
				}
			})
		}
	}
}

// TestMappedAtMigration: rows written before mapped_at had a fixed width
// (RFC3339Nano, trailing zeros dropped) are rewritten by the migration to
// the time they said, so they compare as times too.
func TestMappedAtMigration(t *testing.T) {
	old := map[string]string{
		"https://a.example/": "2026-12-06T10:00:00Z",
		"https://b.example/": "2026-12-06T10:00:00.5Z",
		"https://c.example/": "2026-12-06T10:00:00.123456789Z",
	}
	want := map[string]string{
		"https://a.example/": "2026-12-06T10:00:00.000000000Z",
		"https://b.example/": "2026-12-06T10:00:00.500000000Z",
		"https://c.example/": "2026-12-06T10:00:00.123456789Z",
	}
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			names, err := migrationFS.ReadDir("migrations")
			if err != nil {
				t.Fatal(err)
			}
			// The database as it was before the last migration, with rows
			// of then.
			if _, err := f.db.ExecContext(t.Context(), `DELETE FROM fleet_migrations WHERE version = $1`, len(names)); err != nil {
				t.Fatal(err)
			}
			for site, at := range old {
				if _, err := f.db.ExecContext(t.Context(), `INSERT INTO fleet_maps
					(site, job_id, attempt, mapped_at, ok, error_code, error, actions, complete_actions, complete_ids, confirmed, completeness, graph, reconciled)
					VALUES ($1, 1, 1, $2, 0, 'unreachable', 'down', 0, 0, '[]', 0, 'null', '', '')`, site, at); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.migrate(t.Context()); err != nil {
				t.Fatal(err)
			}
			rows, err := f.db.QueryContext(t.Context(), `SELECT site, mapped_at FROM fleet_maps`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := map[string]string{}
			for rows.Next() {
				var site, at string
				if err := rows.Scan(&site, &at); err != nil {
					t.Fatal(err)
				}
				got[site] = at
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mapped_at after the migration (-want +got):\n%s", diff)
			}
			fails, err := f.Failures(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range fails {
				if w, _ := time.Parse(time.RFC3339Nano, old[fl.Site]); !fl.At.Equal(w) {
					t.Errorf("Failures: %s at %s, want %s", fl.Site, fl.At, w)
				}
			}
		})
	}
}

// TestMappedWithinAsksOnlyOfItsSites: the unique window's check reads
// only the sites being inserted, in chunks, not every site mapped within
// the window (a fleet maps millions a day), and finds them all.
func TestMappedWithinAsksOnlyOfItsSites(t *testing.T) {
	now := time.Now().UTC()
	for _, driver := range drivers {
		t.Run(driver, func(t *testing.T) {
			f := openFor(t, driver)
			g := readGraph(t, clinicGraph)
			var params []river.InsertManyParams
			want := map[string]bool{}
			for i := range 2*recentChunk + 10 {
				site := fmt.Sprintf("https://s%d.example/", i)
				if i%2 == 0 { // every other site was mapped an hour ago
					rec := mapRecord{site: site, jobID: int64(i + 1), attempt: 1, at: now.Add(-time.Hour)}
					if err := rec.setGraph(g); err != nil {
						t.Fatal(err)
					}
					if err := f.record(t.Context(), rec); err != nil {
						t.Fatal(err)
					}
				}
				if i%4 < 2 { // half of them, mapped or not, are inserted
					a := MapArgs{URL: site}
					params = append(params, river.InsertManyParams{Args: a, InsertOpts: f.insertOpts(a)})
					want[site] = i%2 == 0
				}
			}
			read := 0
			query := func(ctx context.Context, q string, args ...any) ([]string, error) {
				rows, err := f.db.QueryContext(ctx, q, args...)
				if err != nil {
					return nil, err
				}
				out, err := scanStrings(rows)
				read += len(out)
				return out, err
			}
			keep, drop, err := f.mappedWithin(now, UniqueWindow)(t.Context(), query, params)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, p := range keep {
				got[p.Args.(MapArgs).URL] = false
			}
			for _, p := range drop {
				got[p.Args.(MapArgs).URL] = true
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sites dropped as mapped within the window (-want +got):\n%s", diff)
			}
			if n := len(drop); read != n {
				t.Errorf("the check read %d sites, want the %d of the insert that were mapped", read, n)
			}
		})
	}
}
