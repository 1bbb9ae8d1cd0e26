package portal

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// luminance is the WCAG 2 relative luminance of a #rrggbb colour.
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %q: %v", hex, err)
		}
		c := float64(v) / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func TestContrastOfEveryPairInTheStylesheet(t *testing.T) {
	for _, p := range contrastPairs {
		t.Run(p.FG+"/"+p.BG, func(t *testing.T) {
			fg, ok1 := palette[p.FG]
			bg, ok2 := palette[p.BG]
			if !ok1 || !ok2 {
				t.Fatalf("pair names a colour the palette does not have")
			}
			if got := contrast(t, fg, bg); got < p.Min {
				t.Errorf("contrast %s on %s = %.2f:1, want at least %.1f:1", fg, bg, got, p.Min)
			}
		})
	}
}

// Every colour the rules use is in the palette, and every colour in the
// palette is used and checked in at least one pair.
func TestStylesheetColoursAreThePalette(t *testing.T) {
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`var\(--([a-z-]+)\)`).FindAllStringSubmatch(cssRules, -1) {
		used[m[1]] = true
		if _, ok := palette[m[1]]; !ok {
			t.Errorf("cssRules use var(--%s), which the palette does not define", m[1])
		}
	}
	if regexp.MustCompile(`#[0-9a-fA-F]{3,6}\b`).MatchString(cssRules) {
		t.Errorf("cssRules spell a colour out; use the palette")
	}
	checked := map[string]bool{}
	for _, p := range contrastPairs {
		checked[p.FG], checked[p.BG] = true, true
	}
	for n := range palette {
		if !used[n] {
			t.Errorf("palette colour %s is not used by cssRules", n)
		}
		if !checked[n] {
			t.Errorf("palette colour %s is in no contrast pair", n)
		}
	}
}
