package extract_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// White space is collapsed as the browser's extraction collapses it
// (pagejs's norm, JavaScript's \s): a no-break space (&nbsp;, in labels
// everywhere), a vertical tab, the Unicode spaces, a line separator and a
// byte order mark are white space to both extractors alike.
func TestWhiteSpace(t *testing.T) {
	want := map[string]string{
		"a": "Your name", "b": "E-mail address", "c": "Phone number",
		"d": "Post code", "e": "Company name", "f": "City",
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "spaces.html"), "spaces")
			got := map[string]string{}
			for _, fl := range f.Fields {
				got[fl.Name] = fl.Label
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if len(f.Submits) != 1 || f.Submits[0].Text != "Send now" {
				t.Errorf("submits %+v, want one reading \"Send now\"", f.Submits)
			}
		})
	}
}
