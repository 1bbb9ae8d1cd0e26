package portal

import (
	"reflect"
	"strings"
	"testing"

	"github.com/frontlatch/frontlatch/shared"
)

// Every JSON key of the consent subject, at any depth, has words.
func TestEveryConsentKeyHasWords(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		for i := range rt.NumField() {
			f := rt.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if key == "" || key == "-" {
				continue
			}
			if consentKeyWords[key] == "" {
				t.Errorf("%s.%s (json %q) has no words in consentKeyWords", rt.Name(), f.Name, key)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[shared.ConsentSubject]())
	if len(seen) < 5 {
		t.Fatalf("walked %d structs; the consent subject has at least five", len(seen))
	}
}

func TestChangeWords(t *testing.T) {
	tests := []struct {
		path, want string
	}{
		{"$.disclosure.chargesMoney", "Whether it charges money: you were shown a, it is now b ($.disclosure.chargesMoney)"},
		{"$.doors[0].endpoint", "Where it sends submissions (way in 1): you were shown a, it is now b ($.doors[0].endpoint)"},
		{"$.doors[2]", "Way in 3 was added or removed: you were shown a, it is now b ($.doors[2])"},
		{"$.effects[1].target", "Who or what it reaches (effect 2): you were shown a, it is now b ($.effects[1].target)"},
		{"$.disclosure.effects[0]", "What it does (effect 1): you were shown a, it is now b ($.disclosure.effects[0])"},
		{"$.disclosure.summary", "Its summary: you were shown a, it is now b ($.disclosure.summary)"},
		{"$.something.new", "$.something.new: you were shown a, it is now b ($.something.new)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := changeWords(shared.ConsentChange{Path: tt.path, Confirmed: "a", Now: "b"}); got != tt.want {
				t.Errorf("changeWords(%s) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
