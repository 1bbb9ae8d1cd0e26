package portal

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"sort"
	"strings"
)

// palette is every colour the portal's CSS uses, as CSS custom properties.
var palette = map[string]string{
	"text":           "#1b1b1b",
	"muted":          "#474747",
	"page":           "#ffffff",
	"panel":          "#f4f6f8",
	"rule":           "#767676",
	"link":           "#0a4f9e",
	"head-bg":        "#12355b",
	"head-text":      "#ffffff",
	"ok-text":        "#0f5323",
	"ok-bg":          "#e6f4ea",
	"bad-text":       "#8a1c1c",
	"bad-bg":         "#fbeaea",
	"warn-text":      "#5c3b00",
	"warn-bg":        "#fff4d6",
	"button-bg":      "#0a4f9e",
	"button-text":    "#ffffff",
	"focus":          "#b45309",
	"bar-complete":   "#1e7b34",
	"bar-incomplete": "#b3261e",
}

// contrastPair is a foreground drawn on a background somewhere in the CSS,
// with the WCAG 2 ratio it must reach: 4.5 for text, 3 for graphics and
// focus rings. A test computes every pair.
type contrastPair struct {
	FG, BG string
	Min    float64
}

var contrastPairs = []contrastPair{
	{"text", "page", 4.5}, {"text", "panel", 4.5}, {"muted", "page", 4.5}, {"muted", "panel", 4.5},
	{"link", "page", 4.5}, {"link", "panel", 4.5}, {"head-text", "head-bg", 4.5},
	{"ok-text", "ok-bg", 4.5}, {"bad-text", "bad-bg", 4.5}, {"warn-text", "warn-bg", 4.5},
	{"link", "warn-bg", 4.5}, {"text", "warn-bg", 4.5},
	{"button-text", "button-bg", 4.5}, {"text", "ok-bg", 4.5}, {"text", "bad-bg", 4.5},
	{"bar-complete", "page", 3}, {"bar-incomplete", "page", 3}, {"focus", "page", 3},
	{"rule", "page", 3},
}

// cssRules use only var(--name) colours from the palette.
const cssRules = `
*{box-sizing:border-box}
html{color:var(--text);background:var(--page);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0}
a{color:var(--link)}
a:focus,button:focus,input:focus,select:focus,summary:focus{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-10000px;top:0;background:var(--page);color:var(--link);padding:.5rem 1rem}
.skip:focus{left:.5rem;top:.5rem}
header{background:var(--head-bg);color:var(--head-text);padding:1rem 1.5rem}
header p{margin:0}
header a{color:var(--head-text)}
main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:0}
h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--rule)}
h3{font-size:1.1rem;margin:1.25rem 0 .25rem}
.action{background:var(--panel);border:1px solid var(--rule);border-radius:.4rem;padding:.75rem 1rem;margin:1rem 0}
.badge{display:inline-block;padding:0 .5rem;border-radius:.3rem;font-weight:600}
.ok{color:var(--ok-text);background:var(--ok-bg)}
.bad{color:var(--bad-text);background:var(--bad-bg)}
.warn{color:var(--warn-text);background:var(--warn-bg);padding:.5rem 1rem;border-left:4px solid var(--warn-text)}
.muted{color:var(--muted)}
.origin{font-size:1.15rem;font-weight:700}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid var(--rule)}
fieldset{border:1px solid var(--rule);border-radius:.4rem;margin:1rem 0;padding:.75rem 1rem}
legend{font-weight:700;padding:0 .25rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=url]{width:min(36rem,100%)}
input,select{font:inherit;color:var(--text);background:var(--page);border:1px solid var(--rule);border-radius:.25rem;padding:.4rem .5rem;min-width:14rem}
button{font:inherit;font-weight:700;color:var(--button-text);background:var(--button-bg);border:0;border-radius:.3rem;padding:.6rem 1.2rem;margin-top:1rem;cursor:pointer}
.bar-complete{fill:var(--bar-complete)}
.bar-incomplete{fill:var(--bar-incomplete)}
svg text{fill:var(--text);font:14px system-ui,sans-serif}
`

// stylesheet is the CSS every page inlines: the palette as custom
// properties, then the rules.
var stylesheet = func() string {
	names := make([]string, 0, len(palette))
	for n := range palette {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(":root{")
	for _, n := range names {
		fmt.Fprintf(&b, "--%s:%s;", n, palette[n])
	}
	b.WriteString("}")
	b.WriteString(strings.TrimSpace(cssRules))
	return b.String()
}()

// styleCSS is the stylesheet as trusted CSS for the templates.
var styleCSS = template.CSS(stylesheet)

// styleHash is the CSP source that allows exactly the inline stylesheet.
var styleHash = func() string {
	sum := sha256.Sum256([]byte(stylesheet))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
