package learn_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

// A logistic regression learns a toy task, keeps only features seen
// often enough, and the same input gives the same model.
func TestTrainLogistic(t *testing.T) {
	var xs []learn.Example
	for range 5 {
		xs = append(xs,
			learn.Example{Features: []string{"bias", "w:search", "few"}, Class: "search"},
			learn.Example{Features: []string{"bias", "w:password", "few"}, Class: "login"},
			learn.Example{Features: []string{"bias", "w:message", "many"}, Class: "customer"},
		)
	}
	xs = append(xs, learn.Example{Features: []string{"bias", "w:once", "many"}, Class: "customer"})
	m, err := learn.TrainLogistic(xs, learn.LogisticOptions{MinCount: 2, L2: 0.001, Steps: 200})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"customer", "login", "search"}; !reflect.DeepEqual(m.Classes, want) {
		t.Errorf("classes %v, want %v", m.Classes, want)
	}
	for _, c := range []struct {
		fs   []string
		want string
	}{{[]string{"bias", "w:search"}, "search"}, {[]string{"bias", "w:password"}, "login"}, {[]string{"bias", "w:message"}, "customer"}} {
		if got := m.Read(c.fs); got.Class != c.want || got.Margin <= 0 {
			t.Errorf("Read(%v) = %s lead %d, want %s", c.fs, got.Class, got.Margin, c.want)
		}
	}
	if _, ok := m.Weights["w:once"]; ok {
		t.Error("a feature seen once was kept at MinCount 2")
	}
	again, _ := learn.TrainLogistic(xs, learn.LogisticOptions{MinCount: 2, L2: 0.001, Steps: 200})
	if !reflect.DeepEqual(m, again) {
		t.Error("two trainings on the same input differ")
	}
	if _, err := learn.TrainLogistic(nil, learn.LogisticOptions{MinCount: 2, L2: 0.001, Steps: 10}); !errors.Is(err, learn.ErrNoExamples) {
		t.Errorf("no examples: %v, want ErrNoExamples", err)
	}
}
