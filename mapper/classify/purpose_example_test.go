package classify_test

import (
	"fmt"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
)

// Reading a form once and deciding it by the rules alone (nil) or with a
// model, as training does; FormWith uses the shipped model.
func ExampleReadForm() {
	form := extract.Form{Visible: true, Heading: "Checkout",
		Fields: []extract.Field{
			{Type: "text", Name: "name", Label: "Name on card"},
			{Type: "text", Name: "cc", Label: "Card number"},
			{Type: "email", Name: "email", Label: "Email"},
		},
		Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Send"}},
	}
	r := classify.ReadForm(form, nil, classify.Fields(form, nil))
	rules := r.With(nil)
	fmt.Println(rules.Purpose, rules.Rule, rules.CustomerAction)
	fmt.Println(classify.PurposeClass(classify.PurposeBooking), classify.PurposeClass(classify.PurposeLogin))
	// Output:
	// order card-fields false
	// customer login
}
