package formasaurus

import (
	"math"
	"sort"

	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

// trainLogistic fits a multinomial logistic regression with an L2
// penalty to examples by full-batch AdaGrad (iters steps from zero
// weights, no randomness: the same input gives the same model), keeping
// features seen in at least minCount examples. The weights are stored as
// a learn.Model (scaled by learn.Scale, rounded), so the classifier reads
// it as it reads a perceptron: the margins are in log-odds × learn.Scale.
func trainLogistic(examples []learn.Example, minCount int, l2 float64, iters int) (*learn.Model, error) {
	if len(examples) == 0 {
		return nil, learn.ErrNoExamples
	}
	classSet := map[string]bool{}
	count := map[string]int{}
	for _, e := range examples {
		classSet[e.Class] = true
		seen := map[string]bool{}
		for _, f := range e.Features {
			if !seen[f] {
				seen[f] = true
				count[f]++
			}
		}
	}
	m := &learn.Model{Weights: map[string][]learn.Weight{}}
	for c := range classSet {
		m.Classes = append(m.Classes, c)
	}
	sort.Strings(m.Classes)
	classOf := map[string]int{}
	for i, c := range m.Classes {
		classOf[c] = i
	}
	var feats []string
	for f, n := range count {
		if n >= minCount {
			feats = append(feats, f)
		}
	}
	sort.Strings(feats)
	index := map[string]int{}
	for i, f := range feats {
		index[f] = i
	}
	type ex struct {
		fs    []int
		class int
	}
	xs := make([]ex, len(examples))
	for i, e := range examples {
		seen := map[int]bool{}
		for _, f := range e.Features {
			if k, ok := index[f]; ok && !seen[k] {
				seen[k] = true
				xs[i].fs = append(xs[i].fs, k)
			}
		}
		sort.Ints(xs[i].fs)
		xs[i].class = classOf[e.Class]
	}
	nc, nf := len(m.Classes), len(feats)
	w := make([]float64, nf*nc)
	g := make([]float64, nf*nc)
	acc := make([]float64, nf*nc) // AdaGrad's sum of squared gradients
	p := make([]float64, nc)
	const rate, eps = 0.5, 1e-8
	n := float64(len(xs))
	for range iters {
		for i := range g {
			g[i] = 0
		}
		for _, x := range xs {
			mx := math.Inf(-1)
			for c := range nc {
				s := 0.0
				for _, k := range x.fs {
					s += w[k*nc+c]
				}
				p[c] = s
				mx = math.Max(mx, s)
			}
			z := 0.0
			for c := range nc {
				p[c] = math.Exp(p[c] - mx)
				z += p[c]
			}
			for c := range nc {
				d := p[c] / z
				if c == x.class {
					d--
				}
				for _, k := range x.fs {
					g[k*nc+c] += d
				}
			}
		}
		for i := range w {
			// The explicit conversions round every product, so no
			// platform fuses a multiply-add and the weights (and the
			// generated file) are the same bytes everywhere.
			gi := g[i]/n + float64(l2*w[i])
			acc[i] += float64(gi * gi)
			w[i] -= float64(rate*gi) / (math.Sqrt(acc[i]) + eps)
		}
	}
	for k, f := range feats {
		var ws []learn.Weight
		for c := range nc {
			if q := int32(math.Round(w[k*nc+c] * learn.Scale)); q != 0 {
				ws = append(ws, learn.Weight{Class: c, Weight: q})
			}
		}
		if len(ws) > 0 {
			m.Weights[f] = ws
		}
	}
	return m, nil
}
