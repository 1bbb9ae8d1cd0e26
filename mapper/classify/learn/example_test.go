package learn_test

import (
	"fmt"

	"github.com/frontlatch/frontlatch/mapper/classify/learn"
)

func examples() []learn.Example {
	var xs []learn.Example
	for range 3 {
		xs = append(xs,
			learn.Example{Features: []string{"w:email", "t:email"}, Class: "email"},
			learn.Example{Features: []string{"w:phone", "t:tel"}, Class: "phone"},
		)
	}
	return xs
}

// Train an averaged perceptron and read a case it was not shown.
func ExampleTrain() {
	m, err := learn.Train(examples(), learn.Options{Epochs: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Classes, m.Read([]string{"w:phone"}).Class)
	// Output: [email phone] phone
}

// Train a logistic regression: the same Model, read the same way.
func ExampleTrainLogistic() {
	m, err := learn.TrainLogistic(examples(), learn.LogisticOptions{Steps: 100, L2: 1e-4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Classes, m.Read([]string{"t:email"}).Class)
	// Output: [email phone] email
}
