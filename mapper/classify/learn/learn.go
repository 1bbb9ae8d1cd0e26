package learn

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Example is one training case: its features (each present once; order
// does not matter) and its class.
type Example struct {
	Features []string
	Class    string
}

// Weight is the weight of one class for a feature, scaled by Scale.
type Weight struct {
	Class  int
	Weight int32
}

// Scale is the factor between a stored integer weight and the averaged
// perceptron's real-valued weight.
const Scale = 1000

// Model is a linear model: the score of class c for a set of features is
// the sum of the features' weights for c.
type Model struct {
	// Classes names the classes; Weight.Class indexes it.
	Classes []string
	// Weights holds, per feature, its non-zero class weights.
	Weights map[string][]Weight
	// MinMargin is how far the best class must lead the second (in stored
	// units) for a caller to prefer the reading to one of its own;
	// MinMarginFallback, when the caller has none. Both are chosen by
	// cross-validation.
	MinMargin, MinMarginFallback int64
	// OverruleMargin, when it names a class, is the lead the model needs
	// to overrule a caller's reading of that class, in place of
	// MinMargin: a reading whose falseness costs more than a miss may be
	// easier to overrule (chosen by cross-validation too).
	OverruleMargin map[string]int64
}

// Options configure Train.
type Options struct {
	// Epochs over the examples (default 10).
	Epochs int
	// Seed of the per-epoch shuffles (fixed: training is reproducible).
	Seed uint64
	// MinCount drops features seen in fewer training examples (default 2):
	// a word seen once is that page's habit, not the language's.
	MinCount int
}

// ErrNoExamples reports training on nothing.
var ErrNoExamples = errors.New("learn: no training examples")

// Train fits an averaged perceptron to examples. Classes are numbered in
// sorted order; examples are visited in the given order, shuffled per
// epoch with opts.Seed, so the same input gives the same model.
func Train(examples []Example, opts Options) (*Model, error) {
	if len(examples) == 0 {
		return nil, ErrNoExamples
	}
	if opts.Epochs <= 0 {
		opts.Epochs = 10
	}
	if opts.MinCount <= 0 {
		opts.MinCount = 2
	}
	m, classOf, count := vocabulary(examples)
	type ex struct {
		feats []string
		class int
	}
	xs := make([]ex, len(examples))
	for i, e := range examples {
		var fs []string
		for _, f := range dedupe(e.Features) {
			if count[f] >= opts.MinCount {
				fs = append(fs, f)
			}
		}
		xs[i] = ex{fs, classOf[e.Class]}
	}
	nc := len(m.Classes)
	w := map[string][]float64{}   // current weights
	acc := map[string][]float64{} // update step × delta, for averaging
	get := func(mm map[string][]float64, f string) []float64 {
		v := mm[f]
		if v == nil {
			v = make([]float64, nc)
			mm[f] = v
		}
		return v
	}
	rng := rand.New(rand.NewPCG(opts.Seed, uint64(len(xs))))
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	step := 1.0
	scores := make([]float64, nc)
	for range opts.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			x := xs[i]
			for c := range scores {
				scores[c] = 0
			}
			for _, f := range x.feats {
				if v := w[f]; v != nil {
					for c := range v {
						scores[c] += v[c]
					}
				}
			}
			best := argmax(scores, x.class)
			if best != x.class {
				for _, f := range x.feats {
					wv, av := get(w, f), get(acc, f)
					wv[x.class]++
					wv[best]--
					av[x.class] += step
					av[best] -= step
				}
			}
			step++
		}
	}
	feats := make([]string, 0, len(w))
	for f := range w {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	for _, f := range feats {
		var ws []Weight
		for c := range nc {
			avg := w[f][c] - acc[f][c]/step
			if q := int32(math.Round(avg * Scale)); q != 0 {
				ws = append(ws, Weight{c, q})
			}
		}
		if len(ws) > 0 {
			m.Weights[f] = ws
		}
	}
	return m, nil
}

// argmax returns the index of the highest score; ties go to the lowest
// index other than prefer (an untrained tie counts as a mistake).
func argmax(s []float64, prefer int) int {
	best := -1
	for c := range s {
		if best < 0 || s[c] > s[best] || s[c] == s[best] && best == prefer {
			best = c
		}
	}
	return best
}

// vocabulary is what both trainers start from: an empty model with the
// examples' classes in sorted order, each class's number, and how many
// examples hold each feature.
func vocabulary(examples []Example) (m *Model, classOf map[string]int, count map[string]int) {
	classSet := map[string]bool{}
	count = map[string]int{}
	for _, e := range examples {
		classSet[e.Class] = true
		for _, f := range dedupe(e.Features) {
			count[f]++
		}
	}
	m = &Model{Weights: map[string][]Weight{}}
	for c := range classSet {
		m.Classes = append(m.Classes, c)
	}
	sort.Strings(m.Classes)
	classOf = map[string]int{}
	for i, c := range m.Classes {
		classOf[c] = i
	}
	return m, classOf, count
}

func dedupe(fs []string) []string {
	seen := make(map[string]bool, len(fs))
	out := fs[:0:0]
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// Reading is the model's reading of one case.
type Reading struct {
	// Class is the best class, Margin how far it leads the second.
	Class  string
	Margin int64
	// Top are the features that pushed Class up most, strongest first.
	Top []string
}

// Read scores features and returns the best class. Unknown features are
// ignored; with no known feature, the reading has no class.
func (m *Model) Read(features []string) Reading {
	if m == nil || len(m.Classes) == 0 {
		return Reading{}
	}
	scores := make([]int64, len(m.Classes))
	known := false
	for _, f := range dedupe(features) {
		for _, w := range m.Weights[f] {
			scores[w.Class] += int64(w.Weight)
			known = true
		}
	}
	if !known {
		return Reading{}
	}
	best, second := -1, -1
	for c := range scores {
		switch {
		case best < 0 || scores[c] > scores[best]:
			best, second = c, best
		case second < 0 || scores[c] > scores[second]:
			second = c
		}
	}
	r := Reading{Class: m.Classes[best]}
	if second >= 0 {
		r.Margin = scores[best] - scores[second]
	}
	type fw struct {
		f string
		w int32
	}
	var top []fw
	for _, f := range dedupe(features) {
		for _, w := range m.Weights[f] {
			if w.Class == best && w.Weight > 0 {
				top = append(top, fw{f, w.Weight})
			}
		}
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].w != top[j].w {
			return top[i].w > top[j].w
		}
		return top[i].f < top[j].f
	})
	for i := 0; i < len(top) && i < 3; i++ {
		r.Top = append(r.Top, top[i].f)
	}
	return r
}

// WriteGo writes m as the body of a Go source file of package pkg, from
// its package clause on, declaring `var name = &learn.Model{…}`; the
// caller writes the "Code generated … DO NOT EDIT." header before it. The
// output depends only on m (features sorted), so it can be compared byte
// for byte.
func WriteGo(out io.Writer, m *Model, pkg, name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	b.WriteString("import \"github.com/frontlatch/frontlatch/mapper/classify/learn\"\n\n")
	fmt.Fprintf(&b, "var %s = &learn.Model{\n\tClasses: []string{", name)
	for i, c := range m.Classes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(c))
	}
	b.WriteString("},\n")
	fmt.Fprintf(&b, "\tMinMargin:         %d,\n\tMinMarginFallback: %d,\n", m.MinMargin, m.MinMarginFallback)
	if len(m.OverruleMargin) > 0 {
		cs := make([]string, 0, len(m.OverruleMargin))
		for c := range m.OverruleMargin {
			cs = append(cs, c)
		}
		sort.Strings(cs)
		b.WriteString("\tOverruleMargin: map[string]int64{")
		for i, c := range cs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %d", strconv.Quote(c), m.OverruleMargin[c])
		}
		b.WriteString("},\n")
	}
	b.WriteString("\tWeights: map[string][]learn.Weight{\n")
	feats := make([]string, 0, len(m.Weights))
	for f := range m.Weights {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	for _, f := range feats {
		fmt.Fprintf(&b, "\t\t%s: {", strconv.Quote(f))
		for i, w := range m.Weights[f] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{Class: %d, Weight: %d}", w.Class, w.Weight)
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t},\n}\n")
	_, err := io.WriteString(out, b.String())
	return err
}
