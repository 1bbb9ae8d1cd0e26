package shared_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// Read a graph from disk (at most MaxDocumentBytes of it); a graph comes
// back only when it is valid.
func ExampleRead() {
	data, err := shared.ReadDocumentFile("../fixtures/graphs/clinic01.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	g, issues := shared.Read(data)
	if issues != nil {
		for _, is := range issues {
			fmt.Println(is) // PATH: CODE: message
		}
		return
	}
	a := g.Actions[0]
	fmt.Println(g.Site.Domain, a.ID, a.Kind, a.Verification.Status())
	fmt.Println(a.Inputs[1].ValueSpace[0].(shared.PatternSpace).Pattern)
	// Output:
	// harbourside-dental.com.au clinic01:booking:appointment booking unverified
	// ^0[2-9]\d{8}$
}

// Every problem comes back at once, each with a path and a closed code.
func ExampleRead_issues() {
	doc := `{"schemaVersion": "0.1", "graphId": "g", "Site": {},
	  "generatedAt": "25 Aug 2026", "generator": {"name": "mapper", "version": "0.1.0"},
	  "actions": [], "notes": null, "notes": "again"}`
	_, issues := shared.Read([]byte(doc))
	for _, is := range issues {
		fmt.Println(is.Path, is.Code)
	}
	// Output:
	// $.Site json.case-variant-key
	// $.generatedAt timestamp.invalid
	// $.notes json.duplicate-key
	// $.site key.missing
}

// A document at another contract version is refused whole.
func ExampleRead_version() {
	_, issues := shared.Read([]byte(`{"schemaVersion": "0.2", "actions": [{"limit": 1}]}`))
	fmt.Println(len(issues), issues[0].Code)
	// Output:
	// 1 version.unsupported
}

// ReadAction reads one action with the rules of Read; paths start at the action.
func ExampleReadAction() {
	_, issues := shared.ReadAction([]byte(`{"id": "x", "kind": "booking"}`))
	for _, is := range issues[:3] {
		fmt.Println(is.Path, is.Code)
	}
	fmt.Println(issues[len(issues)-1].Path, issues[len(issues)-1].Code)
	// Output:
	// $.label key.missing
	// $.url key.missing
	// $.access key.missing
	// $.verification verification.missing
}

// Write produces canonical JSON and refuses an invalid graph: that is a bug
// in the program that built it.
func ExampleWrite() {
	g := shared.NewGraph("ag_example", shared.Site{Domain: "example.com.au", URL: "https://example.com.au/"},
		"2026-08-25T08:39:12.596Z", shared.Generator{Name: "mapper", Version: "0.1.0"})
	out, err := shared.Write(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))

	g.Actions = append(g.Actions, shared.NewAction("example:contact", shared.KindContact, "Contact us", "https://example.com.au/"))
	_, err = shared.Write(g)
	var ve *shared.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(errors.Is(err, shared.ErrInvalidGraph), ve.Issues[0].Path, ve.Issues[0].Code)
	}
	// Output:
	// {
	//   "schemaVersion": "0.1",
	//   "graphId": "ag_example",
	//   "site": {
	//     "domain": "example.com.au",
	//     "url": "https://example.com.au/",
	//     "name": null
	//   },
	//   "generatedAt": "2026-08-25T08:39:12.596Z",
	//   "generator": {
	//     "name": "mapper",
	//     "version": "0.1.0"
	//   },
	//   "actions": [],
	//   "notes": null
	// }
	// true $.actions[0].sideEffects.effects effects.empty
}

// WriteAction writes one action canonically, validated like Write.
func ExampleWriteAction() {
	a := shared.NewAction("example:call", shared.KindCallback, "Call us back", "https://example.com.au/")
	_, err := shared.WriteAction(&a)
	fmt.Println(errors.Is(err, shared.ErrInvalidGraph))
	// Output:
	// true
}

// Unions describes every sealed union: its wire key and its variants.
func ExampleUnions() {
	for _, u := range shared.Unions() {
		fmt.Print(u.Interface.Name(), " on ", u.Key, ":")
		for _, v := range u.Variants {
			fmt.Print(" ", v.Value, "=", v.Type.Name())
		}
		fmt.Println()
	}
	// Output:
	// ValueSpace on kind: length=LengthSpace pattern=PatternSpace range=RangeSpace one-of=OneOfSpace format=FormatSpace unknown=UnknownSpace
	// Validation on source: declared=DeclaredValidation inferred=InferredValidation
	// VerificationState on status: unverified=Unverified sandbox-tested=SandboxTested verified=Verified
}

func ExampleValidToolName() {
	fmt.Println(shared.ValidToolName("clinic01.booking.appointment.form"), shared.ValidToolName("book now"))
	// Output: true false
}

// A hostile document cannot flood the caller: a read lists at most
// MaxIssues+1 issues, the last one summarising the rest.
func ExampleIssuesNotListed() {
	doc := `{"access": [` + strings.Repeat(`{},`, 999) + `{}]}` // 1,000 empty doors
	_, issues := shared.ReadAction([]byte(doc))
	fmt.Println(len(issues), "issues listed, at least", shared.IssuesNotListed(issues), "more")
	last := issues[len(issues)-1]
	fmt.Println(last.Path, last.Code)
	fmt.Println(last.Message[:strings.Index(last.Message, ";")])
	// Output:
	// 101 issues listed, at least 4909 more
	// $.access[20].method key.missing
	// at least 4909 more issues not listed (a read lists the first 100 in full)
}

func ExampleClip() {
	fmt.Println(shared.Clip("Thanks, we will call you back today.", 19))
	fmt.Println(shared.Clip("Café", 4)) // é is two bytes: the cut moves back to a rune boundary
	// Output:
	// Thanks, we will cal…
	// Caf…
}

// ReadAllowedAction is the gate for a caller that runs the action next:
// the action comes back only when the gate grants.
func ExampleReadAllowedAction() {
	refuseAll := shared.AuditLookupFunc(func(context.Context, shared.AuditQuery) (shared.AuditAnswer, error) {
		return shared.AuditAnswer{}, nil // no such record
	})
	act, err := shared.ReadAllowedAction(context.Background(), []byte(`{"id":"x"}`), refuseAll)
	fmt.Println(act == nil, errors.Is(err, shared.ErrUnverifiedAction))
	// Output:
	// true true
}

// A group of same-name checkboxes is one input with its boxes as options;
// it takes a list of them. A lone checkbox takes true or false.
func ExampleInput_MultiValued() {
	wiring, solar := "Wiring", "Solar"
	group := shared.Input{Name: "services[]", Type: "checkbox", ValueSpace: []shared.ValueSpace{
		shared.OneOfSpace{Options: []shared.Option{{Value: "wiring", Label: &wiring}, {Value: "solar", Label: &solar}}}}}
	lone := shared.Input{Name: "newsletter", Type: "checkbox", ValueSpace: []shared.ValueSpace{}}
	fmt.Println(group.Name, group.MultiValued(), len(group.Options()))
	fmt.Println(lone.Name, lone.MultiValued(), len(lone.Options()))
	// Output:
	// services[] true 2
	// newsletter false 0
}

// ReadDocument bounds what a reader of a graph file it did not write
// holds in memory; Read then checks the document.
func ExampleReadDocument() {
	data, err := shared.ReadDocument(strings.NewReader(`{"schemaVersion":"9"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, issues := shared.Read(data)
	fmt.Println(issues[0].Code)
	// Output: version.unsupported
}
