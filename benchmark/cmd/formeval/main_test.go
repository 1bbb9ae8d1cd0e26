package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-corpus")
	cases := []struct {
		name    string
		args    []string
		want    int
		wantErr string
	}{
		{"bad split", []string{"-only", "test"}, 2, "-only must be dev or holdout"},
		{"unknown flag", []string{"-frobnicate"}, 2, "flag provided but not defined"},
		{"no workers", []string{"-workers", "0", "-corpus", missing, "-out", "-"}, 2, "-workers must be at least 1"},
		{"negative workers", []string{"-workers", "-3", "-corpus", missing, "-out", "-"}, 2, "-workers must be at least 1"},
		{"a stray argument", []string{"-corpus", missing, "-out", "-", "holdout"}, 2, `unexpected argument "holdout"`},
		{"missing corpus", []string{"-corpus", missing, "-out", "-"}, 1, "corpus not found"},
		{"missing corpus advice", []string{"-corpus", missing, "-out", "-"}, 1, "formeval: pass -corpus DIR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := run(c.args, &out, &errb); got != c.want {
				t.Errorf("exit %d, want %d; stderr: %s", got, c.want, errb.String())
			}
			if !strings.Contains(errb.String(), c.wantErr) {
				t.Errorf("stderr %q does not say %q", errb.String(), c.wantErr)
			}
		})
	}
}
