package learn

import (
	"bytes"
	"errors"
	"go/parser"
	"go/token"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func examples() []Example {
	var out []Example
	for i := range 30 {
		out = append(out,
			Example{Features: []string{"w:email", "g:^em", "noise" + string(rune('a'+i%5))}, Class: "email"},
			Example{Features: []string{"w:phone", "g:^ph", "noise" + string(rune('a'+i%5))}, Class: "phone"},
			Example{Features: []string{"w:tel", "g:^ph", "noise" + string(rune('a'+i%3))}, Class: "phone"},
		)
	}
	return out
}

func TestTrainLearnsAndIsDeterministic(t *testing.T) {
	m, err := Train(examples(), Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		feats []string
		want  string
	}{
		{"email word", []string{"w:email"}, "email"},
		{"phone trigram alone", []string{"g:^ph"}, "phone"},
		{"unknown feature", []string{"never-seen"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := m.Read(c.feats)
			if r.Class != c.want {
				t.Errorf("Read(%v) = %+v, want class %q", c.feats, r, c.want)
			}
			if c.want != "" && (r.Margin <= 0 || len(r.Top) == 0) {
				t.Errorf("Read(%v) = %+v, want a positive margin and its support", c.feats, r)
			}
		})
	}
	again, err := Train(examples(), Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, again); diff != "" {
		t.Errorf("two trainings differ (-first +second):\n%s", diff)
	}
}

func TestMinCountDropsRareFeatures(t *testing.T) {
	ex := append(examples(), Example{Features: []string{"w:once"}, Class: "email"})
	m, err := Train(ex, Options{MinCount: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Weights["w:once"]; ok {
		t.Error("a feature seen once has weights with MinCount 2")
	}
}

func TestTrainNothing(t *testing.T) {
	if _, err := Train(nil, Options{}); !errors.Is(err, ErrNoExamples) {
		t.Errorf("Train(nil) = %v, want ErrNoExamples", err)
	}
}

func TestWriteGoParsesAndRepeats(t *testing.T) {
	m, err := Train(examples(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.MinMargin, m.MinMarginFallback = 12, 3
	var a, b bytes.Buffer
	if err := WriteGo(&a, m, "x", "model"); err != nil {
		t.Fatal(err)
	}
	if err := WriteGo(&b, m, "x", "model"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of one model differ")
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "model.go", a.Bytes(), 0); err != nil {
		t.Errorf("generated source does not parse: %v\n%s", err, a.String())
	}
	if !bytes.Contains(a.Bytes(), []byte("MinMarginFallback: 3")) {
		t.Errorf("margins not written:\n%s", a.String())
	}
	if bytes.Contains(a.Bytes(), []byte("OverruleMargin")) {
		t.Errorf("no overrule margin set, one written:\n%s", a.String())
	}
	m.OverruleMargin = map[string]int64{"b": 7, "a": 40}
	var c bytes.Buffer
	if err := WriteGo(&c, m, "x", "model"); err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "model.go", c.Bytes(), 0); err != nil {
		t.Errorf("generated source with overrule margins does not parse: %v\n%s", err, c.String())
	}
	if !bytes.Contains(c.Bytes(), []byte(`OverruleMargin: map[string]int64{"a": 40, "b": 7}`)) {
		t.Errorf("overrule margins not written in class order:\n%s", c.String())
	}
}
