package extract_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A control outside its form that names it with form= is the form's
// field, and its locator finds it where it is: a selector scoped to the
// form (form#f1 [name=…], form#f1 input#…) would match nothing.
func TestFormAttributeLocators(t *testing.T) {
	want := map[string]string{
		"Name":  `form#f1 [name="inside"]`,
		"Email": "body:nth-of-type(1) > p:nth-of-type(1) > label:nth-of-type(1) > input:nth-of-type(1)",
		"Phone": "#ext-phone",
	}
	for _, ex := range extractors {
		t.Run(ex.name, func(t *testing.T) {
			f := formByID(t, ex.load(t, "form-attr.html"), "f1")
			got := map[string]string{}
			for _, fl := range f.Fields {
				got[fl.Label] = fl.Locator
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("locators by label (-want +got):\n%s", diff)
			}
		})
	}
}
