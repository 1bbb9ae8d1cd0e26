package extract_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/topology"
)

// TestFromPageWith: the extraction, the forms' submit listeners and the
// caller's own script come back from one Evaluate; a script that throws
// costs only its own answer.
func TestFromPageWith(t *testing.T) {
	browser := sharedBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	page, err := browser.OpenPage(ctx, server.URL+"/script-submit.html", topology.PageOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
	want, err := extract.FromPage(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, also, wantAlso string
		wantErr              error
	}{
		{"no script", "", "", nil},
		{"a script", `() => "title:" + document.title`, "", nil},
		{"a script that throws", `() => { throw new Error("boom"); }`, "", extract.ErrAlso},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, also, err := extract.FromPageWith(ctx, page, tc.also)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if p == nil || len(p.Forms) != len(want.Forms) {
				t.Fatalf("page %+v, want %d forms", p, len(want.Forms))
			}
			for i := range p.Forms {
				if p.Forms[i].ScriptSubmit != want.Forms[i].ScriptSubmit {
					t.Errorf("form %d ScriptSubmit %q, want %q", i, p.Forms[i].ScriptSubmit, want.Forms[i].ScriptSubmit)
				}
			}
			if tc.name == "a script" && also != "title:"+p.Title {
				t.Errorf("also = %q, want the page's title", also)
			}
			if tc.name != "a script" && also != tc.wantAlso {
				t.Errorf("also = %q, want %q", also, tc.wantAlso)
			}
		})
	}
	// The listeners are read: script-submit.html has a form sent by a
	// submit listener (not its onsubmit attribute).
	listened := false
	for _, f := range want.Forms {
		if f.OnSubmit == "" && f.ScriptSubmit != "" {
			listened = true
		}
	}
	if !listened {
		t.Error("no form's script submission came from its submit listeners")
	}
}

// TestDecodeBad: an answer that is not PageScript's is a decode *Error.
func TestDecodeBad(t *testing.T) {
	for _, raw := range []string{"", "[]", `{"page": 3}`} {
		_, _, err := extract.Decode(raw)
		var e *extract.Error
		if !errors.As(err, &e) || e.Op != "decode" {
			t.Errorf("Decode(%q) = %v, want a decode *extract.Error", raw, err)
		}
	}
}
