package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/fleet"
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier"
	"github.com/frontlatch/frontlatch/verifier/audit"
)

func ExampleSiteURL() {
	for _, in := range []string{"https://Example.com", " http://example.com/contact#form ", "example.com"} {
		u, err := fleet.SiteURL(in)
		fmt.Printf("%q %v\n", u, err != nil)
	}
	// Output:
	// "https://example.com/" false
	// "http://example.com/contact" false
	// "" true
}

func ExampleReadList() {
	list := "# our clients\nhttps://plumber.example/\n\nhttps://clinic.example/\n"
	in, err := fleet.ReadList(strings.NewReader(list), "sites.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range in {
		fmt.Println(s.URL, "from", s.Source)
	}
	// Output:
	// https://plumber.example/ from line 2 of sites.txt
	// https://clinic.example/ from line 4 of sites.txt
}

// Open a fleet in a SQLite file (a postgres:// URL shares it between
// machines), queue sites and read the queue back. A site queued twice is
// queued once; a bad line queues nothing and is named.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "fleet-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	f, err := fleet.Open(ctx, filepath.Join(dir, "fleet.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()

	res, err := f.Add(ctx, []fleet.Input{
		{URL: "https://plumber.example/", Source: "argument 1"},
		{URL: "https://PLUMBER.example", Source: "argument 2"},
		{URL: "https://clinic.example/", Source: "argument 3"},
	})
	fmt.Println(res.Queued, res.Duplicates, err)

	_, err = f.Add(ctx, []fleet.Input{{URL: "ftp://files.example/", Source: "line 7 of sites.txt"}})
	fmt.Println(errors.Is(err, fleet.ErrInvalidURL), strings.Contains(err.Error(), "line 7 of sites.txt"))

	st, _ := f.Status(ctx)
	fmt.Println(st.Queued, st.Done, st.Total())
	// Output:
	// [https://plumber.example/ https://clinic.example/] [https://plumber.example/] <nil>
	// true true
	// 2 0 2
}

// Work maps what is queued until its context ends; several processes (or
// machines, on PostgreSQL) may work one fleet. Results are read while it
// runs or after.
func ExampleFleet_Work() {
	ctx := context.Background()
	f, err := fleet.Open(ctx, "fleet.db")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	if _, err := f.Add(ctx, []fleet.Input{{URL: "https://plumber.example/", Source: "argument 1"}}); err != nil {
		fmt.Println(err)
		return
	}

	wctx, stop := context.WithTimeout(ctx, 10*time.Minute)
	defer stop()
	go func() {
		// Two maps at once, one per host, on Debian's Chromium; sites with
		// confirmed actions are re-scanned daily.
		_ = f.Work(wctx, fleet.WorkOptions{Workers: 2, PerHost: 1, RescanEvery: 24 * time.Hour,
			Map: mapper.Options{MaxPages: 10}})
	}()
	for wctx.Err() == nil {
		st, _ := f.Status(ctx)
		if st.Done+st.Failed == st.Total() {
			break
		}
		time.Sleep(time.Second)
	}
	stop()

	g, err := f.Latest(ctx, "https://plumber.example/")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range g.Actions {
		fmt.Println(a.ID)
	}
	// Work needs Chromium and a live site, so this example is compiled,
	// not run; TestWork runs the same calls against the fixture sites.
}

// Changes answers which sites gained or lost a complete action since a
// moment: the question a fleet is mapped to answer, week after week.
func ExampleFleet_Changes() {
	ctx := context.Background()
	f, err := fleet.Open(ctx, "fleet.db")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	changes, err := f.Changes(ctx, time.Now().AddDate(0, 0, -7))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range changes {
		fmt.Println(c.Site, "gained", c.Gained, "lost", c.Lost)
	}
	// Export writes each site's latest graph as canonical JSON.
	n, err := f.Export(ctx, "graphs")
	fmt.Println(n, err)
}

// Import closes the loop of re-scans: the owner confirms actions in the
// verifier's portal (frontlatch verify serve) on a graph Export wrote, and
// the confirmed graph is recorded as its site's latest; QueueRescans (the
// periodic job of Work's RescanEvery) then re-scans the site, and the
// worker reconciles the re-scan against the audit store.
func ExampleFleet_Import() {
	dir, _ := os.MkdirTemp("", "fleet-import")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	f, err := fleet.Open(ctx, filepath.Join(dir, "fleet.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()

	// A graph as the portal wrote it back: here a fixture graph, with its
	// first action confirmed in a store of the example's own.
	data, err := shared.ReadDocumentFile("../fixtures/graphs/clinic01.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		fmt.Println(issues)
		return
	}
	store, err := audit.Open(ctx, filepath.Join(dir, "audit.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	notify := "owner@example.com"
	g, _, err = verifier.Confirm(ctx, g, g.Actions[0].ID, verifier.Confirmation{By: "Owner",
		Limits: shared.ConfirmationLimits{VolumeCap: &shared.VolumeCap{Max: 3, Per: shared.PerDay}, Notify: &notify}}, store)
	if err != nil {
		fmt.Println(err)
		return
	}

	site, err := f.Import(ctx, g)
	fmt.Println(site, err)
	n, err := f.QueueRescans(ctx, time.Now())
	fmt.Println(n, err)

	// A graph that does not validate is refused; nothing is recorded.
	g.GraphID = ""
	_, err = f.Import(ctx, g)
	fmt.Println(errors.Is(err, shared.ErrInvalidGraph))
	// Output:
	// https://harbourside-dental.com.au/ <nil>
	// 1 <nil>
	// true
}
