package extract_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/google/go-cmp/cmp"
)

// A label without for= labels its first labelable descendant only (what
// label.control is): the controls after it in the same label have no
// label of their own, for both extractors alike; a hidden input is not
// labelable, so the control after it is the one labelled.
func TestWrappingLabel(t *testing.T) {
	want := map[string]labelView{
		"day":   {"Date of birth", extract.LabelWrapping, ""},
		"month": {"", extract.LabelNone, ""},
		"year":  {"", extract.LabelNone, ""},
		"email": {"Email", extract.LabelWrapping, ""},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "wrapping-label.html"), "wrap")
			got := map[string]labelView{}
			for _, fl := range f.Fields {
				if fl.Type != "hidden" {
					got[fl.Name] = labelView{fl.Label, fl.LabelSource, fl.Hint}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}
