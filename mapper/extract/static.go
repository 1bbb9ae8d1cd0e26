package extract

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/frontlatch/frontlatch/topology/shadowdom"
)

// FromHTML extracts a Page from markup without a browser, with the same
// types and the same rules as FromPage where markup alone decides them
// (forms, fields, labels, options, locators, links, scripts…).
//
// What it cannot know: linked stylesheets and layout. Visibility comes
// only from type=hidden, the hidden attribute, inline style and the page's
// own <style> rules with simple selectors (sheet.go): display:none,
// visibility:hidden, opacity:0, and positioning or margins far off-screen
// on the control or an ancestor; zero size is invisible to it. Parsing
// follows the HTML standard with scripting enabled (golang.org/x/net/html),
// so, as in a browser, forms inside <noscript> and forms nested in an open
// form do not exist. Declarative shadow DOM is attached as the parser of
// a browser attaches it (attachDeclarativeShadowRoots): the content of a
// <template shadowrootmode="open"> is its host's open shadow root, read
// like one in FromPage (its own ids and label[for], Form.ShadowHost);
// an ordinary template, a closed root and the retired shadowroot
// attribute (which current Chromium no longer attaches) are inert.
func FromHTML(pageURL string, markup []byte) (*Page, error) {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, &Error{URL: pageURL, Op: "parse", Err: fmt.Errorf("%w: page URL: %w", ErrParse, err)}
	}
	root, err := html.Parse(bytes.NewReader(markup))
	if err != nil {
		return nil, &Error{URL: pageURL, Op: "parse", Err: fmt.Errorf("%w: %w", ErrParse, err)}
	}
	attachDeclarativeShadowRoots(root)
	s := &static{root: root, base: base, byID: map[idKey]*html.Node{}, labelsFor: map[idKey][]*html.Node{},
		idCount: map[idKey]int{}, names: map[*html.Node]map[string]int{}, nth: map[*html.Node]int{}, controls: map[*html.Node]int{},
		scopeOf: map[*html.Node]*html.Node{}, prefixes: map[*html.Node]string{}}
	s.index(root, nil)
	s.sheet, s.sheetMemo = parseSheets(s.all), map[*html.Node]map[string]string{}
	s.owner = parserOwners(markup, s.forms, s.all)
	p := s.page(pageURL)
	p.normalize()
	return p, nil
}

// idKey is an id within one tree: the document (scope nil) or a
// declarative shadow root (its template).
type idKey struct {
	scope *html.Node
	id    string
}

type static struct {
	root      *html.Node
	base      *url.URL
	byID      map[idKey]*html.Node
	labelsFor map[idKey][]*html.Node
	forms     []*html.Node
	all       []*html.Node // elements in composed document order (shadow content where its template stands)
	// scopeOf is the shadow root (template) each element of one lives in;
	// absent for the document's. prefixes memoizes prefix per host.
	scopeOf  map[*html.Node]*html.Node
	prefixes map[*html.Node]string
	// owner: controls outside any form element that the parser gave to a
	// form (parserOwners).
	owner map[*html.Node]*html.Node
	// idCount counts elements per id; names counts, per locator scope,
	// elements per name attribute (filled on first use); nth memoizes
	// nth-of-type positions. Locators ask for each per field: counting
	// anew each time made huge forms quadratic.
	idCount map[idKey]int
	names   map[*html.Node]map[string]int
	nth     map[*html.Node]int
	// controls memoizes countVisibleControls for the containers the text
	// after a checkbox is looked for in.
	controls map[*html.Node]int
	// sheet: the page's own style rules visibility reads (sheet.go),
	// sheetMemo what they give each element asked about.
	sheet     []sheetRule
	sheetMemo map[*html.Node]map[string]string
}

func (s *static) index(n, scope *html.Node) {
	if n.Type == html.ElementNode && n.DataAtom == atom.Template {
		// a declarative shadow root (inert templates were emptied): its
		// content is a tree of its own
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			s.index(c, n)
		}
		return
	}
	if n.Type == html.ElementNode {
		s.all = append(s.all, n)
		if scope != nil {
			s.scopeOf[n] = scope
		}
		if id := getAttr(n, "id"); id != "" {
			k := idKey{scope, id}
			s.idCount[k]++
			if _, dup := s.byID[k]; !dup {
				s.byID[k] = n
			}
		}
		switch n.DataAtom {
		case atom.Base:
			if h, ok := attrOK(n, "href"); ok && s.base != nil {
				if u, err := parseURL(s.base, h); err == nil {
					s.base = u
				}
			}
		case atom.Label:
			if f := getAttr(n, "for"); f != "" {
				s.labelsFor[idKey{scope, f}] = append(s.labelsFor[idKey{scope, f}], n)
			}
		case atom.Form:
			s.forms = append(s.forms, n)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.index(c, scope)
	}
}

// attachDeclarativeShadowRoots keeps, of the tree's <template> elements,
// those a browser's parser turns into an open shadow root (topology's
// shadowdom rule, which the executor's page read follows too) and empties
// every other one: an ordinary template's content is inert, a closed root
// is beyond a page script's reach (FromPage cannot read it either), and
// the shadowroot attribute of the first drafts is no longer attached by
// Chromium (it stays an inert template).
func attachDeclarativeShadowRoots(root *html.Node) {
	var roots shadowdom.Roots
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Template {
				if mode, ok := roots.Attach(c); !ok || mode != shadowdom.Open {
					for k := c.FirstChild; k != nil; k = c.FirstChild {
						c.RemoveChild(k)
					}
					continue
				}
			}
			rec(c)
		}
	}
	rec(root)
}

// prefix is the selector of the host(s) of the shadow root n is in, each
// part unique in its own tree, and a space; "" in the document (extract.js
// prefixOf).
func (s *static) prefix(n *html.Node) string {
	sc := s.scopeOf[n]
	if sc == nil {
		return ""
	}
	h := sc.Parent
	p, ok := s.prefixes[h]
	if !ok {
		p = s.prefix(h) + s.hostSelector(h) + " "
		s.prefixes[h] = p
	}
	return p
}

// hostSelector: a host's id, its tag when it is a custom element alone of
// its kind in its tree, else its path.
func (s *static) hostSelector(h *html.Node) string {
	sc := s.scopeOf[h]
	if id := getAttr(h, "id"); id != "" && s.idCount[idKey{sc, id}] == 1 {
		return cssID(id)
	}
	if strings.Contains(h.Data, "-") && s.count(func(n *html.Node) bool { return s.scopeOf[n] == sc && n.Data == h.Data }) == 1 {
		return h.Data
	}
	return s.localPath(h)
}

// hostsShadow: n has a declarative shadow root.
func hostsShadow(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Template && c.FirstChild != nil {
			return true
		}
	}
	return false
}

func (s *static) page(pageURL string) *Page {
	p := &Page{URL: pageURL, BaseURL: s.base.String(), Source: SourceStatic}
	var heading *html.Node // the last h1–h6 so far in document order
	for _, n := range s.all {
		if isSectionHeading(n) {
			heading = n
		}
		inDoc := s.scopeOf[n] == nil
		switch n.DataAtom {
		case atom.Title:
			if !inDoc {
				continue
			}
			if p.Title == "" {
				p.Title = norm(textOf(n))
			}
		case atom.Html:
			p.Lang = getAttr(n, "lang")
		case atom.A, atom.Area:
			if h, ok := attrOK(n, "href"); ok {
				if len(p.Links) >= MaxLinks {
					if !contains(p.Truncated, "links") {
						p.Truncated = append(p.Truncated, "links")
					}
					continue
				}
				t := clip(textOf(n), 200)
				if t == "" {
					t = norm(firstNonEmpty(getAttr(n, "aria-label"), getAttr(n, "title"), imgAlt(n)))
				}
				l := Link{Href: s.resolve(h), Text: t, Rel: getAttr(n, "rel"), Visible: !s.visibility(n, nil).Hidden}
				if directLink.MatchString(h) {
					linkContext(&l, n, heading)
				}
				p.Links = append(p.Links, l)
			}
		case atom.Script:
			if !inDoc {
				continue // FromPage reads the document's scripts only
			}
			typ := strings.ToLower(getAttr(n, "type"))
			if typ == "application/ld+json" {
				p.JSONLD = append(p.JSONLD, textOf(n))
				continue
			}
			if len(p.Scripts) >= MaxScripts {
				if !contains(p.Truncated, "scripts") {
					p.Truncated = append(p.Truncated, "scripts")
				}
				continue
			}
			sc := Script{ID: getAttr(n, "id"), Type: typ, Data: dataOf(n)}
			if src, ok := attrOK(n, "src"); ok {
				sc.Src = s.resolve(src)
			} else {
				sc.Text = clipRaw(textOf(n), MaxScriptText)
			}
			p.Scripts = append(p.Scripts, sc)
		case atom.Iframe:
			p.Frames = append(p.Frames, Frame{Src: s.resolve(getAttr(n, "src")), ID: getAttr(n, "id"), Name: getAttr(n, "name"), Title: getAttr(n, "title"), Class: getAttr(n, "class"), Visible: !s.visibility(n, nil).Hidden})
		case atom.Link:
			if rel, ok := attrOK(n, "rel"); ok && inDoc {
				if h, ok := attrOK(n, "href"); ok {
					p.LinkRels = append(p.LinkRels, LinkRel{Rel: strings.ToLower(rel), Href: s.resolve(h), Type: getAttr(n, "type")})
				}
			}
		case atom.Meta:
			if !inDoc {
				continue
			}
			p.Meta = append(p.Meta, Meta{Name: getAttr(n, "name"), Property: getAttr(n, "property"), HTTPEquiv: getAttr(n, "http-equiv"), Content: clipRaw(getAttr(n, "content"), 1000)})
		}
		if n.DataAtom != atom.Script && n.DataAtom != atom.Iframe && n.DataAtom != atom.A && isWidget(n) && inBody(n) {
			if len(p.Embeds) >= MaxEmbeds {
				if !contains(p.Truncated, "embeds") {
					p.Truncated = append(p.Truncated, "embeds")
				}
			} else {
				p.Embeds = append(p.Embeds, s.element(n))
			}
		}
	}
	for i, f := range s.forms {
		p.Forms = append(p.Forms, s.form(i, f))
	}
	p.Groups = s.groups()
	return p
}

func (s *static) resolve(h string) string {
	h = strings.TrimSpace(h)
	if h == "" {
		return ""
	}
	u, err := parseURL(s.base, h)
	if err != nil {
		return h
	}
	return u.String()
}

func (s *static) element(n *html.Node) Element {
	return Element{Tag: n.Data, ID: getAttr(n, "id"), Class: getAttr(n, "class"), Data: dataOf(n), Src: s.resolve(firstNonEmpty(getAttr(n, "src"), getAttr(n, "href")))}
}

// controlsOf returns the controls owned by form: its descendants plus
// controls elsewhere naming it with form="id", in document order.
func (s *static) controlsOf(form *html.Node) []*html.Node {
	id, sc := getAttr(form, "id"), s.scopeOf[form]
	var out []*html.Node
	for _, n := range s.all {
		if !isControl(n) || s.scopeOf[n] != sc {
			continue // form= and form owners stay within one tree
		}
		if owner, ok := attrOK(n, "form"); ok {
			if id != "" && owner == id {
				out = append(out, n)
			}
			continue
		}
		if isAncestor(form, n) || s.owner[n] == form {
			out = append(out, n)
		}
	}
	return out
}

func (s *static) form(i int, f *html.Node) Form {
	scope, pre := s.formLocator(f), s.prefix(f)
	method := strings.ToLower(strings.TrimSpace(getAttr(f, "method")))
	if method != "post" && method != "dialog" {
		method = "get"
	}
	enc := strings.ToLower(strings.TrimSpace(getAttr(f, "enctype")))
	if enc == "" {
		enc = "application/x-www-form-urlencoded"
	}
	action := s.base.String()
	if a := strings.TrimSpace(getAttr(f, "action")); a != "" {
		action = s.resolve(a)
	}
	vis := s.visibility(f, nil)
	out := Form{
		Index: i, ID: getAttr(f, "id"), Name: getAttr(f, "name"), Class: getAttr(f, "class"),
		Action: action, ActionAttr: getAttr(f, "action"), Method: method, Enctype: enc, Target: getAttr(f, "target"),
		ToolName: getAttr(f, "toolname"), ToolDescription: getAttr(f, "tooldescription"), ToolAutoSubmit: hasAttr(f, "toolautosubmit"),
		Data: dataOf(f), Text: clip(textOf(f), MaxFormText), Heading: s.heading(f),
		Visible: !vis.Hidden, Visibility: vis, InDialog: inDialog(f), Locator: pre + scope, ShadowHost: strings.TrimSpace(pre),
		OnSubmit: getAttr(f, "onsubmit"),
	}
	out.ScriptSubmit = ScriptSubmitOf(Handlers{OnSubmit: out.OnSubmit})
	for n, k := parentOf(f), 0; n != nil && n.DataAtom != atom.Body && n.Type == html.ElementNode && k < MaxWrappers; n, k = parentOf(n), k+1 {
		out.Wrappers = append(out.Wrappers, s.element(n))
	}
	controls := s.controlsOf(f)
	out.Fields = s.fields(controls, f, scope)
	for _, c := range controls {
		t := controlType(c)
		if (c.DataAtom == atom.Button && t == "submit") || (c.DataAtom == atom.Input && (t == "submit" || t == "image")) {
			out.Submits = append(out.Submits, s.submit(c, scope, f))
		}
	}
	if len(out.Submits) == 0 {
		walk(f, func(n *html.Node) bool {
			if len(out.Submits) < 3 && isButtonLike(n) && sendWords.MatchString(buttonText(n)) {
				out.Submits = append(out.Submits, s.submit(n, scope, f))
			}
			return true
		})
	}
	out.Widgets = s.widgets(f)
	return out
}

func (s *static) widgets(root *html.Node) []Element {
	var out []Element
	walk(root, func(n *html.Node) bool {
		if n != root && len(out) < 50 && (n.DataAtom == atom.Iframe || isWidget(n)) {
			out = append(out, s.element(n))
		}
		return true
	})
	return out
}

// submit: scope is the selector of stop (the form or group) within its
// own tree.
func (s *static) submit(b *html.Node, scope string, stop *html.Node) Submit {
	t := controlType(b)
	text := buttonText(b)
	loc := s.cssPath(b)
	if name := getAttr(b, "name"); name != "" && scope != "" && s.scopeOf[b] == s.scopeOf[stop] {
		loc = s.prefix(b) + scope + " " + b.Data + attrSel("name", name)
	}
	return Submit{Tag: b.Data, Type: t, Name: getAttr(b, "name"), Value: getAttr(b, "value"), Text: clip(text, 200), Visible: !s.visibility(b, stop).Hidden, Locator: loc,
		ShadowHost: strings.TrimSpace(s.prefix(b))}
}

func buttonText(b *html.Node) string {
	if b.DataAtom == atom.Input {
		return norm(firstNonEmpty(getAttr(b, "value"), getAttr(b, "alt"), getAttr(b, "title")))
	}
	return norm(firstNonEmpty(nameText(b, nil), getAttr(b, "aria-label"), getAttr(b, "title")))
}

func (s *static) fields(controls []*html.Node, form *html.Node, scope string) []Field {
	var out []Field
	seen := map[*html.Node]bool{}
	for _, c := range controls {
		if seen[c] {
			continue
		}
		t := controlType(c)
		switch {
		case c.DataAtom == atom.Button, c.DataAtom == atom.Fieldset, c.DataAtom == atom.Output, c.DataAtom == atom.Object:
			continue
		case c.DataAtom == atom.Input && (t == "submit" || t == "reset" || t == "button" || t == "image"):
			continue
		}
		if c.DataAtom == atom.Input && t == "hidden" && checkboxNamed(controls, getAttr(c, "name")) {
			// the unchecked value of a checkbox (Field.UncheckedValue)
			continue
		}
		var group []*html.Node
		legend := ""
		if c.DataAtom == atom.Input && (t == "radio" || t == "checkbox") && getAttr(c, "name") != "" {
			for _, o := range controls {
				if o.DataAtom == atom.Input && controlType(o) == t && getAttr(o, "name") == getAttr(c, "name") {
					group = append(group, o)
				}
			}
			if t == "checkbox" && len(group) < 2 {
				group = nil
			}
			for _, g := range group {
				seen[g] = true
			}
			if group != nil {
				legend = s.groupLegend(group, form)
			}
		}
		seen[c] = true
		f := s.field(c, form, scope, group, legend)
		if t == "checkbox" && f.Name != "" {
			for _, o := range controls {
				if o.DataAtom == atom.Input && controlType(o) == "hidden" && getAttr(o, "name") == f.Name {
					f.UncheckedValue = getAttr(o, "value")
					break
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// checkboxNamed: one of controls is a checkbox named name (not "").
func checkboxNamed(controls []*html.Node, name string) bool {
	if name == "" {
		return false
	}
	for _, o := range controls {
		if o.DataAtom == atom.Input && controlType(o) == "checkbox" && getAttr(o, "name") == name {
			return true
		}
	}
	return false
}

func (s *static) groupLegend(group []*html.Node, form *html.Node) string {
	for n := group[0].Parent; n != nil && n != form; n = n.Parent {
		role := getAttr(n, "role")
		if n.DataAtom != atom.Fieldset && role != "radiogroup" && role != "group" {
			continue
		}
		all := true
		for _, g := range group {
			if !isAncestor(n, g) {
				all = false
			}
		}
		if !all {
			break
		}
		if n.DataAtom == atom.Fieldset {
			var lg string
			walk(n, func(c *html.Node) bool {
				if lg == "" && c.DataAtom == atom.Legend {
					lg = nameText(c, nil)
				}
				return lg == ""
			})
			if lg != "" {
				return lg
			}
		}
		if ids := getAttr(n, "aria-labelledby"); ids != "" {
			return s.byIDs(ids, n)
		}
		return norm(getAttr(n, "aria-label"))
	}
	if t := s.nearbyText(group[0], form, true); t != "" {
		return t
	}
	if len(group) == 1 {
		l, _, _ := s.label(group[0], form)
		return l
	}
	return ""
}

func (s *static) field(c, form *html.Node, scope string, group []*html.Node, legend string) Field {
	t := controlType(c)
	label, src, labelVis := s.label(c, form)
	if group != nil {
		label, src, labelVis = legend, LabelAriaLabelledBy, true
	}
	wrap := fieldWrapper(c, form)
	f := Field{
		Tag: c.Data, Type: t, Name: getAttr(c, "name"), ID: getAttr(c, "id"), Class: getAttr(c, "class"),
		Label: clip(label, 300), LabelSource: src, LabelVisible: labelVis,
		Placeholder: norm(getAttr(c, "placeholder")), Autocomplete: getAttr(c, "autocomplete"),
		AutocompleteTokens: strings.Fields(strings.ToLower(getAttr(c, "autocomplete"))),
		RequiredAttr:       requiredBy(hasAttr(c, "required"), getAttr(c, "aria-required")),
		Pattern:            getAttr(c, "pattern"), Min: getAttr(c, "min"), Max: getAttr(c, "max"), Step: getAttr(c, "step"),
		MinLength: getAttr(c, "minlength"), MaxLength: getAttr(c, "maxlength"), Accept: getAttr(c, "accept"),
		Multiple: hasAttr(c, "multiple") || (group != nil && t == "checkbox"),
		ReadOnly: hasAttr(c, "readonly"), Disabled: hasAttr(c, "disabled"), InputMode: getAttr(c, "inputmode"),
		Value: getAttr(c, "value"), Checked: hasAttr(c, "checked"), ToolParamDescription: getAttr(c, "toolparamdescription"),
		TabIndex: tabIndex(c), Visibility: s.visibility(c, form),
	}
	switch c.DataAtom {
	case atom.Textarea:
		f.Value = textOf(c)
	case atom.Select:
		// Value is the select's value as the browser reads it: the first
		// selected option of a multiple select ("" when none is); of a
		// single one, the last option marked selected (the parser keeps
		// only the last), else the first option that is not disabled (the
		// HTML selectedness algorithm).
		f.Value = ""
		multiple, first, picked := t == "select-multiple", true, false
		walk(c, func(o *html.Node) bool {
			if o.DataAtom == atom.Option {
				v, ok := attrOK(o, "value")
				if !ok {
					v = norm(textOf(o))
				}
				sel := hasAttr(o, "selected")
				enabled := !hasAttr(o, "disabled") && (o.Parent == nil || o.Parent.DataAtom != atom.Optgroup || !hasAttr(o.Parent, "disabled"))
				f.Options = append(f.Options, Option{Value: v, Text: norm(textOf(o)), Selected: sel})
				switch {
				case multiple && sel && !picked, !multiple && (sel || first && enabled && !picked):
					f.Value, picked = v, picked || sel
				}
				if enabled {
					first = false
				}
			}
			return true
		})
	}
	if group != nil {
		f.Checked = false
		anyRequired := false
		for _, g := range group {
			l, _, _ := s.label(g, form)
			f.Options = append(f.Options, Option{Value: firstNonEmptyAttr(g, "value", "on"), Text: l, Selected: hasAttr(g, "checked")})
			anyRequired = anyRequired || hasAttr(g, "required")
			f.Checked = f.Checked || hasAttr(g, "checked")
		}
		// as a browser reads it: any button's required, else the first
		// button's aria-required
		f.RequiredAttr = requiredBy(anyRequired, getAttr(c, "aria-required"))
		for _, g := range group {
			if v := s.visibility(g, form); !v.Hidden {
				f.Visibility = v
				break
			}
		}
	}
	f.Required = f.RequiredAttr != ""
	if wrap != nil {
		f.NearbyText = clip(textOf(wrap), MaxNearbyText)
	}
	f.Hint = s.hint(c, wrap, f.Label)
	for n, k := c.Parent, 0; n != nil && n != form && n.DataAtom != atom.Body && n.DataAtom != atom.Template && n.Type == html.ElementNode && k < MaxWrappers; n, k = n.Parent, k+1 {
		f.WrapperClasses = append(f.WrapperClasses, getAttr(n, "class"))
	}
	f.Locator = s.fieldLocator(c, scope, form, len(group))
	f.ShadowHost = strings.TrimSpace(s.prefix(c))
	return f
}

func firstNonEmptyAttr(n *html.Node, a, def string) string {
	if v, ok := attrOK(n, a); ok {
		return v
	}
	return def
}

// label follows the accessible-name order FromPage reads from the browser:
// aria-labelledby, aria-label, label[for] / wrapping label, title,
// placeholder, then the text just before the control.
func (s *static) label(c, form *html.Node) (string, LabelSource, bool) {
	if ids := getAttr(c, "aria-labelledby"); ids != "" {
		if t := s.byIDs(ids, c); t != "" {
			return t, LabelAriaLabelledBy, true
		}
	}
	if t := norm(getAttr(c, "aria-label")); t != "" {
		return t, LabelAriaLabel, true
	}
	var parts []string
	src := LabelFor
	vis := false
	if id := getAttr(c, "id"); id != "" {
		for _, l := range ownLabels(s.labelsFor[idKey{s.scopeOf[c], id}], form) {
			if t := nameText(l, c); t != "" && !contains(parts, t) {
				parts = append(parts, t)
			}
			vis = vis || !s.visibility(l, nil).Hidden
		}
	}
	for n := c.Parent; n != nil && n.DataAtom != atom.Template; n = n.Parent {
		if n.DataAtom == atom.Label {
			// A label without for= labels its first labelable
			// descendant only (label.control), not every control in it.
			if f, ok := attrOK(n, "for"); ok && f == getAttr(c, "id") || !ok && firstLabelable(n) == c {
				if t := nameText(n, c); t != "" && !contains(parts, t) {
					parts = append(parts, t)
					src = LabelWrapping
				}
				vis = vis || !s.visibility(n, nil).Hidden
			}
			break
		}
	}
	if t := norm(strings.Join(parts, " ")); t != "" {
		return t, src, vis
	}
	if t := norm(getAttr(c, "title")); t != "" {
		return t, LabelTitle, true
	}
	if t := norm(getAttr(c, "placeholder")); t != "" {
		return t, LabelPlaceholder, true
	}
	if t := s.nearby(c, form); t != "" {
		return t, LabelNearby, true
	}
	return "", LabelNone, false
}

// byIDs is the text of the elements ids names in from's own tree.
func (s *static) byIDs(ids string, from *html.Node) string {
	var parts []string
	for _, id := range strings.Fields(ids) {
		if n := s.byID[idKey{s.scopeOf[from], id}]; n != nil {
			parts = append(parts, nameText(n, nil))
		}
	}
	return norm(strings.Join(parts, " "))
}

// nearby is the text a sighted person reads just before the control: its
// previous siblings, climbing at most a few containers that hold no other
// control (table cells excepted: the previous cell is the label column).
func (s *static) nearby(c, stop *html.Node) string { return s.nearbyText(c, stop, false) }

// nearbyText: beforeOnly skips the text after a checkbox or radio (a
// group's label precedes its first button; the text after is an option).
func (s *static) nearbyText(c, stop *html.Node, beforeOnly bool) string {
	if c.DataAtom == atom.Input && !beforeOnly {
		if t := controlType(c); t == "checkbox" || t == "radio" {
			if txt := s.following(c, stop); txt != "" {
				return txt
			}
		}
	}
	n := c
	for depth := 0; n != nil && n != stop && depth < 4; depth, n = depth+1, n.Parent {
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if p.Type == html.ElementNode && (isControl(p) && controlType(p) != "hidden" || hasVisibleControl(p)) {
				return ""
			}
			if t := s.siblingText(p); t != "" {
				if len([]rune(t)) > 120 {
					return ""
				}
				return t
			}
		}
		if n.Parent != nil && countVisibleControls(n.Parent) > 1 && n.DataAtom != atom.Td && n.DataAtom != atom.Th && depth > 0 {
			return ""
		}
	}
	return ""
}

// following is the text after a checkbox or radio button ("[x] I agree…"),
// up to the next control or line break. When nothing follows the button in
// its own container — a label around the box alone, a table cell — the
// text after that container is read, climbing at most two containers that
// hold no other control ("<label><input></label><label>I agree…</label>").
func (s *static) following(c, stop *html.Node) string {
	n := c
	for depth := 0; n != nil && n != stop && n.DataAtom != atom.Body && depth < 3; depth, n = depth+1, n.Parent {
		if depth > 0 && s.visibleControls(n) > 1 {
			return ""
		}
		for p := n.NextSibling; p != nil; p = p.NextSibling {
			if p.Type == html.ElementNode && (isControl(p) || p.DataAtom == atom.Br || hasVisibleControl(p)) {
				return ""
			}
			if t := s.siblingText(p); t != "" {
				return clipRaw(t, 300)
			}
		}
	}
	return ""
}

func (s *static) visibleControls(n *html.Node) int {
	k, ok := s.controls[n]
	if !ok {
		k = countVisibleControls(n)
		s.controls[n] = k
	}
	return k
}

func (s *static) hint(c, wrap *html.Node, label string) string {
	if ids := getAttr(c, "aria-describedby"); ids != "" {
		if t := s.byIDs(ids, c); t != "" {
			return clip(t, 500)
		}
	}
	if wrap == nil {
		return ""
	}
	var out string
	walk(wrap, func(n *html.Node) bool {
		if out != "" || n == c || isAncestor(n, c) {
			return out == ""
		}
		if n.DataAtom == atom.Small || hintClass.MatchString(getAttr(n, "class")) {
			if t := nameText(n, nil); t != "" && t != label {
				out = clip(t, 500)
			}
		}
		return out == ""
	})
	return out
}

func (s *static) heading(f *html.Node) string {
	if ids := getAttr(f, "aria-labelledby"); ids != "" {
		if t := s.byIDs(ids, f); t != "" {
			return clip(t, 200)
		}
	}
	for _, a := range []string{"aria-label", "title"} {
		if t := norm(getAttr(f, a)); t != "" {
			return clip(t, 200)
		}
	}
	var inner, legend string
	walk(f, func(n *html.Node) bool {
		if inner == "" && n != f && isHeading(n) {
			inner = nameText(n, nil)
		}
		if legend == "" && n.DataAtom == atom.Legend {
			legend = nameText(n, nil)
		}
		return inner == ""
	})
	if inner != "" {
		return clip(inner, 200)
	}
	pos := -1
	for i, n := range s.all {
		if n == f {
			pos = i
			break
		}
	}
	for i, k := pos-1, 0; i >= 0 && k < 300; i, k = i-1, k+1 {
		n := s.all[i]
		if n.DataAtom == atom.Form {
			break
		}
		if isHeading(n) {
			if t := nameText(n, nil); t != "" {
				return clip(t, 200)
			}
		}
	}
	return clip(legend, 200)
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return getAttr(n, "role") == "heading"
}

// ---- visibility (static) ---------------------------------------------

var (
	styleDecl   = regexp.MustCompile(`(?i)([a-z-]+)\s*:\s*([^;]+)`)
	negativePos = regexp.MustCompile(`^\s*-\s*\d{3,}`)
	bigPos      = regexp.MustCompile(`^\s*\d{4,}`)
)

// styleOf: the page's style rules for n with its inline style over them.
func (s *static) styleOf(n *html.Node) map[string]string {
	sheet, inline := s.sheetStyle(n), inlineStyle(n)
	if sheet == nil {
		return inline
	}
	if inline == nil {
		return sheet
	}
	m := make(map[string]string, len(sheet)+len(inline))
	for k, v := range sheet {
		m[k] = v
	}
	for k, v := range inline {
		m[k] = v
	}
	return m
}

func inlineStyle(n *html.Node) map[string]string {
	st := getAttr(n, "style")
	if st == "" {
		return nil
	}
	m := map[string]string{}
	for _, d := range styleDecl.FindAllStringSubmatch(st, -1) {
		m[strings.ToLower(d[1])] = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d[2]), "!important")))
	}
	return m
}

// offScreenMargin: a margin shorthand whose top or left moves the box
// far off the page ("0 0 0 -9999px", "-5000px 0 0").
func offScreenMargin(m string) bool {
	parts := strings.Fields(m)
	var top, left string
	switch len(parts) {
	case 1:
		top, left = parts[0], parts[0]
	case 2, 3:
		top, left = parts[0], parts[1]
	case 4:
		top, left = parts[0], parts[3]
	default:
		return false
	}
	return negativePos.MatchString(top) || negativePos.MatchString(left)
}

// visibility reads the hidden attribute, type=hidden and inline styles of
// n and its ancestors; stop is the form (or group container), for HiddenBy.
func (s *static) visibility(n, stop *html.Node) Visibility {
	var v Visibility
	where := func(h *html.Node) string {
		switch {
		case h == n:
			return HiddenBySelf
		case stop != nil && h != stop && isAncestor(stop, h):
			return HiddenByWrapper
		}
		return HiddenByForm
	}
	mark := func(r string, h *html.Node) {
		if !contains(v.Reasons, r) {
			v.Reasons = append(v.Reasons, r)
		}
		if v.HiddenBy == "" {
			v.HiddenBy = where(h)
		}
	}
	if n.DataAtom == atom.Input && controlType(n) == "hidden" {
		mark(ReasonTypeHidden, n)
	}
	aria := false
	for h := n; h != nil && h.Type == html.ElementNode; h = h.Parent {
		if hasAttr(h, "hidden") {
			mark(ReasonHiddenAttribute, h)
		}
		if st := s.styleOf(h); st != nil {
			if strings.HasPrefix(st["display"], "none") {
				mark(ReasonDisplayNone, h)
			}
			if strings.HasPrefix(st["visibility"], "hidden") {
				mark(ReasonVisibilityHidden, h)
			}
			if op, err := strconv.ParseFloat(st["opacity"], 64); err == nil && op < 0.05 {
				mark(ReasonOpacityZero, h)
			}
			if pos := st["position"]; pos == "absolute" || pos == "fixed" {
				if negativePos.MatchString(st["left"]) || negativePos.MatchString(st["top"]) || bigPos.MatchString(st["left"]) {
					mark(ReasonOffScreen, h)
				}
			}
			if negativePos.MatchString(st["text-indent"]) || negativePos.MatchString(st["margin-left"]) || offScreenMargin(st["margin"]) {
				mark(ReasonOffScreen, h)
			}
			if (st["height"] == "0" || st["height"] == "0px") && strings.HasPrefix(st["overflow"], "hidden") {
				mark(ReasonZeroSize, h)
			}
		}
		if getAttr(h, "aria-hidden") == "true" {
			aria = true
		}
	}
	v.Hidden = len(v.Reasons) > 0
	if aria {
		v.Reasons = append(v.Reasons, ReasonAriaHidden)
	}
	if !v.Hidden {
		v.HiddenBy = ""
	}
	return v
}

// ---- formless groups (static) ------------------------------------------

func (s *static) groups() []Form {
	var loose []*html.Node
	for _, n := range s.all {
		if !s.isLoose(n) || n.DataAtom == atom.Fieldset || n.DataAtom == atom.Output || n.DataAtom == atom.Object {
			continue
		}
		t := controlType(n)
		if n.DataAtom == atom.Input && (t == "submit" || t == "reset" || t == "button" || t == "image") {
			continue
		}
		if s.visibility(n, nil).Hidden && !s.drawnOver(n) {
			continue
		}
		loose = append(loose, n)
	}
	if len(loose) == 0 {
		return nil
	}
	// The ancestors (up to 8 levels) of every visible button-like element
	// outside forms, as extract.js marks them.
	nearButton := map[*html.Node]bool{}
	var buttons []*html.Node
	for _, b := range s.all {
		if !isButtonLike(b) || hasAncestor(b, atom.Form) || s.visibility(b, nil).Hidden {
			continue
		}
		buttons = append(buttons, b)
		for p, d := parentOf(b), 0; p != nil && p.DataAtom != atom.Body && d < 8; p, d = parentOf(p), d+1 {
			nearButton[p] = true
		}
	}
	below := func(n *html.Node, d int) bool {
		return n != nil && n.DataAtom != atom.Body && n.DataAtom != atom.Html && d < 8
	}
	// First pass: each control's nearest ancestor that holds a button.
	chosen := map[*html.Node]*html.Node{}
	for _, n := range loose {
		for p, d := parentOf(n), 0; below(p, d); p, d = parentOf(p), d+1 {
			if nearButton[p] {
				chosen[n] = p
				break
			}
		}
	}
	// A container owns a button when it is the button's nearest chosen
	// ancestor; an ancestor chosen only because it holds two or more
	// widgets that own their buttons is no container (extract.js).
	chosenSet := map[*html.Node]bool{}
	for _, c := range chosen {
		chosenSet[c] = true
	}
	owning := map[*html.Node]bool{}
	holds := map[*html.Node]int{} // owning containers below each element
	for _, b := range buttons {
		for p := parentOf(b); p != nil && p.DataAtom != atom.Body; p = parentOf(p) {
			if chosenSet[p] {
				if !owning[p] {
					owning[p] = true
					for a := parentOf(p); a != nil; a = parentOf(a) {
						holds[a]++
					}
				}
				break
			}
		}
	}
	blocked := func(n *html.Node) bool { return holds[n] >= 2 }
	containers := map[*html.Node][]*html.Node{}
	var order []*html.Node
	for _, n := range loose {
		c := chosen[n]
		if c != nil && !owning[c] && blocked(c) {
			c = nil
		}
		if c == nil {
			// No button of its own near it (sent by Enter or by a script's
			// own control): a labelled control is still returned, grouped
			// with the loose controls around it, below any ancestor that
			// holds two widgets (extract.js does the same).
			if l, _, _ := s.label(n, nil); l == "" {
				continue
			}
			if c = s.looseContainer(n, blocked); c == nil {
				continue
			}
		}
		if _, ok := containers[c]; !ok {
			order = append(order, c)
		}
		containers[c] = append(containers[c], n)
	}
	var out []Form
	for _, c := range order {
		outer := false
		for _, o := range order {
			if o != c && isAncestorDeep(o, c) {
				outer = true
			}
		}
		if outer {
			continue
		}
		// scope: the container's selector in its own tree (a host by its
		// id or its tag), pre: its hosts'; the container's controls and
		// buttons include those of the shadow roots under it.
		scope, pre := s.localPath(c), s.prefix(c)
		if hostsShadow(c) {
			scope = s.hostSelector(c)
		}
		var controls []*html.Node
		walkDeep(c, func(n *html.Node) bool {
			if s.isLoose(n) {
				controls = append(controls, n)
			}
			return true
		})
		g := Form{Index: -1, Formless: true, ID: getAttr(c, "id"), Class: getAttr(c, "class"), Data: dataOf(c),
			Text: clip(textOf(c), MaxFormText), Heading: s.heading(c), Visible: true, Visibility: s.visibility(c, nil),
			InDialog: inDialog(c), Locator: pre + scope, ShadowHost: strings.TrimSpace(pre), Widgets: s.widgets(c)}
		for n, k := parentOf(c), 0; n != nil && n.DataAtom != atom.Body && n.Type == html.ElementNode && k < MaxWrappers; n, k = parentOf(n), k+1 {
			g.Wrappers = append(g.Wrappers, s.element(n))
		}
		g.Fields = s.fields(controls, c, scope)
		walkDeep(c, func(b *html.Node) bool {
			if len(g.Submits) < 3 && isButtonLike(b) && !hasAncestor(b, atom.Form) && !s.visibility(b, nil).Hidden {
				g.Submits = append(g.Submits, s.submit(b, scope, c))
			}
			return true
		})
		if len(g.Fields) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// looseContainer: the nearest ancestor of a control outside any form (up
// to 8 levels below body) that holds another such control, else its
// parent — but never an ancestor that holds two widgets (blocked): then
// the highest ancestor below it, or nil when that is the parent.
func (s *static) looseContainer(n *html.Node, blocked func(*html.Node) bool) *html.Node {
	loose := func(c *html.Node) bool {
		return isControl(c) && c.DataAtom != atom.Button && controlType(c) != "hidden" && s.isLoose(c)
	}
	var last *html.Node
	for p, d := parentOf(n), 0; p != nil && p.DataAtom != atom.Body && p.DataAtom != atom.Html && d < 8; p, d = parentOf(p), d+1 {
		if blocked(p) {
			return last
		}
		k := 0
		walkDeep(p, func(c *html.Node) bool {
			if loose(c) {
				k++
			}
			return k < 2
		})
		if k >= 2 {
			return p
		}
		last = p
	}
	if p := parentOf(n); p != nil && p.DataAtom != atom.Body && p.DataAtom != atom.Html {
		return p
	}
	return nil
}

// isLoose: a control no form owns — outside every form element, with no
// form attribute naming a form (one naming none leaves the control
// formless, as in a browser) and not given to a form by the parser.
func (s *static) isLoose(n *html.Node) bool {
	if !isControl(n) || n.DataAtom == atom.Button || hasAncestor(n, atom.Form) || s.owner[n] != nil {
		return false
	}
	if id, ok := attrOK(n, "form"); ok {
		if f := s.byID[idKey{s.scopeOf[n], id}]; f != nil && f.DataAtom == atom.Form {
			return false
		}
	}
	return true
}

// drawnOver: a control a widget draws over — a custom checkbox or radio,
// a file input behind a styled label, a select a script replaces — hidden
// itself while a label of it shows; it is still there to be filled.
func (s *static) drawnOver(n *html.Node) bool {
	switch t := controlType(n); {
	case n.DataAtom == atom.Select:
	case n.DataAtom == atom.Input && (t == "checkbox" || t == "radio" || t == "file"):
	default:
		return false
	}
	if id := getAttr(n, "id"); id != "" {
		for _, l := range s.labelsFor[idKey{s.scopeOf[n], id}] {
			if !s.visibility(l, nil).Hidden {
				return true
			}
		}
	}
	for p := n.Parent; p != nil && p.DataAtom != atom.Template; p = p.Parent {
		if p.DataAtom == atom.Label {
			if f, ok := attrOK(p, "for"); !ok || f == getAttr(n, "id") {
				return !s.visibility(p, nil).Hidden
			}
			return false
		}
	}
	return false
}

// ---- locators ------------------------------------------------------------

func attrSel(name, v string) string {
	return "[" + name + `="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"]`
}

var cssIdent = regexp.MustCompile(`^-?[_a-zA-Z][_a-zA-Z0-9-]*$`)

func cssID(id string) string {
	if cssIdent.MatchString(id) {
		return "#" + id
	}
	return attrSel("id", id)
}

func (s *static) count(match func(*html.Node) bool) int {
	k := 0
	for _, n := range s.all {
		if match(n) {
			k++
		}
	}
	return k
}

// formLocator is a form's selector within its own tree.
func (s *static) formLocator(f *html.Node) string {
	sc := s.scopeOf[f]
	isForm := func(n *html.Node) bool { return n.DataAtom == atom.Form && s.scopeOf[n] == sc }
	if id := getAttr(f, "id"); id != "" && s.count(func(n *html.Node) bool { return isForm(n) && getAttr(n, "id") == id }) == 1 {
		return "form" + cssID(id)
	}
	if name := getAttr(f, "name"); name != "" && s.count(func(n *html.Node) bool { return isForm(n) && getAttr(n, "name") == name }) == 1 {
		return "form" + attrSel("name", name)
	}
	if a, ok := attrOK(f, "action"); ok && a != "" && s.count(func(n *html.Node) bool { return isForm(n) && getAttr(n, "action") == a }) == 1 {
		return "form" + attrSel("action", a)
	}
	return s.localPath(f)
}

// fieldLocator: scope is the selector of scopeEl (the form or group)
// within its own tree; a control of another tree (a group's shadow root)
// is located within its own (extract.js fieldLocator).
func (s *static) fieldLocator(c *html.Node, scope string, scopeEl *html.Node, group int) string {
	sc, pre := s.scopeOf[c], s.prefix(c)
	if scopeEl != nil && s.scopeOf[scopeEl] != sc {
		if name := getAttr(c, "name"); name != "" && s.namesIn(s.treeOf(c))[name] == 1 {
			return pre + attrSel("name", name)
		}
		if id := getAttr(c, "id"); id != "" && s.idCount[idKey{sc, id}] == 1 {
			return pre + cssID(id)
		}
		return s.cssPath(c)
	}
	// A control its form owns from outside (form=, or the parser's
	// association) is not found by a selector scoped to the form.
	inside := scopeEl == nil || isAncestor(scopeEl, c)
	if name := getAttr(c, "name"); name != "" && inside {
		k := s.namesIn(s.scopeNode(c, scope))[name]
		if k == 1 || (group > 0 && k == group) {
			return pre + scope + " " + attrSel("name", name)
		}
	}
	if id := getAttr(c, "id"); id != "" && s.idCount[idKey{sc, id}] == 1 {
		if inside && strings.HasPrefix(scope, "form") {
			return pre + scope + " " + c.Data + cssID(id)
		}
		return pre + cssID(id)
	}
	return s.cssPath(c)
}

// treeOf is the top of n's tree: the document, or its shadow root's template.
func (s *static) treeOf(n *html.Node) *html.Node {
	if sc := s.scopeOf[n]; sc != nil {
		return sc
	}
	return s.root
}

// scopeNode finds the form or container a control's locator is scoped to.
func (s *static) scopeNode(c *html.Node, scope string) *html.Node {
	for n := c.Parent; n != nil && n.DataAtom != atom.Template; n = n.Parent {
		if n.DataAtom == atom.Form {
			return n
		}
	}
	for n := c.Parent; n != nil && n.DataAtom != atom.Template; n = n.Parent {
		if n.Type == html.ElementNode && s.localPath(n) == scope {
			return n
		}
	}
	return s.treeOf(c)
}

// cssPath is el's selector from the document: its hosts' (prefix), then
// its path within its own tree.
func (s *static) cssPath(el *html.Node) string { return s.prefix(el) + s.localPath(el) }

// localPath is el's selector within its own tree (the document or a
// shadow root): ids unique in that tree, else positions.
func (s *static) localPath(el *html.Node) string {
	var parts []string
	sc := s.scopeOf[el]
	for n := el; n != nil && n.Type == html.ElementNode && n.DataAtom != atom.Html && n.DataAtom != atom.Template; n = n.Parent {
		if id := getAttr(n, "id"); id != "" && s.idCount[idKey{sc, id}] == 1 {
			parts = append([]string{cssID(id)}, parts...)
			break
		}
		parts = append([]string{fmt.Sprintf("%s:nth-of-type(%d)", n.Data, s.nthOfType(n))}, parts...)
	}
	return strings.Join(parts, " > ")
}

// nthOfType is n's position among its parent's children of its tag, from
// 1; the positions of all of them are recorded on the first question.
func (s *static) nthOfType(n *html.Node) int {
	if i, ok := s.nth[n]; ok {
		return i
	}
	if n.Parent == nil {
		return 1
	}
	seen := map[string]int{}
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			seen[c.Data]++
			s.nth[c] = seen[c.Data]
		}
	}
	return s.nth[n]
}

// namesIn counts the elements under scope per name attribute, once per
// scope.
func (s *static) namesIn(scope *html.Node) map[string]int {
	if m, ok := s.names[scope]; ok {
		return m
	}
	m := map[string]int{}
	count := func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			if name := getAttr(n, "name"); name != "" {
				m[name]++
			}
		}
		return true
	}
	if scope.DataAtom == atom.Template { // a shadow root: its content
		for c := scope.FirstChild; c != nil; c = c.NextSibling {
			walk(c, count)
		}
	} else {
		walk(scope, count)
	}
	s.names[scope] = m
	return m
}

// firstLabelable is the control a label without for= labels: its first
// labelable descendant in tree order (a button, an input that is not
// hidden, a meter, output, progress, select or textarea), nil for none.
// A form-associated custom element is labelable too, which markup alone
// cannot tell.
func firstLabelable(label *html.Node) *html.Node {
	for n := label.FirstChild; n != nil; {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Button, atom.Meter, atom.Output, atom.Progress, atom.Select, atom.Textarea:
				return n
			case atom.Input:
				if controlType(n) != "hidden" {
					return n
				}
			}
		}
		if n.FirstChild != nil && n.DataAtom != atom.Template {
			n = n.FirstChild
			continue
		}
		for n != label && n.NextSibling == nil {
			n = n.Parent
		}
		if n == label {
			return nil
		}
		n = n.NextSibling
	}
	return nil
}

// ownLabels keeps the labels inside form when there are any. Sites repeat a
// form (header modal and footer) with the same ids, and a label of one copy
// must not name the field of the other; extract.js applies the same rule.
func ownLabels(labels []*html.Node, form *html.Node) []*html.Node {
	if form == nil {
		return labels
	}
	var in []*html.Node
	for _, l := range labels {
		for n := l.Parent; n != nil; n = n.Parent {
			if n == form {
				in = append(in, l)
				break
			}
		}
	}
	if len(in) > 0 {
		return in
	}
	return labels
}

// siblingText is what a person reads in a node beside a control: a text
// node's text, or a visible element's text.
func (s *static) siblingText(p *html.Node) string {
	switch p.Type {
	case html.TextNode:
		return norm(p.Data)
	case html.ElementNode:
		if !s.visibility(p, nil).Hidden {
			return nameText(p, nil)
		}
	}
	return ""
}
