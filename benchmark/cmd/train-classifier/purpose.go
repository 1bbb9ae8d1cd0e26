package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/frontlatch/frontlatch/benchmark/formasaurus"
	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

// generatePurpose trains the form-purpose model on c's dev split, with
// the fields read by fieldModel (nil: the shipped field model), and
// returns the generated source of mapper/classify/purpose_gen.go.
// explain, when not nil, receives the dev forms the cross-validation got
// wrong.
func generatePurpose(ctx context.Context, c *formasaurus.Corpus, fieldModel *learn.Model, explain io.Writer) ([]byte, formasaurus.PurposeTrainReport, error) {
	m, rep, err := formasaurus.TrainPurposeModel(ctx, c, formasaurus.PurposeTrainOptions{FieldModel: fieldModel, Explain: explain})
	if err != nil {
		return nil, rep, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// The form-purpose model, trained on the dev split of the Formasaurus corpus (%d pages,\n", rep.Pages)
	fmt.Fprintf(&b, "// %d labelled forms; the holdout is never read). Forms per class:\n// %s.\n", rep.Forms, classCounts(rep.Classes))
	fmt.Fprintf(&b, "// 5-fold cross-validation over dev pages chose %s,\n", learner(rep))
	fmt.Fprintf(&b, "// features seen at least %d times and the margins below (a weak claim of a customer\n", rep.MinCount)
	fmt.Fprintf(&b, "// action is overruled at a lead of %d, OverruleMargin); cross-validated purpose\n", rep.MinMarginDoubt)
	fmt.Fprintf(&b, "// accuracy: rules %.3f, rules + model %.3f; customer-action F1: rules %.3f, rules + model %.3f.\n\n",
		rep.RulesCV, rep.CombinedCV, rep.RulesF1, rep.CombinedF1)
	src, err := goSource(b.String(), m, "purposeModel")
	return src, rep, err
}

// learner names the model the cross-validation chose.
func learner(rep formasaurus.PurposeTrainReport) string {
	if rep.L2 > 0 {
		return fmt.Sprintf("a logistic regression (L2 %g, %d steps)", rep.L2, rep.Epochs)
	}
	return fmt.Sprintf("an averaged perceptron (%d epochs)", rep.Epochs)
}

// classCounts: "customer 120, login 40, …", in class order.
func classCounts(n map[string]int) string {
	cs := make([]string, 0, len(n))
	for c := range n {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for i, c := range cs {
		cs[i] = fmt.Sprintf("%s %d", c, n[c])
	}
	return strings.Join(cs, ", ")
}

// purposeSummary is what -quiet leaves out: the purpose model's choices.
func purposeSummary(rep formasaurus.PurposeTrainReport) string {
	return fmt.Sprintf("form purpose: %d dev forms; CV chose %s, features seen ≥ %d times, margins %d (over a rule) / %d (over no purpose) / %d (over a customer action); cross-validated purpose accuracy: rules %.3f, rules + model %.3f; customer-action F1 %.3f → %.3f; model: %d features",
		rep.Forms, learner(rep), rep.MinCount, rep.MinMargin, rep.MinMarginFallback, rep.MinMarginDoubt, rep.RulesCV, rep.CombinedCV, rep.RulesF1, rep.CombinedF1, rep.Features)
}
