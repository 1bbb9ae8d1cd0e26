package extract_test

import (
	"context"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/topology"
	"github.com/google/go-cmp/cmp"
)

// TestLabelsAgreeWithTopology reads one page of tricky labels (label[for]
// with an id two controls and two forms share, two labels for one control,
// nested labels, a wrapping label whose for names another control, an
// aria-labelledby list with a missing id and a hidden part, labels of hidden
// inputs) with the mapper's extraction and topology's scan, in the same
// Chromium. Both find each control's labels with the one labelsOf
// (topology/pagejs); they read them apart on purpose in the cases the table
// gives a reason for, and must agree on every other control.
func TestLabelsAgreeWithTopology(t *testing.T) {
	const none = "<none>" // topology has no label (or no element)
	tests := []struct {
		name     string
		mapper   string
		topology string
		why      string // why the two differ; "" when they agree
	}{
		{"email", "Email (work)", "Email (work)", ""},
		{"nested", "Outer Inner Inner", "Outer Inner Inner", ""},
		{"other", "Other", "Other", ""},
		{"phone", "Phone (mobile)", "Phone (mobile)", ""},
		{"later", "Later date", "Later date", ""},
		{"service", "Select a service", "Select a service", ""},
		// The browser binds both forms' label[for=dup] to the first
		// control with the id; the mapper takes a field's labels from its
		// own form first (ownLabels), topology what the browser binds.
		{"dup-a", "Your name", "Your name Your name", "repeated form"},
		{"dup-c", "Your name", none, "repeated form"},
		// The mapper's by-id fallback reads its form's label[for=dup]
		// for the second control with that id too, and static.go's
		// ownLabels does the same; the browser binds it to the first only.
		{"dup-b", "Your name", none, "mapper by-id fallback"},
		// A hidden input is no candidate of topology's; the mapper reads the
		// label[for] naming it by id, as the static extractor does.
		{"tok", "Token", none, "hidden input"},
		// No label binds to it; the mapper reads the text before it.
		{"wrapped", "Other", none, "mapper nearby text"},
	}

	p := inBrowser(t, "tricky-labels.html")
	mapper := map[string]string{}
	for _, f := range p.Forms {
		for _, fl := range f.Fields {
			mapper[fl.Name] = fl.Label
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	g, err := sharedBrowser(t).Scan(ctx, server.URL+"/tricky-labels.html", topology.PageOptions{Offline: true}, topology.ScanOptions{})
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	topo := map[string]string{}
	for _, e := range g.Elements {
		if e.Label != nil {
			topo[e.Attributes["name"]] = *e.Label
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := mapper[tt.name]
			if !ok {
				t.Fatalf("the mapper has no field %q", tt.name)
			}
			tl, ok := topo[tt.name]
			if !ok {
				tl = none
			}
			if tt.why == "" && m != tl {
				t.Errorf("mapper %q and topology %q disagree", m, tl)
			}
			type reading struct{ Mapper, Topology string }
			if diff := cmp.Diff(reading{tt.mapper, tt.topology}, reading{m, tl}); diff != "" {
				t.Errorf("label of %s (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
