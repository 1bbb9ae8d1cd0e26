package mapper_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/google/go-cmp/cmp"
)

// idsAndCompleteness is what ExampleMap prints.
func idsAndCompleteness(g *shared.ActionGraph) []string {
	var out []string
	for _, a := range g.Actions {
		out = append(out, fmt.Sprint(a.ID, " ", shared.Completeness(a).Complete))
	}
	return out
}

// The three ways in for another crawler (docs/mapper.md "Embedding"): its
// own rod page (MapPage), the DevTools URL of a Chromium it already runs
// (Options.ControlURL), and static HTML it already fetched (MapHTML). Each
// maps the example page to the same actions; the browser ways also run
// the examples that cannot print without Chromium.
func TestEmbedding(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, examplePage)
	}))
	defer srv.Close()
	want := []string{"acme:quote:quote true", "acme:contact:phone false"}

	t.Run("static HTML", func(t *testing.T) {
		g, err := mapper.MapHTML(srv.URL+"/", []byte(examplePage), mapper.Options{SiteSlug: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, idsAndCompleteness(g)); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
	})

	t.Run("Map launches its own browser", func(t *testing.T) {
		topologytest.NeedChromium(t)
		g, err := mapper.Map(context.Background(), srv.URL+"/", mapper.Options{Offline: true, NoExplore: true, SiteSlug: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, idsAndCompleteness(g)); diff != "" {
			t.Errorf("ExampleMap (-want +got):\n%s", diff)
		}
	})

	t.Run("your own rod page", func(t *testing.T) {
		topologytest.NeedChromium(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		br, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		// The crawler's own rod browser, wrapped: closing the wrapper
		// would leave it running.
		own := topology.Attach(br.Rod())
		page, err := own.OpenPage(ctx, srv.URL+"/", topology.PageOptions{InitScripts: []string{mapper.WebMCPInitScript()}})
		if err != nil {
			t.Fatal(err)
		}
		defer page.Close()
		g, err := mapper.MapPage(ctx, page, mapper.Options{SiteSlug: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(len(g.Actions), " ", g.Actions[0].Kind); got != "2 quote" {
			t.Errorf("ExampleMapPage printed %q, want %q", got, "2 quote")
		}
		if diff := cmp.Diff(want, idsAndCompleteness(g)); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
	})

	t.Run("a running Chromium's DevTools URL", func(t *testing.T) {
		topologytest.NeedChromium(t)
		ws := topologytest.StartChromium(t, 0).URL
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		g, err := mapper.Map(ctx, srv.URL+"/", mapper.Options{ControlURL: ws, Offline: true, NoExplore: true, SiteSlug: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, idsAndCompleteness(g)); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
		// The caller's browser is still running: it answers a second run,
		// and MapAll uses it too.
		if _, err := mapper.Map(ctx, srv.URL+"/", mapper.Options{ControlURL: ws, Offline: true, NoExplore: true}); err != nil {
			t.Errorf("the running browser did not survive the first Map: %v", err)
		}
		rs, err := mapper.MapAll(ctx, []string{srv.URL + "/"}, mapper.Options{ControlURL: ws, Offline: true, NoExplore: true, SiteSlug: "acme"}, mapper.PoolOptions{})
		if err != nil || rs[0].Err != nil {
			t.Fatalf("MapAll over the running browser: %v, %v", err, rs[0].Err)
		}
		if diff := cmp.Diff(want, idsAndCompleteness(rs[0].Graph)); diff != "" {
			t.Errorf("MapAll actions (-want +got):\n%s", diff)
		}
	})

	// A ControlURL nothing answers is an error for Map and MapAll alike:
	// neither launches a browser of its own in its place.
	t.Run("a ControlURL nothing answers", func(t *testing.T) {
		dead := "ws://127.0.0.1:1/devtools/browser/none"
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := mapper.Map(ctx, srv.URL+"/", mapper.Options{ControlURL: dead, NoExplore: true}); err == nil {
			t.Error("Map over a dead ControlURL succeeded")
		}
		rs, err := mapper.MapAll(ctx, []string{srv.URL + "/"}, mapper.Options{ControlURL: dead, NoExplore: true}, mapper.PoolOptions{})
		if err == nil {
			t.Errorf("MapAll over a dead ControlURL succeeded: %+v", rs)
		}
	})
}
