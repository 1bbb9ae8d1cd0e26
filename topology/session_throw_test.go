package topology

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSessionReadThrowIsErrStateScript: a script that throws is
// ErrStateScript from Read, with capture or without.
func TestSessionReadThrowIsErrStateScript(t *testing.T) {
	b := browserForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := b.NewSession(ctx, testOptions().PageOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Open(ctx, siteURL("/plain.html")); err != nil {
		t.Fatal(err)
	}
	for _, capture := range []bool{false, true} {
		_, err := s.Read(ctx, `() => { throw new Error("boom") }`, capture)
		if !errors.Is(err, ErrStateScript) {
			t.Errorf("capture=%v: %v, want ErrStateScript", capture, err)
		}
	}
}
