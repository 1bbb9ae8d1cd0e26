package classify

import (
	"strings"
	"testing"
	"time"
)

// allCompiled is every pattern the word tables compile.
func allCompiled() []compiled {
	var out []compiled
	for _, rs := range [][]compiledRule{cNotOurs, cCheckbox, cFields, cChoiceSubj} {
		for _, r := range rs {
			out = append(out, r.cpos...)
			out = append(out, r.cneg...)
		}
	}
	for _, cs := range [][]compiled{cHoneypotText, cAccount, cCard, cCheckout, cPay} {
		out = append(out, cs...)
	}
	for _, p := range cPurpose {
		out = append(out, p.pos...)
	}
	return out
}

// prefilterTexts: texts that meet the patterns' literals — each literal
// inside words, upper-cased, cut short by one byte —
// and texts that name fields in many languages.
func prefilterTexts() []string {
	texts := []string{"", "e-mail", "your email address", "Vorname", "nachname", "téléphone", "código postal", "почта",
		"電話番号", "メールアドレス", "البريد الإلكتروني", "دريافت ايميل", "كلمة", "שם פרטי", "i agree to the terms", "ich stimme zu", "newsletter abonnieren",
		"q", "s", "what is 3 + 4", "leave this field empty", "K", "\u212a", "\u017f", "ς", "Σ", "ǅ"}
	// One literal in six, each in one of the shapes in turn: the test
	// runs every pattern on every text.
	for i, n := range lits.strs {
		switch i % 12 {
		case 0:
			texts = append(texts, "the "+n.s+"s field")
		case 4:
			texts = append(texts, strings.ToUpper(n.s))
		case 8:
			texts = append(texts, n.s[:len(n.s)-1])
		}
	}
	return texts
}

// TestPrefilterAgrees: with the prefilter, every pattern matches exactly
// the texts it matches without it.
func TestPrefilterAgrees(t *testing.T) {
	cs := allCompiled()
	if len(lits.strs) == 0 {
		t.Fatal("no literal registered: the prefilter never applies")
	}
	filtered := 0
	for _, c := range cs {
		if c.need != nil {
			filtered++
		}
	}
	if filtered < len(cs)*9/10 {
		t.Errorf("%d of %d patterns have a literal prefilter, want nine in ten", filtered, len(cs))
	}
	for _, text := range prefilterTexts() {
		sc := scanText(text)
		for _, c := range cs {
			if got, want := c.matches(sc), c.re.MatchString(foldLetters(text)); got != want {
				t.Errorf("pattern %q on %q: prefiltered %v, regexp %v", c.src, text, got, want)
			}
		}
	}
}

func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		src  string
		want []string // nil: no prefilter
	}{
		{`e-?mail`, []string{"mail"}},
		{`\bfirst[ -]?name|\bvorname`, []string{"first", "vorname"}},
		{`^q$`, []string{"q"}},
		{`(?:^|[^\p{L}\p{N}])(?:почта)`, []string{"почта"}},
		{`(?i)Mail`, []string{"MAIL"}},
		{`a?`, nil},
		{`x|\d+`, nil},
		{`(ab)+c`, []string{"ab"}},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			re, err := parsePattern(c.src)
			if err != nil {
				t.Fatal(err)
			}
			ns, ok := requiredOf(re)
			var got []string
			if ok {
				for _, n := range ns {
					got = append(got, n.s)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") || (got == nil) != (c.want == nil) {
				t.Errorf("required(%q) = %q, want %q", c.src, got, c.want)
			}
		})
	}
}

func FuzzPrefilter(f *testing.F) {
	for _, s := range prefilterTexts()[:40] {
		f.Add(s)
	}
	cs := allCompiled()
	f.Fuzz(func(t *testing.T, text string) {
		sc := scanText(text)
		for _, c := range cs {
			if got, want := c.matches(sc), c.re.MatchString(foldLetters(text)); got != want {
				t.Errorf("pattern %q on %q: prefiltered %v, regexp %v", c.src, text, got, want)
			}
		}
	})
}

// BenchmarkWordPatterns runs every word pattern over field texts the
// way the rules did before the prefilter (each regexp on each text) and
// the way they do now (one scan per text, a regexp only where its literal
// is present), and reports the ratio of the two, measured in the same run.
func BenchmarkWordPatterns(b *testing.B) {
	cs := allCompiled()
	texts := []string{"your email address", "f123", "vorname", "téléphone portable", "message", "i agree to the privacy policy",
		"código postal", "company name", "subscribe to our newsletter", "почтовый индекс", "電話番号", "select your country"}
	var plain, filtered time.Duration
	hits := 0
	for range b.N {
		start := time.Now()
		for _, t := range texts {
			for _, c := range cs {
				if c.re.MatchString(t) {
					hits++
				}
			}
		}
		plain += time.Since(start)
		start = time.Now()
		for _, t := range texts {
			sc := scanText(t)
			for _, c := range cs {
				if c.matches(sc) {
					hits--
				}
			}
		}
		filtered += time.Since(start)
	}
	if hits != 0 {
		b.Fatalf("the prefilter changed %d results", hits)
	}
	n := float64(b.N * len(texts))
	b.ReportMetric(float64(plain.Nanoseconds())/n, "ns/text-regexp")
	b.ReportMetric(float64(filtered.Nanoseconds())/n, "ns/text-prefiltered")
	b.ReportMetric(float64(plain)/float64(filtered), "speedup")
}
