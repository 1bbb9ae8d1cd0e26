package shared

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnions checks the variant table against the discriminator
// vocabularies: every member has exactly one variant and the reverse, so the
// two lists cannot drift.
func TestUnions(t *testing.T) {
	for _, u := range Unions() {
		t.Run(u.Interface.Name(), func(t *testing.T) {
			var got []string
			for _, v := range u.Variants {
				got = append(got, v.Value)
				if !v.Type.Implements(u.Interface) {
					t.Errorf("%v does not implement %v", v.Type, u.Interface)
				}
			}
			if diff := cmp.Diff(u.Vocabulary.Members(), got); diff != "" {
				t.Errorf("variants do not match the %T vocabulary (-want +got):\n%s", u.Vocabulary, diff)
			}
			if u.Key == "" {
				t.Error("no discriminator key")
			}
		})
	}
}

// TestPlans builds the reader's plans for every contract type, which checks
// every json key, contract tag and union of types.go.
func TestPlans(t *testing.T) {
	for _, typ := range []reflect.Type{graphType, actionType} {
		if _, err := planFor(typ); err != nil {
			t.Fatalf("planFor(%v): %v", typ, err)
		}
	}
}

// TestEveryIssueCodeIsExercised keeps IssueCode a closed list of codes the
// reader really emits: each must appear in some .issues golden file of the
// corpus, except value.invalid, which only reports an internal error.
func TestEveryIssueCodeIsExercised(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "docs", "invalid", "*.issues"))
	var all strings.Builder
	for _, f := range files {
		all.Write(mustRead(t, f))
	}
	internalOnly := []IssueCode{IssueValueInvalid}
	for _, c := range IssueCodeValues() {
		t.Run(string(c), func(t *testing.T) {
			used := strings.Contains(all.String(), ": "+string(c)+": ")
			if slices.Contains(internalOnly, c) {
				if used {
					t.Errorf("%s is reserved for internal errors but a document produced it", c)
				}
				return
			}
			if !used {
				t.Errorf("no document in testdata/docs/invalid produces %s; add one", c)
			}
		})
	}
	if _, err := os.Stat(filepath.Join("testdata", "docs", "valid")); err != nil {
		t.Fatal(err)
	}
}

// TestContractDocListsEveryIssueCode keeps the issue-code table of
// docs/contract.md in step with IssueCode: every code has a row, and every
// row is a code.
func TestContractDocListsEveryIssueCode(t *testing.T) {
	doc := string(mustRead(t, filepath.Join("..", "docs", "contract.md")))
	rows := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| `") {
			code, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			if strings.Contains(code, ".") {
				rows[code] = true
			}
		}
	}
	for _, c := range IssueCodeValues() {
		if !rows[string(c)] {
			t.Errorf("docs/contract.md has no row for issue code %s", c)
		}
		delete(rows, string(c))
	}
	for code := range rows {
		t.Errorf("docs/contract.md lists %s, which is not an IssueCode", code)
	}
}
