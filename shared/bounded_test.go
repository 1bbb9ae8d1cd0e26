package shared

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// adversarialList returns an action whose key holds n copies of elem in a
// list: {"key":[elem,elem,…]}.
func adversarialList(key, elem string, n int) []byte {
	var b bytes.Buffer
	b.Grow(len(key) + 8 + n*(len(elem)+1))
	b.WriteString(`{"` + key + `":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elem)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// badUTF8Validation is one validation object with two strings that are not
// UTF-8 (48 bytes with its comma: 16,000 of them are issue 10's 768 KB).
const badUTF8Validation = "{\"source\":\"declared\",\"appliesTo\":\"\xff\",\"raw\":\"\xfe\"}"

// TestReadIssueCap: however many issues a document holds, a read lists at
// most MaxIssues+1 — the first MaxIssues as found, then a summary carrying
// the path and code of the first issue not listed and the count of all the
// rest — and IssuesNotListed gives that count. The expected totals come from
// reading one element, not from the reader's own count.
func TestReadIssueCap(t *testing.T) {
	tests := []struct {
		name, key, elem string
		n               int
		// crossElement: issues per element from rules comparing elements
		// (reference.dangling), reported after the list and uncounted for
		// the elements dropped past the cap.
		crossElement int
	}{
		{"16,000 validations with invalid UTF-8", "validations", badUTF8Validation, 16000, 1},
		{"523,000 empty access objects (1.57 MB)", "access", "{}", 523000, 0},
		{"just over the cap", "access", "{}", 30, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The issues around an empty list, and those one element adds.
			_, none := ReadAction([]byte(`{"` + tt.key + `":[]}`))
			_, one := ReadAction([]byte(`{"` + tt.key + `":[` + tt.elem + `]}`))
			prefix := "$." + tt.key + "[0]"
			var perElem []Issue // in the order the reader reports them
			for _, is := range one {
				if strings.HasPrefix(is.Path, prefix) {
					perElem = append(perElem, is)
				}
			}
			k := len(perElem) - tt.crossElement // reported while reading the element
			if k <= 0 || len(one) != len(none)+len(perElem) {
				t.Fatalf("one element: %d issues, %d of them in it; empty list: %d", len(one), len(perElem), len(none))
			}
			total := len(none) + tt.n*len(perElem)
			if tt.n*k <= MaxIssues+1 {
				t.Fatalf("the elements hold only %d issues; they must exceed the cap", tt.n*k)
			}

			data := adversarialList(tt.key, tt.elem, tt.n)
			_, issues := ReadAction(data)
			if len(issues) != MaxIssues+1 {
				t.Fatalf("got %d issues, want MaxIssues+1 = %d", len(issues), MaxIssues+1)
			}
			notListed := IssuesNotListed(issues)
			if want := total - MaxIssues; notListed > want || notListed < want-tt.n*tt.crossElement {
				t.Errorf("IssuesNotListed = %d, want %d less at most %d uncounted cross-element issues (%d found in all)", notListed, want, tt.n*tt.crossElement, total)
			}
			if tt.crossElement == 0 && notListed != total-MaxIssues {
				t.Errorf("IssuesNotListed = %d, want exactly %d", notListed, total-MaxIssues)
			}
			// The elements' own issues come first, element by element: the
			// issue at index i is perElem[i%k] of element i/k.
			for i, is := range issues {
				w := perElem[i%k]
				wantPath := fmt.Sprintf("$.%s[%d]", tt.key, i/k) + strings.TrimPrefix(w.Path, prefix)
				if is.Path != wantPath || is.Code != w.Code {
					t.Fatalf("issue %d = %s %s, want %s %s", i, is.Path, is.Code, wantPath, w.Code)
				}
				if i < MaxIssues && unplaced(is.Message) != unplaced(w.Message) {
					t.Errorf("issue %d says %q, want %q", i, is.Message, w.Message)
				}
			}
			want := fmt.Sprintf("at least %d more issues not listed (a read lists the first %d in full); the first of them is here: %s", notListed, MaxIssues, perElem[MaxIssues%k].Message)
			if got := issues[MaxIssues].Message; unplaced(got) != unplaced(want) {
				t.Errorf("summary %q, want %q", got, want)
			}

			// The consent gate reads through the same reader and keeps the
			// same bounded list in its error.
			err := AssertLiveExecutionAllowedContext(context.Background(), data, nil)
			var ue *UnverifiedActionError
			if !errors.As(err, &ue) || !ue.Has(RefuseActionInvalid) {
				t.Fatalf("gate: %v, want action.invalid", err)
			}
			if len(ue.Issues) != MaxIssues+1 || IssuesNotListed(ue.Issues) != notListed {
				t.Errorf("gate error holds %d issues (%d not listed), want %d (%d)", len(ue.Issues), IssuesNotListed(ue.Issues), MaxIssues+1, notListed)
			}
		})
	}
}

// unplaced drops the byte positions from a message, which differ from one
// element to the next.
func unplaced(msg string) string {
	return positionText.ReplaceAllString(msg, "<position>")
}

var positionText = regexp.MustCompile(`line [0-9]+, column [0-9]+ \(byte [0-9]+\)`)

// TestIssuesNotListedUncapped: a list the reader did not cut reports zero,
// at the cap exactly too.
func TestIssuesNotListedUncapped(t *testing.T) {
	tests := []struct {
		name   string
		issues []Issue
	}{
		{"nil", nil},
		{"one issue", []Issue{{Path: "$", Code: IssueJSONSyntax, Message: "3 more issues not listed"}}},
		{"MaxIssues issues", make([]Issue, MaxIssues)},
		{"MaxIssues+1 without a summary", make([]Issue, MaxIssues+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IssuesNotListed(tt.issues); got != 0 {
				t.Errorf("IssuesNotListed = %d, want 0", got)
			}
		})
	}
}

// TestWhereLineColumn: positions are counted right in whatever order the
// reader describes them — forward, backward, repeated — against a plain
// count from the start.
func TestWhereLineColumn(t *testing.T) {
	data := []byte("ab\ncd\n\nefgh\nij\n")
	naive := func(off int) string {
		line, start := 1, 0
		for i := 0; i < off; i++ {
			if data[i] == '\n' {
				line++
				start = i + 1
			}
		}
		return fmt.Sprintf("line %d, column %d (byte %d)", line, off-start+1, off)
	}
	orders := map[string][]int{
		"forward":  {0, 1, 2, 3, 6, 7, 8, 11, 12, 15},
		"backward": {15, 12, 11, 8, 7, 6, 3, 2, 1, 0},
		"zigzag":   {8, 1, 12, 3, 3, 7, 0, 15, 6, 11, 2},
	}
	for name, offs := range orders {
		t.Run(name, func(t *testing.T) {
			r := newReader(data)
			for _, off := range offs {
				if got, want := r.where(off).String(), naive(off); got != want {
					t.Errorf("where(%d) = %q, want %q", off, got, want)
				}
			}
		})
	}
}

// TestInvalidUTF8PositionInUnion: the union pre-scan reports nothing, and the
// real pass reports each bad string once, at its own line and column.
func TestInvalidUTF8PositionInUnion(t *testing.T) {
	data := []byte("{\"validations\": [\n  {\"source\": \"declared\",\n   \"raw\": \"\xff\"},\n  {\"raw\": \"a\xfe\", \"source\": \"declared\"}\n]}")
	_, issues := ReadAction(data)
	var got []string
	for _, is := range issues {
		if is.Code == IssueJSONInvalidUTF8 {
			got = append(got, is.Path+" "+is.Message)
		}
	}
	want := []string{
		"$.validations[0].raw invalid UTF-8 byte 0xff inside a string at line 3, column 12 (byte 54); the document must be UTF-8",
		"$.validations[1].raw invalid UTF-8 byte 0xfe inside a string at line 4, column 13 (byte 71); the document must be UTF-8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("invalid-UTF-8 issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLongKeyIsNotCopiedIntoEveryIssue: an unknown key of a MiB holding a
// value with a hundred issues gives issues whose text is bounded by the
// input, not by the key's length times the issues: a path writes at most
// maxPathKey bytes of a key and says how long it was.
func TestLongKeyIsNotCopiedIntoEveryIssue(t *testing.T) {
	key := strings.Repeat("k", 1<<20)
	var b strings.Builder
	b.WriteString(`{"` + key + `": [`)
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\"\xff\"")
	}
	b.WriteString("]}")
	doc := []byte(b.String())
	for name, read := range map[string]func([]byte) []Issue{
		"Read":       func(d []byte) []Issue { _, is := Read(d); return is },
		"ReadAction": func(d []byte) []Issue { _, is := ReadAction(d); return is },
	} {
		t.Run(name, func(t *testing.T) {
			issues := read(doc)
			if len(issues) < MaxIssues {
				t.Fatalf("%d issues, want the capped %d", len(issues), MaxIssues+1)
			}
			text := 0
			for _, is := range issues {
				text += len(is.Path) + len(is.Message)
			}
			if text > 4*len(doc) {
				t.Errorf("the issues hold %d bytes of text for a %d-byte document", text, len(doc))
			}
			want := `$["` + strings.Repeat("k", maxPathKey) + `…(1048576 bytes)"]`
			if n := len(slices.DeleteFunc(slices.Clone(issues), func(is Issue) bool { return is.Path != want })); n < MaxIssues {
				t.Errorf("%d issues at the path %s, want every one", n, want)
			}
		})
	}
}
