package formasaurus

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/classify/learn"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// TrainOptions configure TrainFieldModel.
type TrainOptions struct {
	// Folds of the cross-validation inside dev (default 5).
	Folds int
	// Seed of the training shuffles (default 2016).
	Seed uint64
	// Explain, when set, receives one line per labelled dev field the
	// chosen configuration reads wrong on its held-out fold (formeval's
	// -explain format); holdout fields are never read.
	Explain io.Writer
}

// TrainReport is what the cross-validation inside dev measured.
type TrainReport struct {
	Pages, Examples int
	// Epochs, MinCount, MinMargin and MinMarginFallback are the choices
	// the cross-validation made.
	Epochs, MinCount             int
	MinMargin, MinMarginFallback int64
	// RulesCV and CombinedCV are the fractions of labelled fields (typed
	// and unknown labels) read right on the held-out folds, by the rules
	// alone and with the model.
	RulesCV, CombinedCV float64
	Features            int
}

// devPage is one dev page as the trainers read it: statically extracted,
// its labelled forms aligned with the forms found (idx[i] is the found
// form of labelled form i, or -1; dropped[i] a form the browser drops).
type devPage struct {
	Page
	doc     *extract.Page
	idx     []int
	dropped []bool
}

// eachDevPage calls fn for every page of c's dev split the parser can read,
// in file order; holdout pages are never opened. It stops at the first
// error fn or the context returns.
func eachDevPage(ctx context.Context, c *Corpus, fn func(devPage) error) error {
	for _, p := range c.Pages {
		if p.Split != "dev" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		raw, err := os.ReadFile(filepath.Join(c.Dir, p.File))
		if err != nil {
			return fmt.Errorf("formasaurus: %w", err)
		}
		doc, err := extract.FromHTML("http://127.0.0.1/"+p.File, raw)
		if err != nil {
			continue // a page the parser cannot read teaches nothing
		}
		dropped := DroppedForms(raw)
		idx, _ := align(p, dropped, doc.Forms)
		if err := fn(devPage{p, doc, idx, dropped}); err != nil {
			return err
		}
	}
	return nil
}

// labelled is one aligned labelled form of the dev split.
type labelled struct {
	page   string
	form   extract.Form
	labels map[string]string // field name → label
	read   *classify.FieldReadings
}

// TrainFieldModel trains the classifier's field model on the dev split of
// c only — holdout pages are never read — with static extraction (the
// same reading on every machine, no browser), on the labelled fields the
// model may decide (FieldReadings.Sharp false). Choices (epochs, feature
// count floor, the two margins) are made by k-fold cross-validation over
// dev pages; the returned model is then trained on all of dev.
func TrainFieldModel(ctx context.Context, c *Corpus, o TrainOptions) (*learn.Model, TrainReport, error) {
	if o.Folds <= 1 {
		o.Folds = 5
	}
	if o.Seed == 0 {
		o.Seed = 2016
	}
	var rep TrainReport
	var pages [][]labelled // per dev page, in file order
	err := eachDevPage(ctx, c, func(p devPage) error {
		var forms []labelled
		for i, k := range p.idx {
			if k < 0 || i >= len(p.Fields) || len(p.Fields[i]) == 0 {
				continue
			}
			forms = append(forms, labelled{p.File, p.doc.Forms[k], p.Fields[i], classify.ReadFields(p.doc.Forms[k], p.doc)})
		}
		pages = append(pages, forms)
		return nil
	})
	if err != nil {
		return nil, rep, err
	}
	rep.Pages = len(pages)
	// Features are computed once per field: they depend on the rules
	// only, not on the model.
	type item struct {
		ex   learn.Example
		fold int
	}
	var items []item
	for pi, forms := range pages {
		for _, lf := range forms {
			rules := lf.read.With(nil)
			feats := lf.read.Features()
			sharp := lf.read.Sharp()
			for i, f := range lf.form.Fields {
				class, ok := trainClass(lf.labels[f.Name])
				if !ok || rules[i].Semantic == shared.SemanticHoneypot || rules[i].Semantic == shared.SemanticSystemToken {
					continue
				}
				// The model only ever decides where the rules are not sharp
				// (no autocomplete token, no input type of its own, no
				// structure): it learns from those fields alone, not from
				// the type=email boxes it will never be asked about.
				if sharp[i] {
					continue
				}
				items = append(items, item{learn.Example{Features: feats[i], Class: class}, pi % o.Folds})
			}
		}
	}
	rep.Examples = len(items)
	type config struct{ epochs, minCount int }
	configs := []config{{5, 1}, {5, 2}, {10, 1}, {10, 2}, {20, 2}}
	// Margins in stored units (learn.Scale per unit of averaged weight).
	// Below one unit a lead is a coin flip the folds cannot tell from
	// noise; 1<<40 never lets the model decide.
	margins := []int64{1000, 2000, 3000, 5000, 8000, 12000, 1 << 40}
	type key struct {
		cfg      config
		min, fbk int64
	}
	right := map[key]int{}
	rulesRight, total := 0, 0
	for _, cfg := range configs {
		for fold := range o.Folds {
			var train []learn.Example
			for _, it := range items {
				if it.fold != fold {
					train = append(train, it.ex)
				}
			}
			m, err := learn.Train(train, learn.Options{Epochs: cfg.epochs, MinCount: cfg.minCount, Seed: o.Seed})
			if err != nil {
				return nil, rep, err
			}
			for pi, forms := range pages {
				if pi%o.Folds != fold {
					continue
				}
				for _, lf := range forms {
					if cfg == configs[0] {
						r, n := scoreLabelled(lf, lf.read.With(nil))
						rulesRight += r
						total += n
					}
					for _, mn := range margins {
						for _, fb := range margins {
							if fb > mn {
								continue
							}
							mm := *m
							mm.MinMargin, mm.MinMarginFallback = mn, fb
							r, _ := scoreLabelled(lf, lf.read.With(&mm))
							right[key{cfg, mn, fb}] += r
						}
					}
				}
			}
		}
	}
	keys := make([]key, 0, len(right))
	for k := range right {
		keys = append(keys, k)
	}
	// Best CV score; ties go to the larger margins (trust the rules more),
	// then the fewer epochs and the higher feature floor (the simpler model).
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch {
		case right[a] != right[b]:
			return right[a] > right[b]
		case a.min != b.min:
			return a.min > b.min
		case a.fbk != b.fbk:
			return a.fbk > b.fbk
		case a.cfg.epochs != b.cfg.epochs:
			return a.cfg.epochs < b.cfg.epochs
		}
		return a.cfg.minCount > b.cfg.minCount
	})
	best := keys[0]
	rep.Epochs, rep.MinCount, rep.MinMargin, rep.MinMarginFallback = best.cfg.epochs, best.cfg.minCount, best.min, best.fbk
	rep.RulesCV, rep.CombinedCV = ratio(rulesRight, total), ratio(right[best], total)
	all := make([]learn.Example, len(items))
	for i, it := range items {
		all[i] = it.ex
	}
	m, err := learn.Train(all, learn.Options{Epochs: best.cfg.epochs, MinCount: best.cfg.minCount, Seed: o.Seed})
	if err != nil {
		return nil, rep, err
	}
	m.MinMargin, m.MinMarginFallback = best.min, best.fbk
	rep.Features = len(m.Weights)
	if o.Explain != nil {
		for fold := range o.Folds {
			var train []learn.Example
			for _, it := range items {
				if it.fold != fold {
					train = append(train, it.ex)
				}
			}
			fm, err := learn.Train(train, learn.Options{Epochs: best.cfg.epochs, MinCount: best.cfg.minCount, Seed: o.Seed})
			if err != nil {
				return nil, rep, err
			}
			fm.MinMargin, fm.MinMarginFallback = best.min, best.fbk
			for pi, forms := range pages {
				if pi%o.Folds != fold {
					continue
				}
				for _, lf := range forms {
					c := newCounts()
					c.explain, c.page = o.Explain, lf.page
					c.scoreFields(lf.labels, lf.form, lf.read.With(fm))
				}
			}
		}
	}
	return m, rep, nil
}

// trainClass is the class a field label teaches: its semantic type, or
// unknown for labels of none of our types; honeypots are the rules' and
// other labels teach nothing.
func trainClass(label string) (string, bool) {
	if unknownLabels[label] {
		return string(shared.SemanticUnknown), true
	}
	s, ok := LabelSemantic[label]
	if !ok || s == shared.SemanticHoneypot {
		return "", false
	}
	return string(s), true
}

// scoreLabelled counts the labelled fields of lf (typed and unknown
// labels, honeypots included) read right by res, and how many there are,
// with formeval's own field scoring.
func scoreLabelled(lf labelled, res []classify.FieldResult) (right, n int) {
	c := newCounts()
	c.scoreFields(lf.labels, lf.form, res)
	return c.FieldsRight + c.UnknownRight, c.FieldsScored + c.UnknownScored
}
