package compiler

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/shared"
)

// TestJSONLDIdentifiersUnique: every potentialAction entry has its own
// identifier, two doors of one method that only inform (two tel: numbers,
// two email addresses, two forms not offered) included — each was
// "<action id>#<method>" — and an identifier does not depend on the
// door's position.
func TestJSONLDIdentifiersUnique(t *testing.T) {
	identifiers := func(t *testing.T, g *shared.ActionGraph, opts Options) []string {
		t.Helper()
		files, err := CompileFormat(g, FormatJSONLD, opts)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			PotentialAction []struct{ Identifier string }
		}
		if err := json.Unmarshal(files[0].Data, &doc); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, a := range doc.PotentialAction {
			ids = append(ids, a.Identifier)
		}
		return ids
	}
	build := func(reverse bool) *shared.ActionGraph {
		g := doorsGraph()
		c := &g.Actions[2] // contact: one mailto: door
		c.Access = append(c.Access, infoDoor(shared.AccessMailtoLink, "mailto:jobs@harbour-plumbing.example", false, nil),
			infoDoor(shared.AccessTelLink, "tel:+61290000001", false, nil), infoDoor(shared.AccessTelLink, "tel:+61290000002", false, nil))
		b := &g.Actions[1] // booking, sandbox-tested: its form is not offered by default
		b.Access = append(b.Access, formDoor(g.Site.URL+"book/", "footer form.availability", g.Site.URL+"book/", shared.TransportFormGet, nil))
		if reverse {
			slices.Reverse(c.Access)
			slices.Reverse(b.Access)
		}
		return g
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			ids := identifiers(t, build(false), v.opts)
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id] {
					t.Errorf("identifier %q is written twice in %q", id, ids)
				}
				seen[id] = true
			}
			reversed := identifiers(t, build(true), v.opts)
			slices.Sort(ids)
			slices.Sort(reversed)
			if diff := cmp.Diff(ids, reversed); diff != "" {
				t.Errorf("identifiers with the doors reversed (-in order +reversed):\n%s", diff)
			}
		})
	}
}
