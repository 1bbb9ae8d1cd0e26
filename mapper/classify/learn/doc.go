// Package learn is the small linear model behind the classifier's learned
// readings: a multinomial linear model over sparse string features — an
// averaged perceptron (Train) or a logistic regression (TrainLogistic) —
// trained deterministically (fixed example order, fixed-seed shuffles,
// integer weights) so that training twice on the same examples writes the
// same file, on every platform.
//
// The classifier (package classify) computes the features and decides when
// the model's reading replaces the rules'; this package only trains,
// scores and writes a model as Go source (WriteGo), which the training
// command (benchmark/cmd/train-classifier) commits as generated code.
package learn
