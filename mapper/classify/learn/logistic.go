package learn

import (
	"math"
	"sort"
)

// LogisticOptions configure TrainLogistic.
type LogisticOptions struct {
	// Steps of full-batch AdaGrad from zero weights (default 300).
	Steps int
	// L2 is the penalty on the squared weights (0: none).
	L2 float64
	// MinCount drops features seen in fewer training examples (default 2).
	MinCount int
}

// TrainLogistic fits a multinomial logistic regression with an L2 penalty
// to examples by full-batch AdaGrad (no randomness: the same input gives
// the same model), keeping features seen in at least opts.MinCount
// examples. Classes are numbered in sorted order, as by Train. The weights
// are stored scaled by Scale and rounded, so a logistic model is read as a
// perceptron is: its margins are in log-odds × Scale.
func TrainLogistic(examples []Example, opts LogisticOptions) (*Model, error) {
	if len(examples) == 0 {
		return nil, ErrNoExamples
	}
	if opts.MinCount <= 0 {
		opts.MinCount = 2
	}
	if opts.Steps <= 0 {
		opts.Steps = 300
	}
	minCount, l2, iters := opts.MinCount, opts.L2, opts.Steps
	m, classOf, count := vocabulary(examples)
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
		var ws []Weight
		for c := range nc {
			if q := int32(math.Round(w[k*nc+c] * Scale)); q != 0 {
				ws = append(ws, Weight{Class: c, Weight: q})
			}
		}
		if len(ws) > 0 {
			m.Weights[f] = ws
		}
	}
	return m, nil
}
