package pagejs_test

import (
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/topology/pagejs"
)

// A script names the helpers it uses on include lines; Inline puts their
// source there.
func ExampleInline() {
	js, err := pagejs.Inline(`() => {
  //pagejs:include norm
  return norm(document.title);
}`)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(js, "const norm = "), strings.Contains(js, "//pagejs:include"))
	// Output: true false
}

// MustInline suits a script embedded in the program, inlined once when its
// package is initialised.
func ExampleMustInline() {
	js := pagejs.MustInline("(el) => {\n  //pagejs:include labels\n  return labelsIn([document])(el).length;\n}")
	fmt.Println(strings.Count(js, "const labelsIn = "))
	// Output: 1
}
