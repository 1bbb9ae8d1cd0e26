package compiler

import "testing"

// BenchmarkCompileAll measures writing every format of the doors graph
// (six actions, every door kind).
func BenchmarkCompileAll(b *testing.B) {
	g := doorsGraph()
	opts := Options{IncludeUnverified: true}
	for b.Loop() {
		if _, err := CompileAll(g, opts); err != nil {
			b.Fatal(err)
		}
	}
}
