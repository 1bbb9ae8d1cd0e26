package shared_test

import (
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

func TestValidToolName(t *testing.T) {
	cases := []struct {
		name string
		want bool
	}{
		{"book_appointment", true},
		{"clinic01.booking.appointment-form", true},
		{strings.Repeat("a", 128), true},
		{"", false},
		{"a b", false},
		{"ä", false},
		{"book:now", false},
		{strings.Repeat("a", 129), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := shared.ValidToolName(tc.name); got != tc.want {
				t.Errorf("ValidToolName(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}
