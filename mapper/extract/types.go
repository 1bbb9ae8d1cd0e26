package extract

// Page is everything the mapper reads from one document: its forms in
// document order, the form-like groups outside any <form>, and the page-level
// facts (links, scripts, frames, structured data) that doors and side effects
// are inferred from. FromPage and FromHTML fill the same type; Source says
// which one did, because only a browser computes visibility from stylesheets.
type Page struct {
	// URL is the document URL after redirects (FromPage) or the URL given to
	// FromHTML. BaseURL is what relative URLs resolve against (<base href>).
	URL     string `json:"url"`
	BaseURL string `json:"baseUrl"`
	Source  Source `json:"source"`
	Title   string `json:"title"`
	Lang    string `json:"lang"`

	// Forms are the <form> elements of the main document and of its open
	// shadow roots in document order (a shadow root's where its host
	// stands), hidden ones included; Forms[i].Index == i.
	Forms []Form `json:"forms"`
	// Groups are form-like groups outside any <form>: visible controls and a
	// button in a plain container, submitted by script. Formless is true and
	// Index is -1 for each.
	Groups []Form `json:"groups"`

	Links    []Link    `json:"links"`
	Scripts  []Script  `json:"scripts"`
	Frames   []Frame   `json:"frames"`
	JSONLD   []string  `json:"jsonld"`
	LinkRels []LinkRel `json:"linkRels"`
	Meta     []Meta    `json:"meta"`
	// Embeds are elements that look like third-party widgets: a data-sitekey,
	// a data-* attribute holding an absolute URL, or a class naming a widget
	// or captcha. The graph builder matches vendor signatures against them.
	Embeds []Element `json:"embeds"`
	// Truncated lists what was cut to keep the result bounded (for example
	// "links" when a page has more than MaxLinks links).
	Truncated []string `json:"truncated"`
}

// Source says how a Page was extracted.
type Source string

const (
	// SourceBrowser: FromPage, computed styles and layout available.
	SourceBrowser Source = "browser"
	// SourceStatic: FromHTML, visibility only from the hidden attribute,
	// type=hidden and inline styles.
	SourceStatic Source = "static"
)

// Form is one <form> element or one formless group.
type Form struct {
	// Index is the 0-based position among the page's <form> elements; -1 for
	// a formless group.
	Index    int  `json:"index"`
	Formless bool `json:"formless"`

	ID    string `json:"id"`
	Name  string `json:"name"`
	Class string `json:"class"`
	// Action is the resolved action URL (the document URL when the attribute
	// is absent, as a browser submits); ActionAttr is the raw attribute, ""
	// when absent. Method is lower-case "get", "post" or "dialog".
	Action     string `json:"action"`
	ActionAttr string `json:"actionAttr"`
	Method     string `json:"method"`
	Enctype    string `json:"enctype"`
	Target     string `json:"target"`
	// WebMCP declarative attributes.
	ToolName        string `json:"toolName"`
	ToolDescription string `json:"toolDescription"`
	ToolAutoSubmit  bool   `json:"toolAutoSubmit"`
	// Data holds the form's own data-* attributes (key without "data-").
	Data map[string]string `json:"data"`
	// Wrappers are up to MaxWrappers ancestors, nearest first (plugin
	// wrappers such as div.wpcf7[data-wpcf7-id] or div.gform_wrapper).
	Wrappers []Element `json:"wrappers"`

	// Text is the form's visible text (whitespace collapsed, at most
	// MaxFormText runes). Heading is the nearest legend, heading, aria-label,
	// aria-labelledby or title that names the form.
	Text    string `json:"text"`
	Heading string `json:"heading"`

	// Visible is false when the form itself is not rendered (display:none,
	// visibility:hidden, zero size, off-screen…), e.g. inside a closed modal.
	Visible    bool       `json:"visible"`
	Visibility Visibility `json:"visibility"`
	// InDialog is true when the form sits in a <dialog>, [role=dialog] or an
	// element whose class names a modal/popup.
	InDialog bool `json:"inDialog"`

	Submits []Submit `json:"submits"`
	Fields  []Field  `json:"fields"`
	// Widgets are captcha/vendor widgets inside the form (same rule as
	// Page.Embeds).
	Widgets []Element `json:"widgets"`
	// Locator is a CSS selector for the form: form#id, form[name=…],
	// form[action=…] or a positional path; for a formless group, the
	// container.
	Locator string `json:"locator"`
	// ShadowHost is "" for a form or group of the document. For one inside
	// an open shadow root (a web component's), it is the selector of the
	// shadow host — of each host from the document down, space-separated,
	// when shadow roots nest — and Locator, and the locators of the
	// form's fields and submits, begin with it: shadow-including
	// selectors, each part unique in its own tree, which a CSS engine that
	// pierces open shadow roots (Playwright's) resolves and
	// document.querySelector does not (it never enters a shadow root).
	// FromHTML sets it for declarative shadow roots (<template
	// shadowrootmode="open">).
	ShadowHost string `json:"shadowHost"`

	// OnSubmit is the raw onsubmit attribute, "" when absent.
	OnSubmit string `json:"onSubmit"`
	// ScriptSubmit says how the page sends the form by script instead of
	// the browser's own submission, as observed: an onsubmit attribute or
	// (in a browser) a submit listener whose code stops the submission,
	// naming the send call seen in it (fetch, XMLHttpRequest, $.ajax…).
	// "" when nothing shows it. See ScriptSubmitOf.
	ScriptSubmit string `json:"scriptSubmit"`
}

// Field is one form control as an agent would fill it. A radio group is one
// Field (Options lists its buttons); every other control is its own Field.
// Buttons are Submits, not Fields.
type Field struct {
	Tag   string `json:"tag"`  // input, select, textarea, or the tag of a contenteditable/role=textbox
	Type  string `json:"type"` // lower-case type attribute as the browser reads it ("text" by default; "select-one", "select-multiple", "textarea")
	Name  string `json:"name"`
	ID    string `json:"id"`
	Class string `json:"class"`

	// Label is the accessible name as a browser computes it for the control:
	// aria-labelledby, aria-label, label[for]/wrapping label, title, then
	// placeholder. LabelSource says which rule produced it.
	Label       string      `json:"label"`
	LabelSource LabelSource `json:"labelSource"`
	// LabelVisible is false when the label element itself is not rendered
	// (a visually hidden label, or a label hidden along with a honeypot).
	LabelVisible bool   `json:"labelVisible"`
	Placeholder  string `json:"placeholder"`
	// Autocomplete is the raw attribute; AutocompleteTokens its lower-case
	// tokens (section-*, shipping/billing, home/work…, then the field name).
	Autocomplete       string   `json:"autocomplete"`
	AutocompleteTokens []string `json:"autocompleteTokens"`

	// Required is true when the control (or a button of its radio group)
	// has the required attribute, or the control has aria-required="true"
	// (Gravity Forms marks required fields only that way). RequiredAttr
	// names the attribute that made it required — "required" when both are
	// present, "" when not required — so a declared rule can quote it.
	Required     bool   `json:"required"`
	RequiredAttr string `json:"requiredAttr"`
	Pattern      string `json:"pattern"`
	Min          string `json:"min"`
	Max          string `json:"max"`
	Step         string `json:"step"`
	MinLength    string `json:"minLength"` // raw attribute values, "" when absent
	MaxLength    string `json:"maxLength"`
	Accept       string `json:"accept"`
	Multiple     bool   `json:"multiple"`
	ReadOnly     bool   `json:"readOnly"`
	Disabled     bool   `json:"disabled"`
	InputMode    string `json:"inputMode"`

	// Options: select options, or the buttons of a radio group (Value and
	// the button's label as Text).
	Options []Option `json:"options"`
	// Value is the default value (checkbox: the value sent when checked);
	// Checked is the default state of a checkbox or radio.
	Value   string `json:"value"`
	Checked bool   `json:"checked"`
	// UncheckedValue is the value of a type=hidden input of the same name
	// as this checkbox: the value the form sends when the box is left
	// unticked (Rails, Yii, CakePHP and others write one before each
	// checkbox). That input is the checkbox's, not a field of its own; the
	// browser still sends it. "" when there is none.
	UncheckedValue string `json:"uncheckedValue"`

	// Hint is the description: aria-describedby text, else adjacent help
	// text (.help, .description, small, …) in the field's wrapper.
	Hint                 string `json:"hint"`
	ToolParamDescription string `json:"toolParamDescription"`
	// NearbyText is the visible-or-not text of the field's nearest wrapper
	// (at most MaxNearbyText runes); it carries "leave this field empty".
	NearbyText string `json:"nearbyText"`
	// WrapperClasses: class attributes of up to MaxWrappers ancestors inside
	// the form, nearest first (e.g. "gfield gfield--type-honeypot").
	WrapperClasses []string `json:"wrapperClasses"`
	TabIndex       *int     `json:"tabIndex"`

	Visibility Visibility `json:"visibility"`
	Locator    string     `json:"locator"`
	// ShadowHost is "" for a control of the document, else the selector of
	// the host of the open shadow root it is in (Form.ShadowHost); Locator
	// then begins with it. A formless group's container may be the host
	// itself, in the document, while its controls are in its shadow root.
	ShadowHost string `json:"shadowHost"`
}

// The attributes that make a field required (Field.RequiredAttr), and the
// one value of aria-required that does (any other is ignored).
const (
	RequiredAttribute = "required"
	AriaRequired      = "aria-required"
	AriaRequiredTrue  = "true"
)

// LabelSource names the rule that produced Field.Label.
type LabelSource string

// Label sources, in the accessible-name computation's order.
const (
	LabelNone           LabelSource = ""
	LabelAriaLabelledBy LabelSource = "aria-labelledby"
	LabelAriaLabel      LabelSource = "aria-label"
	LabelFor            LabelSource = "label-for"
	LabelWrapping       LabelSource = "label-wrapping"
	LabelTitle          LabelSource = "title"
	LabelPlaceholder    LabelSource = "placeholder"
	// LabelNearby: no accessible name; the text just before the control in
	// its container (a table cell, a <span>) — what a sighted user reads.
	LabelNearby LabelSource = "nearby-text"
)

// Visibility is the computed visibility of an element and why.
type Visibility struct {
	// Hidden is true when the element would not be seen or reached by a
	// person: any reason below.
	Hidden bool `json:"hidden"`
	// Reasons, e.g. "type-hidden", "hidden-attribute", "display-none",
	// "visibility-hidden", "opacity-zero", "zero-size", "off-screen",
	// "clipped", "aria-hidden". See the Reason constants.
	Reasons []string `json:"reasons"`
	// HiddenBy says where the hiding happens: "self" (the control), "wrapper"
	// (an ancestor inside the form or group), "form" (the form or something
	// around it, so every field is hidden alike), "" when visible. A control
	// hidden by itself or a wrapper while its form shows is a honeypot
	// candidate; a control in a hidden form is not.
	HiddenBy string `json:"hiddenBy"`
}

// Visibility reasons.
const (
	ReasonTypeHidden       = "type-hidden"
	ReasonHiddenAttribute  = "hidden-attribute"
	ReasonDisplayNone      = "display-none"
	ReasonVisibilityHidden = "visibility-hidden"
	ReasonOpacityZero      = "opacity-zero"
	ReasonZeroSize         = "zero-size"
	ReasonOffScreen        = "off-screen"
	ReasonClipped          = "clipped"
	ReasonAriaHidden       = "aria-hidden"
)

// Where the hiding happens (Visibility.HiddenBy).
const (
	HiddenBySelf    = "self"
	HiddenByWrapper = "wrapper"
	HiddenByForm    = "form"
)

// Option is one select option or one radio button of a group.
type Option struct {
	Value    string `json:"value"`
	Text     string `json:"text"`
	Selected bool   `json:"selected"`
}

// Submit is a control that submits the form: button (type submit or no
// type), input type=submit/image, or — in formless groups and forms without
// one — a button-like element whose text says send/submit.
type Submit struct {
	Tag     string `json:"tag"`
	Type    string `json:"type"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
	Locator string `json:"locator"`
	// ShadowHost: as Field.ShadowHost.
	ShadowHost string `json:"shadowHost"`
}

// Element is a compact description of an element (wrappers, embeds).
type Element struct {
	Tag   string            `json:"tag"`
	ID    string            `json:"id"`
	Class string            `json:"class"`
	Data  map[string]string `json:"data"`
	// Src is src or href when present, resolved.
	Src string `json:"src"`
}

// Link is an <a href> (or <area href>), tel: and mailto: included.
type Link struct {
	Href    string `json:"href"` // resolved
	Text    string `json:"text"` // accessible text (text, aria-label, title, img alt)
	Rel     string `json:"rel"`
	Visible bool   `json:"visible"`

	// Context and Heading are what a person reads around a tel: or mailto:
	// link, which says what the number or address is offered for
	// ("Bookings: (03) …" or the general contact line). Only links whose
	// href starts with tel: or mailto: carry them; other links leave both
	// "". Context is the sentence of the link's nearest block that holds
	// the link's text — the block being the nearest ancestor a browser
	// lays out as a block (FromPage: computed display other than inline,
	// inline-block or contents; FromHTML: a block element by tag — p, li,
	// td, dd, dt, address, div, section… — see staticBlocks). A sentence
	// ends at . ! or ? followed by a space, so the dots of an address do
	// not cut it.
	// Heading is the nearest h1–h6 before the link in document order (or
	// holding it), set only when the block holds nothing but links and
	// separators, so a block's own words are never outweighed by a heading
	// further up. Both are whitespace-collapsed and at most MaxLinkContext
	// characters.
	Context string `json:"context"`
	Heading string `json:"heading"`
}

// Script is a <script> element. Text holds inline source (at most
// MaxScriptText runes) so vendor signatures such as Calendly.initPopupWidget
// or registerTool can be matched; JSON-LD is in Page.JSONLD instead.
type Script struct {
	Src  string `json:"src"` // resolved, "" for inline
	ID   string `json:"id"`
	Type string `json:"type"`
	Text string `json:"text"`
	// Data holds data-* attributes (data-he-id…).
	Data map[string]string `json:"data"`
}

// Frame is an <iframe>.
type Frame struct {
	Src     string `json:"src"` // resolved
	ID      string `json:"id"`
	Name    string `json:"name"`
	Title   string `json:"title"`
	Class   string `json:"class"`
	Visible bool   `json:"visible"`
}

// LinkRel is a <link rel href> of the document (ai-catalog, ard, canonical…).
type LinkRel struct {
	Rel  string `json:"rel"`
	Href string `json:"href"` // resolved
	Type string `json:"type"`
}

// Meta is a <meta> element.
type Meta struct {
	Name      string `json:"name"`
	Property  string `json:"property"`
	HTTPEquiv string `json:"httpEquiv"`
	Content   string `json:"content"`
}

// Bounds that keep a Page small on hostile or huge documents.
const (
	MaxWrappers   = 4
	MaxFormText   = 2000
	MaxNearbyText = 300
	// MaxLinkContext bounds Link.Context (the block's text before the
	// sentence is cut out) and Link.Heading.
	MaxLinkContext = 300
	MaxScriptText  = 4000
	MaxLinks       = 2000
	MaxScripts     = 200
	MaxEmbeds      = 200
)
