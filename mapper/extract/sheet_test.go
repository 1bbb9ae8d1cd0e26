package extract_test

import (
	"testing"

	"github.com/frontlatch/frontlatch/mapper/extract"
)

// The page's own rules hide controls statically for every selector markup
// alone can decide (cascadia's grammar: combinators and attribute tests
// included), never for one that depends on state (a pseudo-class), on a
// narrow screen (@media) or on a rule that is not about visibility.
func TestSheetSelectors(t *testing.T) {
	for _, tc := range []struct {
		name, css string
		hidden    bool
	}{
		{"class", `.trap{display:none}`, true},
		{"descendant of an id", `#f .trap{display:none}`, true},
		{"child", `#f > p > .trap{display:none}`, true},
		{"child that is not one", `#f > .trap{display:none}`, false},
		{"next sibling", `.lead + .trap{display:none}`, true},
		{"any later sibling", `.lead ~ input{visibility:hidden}`, true},
		{"attribute prefix", `input[name^="hp_"]{display:none}`, true},
		{"one of a list", `.nothing, .trap{display:none}`, true},
		{"pseudo-class: state markup does not show", `.trap:focus{display:none}`, false},
		{"any pseudo-class, :not too", `input:not(.keep){display:none}`, false},
		{"media", `@media (max-width: 400px) { .trap{display:none} }`, false},
		{"a later rule wins", `.trap{display:none} #f .trap{display:block}`, false},
		{"not about visibility", `.trap{color:red}`, false},
		{"malformed", `.trap[{display:none}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head><style>` + tc.css + `</style></head><body>
<form id="f" method="post" action="/send"><p><label>Email <input type="email" name="email"></label>
<span class="lead"></span><input class="trap" name="hp_website"></p><button>Send</button></form></body></html>`
			p, err := extract.FromHTML("http://127.0.0.1/", []byte(page))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range p.Forms[0].Fields {
				if f.Name == "hp_website" {
					if f.Visibility.Hidden != tc.hidden {
						t.Errorf("hidden = %v, want %v (%v)", f.Visibility.Hidden, tc.hidden, f.Visibility.Reasons)
					}
					return
				}
			}
			t.Fatal("hp_website not extracted")
		})
	}
}
