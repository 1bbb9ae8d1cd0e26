package mapper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// TestGoldenStatic maps fixture pages statically and compares the canonical
// graph (shared.Write) byte for byte with testdata/<name>.golden.json. What
// package classify owns — semantics' evidence and confidence, a form's
// purpose evidence — is replaced by a placeholder, so the golden file
// records the mapper's own output and does not churn with the classifier.
// Refresh with: go test -run TestGoldenStatic ./mapper -update
func TestGoldenStatic(t *testing.T) {
	cases := []struct{ name, file, url string }{
		{"clinic01-home", "../fixtures/sites/clinic01/index.html", "https://harbourside-dental.com.au/"},
		{"plumber01-quote", "../fixtures/sites/plumber01/quote/index.html", "https://flowrightplumbing.com.au/quote/"},
		{"jsonld01-reserve", "../fixtures/sites/jsonld01/reserve/index.html", "https://saltbushkitchen.com.au/reserve/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			html, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			o := testOptions()
			o.SiteSlug = ""
			g, err := MapHTML(tc.url, html, o)
			if err != nil {
				t.Fatal(err)
			}
			scrubClassifier(g)
			got, err := shared.Write(g)
			if err != nil {
				t.Fatalf("shared.Write: %v", err)
			}
			golden := filepath.Join("testdata", tc.name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

// scrubClassifier replaces the classifier's evidence and confidence on
// inputs and form actions with fixed placeholders.
func scrubClassifier(g *shared.ActionGraph) {
	const placeholder = "(classify)"
	for i := range g.Actions {
		a := &g.Actions[i]
		if a.Provenance != nil && a.Provenance.Method == shared.MethodParsedHTML && len(a.Inputs) > 0 {
			a.Provenance.Evidence, a.Provenance.Confidence = ptr(placeholder), 0.5
		}
		for j := range a.Inputs {
			if p := a.Inputs[j].Provenance; p != nil {
				p.Evidence, p.Confidence = ptr(placeholder), 0.5
			}
		}
	}
}
