package shared

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzRead checks the reader's three promises on arbitrary bytes: it never
// panics or hangs; whatever it accepts, Write accepts too and Write∘Read is a
// fixed point; and every accepted document round-trips losslessly.
// Seeds: the clinic01 fixture, the testdata/docs corpus, and the committed
// corpus in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "docs", "*", "*.json"))
	seeds = append(seeds, filepath.Join("..", "fixtures", "graphs", "clinic01.json"))
	for _, s := range seeds {
		f.Add(mustRead(f, s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, issues := Read(data)
		if g == nil {
			if len(issues) == 0 {
				t.Fatal("Read returned neither a graph nor an issue")
			}
			for _, is := range issues {
				if !is.Code.Valid() || is.Path == "" || is.Message == "" {
					t.Fatalf("malformed issue %#v", is)
				}
				if is.Code == IssueValueInvalid {
					t.Fatalf("internal error: %v", is)
				}
			}
			return
		}
		if len(issues) != 0 {
			t.Fatalf("Read returned a graph and issues: %v", issues)
		}
		out, err := Write(g)
		if err != nil {
			t.Fatalf("Write refused a graph Read accepted: %v", err)
		}
		g2, issues := Read(out)
		if issues != nil {
			t.Fatalf("Read(Write(Read(x))) issues: %v\n%s", issues, out)
		}
		if diff := cmp.Diff(g, g2); diff != "" {
			t.Fatalf("round trip lost data (-want +got):\n%s", diff)
		}
		out2, err := Write(g2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("Write∘Read is not a fixed point (err %v)", err)
		}
	})
}

// FuzzReadAction holds ReadAction to the same promises for one action.
func FuzzReadAction(f *testing.F) {
	g, _ := Read(mustRead(f, filepath.Join("..", "fixtures", "graphs", "clinic01.json")))
	if g == nil {
		f.Fatal("clinic01 does not read")
	}
	seed, err := WriteAction(&g.Actions[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"verification":{"status":"verified"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, issues := ReadAction(data)
		if a == nil {
			if len(issues) == 0 {
				t.Fatal("ReadAction returned neither an action nor an issue")
			}
			for _, is := range issues {
				if is.Code == IssueValueInvalid {
					t.Fatalf("internal error: %v", is)
				}
			}
			return
		}
		out, err := WriteAction(a)
		if err != nil {
			t.Fatalf("WriteAction refused an action ReadAction accepted: %v", err)
		}
		a2, issues := ReadAction(out)
		if issues != nil {
			t.Fatalf("round trip issues: %v", issues)
		}
		if diff := cmp.Diff(a, a2); diff != "" {
			t.Fatalf("round trip lost data (-want +got):\n%s", diff)
		}
	})
}
