package extract_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An image button (<input type=image>) submits its form, as old sites'
// "Send" images do, though the browser leaves it out of form.elements:
// both extractors list it among the form's submits, in tree order, one
// outside the form that names it with form= included.
func TestImageSubmit(t *testing.T) {
	want := map[string][]string{
		"img":   {"input image Send enquiry"},
		"mixed": {"input image Get a quote", "button submit Send"},
		"owned": {"input image Call me back"},
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			p := ex.load(t, "image-submit.html")
			got := map[string][]string{}
			for _, f := range p.Forms {
				got[f.ID] = []string{}
				for _, s := range f.Submits {
					got[f.ID] = append(got[f.ID], s.Tag+" "+s.Type+" "+s.Text)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("submits (-want +got):\n%s", diff)
			}
		})
	}
}
