package formasaurus

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/google/go-cmp/cmp"
)

func TestDroppedForms(t *testing.T) {
	cases := []struct {
		name, html string
		want       []bool
	}{
		{"plain", `<form></form><form></form>`, []bool{false, false}},
		{"nested", `<form><input><form><input></form></form><form></form>`, []bool{false, true, false}},
		{"noscript", `<noscript><form id=a></form><form id=b></form></noscript><form></form>`, []bool{true, true, false}},
		{"script text is not a form", `<script>var s = "<form>";</script><form></form>`, []bool{false}},
		{"unclosed then closed", `<form><input></form><form></form>`, []bool{false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, DroppedForms([]byte(c.html))); diff != "" {
				t.Errorf("DroppedForms (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDroppedFormsMatchTheParser(t *testing.T) {
	// What DroppedForms keeps is what an HTML5 parser builds.
	markup := `<form id=a><form id=x></form><noscript><form id=y></form></noscript><table><form id=b><tr><td><form id=z></td></tr></table></form><form id=c></form>`
	p, err := extract.FromHTML("http://127.0.0.1/", []byte(markup))
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, d := range DroppedForms([]byte(markup)) {
		if !d {
			kept++
		}
	}
	if kept != len(p.Forms) {
		t.Errorf("DroppedForms keeps %d forms, the parser builds %d", kept, len(p.Forms))
	}
}

func TestAlign(t *testing.T) {
	form := func(names ...string) extract.Form {
		var f extract.Form
		for _, n := range names {
			f.Fields = append(f.Fields, extract.Field{Name: n})
		}
		return f
	}
	page := Page{Forms: []string{"s", "c", "m"}, Fields: []map[string]string{{"q": "qq"}, {"name": "nf", "email": "e1"}, {"email": "e1"}}}
	t.Run("equal counts by order", func(t *testing.T) {
		got, _ := align(page, nil, []extract.Form{form("q"), form("name", "email"), form("email")})
		if diff := cmp.Diff([]int{0, 1, 2}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("extra form injected by a script", func(t *testing.T) {
		got, _ := align(page, nil, []extract.Form{form("q"), form("zzz"), form("name", "email"), form("email")})
		if diff := cmp.Diff([]int{0, 2, 3}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("dropped by the parser", func(t *testing.T) {
		got, n := align(page, []bool{false, true, false}, []extract.Form{form("q"), form("email")})
		if diff := cmp.Diff([]int{0, -1, 1}, got); diff != "" || n != 1 {
			t.Errorf("dropped %d (-want +got):\n%s", n, diff)
		}
	})
}

func TestScoring(t *testing.T) {
	c := newCounts()
	page := Page{File: "x.html", Forms: []string{"c", "s", "X"}, Fields: []map[string]string{
		{"name": "nf", "email": "e1", "hp": "hp", "msg": "CC", "go": "Bs"}, {"q": "qq"}, {},
	}}
	contact := extract.Form{Visible: true, Fields: []extract.Field{
		{Type: "text", Name: "name", Label: "Name"},
		{Type: "email", Name: "email"},
		{Type: "text", Name: "hp", Visibility: extract.Visibility{Hidden: true, HiddenBy: extract.HiddenByWrapper, Reasons: []string{extract.ReasonOffScreen}}},
		{Tag: "textarea", Type: "textarea", Name: "msg"},
	}}
	search := extract.Form{Visible: true, Fields: []extract.Field{{Type: "search", Name: "q"}}}
	c.scorePage(read(page, nil, &extract.Page{Forms: []extract.Form{contact, search, {}}}))
	f := c.figures()
	if f.FieldsScored != 4 || f.FieldsRight != 4 || f.Honeypots != 1 || f.HoneypotRecall != 1 || f.UnknownLabelFields != 1 || f.UnknownLabelAccuracy != 1 {
		t.Errorf("field figures = %+v", f)
	}
	if f.PurposeScored != 2 || f.PurposeAccuracy != 1 || f.CustomerAction.TP != 1 || f.CustomerAction.FP != 0 {
		t.Errorf("form figures = %+v", f)
	}
}

func TestLabelMapping(t *testing.T) {
	for label, s := range LabelSemantic {
		if !s.Valid() {
			t.Errorf("label %s maps to invalid semantic %q", label, s)
		}
	}
	for label, ps := range formPurposes {
		for _, p := range ps {
			found := false
			for _, q := range classify.PurposeValues() {
				found = found || p == q
			}
			if !found {
				t.Errorf("form label %s maps to unknown purpose %q", label, p)
			}
		}
	}
}

func TestWriteResultsKeepsOtherKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(path, []byte(`{"sites": {"mappability": 0.8}, "classifier": {"old": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteResults(path, &Report{Command: "go run ./benchmark/cmd/formeval", Pages: 3}); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	raw, _ := os.ReadFile(path)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got["sites"]["mappability"] != 0.8 {
		t.Errorf("other key lost: %s", raw)
	}
	if got["classifier"]["pages"] != float64(3) || got["classifier"]["old"] != nil {
		t.Errorf("classifier key not replaced: %s", raw)
	}
	// the file's key order and the other blocks' bytes are kept
	if keys, err := topLevelKeys(raw); err != nil || !cmp.Equal(keys, []string{"sites", "classifier"}) {
		t.Errorf("keys %v (%v), want [sites classifier] in the file's order", keys, err)
	}
	if !strings.HasPrefix(string(raw), "{\n  \"sites\": {\n    \"mappability\": 0.8\n  },\n") {
		t.Errorf("other block rewritten:\n%s", raw)
	}
	if err := os.WriteFile(path, []byte(`[1,2]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteResults(path, &Report{}); !errors.Is(err, ErrResults) {
		t.Errorf("WriteResults over a JSON array = %v, want ErrResults", err)
	}
}

func TestLoadMissingCorpus(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, ErrNoCorpus) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want ErrNoCorpus wrapping the file's fs.ErrNotExist", err)
	}
}

func TestSplitIsStable(t *testing.T) {
	n := 0
	for i := 0; i < 1000; i++ {
		if SplitOf(filepath.Join("html", string(rune('a'+i%26))+string(rune('a'+i/26))+".html")) == "holdout" {
			n++
		}
	}
	if n < 120 || n > 280 {
		t.Errorf("holdout share %d/1000, want about 200", n)
	}
	if SplitOf("html/a.html") != SplitOf("other/a.html") {
		t.Error("split depends on the directory")
	}
}

// Bootstrap intervals hold the point figure, are reproducible, collapse
// when every page agrees, and leave out a figure with nothing to score.
func TestBootstrap(t *testing.T) {
	perfect := []tally{{fieldsScored: 3, fieldsRight: 3, tp: 1}, {fieldsScored: 2, fieldsRight: 2, tp: 1}}
	if diff := cmp.Diff(map[string][2]float64{"fieldAccuracy": {1, 1}, "customerActionF1": {1, 1}}, bootstrap(perfect, 200)); diff != "" {
		t.Errorf("all pages right (-want +got):\n%s", diff)
	}
	var mixed []tally
	var sum tally
	for i := range 40 {
		p := tally{fieldsScored: 4, fieldsRight: 4 - i%3, tp: i % 2, fn: (i + 1) % 2, honeypots: i % 5 / 4, honeypotsFound: i % 10 / 9}
		mixed = append(mixed, p)
		sum = sum.plus(p)
	}
	got := bootstrap(mixed, 500)
	if diff := cmp.Diff(got, bootstrap(mixed, 500)); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
	point := map[string]float64{
		"fieldAccuracy":    ratio(sum.fieldsRight, sum.fieldsScored),
		"customerActionF1": prf(sum.tp, sum.fp, sum.fn).F1,
		"honeypotRecall":   ratio(sum.honeypotsFound, sum.honeypots),
	}
	for name, p := range point {
		iv, ok := got[name]
		if !ok {
			t.Errorf("no interval for %s", name)
			continue
		}
		if !(iv[0] <= p && p <= iv[1] && iv[0] < iv[1]) {
			t.Errorf("%s: interval %v is not a spread around the point figure %v", name, iv, p)
		}
	}
}

// The holdout is reported as aggregates only: no per-type figures, no
// confusions, no page names among the failures; dev keeps its details.
func TestHoldoutReportsAggregatesOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "html"), 0o755); err != nil {
		t.Fatal(err)
	}
	var dev, holdout string
	for i := 0; dev == "" || holdout == ""; i++ {
		name := filepath.Join("html", "p"+string(rune('a'+i%26))+string(rune('a'+i/26))+".html")
		if SplitOf(name) == "holdout" && holdout == "" {
			holdout = name
		} else if SplitOf(name) == "dev" && dev == "" {
			dev = name
		}
	}
	page := `<form><label for=e>Email</label><input id=e name=email><label for=x>Foo</label><input id=x name=x><textarea name=msg></textarea><button>Send</button></form>`
	idx := map[string]any{}
	for _, name := range []string{dev, holdout} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		idx[name] = map[string]any{"url": "http://x/", "forms": []string{"c"}, "visible_html_fields": []map[string]string{{"email": "e1", "x": "ph", "msg": "CC"}}}
	}
	// listed but missing: fails to load in each split
	var missing []string
	for i := 0; len(missing) < 2; i++ {
		name := filepath.Join("html", "m"+string(rune('a'+i%26))+string(rune('a'+i/26))+".html")
		if want := []string{"dev", "holdout"}[len(missing)]; SplitOf(name) == want {
			missing = append(missing, name)
			idx[name] = map[string]any{"url": "http://x/", "forms": []string{"c"}}
		}
	}
	raw, _ := json.Marshal(idx)
	if err := os.WriteFile(filepath.Join(dir, "index.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), c, Options{Static: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"holdout", "all"} {
		f := rep.Splits[k]
		if f.FieldsScored != map[string]int{"holdout": 3, "all": 6}[k] {
			t.Errorf("%s: fieldsScored %d", k, f.FieldsScored)
		}
		if f.PerType != nil || f.TopFieldConfusions != nil || f.TopFormConfusions != nil {
			t.Errorf("%s split reports per-field details: %+v", k, f)
		}
	}
	if len(rep.Failures) != 1 || !strings.HasPrefix(rep.Failures[0], missing[0]) || rep.Splits["holdout"].PagesFailed != 1 {
		t.Errorf("failures %q (holdout failed %d), want only the dev page %s named", rep.Failures, rep.Splits["holdout"].PagesFailed, missing[0])
	}
	if d := rep.Splits["dev"]; len(d.TopFieldConfusions) == 0 || len(d.PerType) == 0 {
		t.Errorf("dev split lost its details: %+v", d)
	}
}
