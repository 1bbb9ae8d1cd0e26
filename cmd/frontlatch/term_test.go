package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

func TestTermSafe(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text passes", "Request a quote — café\tnow\n", "Request a quote — café\tnow\n"},
		{"ESC sequence", "\x1b[2J\x1b]0;pwned\x07title\n", `\u001b[2J\u001b]0;pwned\u0007title` + "\n"},
		{"carriage return", "ok\rFAKE\n", `ok\u000dFAKE` + "\n"},
		{"DEL and C1", "a\x7fb\u009bc", `a\u007fb\u009bc`},
		{"bidi override", "abc\u202edcba\u2066", `abc\u202edcba\u2066`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			n, err := fmt.Fprint(termSafe(&b), tt.in)
			if err != nil || n != len(tt.in) {
				t.Errorf("wrote %d of %d bytes (%v)", n, len(tt.in), err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("termSafe(%q) wrote %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSiteTextDoesNotReachTheTerminal: an escape sequence in a graph's ids
// and text (a site's, or whoever edited the file) is written out, not
// passed to the terminal, by the commands that print them for a person.
func TestSiteTextDoesNotReachTheTerminal(t *testing.T) {
	data, err := os.ReadFile(clinic01)
	if err != nil {
		t.Fatal(err)
	}
	g, issues := shared.Read(data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	const evil = "\x1b]0;pwned\x07\x1b[2J"
	for i := range g.Actions {
		a := &g.Actions[i]
		a.ID += evil
		a.Label += evil
		a.SideEffects.Summary += evil
	}
	out, err := shared.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "graph.json")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--completeness", path},
		{"verify", "revoke", "--by", "Mei", path, g.Actions[0].ID},
	} {
		t.Run(args[0]+" "+args[1], func(t *testing.T) {
			_, stdout, stderr := runCmd(t, "", args...)
			if !strings.Contains(stdout+stderr, `\u001b]0;pwned\u0007`) && !strings.Contains(stdout+stderr, `\x1b]0;pwned\a`) {
				t.Errorf("the escaped id is not in the output:\nstdout %q\nstderr %q", stdout, stderr)
			}
			if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
				t.Errorf("an escape sequence reached the terminal:\nstdout %q\nstderr %q", stdout, stderr)
			}
		})
	}
	var b bytes.Buffer
	printMapSummary(&b, g, "")
	if strings.ContainsAny(b.String(), "\x1b\x07") || !strings.Contains(b.String(), `\u001b[2J`) {
		t.Errorf("map's summary passes the escape sequence on, or drops it:\n%q", b.String())
	}
}
