package fleet

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/frontlatch/frontlatch/mapper"
)

// TestClassify: each failure is named by its code, and a tab is reused
// after a failure of the site's own making only (a robots.txt that refuses
// the mapper was "other": its tab was closed and the browser asked for its
// version, as after a lost connection).
func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		code     string
		reusable bool
	}{
		{"mapped", nil, "other", true},
		{"robots.txt disallows", fmt.Errorf("wrapped: %w", &mapper.DisallowedError{URL: "https://a.example/", Agent: "Frontlatch"}), "disallowed", true},
		{"unreachable", mapper.ErrUnreachable, "unreachable", true},
		{"http status", &mapper.FetchError{Kind: mapper.ErrHTTPStatus}, "http-status", true},
		{"not html", mapper.ErrNotHTML, "not-html", true},
		{"redirect loop", mapper.ErrRedirectLoop, "redirect-loop", true},
		{"invalid url", mapper.ErrInvalidURL, "invalid-url", true},
		{"timeout", context.DeadlineExceeded, "timeout", false},
		{"browser lost", fmt.Errorf("%w: gone", errBrowserLost), "browser", false},
		{"anything else", errors.New("boom"), "other", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err != nil {
				if got := classify(tt.err); got != tt.code {
					t.Errorf("classify(%v) = %q, want %q", tt.err, got, tt.code)
				}
			}
			if got := reusableAfter(tt.err); got != tt.reusable {
				t.Errorf("reusableAfter(%v) = %t, want %t", tt.err, got, tt.reusable)
			}
		})
	}
}
