package mapper

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/google/go-cmp/cmp"
)

// MapPage maps the page an embedding crawler opened, WebMCP tools included
// when the crawler installed the recorder, and leaves the page open.
func TestMapPage(t *testing.T) {
	body := bookingForm("") + registerScript("document")
	srv := serveSite(t, site{pages: map[string]string{"/": page("Acme", body)}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := testBrowser(t).OpenPage(ctx, srv.URL+"/", topology.PageOptions{InitScripts: []string{WebMCPInitScript()}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g, err := MapPage(ctx, p, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, g)
	var kinds []shared.ActionKind
	for _, a := range g.Actions {
		kinds = append(kinds, a.Kind)
	}
	if diff := cmp.Diff([]shared.ActionKind{shared.KindBooking, shared.KindCallback}, kinds); diff != "" {
		t.Errorf("action kinds (-want +got):\n%s", diff)
	}
	if _, err := p.Timeout(5 * time.Second).Info(); err != nil {
		t.Errorf("MapPage closed the caller's page: %v", err)
	}
	if _, err := MapPage(ctx, nil, testOptions()); !errors.Is(err, ErrNilPage) {
		t.Errorf("MapPage(nil) = %v, want ErrNilPage", err)
	}
}
