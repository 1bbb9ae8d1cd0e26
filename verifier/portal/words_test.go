package portal

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// covers fails for every vocabulary member without an entry in table and
// every entry that is not a member: a code added to the contract without
// its plain words fails here.
func covers[K comparable, V any](t *testing.T, name string, members []K, table map[K]V, ok func(V) bool) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		want := map[K]bool{}
		for _, m := range members {
			want[m] = true
			v, found := table[m]
			if !found {
				t.Errorf("%s %v has no plain words in words.go", name, m)
				continue
			}
			if !ok(v) {
				t.Errorf("%s %v: plain words are empty or unfinished: %+v", name, m, v)
			}
		}
		for k := range table {
			if !want[k] {
				t.Errorf("%s table has %v, which the vocabulary does not", name, k)
			}
		}
	})
}

func sentence(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.HasSuffix(s, ".") && strings.ToUpper(s[:1]) == s[:1]
}

func phrase(s string) bool { return strings.TrimSpace(s) != "" }

func TestEveryVocabularyMemberHasPlainWords(t *testing.T) {
	code := func(p plainCode) bool { return sentence(p.Why) && sentence(p.Next) }
	covers(t, "MissingCode", shared.MissingCodeValues(), missingSentences, code)
	covers(t, "BarrierKind", shared.BarrierKindValues(), blockerSentences, code)
	covers(t, "ActionKind", shared.ActionKindValues(), kindWords, phrase)
	covers(t, "AccessMethod", shared.AccessMethodValues(), doorWords, phrase)
	covers(t, "Transport", shared.TransportValues(), transportWords, phrase)
	covers(t, "EffectKind", shared.EffectKindValues(), effectWords, phrase)
	covers(t, "VerificationStatus", shared.VerificationStatusValues(), statusWords, phrase)
	covers(t, "CapPeriod", shared.CapPeriodValues(), periodWords, phrase)
	covers(t, "SandboxOutcome", shared.SandboxOutcomeValues(), outcomeWords, phrase)
	covers(t, "SemanticType", shared.SemanticTypeValues(), semanticWords, func(f field) bool { return phrase(f.Words) })
	covers(t, "Reversible", []shared.Reversible{shared.ReversibleTrue, shared.ReversibleFalse, shared.ReversibleUnknown}, reversibleWords, phrase)
}

// The two codes that carry a detail say it; the others must not pretend to.
func TestDetailPlaceholderOnlyWhereTheCodeHasADetail(t *testing.T) {
	withDetail := map[shared.MissingCode]bool{
		shared.MissingInputsRequiredSemanticUnknown: true,
		shared.MissingProvenanceMissing:             true,
	}
	for _, c := range shared.MissingCodeValues() {
		t.Run(string(c), func(t *testing.T) {
			has := strings.Contains(missingSentences[c].Why, "{detail}")
			if has != withDetail[c] {
				t.Errorf("sentence %q: has {detail} = %v, want %v", missingSentences[c].Why, has, withDetail[c])
			}
		})
	}
}
