package verifier

// Synthetic data for sandbox runs. Everything in this file is pure: no
// browser, no clock of its own (the day is passed in), no randomness, so the
// same action always gets the same values and the table tests need nothing
// but Go.

import (
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
)

// fillKind says how the page's control is to be set.
type fillKind string

const (
	fillText   fillKind = "text"   // set the value (text-like inputs, textarea, select)
	fillCheck  fillKind = "check"  // tick a checkbox
	fillRadio  fillKind = "radio"  // pick the radio of the group whose value is Value
	fillFile   fillKind = "file"   // attach a synthetic file named Value
	fillLeave  fillKind = "leave"  // do not touch: honeypot, system token, optional opt-in
	fillUnable fillKind = "unable" // the rules cannot all be met; the control is set to Value anyway
)

// fill is what the sandbox does to one input.
type fill struct {
	Name  string
	Kind  fillKind
	Value string
	// Why explains a leave or an unable, for the run's note.
	Why string
}

// rules is every constraint the graph states for one input: its value
// space, its declared validations and what its type implies. Inferred
// validations are not used: they are guesses, and the sandbox's data must
// satisfy what the site declares.
type rules struct {
	typ            string
	semantic       shared.SemanticType
	required       bool
	patterns       []string
	minLen, maxLen int // -1: unbounded
	min, max, step string
	formats        []string
	options        []string
	accept         string
}

// rulesOf gathers the constraints on in from its value space and the
// action's declared validations that apply to it.
func rulesOf(in shared.Input, validations []shared.Validation) rules {
	r := rules{typ: strings.ToLower(in.Type), semantic: in.Semantic, required: in.Required, minLen: -1, maxLen: -1}
	tighten := func(lo, hi *int) {
		if lo != nil && *lo > r.minLen {
			r.minLen = *lo
		}
		if hi != nil && (r.maxLen < 0 || *hi < r.maxLen) {
			r.maxLen = *hi
		}
	}
	addFormat := func(f string) {
		if f = strings.ToLower(strings.TrimSpace(f)); f != "" && !slices.Contains(r.formats, f) {
			r.formats = append(r.formats, f)
		}
	}
	addPattern := func(p string) {
		if p != "" && !slices.Contains(r.patterns, p) {
			r.patterns = append(r.patterns, p)
		}
	}
	if opts := in.Options(); opts != nil {
		r.options = make([]string, 0, len(opts))
		for _, o := range opts {
			r.options = append(r.options, o.Value)
		}
	}
	for _, vs := range in.ValueSpace {
		switch v := vs.(type) {
		case shared.LengthSpace:
			tighten(v.MinLength, v.MaxLength)
		case shared.PatternSpace:
			addPattern(v.Pattern)
		case shared.RangeSpace:
			r.min, r.max, r.step = deref(v.Min, r.min), deref(v.Max, r.max), deref(v.Step, r.step)
		case shared.FormatSpace:
			addFormat(v.Format)
		}
	}
	for _, v := range validations {
		d, ok := v.(shared.DeclaredValidation)
		if !ok || d.AppliesTo != in.Name {
			continue
		}
		val := deref(d.Rule.Value, "")
		switch d.Rule.Kind {
		case shared.RuleRequired:
			r.required = true
		case shared.RulePattern:
			addPattern(val)
		case shared.RuleMinLength, shared.RuleMaxLength:
			if n, err := strconv.Atoi(val); err == nil && n >= 0 {
				if d.Rule.Kind == shared.RuleMinLength {
					tighten(&n, nil)
				} else {
					tighten(nil, &n)
				}
			}
		case shared.RuleMin:
			r.min = val
		case shared.RuleMax:
			r.max = val
		case shared.RuleStep:
			r.step = val
		case shared.RuleFormat:
			addFormat(val)
		case shared.RuleAccept:
			r.accept = val
		case shared.RuleOneOf:
			if r.options == nil && val != "" {
				r.options = strings.Split(val, ",")
			}
		}
	}
	switch r.typ {
	case "email", "url", "tel", "date", "time", "datetime-local", "month", "week":
		addFormat(r.typ)
	}
	return r
}

func deref(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// leaveSemantics are never filled by the sandbox, whatever the graph says of
// their fillability: a honeypot must stay empty and a system token is sent
// back as the page serves it.
var leaveSemantics = map[shared.SemanticType]string{
	shared.SemanticHoneypot:    "a honeypot stays empty",
	shared.SemanticSystemToken: "a system token is sent as the page serves it",
}

// plan decides what the sandbox does to every input of an action, in the
// action's order. today is the day dates are counted from (the run's clock).
// A radio group mapped once per button is planned once.
func plan(a *shared.Action, today time.Time) []fill {
	var out []fill
	seen := map[string]bool{}
	for _, in := range a.Inputs {
		if seen[in.Name] {
			continue
		}
		seen[in.Name] = true
		out = append(out, planInput(in, a.Validations, today))
	}
	return out
}

func planInput(in shared.Input, validations []shared.Validation, today time.Time) fill {
	f := fill{Name: in.Name}
	if why, ok := leaveSemantics[in.Semantic]; ok {
		f.Kind, f.Why = fillLeave, why
		return f
	}
	if !in.AgentFillable {
		f.Kind, f.Why = fillLeave, "not agent-fillable: left as the page serves it"
		return f
	}
	r := rulesOf(in, validations)
	switch r.typ {
	case "checkbox":
		if !r.required {
			// An optional box is an opt-in (marketing, an account): never
			// tick what the customer did not ask for.
			f.Kind, f.Why = fillLeave, "optional checkbox left unticked"
			return f
		}
		f.Kind = fillCheck
		return f
	case "file":
		if !r.required {
			f.Kind, f.Why = fillLeave, "optional file left empty"
			return f
		}
		f.Kind, f.Value = fillFile, syntheticFileName(r.accept)
		return f
	case "hidden", "submit", "button", "reset", "image":
		f.Kind, f.Why = fillLeave, "a "+r.typ+" input is not filled"
		return f
	}
	v, err := synthesize(r, in.DefaultValue, today)
	f.Kind, f.Value = fillText, v
	if r.typ == "radio" {
		f.Kind = fillRadio
	}
	if err != nil {
		f.Kind, f.Why = fillUnable, err.Error()
	}
	return f
}

// errNoValue reports rules that no generated value meets.
var errNoValue = errors.New("no value meets every declared rule")

// synthesize returns a value meeting every rule in r, or the closest one it
// found with an error saying which rule it breaks.
func synthesize(r rules, def *string, today time.Time) (string, error) {
	if r.minLen > maxFieldBytes {
		// What a run records of a value is cut there, and a value the page
		// may take is no larger: a stated minimum beyond it is not filled.
		return "", fmt.Errorf("%w: the minimum length %d is more than the %d characters the sandbox fills", errNoValue, r.minLen, maxFieldBytes)
	}
	var cands []string
	if r.options != nil {
		// One-of: prefer the page's default, then the first non-empty option.
		if def != nil && slices.Contains(r.options, *def) && *def != "" {
			cands = append(cands, *def)
		}
		for _, o := range r.options {
			if o != "" {
				cands = append(cands, o)
			}
		}
	} else {
		if def != nil && *def != "" {
			cands = append(cands, *def)
		}
		cands = append(cands, typedValues(r, today)...)
		if len(r.patterns) > 0 {
			cands = append(cands, fromPatterns(r)...)
		}
	}
	var firstErr error
	for _, c := range cands {
		c = fitLength(c, r)
		err := check(c, r)
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if len(cands) == 0 {
		return "", fmt.Errorf("%w: no candidate value", errNoValue)
	}
	return fitLength(cands[0], r), fmt.Errorf("%w: %w", errNoValue, firstErr)
}

// typedValues proposes values from the input's type and semantic, best first.
func typedValues(r rules, today time.Time) []string {
	day := today.UTC().AddDate(0, 0, 14)
	switch {
	case slices.Contains(r.formats, "date") || r.typ == "date":
		return []string{clampDate(day, r.min, r.max, "2006-01-02")}
	case r.typ == "datetime-local":
		return []string{clampDate(day, r.min, r.max, "2006-01-02") + "T10:00"}
	case r.typ == "month":
		return []string{clampDate(day, r.min, r.max, "2006-01")}
	case r.typ == "week":
		y, w := day.ISOWeek()
		return []string{fmt.Sprintf("%04d-W%02d", y, w)}
	case slices.Contains(r.formats, "time") || r.typ == "time":
		return []string{clampString("10:00", r.min, r.max)}
	case r.typ == "number" || r.typ == "range":
		return []string{numberIn(r)}
	case slices.Contains(r.formats, "email") || r.semantic == shared.SemanticEmail:
		return []string{"sandbox.test@example.com", "t@example.com"}
	case slices.Contains(r.formats, "url") || slices.Contains(r.formats, "uri") || r.semantic == shared.SemanticWebsiteURL:
		return []string{"https://example.com/", "https://a.io"}
	case slices.Contains(r.formats, "tel") || r.semantic == shared.SemanticPhone:
		return []string{"0412345678", "+61412345678"}
	}
	if v, ok := semanticValues[r.semantic]; ok {
		return []string{v, "Test"}
	}
	return []string{"Sandbox test", "Test"}
}

// semanticValues are plainly synthetic values by meaning; a person reading
// the business's inbox would see at once that they are a test.
var semanticValues = map[shared.SemanticType]string{
	shared.SemanticPersonName:          "Sandy Test",
	shared.SemanticGivenName:           "Sandy",
	shared.SemanticFamilyName:          "Test",
	shared.SemanticCompany:             "Example Test Pty Ltd",
	shared.SemanticStreetAddress:       "1 Example Street",
	shared.SemanticLocality:            "Testville",
	shared.SemanticRegion:              "Test Region",
	shared.SemanticPostcode:            "2000",
	shared.SemanticCountry:             "Australia",
	shared.SemanticPreferredTimeWindow: "Morning",
	shared.SemanticServiceRequested:    "General enquiry",
	shared.SemanticMessage:             "This is a Frontlatch sandbox test message. Please ignore it: nothing was sent.",
	shared.SemanticSubject:             "Frontlatch sandbox test",
	shared.SemanticPartySize:           "2",
	shared.SemanticBudget:              "500",
	shared.SemanticExistingCustomer:    "No",
	shared.SemanticReferralSource:      "Search engine",
	shared.SemanticContactPreference:   "Email",
}

// fitLength pads a value to the minimum length and cuts it to the maximum
// (on a rune boundary). Lengths count UTF-16 code units in a browser; the
// synthetic values are ASCII, where the two agree.
func fitLength(v string, r rules) string {
	if n := utf8.RuneCountInString(v); r.minLen >= 0 && n < r.minLen {
		if v == "" {
			v, n = "x", 1
		}
		v += strings.Repeat(" test", (r.minLen-n+4)/5)
	}
	if r.maxLen >= 0 && utf8.RuneCountInString(v) > r.maxLen {
		v = string([]rune(v)[:r.maxLen])
	}
	return v
}

// check reports the first rule v breaks, nil when it meets them all. It is
// the browser's constraint validation for the rules the graph states.
func check(v string, r rules) error {
	n := utf8.RuneCountInString(v)
	if r.required && v == "" {
		return errors.New("required but empty")
	}
	if v == "" {
		return nil // the browser checks no other rule on an empty value
	}
	if r.minLen >= 0 && n < r.minLen {
		return fmt.Errorf("shorter than %d characters", r.minLen)
	}
	if r.maxLen >= 0 && n > r.maxLen {
		return fmt.Errorf("longer than %d characters", r.maxLen)
	}
	for _, p := range r.patterns {
		re, err := shared.CompileHTMLPattern(p)
		if err != nil || re == nil {
			continue // no browser checks it, or the run cannot
		}
		if !re.MatchString(v) {
			return fmt.Errorf("does not match the pattern %q", p)
		}
	}
	if r.options != nil && !slices.Contains(r.options, v) {
		return errors.New("is not one of the options")
	}
	for _, f := range r.formats {
		if err := checkFormat(v, f); err != nil {
			return err
		}
	}
	if r.typ == "number" || r.typ == "range" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return errors.New("is not a number")
		}
		if lo, err := strconv.ParseFloat(r.min, 64); err == nil && x < lo {
			return fmt.Errorf("below the minimum %s", r.min)
		}
		if hi, err := strconv.ParseFloat(r.max, 64); err == nil && x > hi {
			return fmt.Errorf("above the maximum %s", r.max)
		}
		if st, err := strconv.ParseFloat(r.step, 64); err == nil && st > 0 {
			base, _ := strconv.ParseFloat(r.min, 64)
			if q := (x - base) / st; math.Abs(q-math.Round(q)) > 1e-9 {
				return fmt.Errorf("not a multiple of the step %s", r.step)
			}
		}
	} else if r.min != "" || r.max != "" {
		// Dates, times and months compare as strings in their ISO forms.
		if r.min != "" && v < r.min {
			return fmt.Errorf("before the minimum %s", r.min)
		}
		if r.max != "" && v > r.max {
			return fmt.Errorf("after the maximum %s", r.max)
		}
	}
	return nil
}

// checkFormat applies a well-known format as a browser (or a careful server)
// would.
func checkFormat(v, format string) error {
	bad := func() error { return fmt.Errorf("is not a valid %s", format) }
	switch format {
	case "email":
		a, err := mail.ParseAddress(v)
		if err != nil || a.Address != v || !strings.Contains(v[strings.LastIndexByte(v, '@'):], ".") {
			return bad()
		}
	case "url", "uri":
		u, err := url.Parse(v)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return bad()
		}
	case "tel":
		digits := 0
		for _, c := range v {
			switch {
			case c >= '0' && c <= '9':
				digits++
			case strings.ContainsRune("+ ()-.", c):
			default:
				return bad()
			}
		}
		if digits < 6 {
			return bad()
		}
	default:
		layouts, ok := formatLayouts[format]
		if !ok {
			return nil // a format the sandbox does not know is not checked
		}
		for _, l := range layouts {
			if _, err := time.Parse(l, v); err == nil {
				return nil
			}
		}
		return bad()
	}
	return nil
}

// formatLayouts are the value formats of the browser's date and time
// inputs.
var formatLayouts = map[string][]string{
	"date":           {"2006-01-02"},
	"time":           {"15:04", "15:04:05"},
	"datetime-local": {"2006-01-02T15:04", "2006-01-02T15:04:05"},
	"month":          {"2006-01"},
}

// fromPatterns generates values from the first pattern a browser checks
// and Go's regexp reads, with growing repeat counts so that one of them can
// meet a length rule.
func fromPatterns(r rules) []string {
	var re *syntax.Regexp
	for _, p := range r.patterns {
		if expr, kind := shared.HTMLPattern(p); kind == shared.PatternPortable {
			if parsed, err := syntax.Parse(expr, syntax.Perl); err == nil {
				re = parsed
				break
			}
		}
	}
	if re == nil {
		return nil
	}
	re = re.Simplify()
	var out []string
	for _, reps := range []int{1, 0, 2, 3, 5, 8, 12, 20} {
		var b strings.Builder
		generate(&b, re, reps)
		if s := b.String(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// generate writes one string matching re. Open repeats are taken reps times
// (at least their minimum); a class gives its most ordinary member.
func generate(b *strings.Builder, re *syntax.Regexp, reps int) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteRune(classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture:
		generate(b, re.Sub[0], reps)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			generate(b, s, reps)
		}
	case syntax.OpAlternate:
		generate(b, re.Sub[0], reps)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, -1
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
		}
		n := max(reps, lo)
		if hi >= 0 && n > hi {
			n = hi
		}
		for range n {
			generate(b, re.Sub[0], reps)
		}
	}
	// OpEmptyMatch, anchors and word boundaries write nothing.
}

// classRune picks a member of a character class: a lower-case letter, a
// digit or an upper-case letter when the class has one, else its first rune.
func classRune(ranges []rune) rune {
	for _, want := range []rune{'a', '5', 'A', ' '} {
		for i := 0; i+1 < len(ranges); i += 2 {
			lo, hi := ranges[i], ranges[i+1]
			switch {
			case want >= lo && want <= hi:
				return want
			case want == 'a' && lo <= 'z' && hi >= 'a':
				return max(lo, 'a')
			case want == '5' && lo <= '9' && hi >= '0':
				return max(lo, '0')
			case want == 'A' && lo <= 'Z' && hi >= 'A':
				return max(lo, 'A')
			}
		}
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'a'
}

// numberIn returns a number meeting min, max and step: 1 (or 2 for a party),
// moved into the range and onto the step.
func numberIn(r rules) string {
	x := 1.0
	if r.semantic == shared.SemanticPartySize {
		x = 2
	}
	lo, errLo := strconv.ParseFloat(r.min, 64)
	hi, errHi := strconv.ParseFloat(r.max, 64)
	if errLo == nil && x < lo {
		x = lo
	}
	if errHi == nil && x > hi {
		x = hi
	}
	if st, err := strconv.ParseFloat(r.step, 64); err == nil && st > 0 {
		base := 0.0
		if errLo == nil {
			base = lo
		}
		x = base + math.Ceil((x-base)/st-1e-9)*st
		if errHi == nil && x > hi {
			x = base + math.Floor((hi-base)/st+1e-9)*st
		}
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// clampDate formats day, moved into [min, max] when they parse in layout.
func clampDate(day time.Time, min, max, layout string) string {
	return clampString(day.Format(layout), min, max)
}

// clampString moves an ISO value into [min, max] (ISO forms sort as
// strings).
func clampString(v, min, max string) string {
	if min != "" && v < min {
		v = min
	}
	if max != "" && v > max {
		v = max
	}
	return v
}

// syntheticFileName names the file attached to a required file input, with
// an extension the accept attribute allows.
func syntheticFileName(accept string) string {
	for _, a := range strings.Split(accept, ",") {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case strings.HasPrefix(a, "."):
			return "frontlatch-sandbox" + a
		case a == "application/pdf":
			return "frontlatch-sandbox.pdf"
		case strings.HasPrefix(a, "image/"):
			return "frontlatch-sandbox.png"
		}
	}
	return "frontlatch-sandbox.txt"
}
