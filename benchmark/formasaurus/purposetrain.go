package formasaurus

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

// PurposeTrainOptions configure TrainPurposeModel.
type PurposeTrainOptions struct {
	// Folds of the cross-validation inside dev (default 5).
	Folds int
	// Seed of the training shuffles (default 2016).
	Seed uint64
	// FieldModel reads the fields whose semantics the purpose features
	// count; nil uses the shipped one (classify.Fields). The training
	// command passes the field model it has just trained, so one run
	// writes both models consistently.
	FieldModel *learn.Model
	// Explain, when set, receives one line per dev form the chosen
	// configuration gets wrong on its held-out fold (dev only, like
	// formeval's -explain).
	Explain io.Writer
}

// PurposeTrainReport is what the cross-validation inside dev measured.
type PurposeTrainReport struct {
	Pages, Forms int
	// Classes counts the training forms per purpose class.
	Classes map[string]int
	// Epochs, MinCount, MinMargin and MinMarginFallback are the choices
	// the cross-validation made.
	// L2 > 0 means a logistic regression with that penalty, trained for
	// Epochs steps; 0, an averaged perceptron trained for Epochs epochs.
	Epochs, MinCount             int
	L2                           float64
	MinMargin, MinMarginFallback int64
	// MinMarginDoubt is the lead the model needs to overrule the rules'
	// claim of a customer action (learn.Model.OverruleMargin of
	// classify.ClassCustomer); equal to MinMargin when it has none of its
	// own.
	MinMarginDoubt int64
	// RulesCV and CombinedCV are the fractions of labelled forms whose
	// purpose is right on the held-out folds (formeval's purposeAccuracy),
	// by the rules alone and with the model; RulesF1 and CombinedF1 are
	// the customer-action F1 (formeval's caF1) on the same folds.
	RulesCV, CombinedCV, RulesF1, CombinedF1 float64
	Features                                 int
	// Tried lists each configuration's best cross-validated result, best
	// first.
	Tried []string
}

// purposeCVRepeats is how many partitions of the dev pages the
// cross-validation runs.
const purposeCVRepeats = 3

// logisticIters is how many AdaGrad steps a logistic regression takes.
const logisticIters = 300

// purposeForm is one labelled form of the dev split, read by the rules.
type purposeForm struct {
	page  string
	label string // simplified Formasaurus form label
	class string // the model's class for it
	read  *classify.FormReading
}

// TrainPurposeModel trains the classifier's form-purpose model on the
// dev split of c only — holdout pages are never read — with static
// extraction. Its hyper-parameters (epochs, feature count floor, the
// three margins at which it overrules the rules: over a rule, over a rule
// that found no purpose, and over the rules' weak claim of a customer
// action) are chosen by k-fold cross-validation over dev pages, maximising the forms whose purpose is
// right minus the forms falsely claimed as customer actions (a false
// claim costs twice: such forms far outnumber true ones on real sites);
// ties go to the larger margins (trust the rules more), then to the
// simpler model. The returned model is trained on all of dev.
func TrainPurposeModel(ctx context.Context, c *Corpus, o PurposeTrainOptions) (*learn.Model, PurposeTrainReport, error) {
	if o.Folds <= 1 {
		o.Folds = 5
	}
	if o.Seed == 0 {
		o.Seed = 2016
	}
	rep := PurposeTrainReport{Classes: map[string]int{}}
	var pages [][]purposeForm // per dev page, in file order
	err := eachDevPage(ctx, c, func(p devPage) error {
		ep, idx, dropped := p.doc, p.idx, p.dropped
		var forms []purposeForm
		for i, label := range p.Forms {
			if s, ok := simplifyForm[label]; ok {
				label = s
			}
			want, ok := formPurposes[label]
			if !ok || idx[i] < 0 || i < len(dropped) && dropped[i] {
				continue
			}
			form := ep.Forms[idx[i]]
			var fields []classify.FieldResult
			if o.FieldModel == nil {
				fields = classify.Fields(form, ep)
			} else {
				fields = classify.FieldsWith(form, ep, o.FieldModel)
			}
			cls := classify.PurposeClass(want[0])
			forms = append(forms, purposeForm{p.File, label, cls, classify.ReadForm(form, ep, fields)})
			rep.Classes[cls]++
			rep.Forms++
		}
		pages = append(pages, forms)
		return nil
	})
	if err != nil {
		return nil, rep, err
	}
	rep.Pages = len(pages)

	// A config is an averaged perceptron (epochs, l2 0) or a logistic
	// regression (l2 > 0, logisticIters steps).
	type config struct {
		epochs, minCount int
		l2               float64
	}
	configs := []config{{5, 1, 0}, {5, 2, 0}, {10, 1, 0}, {10, 2, 0}, {10, 3, 0}, {20, 2, 0},
		{logisticIters, 2, 0.01}, {logisticIters, 2, 0.001}, {logisticIters, 2, 0.0001}, {logisticIters, 1, 0.001}}
	fit := func(train []learn.Example, cfg config) (*learn.Model, error) {
		if cfg.l2 > 0 {
			return learn.TrainLogistic(train, learn.LogisticOptions{MinCount: cfg.minCount, L2: cfg.l2, Steps: cfg.epochs})
		}
		return learn.Train(train, learn.Options{Epochs: cfg.epochs, MinCount: cfg.minCount, Seed: o.Seed})
	}
	// Margins in stored units (learn.Scale per unit of averaged weight);
	// 1<<40 never lets the model decide.
	margins := []int64{1, 500, 1000, 2000, 3000, 5000, 8000, 12000, 20000, 1 << 40}
	type key struct {
		cfg             config
		min, fbk, doubt int64
	}
	type tally struct{ right, tp, fp, fn int }
	add := func(t *tally, pf purposeForm, r classify.FormResult) {
		if contains(formPurposes[pf.label], r.Purpose) {
			t.right++
		}
		if pf.label == "o" {
			return
		}
		pos, pred := pf.label == "c", r.CustomerAction || r.Purpose == classify.PurposeComment
		switch {
		case pos && pred:
			t.tp++
		case pos:
			t.fn++
		case pred:
			t.fp++
		}
	}
	// Repeated cross-validation: the first partition puts page i in fold
	// i mod k, the others shuffle the pages (seeded), so that a choice
	// rests on more than one split of a few hundred forms.
	foldOf := make([][]int, purposeCVRepeats)
	for r := range foldOf {
		foldOf[r] = make([]int, len(pages))
		if r == 0 {
			for pi := range pages {
				foldOf[r][pi] = pi % o.Folds
			}
			continue
		}
		for pos, pi := range rand.New(rand.NewPCG(o.Seed, uint64(r))).Perm(len(pages)) {
			foldOf[r][pi] = pos % o.Folds
		}
	}
	got := map[key]*tally{}
	var rules tally
	// firstSplit keeps the models of the first partition, per fold, for
	// Explain.
	firstSplit := map[config][]*learn.Model{}
	for ci, cfg := range configs {
		for r := range foldOf {
			for fold := range o.Folds {
				var train []learn.Example
				for pi, forms := range pages {
					if foldOf[r][pi] == fold {
						continue
					}
					for _, pf := range forms {
						train = append(train, learn.Example{Features: pf.read.Features(), Class: pf.class})
					}
				}
				m, err := fit(train, cfg)
				if err != nil {
					return nil, rep, err
				}
				if r == 0 {
					firstSplit[cfg] = append(firstSplit[cfg], m)
				}
				for pi, forms := range pages {
					if foldOf[r][pi] != fold {
						continue
					}
					for _, pf := range forms {
						if ci == 0 && r == 0 {
							add(&rules, pf, pf.read.With(nil))
						}
						rd := m.Read(pf.read.Features())
						for _, mn := range margins {
							for _, fb := range margins {
								if fb > mn {
									continue
								}
								for _, dm := range margins {
									k := key{cfg, mn, fb, dm}
									if got[k] == nil {
										got[k] = &tally{}
									}
									mm := *m
									mm.MinMargin, mm.MinMarginFallback = mn, fb
									mm.OverruleMargin = doubtMargin(mn, dm)
									add(got[k], pf, pf.read.WithReading(&mm, rd))
								}
							}
						}
					}
				}
			}
		}
	}
	keys := make([]key, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	score := func(k key) int { return got[k].right - got[k].fp }
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch {
		case score(a) != score(b):
			return score(a) > score(b)
		case a.min != b.min:
			return a.min > b.min
		case a.fbk != b.fbk:
			return a.fbk > b.fbk
		case a.doubt != b.doubt:
			return a.doubt > b.doubt
		case a.cfg.l2 != b.cfg.l2:
			return a.cfg.l2 > b.cfg.l2
		case a.cfg.epochs != b.cfg.epochs:
			return a.cfg.epochs < b.cfg.epochs
		}
		return a.cfg.minCount > b.cfg.minCount
	})
	best := keys[0]
	shown := map[config]bool{}
	for _, k := range keys {
		if !shown[k.cfg] {
			shown[k.cfg] = true
			rep.Tried = append(rep.Tried, fmt.Sprintf("epochs %d, min count %d, l2 %g, margins %d/%d/%d: purpose %.3f, false claims %d",
				k.cfg.epochs, k.cfg.minCount, k.cfg.l2, k.min, k.fbk, k.doubt, ratio(got[k].right, rep.Forms*purposeCVRepeats), got[k].fp))
		}
	}
	rep.L2 = best.cfg.l2
	rep.Epochs, rep.MinCount, rep.MinMargin, rep.MinMarginFallback = best.cfg.epochs, best.cfg.minCount, best.min, best.fbk
	rep.MinMarginDoubt = best.doubt
	rep.RulesCV, rep.CombinedCV = ratio(rules.right, rep.Forms), ratio(got[best].right, rep.Forms*purposeCVRepeats)
	rep.RulesF1, rep.CombinedF1 = prf(rules.tp, rules.fp, rules.fn).F1, prf(got[best].tp, got[best].fp, got[best].fn).F1
	if o.Explain != nil {
		for pi, forms := range pages {
			m := *firstSplit[best.cfg][foldOf[0][pi]]
			m.MinMargin, m.MinMarginFallback = best.min, best.fbk
			m.OverruleMargin = doubtMargin(best.min, best.doubt)
			for _, pf := range forms {
				if r := pf.read.With(&m); !contains(formPurposes[pf.label], r.Purpose) {
					rd := m.Read(pf.read.Features())
					fmt.Fprintf(o.Explain, "FORM %s want %s got %s rule %s | model %s lead %d %v | %v\n", pf.page, pf.label, r.Purpose, r.Rule, rd.Class, rd.Margin, rd.Top, r.Evidence)
				}
			}
		}
	}
	var all []learn.Example
	for _, forms := range pages {
		for _, pf := range forms {
			all = append(all, learn.Example{Features: pf.read.Features(), Class: pf.class})
		}
	}
	m, err := fit(all, best.cfg)
	if err != nil {
		return nil, rep, err
	}
	m.MinMargin, m.MinMarginFallback = best.min, best.fbk
	m.OverruleMargin = doubtMargin(best.min, best.doubt)
	rep.Features = len(m.Weights)
	return m, rep, nil
}

// doubtMargin is the overrule margins that let the model take back the
// rules' claim of a customer action at a lead of dm (nil when dm is the
// margin over any rule, mn).
func doubtMargin(mn, dm int64) map[string]int64 {
	if dm == mn {
		return nil
	}
	return map[string]int64{classify.ClassCustomer: dm}
}
