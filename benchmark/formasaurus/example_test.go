package formasaurus_test

import (
	"context"
	"fmt"

	"github.com/frontlatch/frontlatch/benchmark/formasaurus"
)

func ExampleDroppedForms() {
	raw := []byte(`<form id=a><form id=nested></form><noscript><form id=b></form></noscript><form id=c></form>`)
	fmt.Println(formasaurus.DroppedForms(raw))
	// Output: [false true true false]
}

func ExampleSplitOf() {
	fmt.Println(formasaurus.SplitOf("html/example.com-0.html") == formasaurus.SplitOf("example.com-0.html"))
	// Output: true
}

func ExampleRun() {
	c, err := formasaurus.Load("../../../shared/corpora/formasaurus-dev")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := formasaurus.Run(context.Background(), c, formasaurus.Options{Only: "holdout"})
	if err != nil {
		fmt.Println(err)
		return
	}
	all := rep.Splits["all"]
	fmt.Printf("fields %.3f, honeypot recall %.2f, customer-action F1 %.3f\n", all.FieldAccuracy, all.HoneypotRecall, all.CustomerAction.F1)
	if err := formasaurus.WriteResults("results.json", rep); err != nil {
		fmt.Println(err)
	}
}
