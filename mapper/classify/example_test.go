package classify_test

import (
	"fmt"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
)

func ExampleField() {
	f := extract.Field{Type: "text", Name: "f2", Label: "Nachname", LabelSource: extract.LabelFor}
	r := classify.Field(f, extract.Form{Visible: true, Fields: []extract.Field{f}}, nil)
	fmt.Println(r.Semantic, r.Confidence, r.AgentFillable)
	// Output: family-name 0.88 true
}

func ExampleFields() {
	form := extract.Form{Visible: true, Fields: []extract.Field{
		{Type: "email", Name: "email", Label: "Email"},
		{Type: "text", Name: "website", Label: "Website", Visibility: extract.Visibility{Hidden: true, HiddenBy: extract.HiddenByWrapper, Reasons: []string{extract.ReasonOffScreen}}},
		{Type: "hidden", Name: "_wpnonce", Value: "a1b2"},
	}}
	for i, r := range classify.Fields(form, nil) {
		fmt.Println(form.Fields[i].Name, r.Semantic, r.AgentFillable)
	}
	// Output:
	// email email true
	// website honeypot false
	// _wpnonce system-token false
}

func ExampleForm() {
	form := extract.Form{Visible: true, Heading: "Request a call back",
		Fields: []extract.Field{
			{Type: "text", Name: "name", Label: "Your name"},
			{Type: "tel", Name: "phone", Label: "Phone"},
		},
		Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Call me"}},
	}
	r := classify.Form(form, nil)
	fmt.Println(r.Purpose, r.CustomerAction, *r.Kind)
	// Output: callback true callback
}

func ExampleFormWith() {
	form := extract.Form{Visible: true, Fields: []extract.Field{{Type: "search", Name: "q"}}}
	fields := classify.Fields(form, nil)
	r := classify.FormWith(form, nil, fields)
	fmt.Println(r.Purpose, r.CustomerAction, r.Kind == nil)
	// Output: search false true
}

func ExamplePurpose_Kind() {
	k, ok := classify.PurposeQuote.Kind()
	_, ok2 := classify.PurposeNewsletter.Kind()
	fmt.Println(k, ok, ok2)
	// Output: quote true false
}
