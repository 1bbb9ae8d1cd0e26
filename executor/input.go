package executor

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/frontlatch/frontlatch/shared"
)

// Bounds on what an agent may send. Every string is bounded, so no input can
// make the executor hold or send an unbounded value.
const (
	// MaxInputKeys is the most keys one call's input may have.
	MaxInputKeys = 256
	// MaxValueBytes is the longest value (in bytes) of one input.
	MaxValueBytes = 64 << 10
	// MaxActionBytes is the largest action document Execute reads.
	MaxActionBytes = 4 << 20
)

// source says where the value of a field sent to the site comes from.
type source int

const (
	fromAgent    source = iota // the agent's input (or the input's default)
	fromPage                   // a system token, read fresh from the live page
	fromCheckbox               // a checked checkbox: its value attribute on the live page
	fromHoneypot               // a honeypot: always empty
)

// planned is one field of the submission before the live page is read.
type planned struct {
	name  string
	value string
	from  source
	// multi: one of the values of a multi-valued input (a checkbox group,
	// a <select multiple>), sent under the same name as its siblings.
	multi bool
	// none: a multi-valued input with nothing chosen, an unchecked
	// checkbox, or a checkbox or radio honeypot. Nothing is sent for it
	// (see wire); a page filled in the browser has a multi-valued input's
	// boxes and a honeypot cleared.
	none bool
	// file: a file for a file input, sent as a multipart file part (value
	// is unused).
	file *upload
	// unchecked: a checkbox the agent set to false. Nothing is sent for it
	// (none); a WebMCP tool call passes false (toolArgs).
	unchecked bool
	// number: the input is a number (type number or range, as the mapper
	// reads a schema number or integer); a WebMCP tool call passes its
	// value as a JSON number (toolArgs).
	number bool
}

// wire returns the fields that go on the wire: all but the none entries.
func wire(fields []planned) []planned {
	out := make([]planned, 0, len(fields))
	for _, f := range fields {
		if !f.none {
			out = append(out, f)
		}
	}
	return out
}

// plan turns the agent's input into the fields to send, in the action's
// input order, with every reason to refuse and every warning.
// maxUpload bounds the file bytes of the call, all files together.
func plan(a *shared.Action, input map[string]any, maxUpload int64) (fields []planned, warnings []string, reasons []Reason) {
	byName := map[string]*shared.Input{}
	for i := range a.Inputs {
		if _, dup := byName[a.Inputs[i].Name]; !dup {
			byName[a.Inputs[i].Name] = &a.Inputs[i]
		}
	}
	invalid := func(field, rule, format string, args ...any) {
		reasons = append(reasons, Reason{Code: ReasonInvalidInput, Field: field, Rule: rule, Detail: fmt.Sprintf(format, args...), Err: ErrInvalidInput})
	}
	if len(input) > MaxInputKeys {
		invalid("", "size", "the input has %d keys; at most %d are accepted", len(input), MaxInputKeys)
		return nil, nil, reasons
	}
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		in, ok := byName[k]
		switch {
		case !ok:
			reasons = append(reasons, Reason{Code: ReasonUnknownInput, Field: fieldName(k), Rule: "unknown",
				Detail: fmt.Sprintf("the action has no input %s; it takes %s", strconv.Quote(shared.Clip(k, 64)), agentInputs(a)), Err: ErrUnknownInput})
		case !in.AgentFillable:
			reasons = append(reasons, Reason{Code: ReasonNotFillable, Field: k, Rule: "agent-fillable",
				Detail: fmt.Sprintf("%q is not agent-fillable (%s): the executor fills it itself and never takes it from the agent", k, in.Semantic), Err: ErrInvalidInput})
		}
	}

	values := map[string]string{}
	multi := map[string]bool{}
	files := map[string][]*upload{}
	budget := maxUpload
	present := map[string]bool{}
	for i := range a.Inputs {
		in := &a.Inputs[i]
		if present[in.Name] {
			continue // a repeated name (a radio group) is sent once
		}
		present[in.Name] = true
		if !in.AgentFillable {
			if in.Semantic == shared.SemanticHoneypot {
				// Sent empty, as a browser sends it untouched: a text
				// field as "name=", a checkbox or radio button not at all
				// (a browser sends nothing for an unchecked one, and a
				// plugin testing isset($_POST[name]) takes a form that
				// sends the name for a bot's).
				fields = append(fields, planned{name: in.Name, from: fromHoneypot, none: checkable(in.Type)})
			} else {
				fields = append(fields, planned{name: in.Name, from: fromPage})
			}
			continue
		}
		raw, given := input[in.Name]
		if raw == nil {
			given = false
		}
		if in.MultiValued() {
			chosen, ok := chooseOptions(in, raw, given, invalid)
			if !ok {
				continue
			}
			multi[in.Name] = true
			values[in.Name] = strings.Join(chosen, ",") // "" when none: what a required rule reads
			for _, v := range chosen {
				fields = append(fields, planned{name: in.Name, value: v, from: fromAgent, multi: true})
			}
			if len(chosen) == 0 {
				fields = append(fields, planned{name: in.Name, from: fromAgent, multi: true, none: true})
			}
			continue
		}
		switch strings.ToLower(in.Type) {
		case "file":
			if !given {
				values[in.Name] = "" // what a required rule reads
				continue             // nothing is sent for an empty file input
			}
			ups, ok := readFiles(in, raw, &budget, invalid)
			if !ok {
				continue // refused: no rule looks at it again
			}
			files[in.Name] = ups
			for _, u := range ups {
				values[in.Name] = u.name
				fields = append(fields, planned{name: in.Name, from: fromAgent, file: u})
			}
			continue
		case "checkbox":
			checked := false
			if given {
				b, ok := raw.(bool)
				if !ok {
					invalid(in.Name, "type", "%q is a checkbox: send true or false, not %s", in.Name, jsonKind(raw))
					continue
				}
				checked = b
			}
			values[in.Name] = ""
			switch {
			case checked:
				values[in.Name] = "on"
				fields = append(fields, planned{name: in.Name, from: fromCheckbox})
			case given:
				fields = append(fields, planned{name: in.Name, from: fromAgent, none: true, unchecked: true})
			}
			continue
		}
		v := ""
		if given {
			s, ok := scalar(raw)
			if !ok {
				invalid(in.Name, "type", "%q takes a string or a number, not %s", in.Name, jsonKind(raw))
				continue
			}
			v = s
		} else if in.DefaultValue != nil {
			v = *in.DefaultValue
		}
		if len(v) > MaxValueBytes {
			invalid(in.Name, "size", "%q is %d bytes long; at most %d are accepted", in.Name, len(v), MaxValueBytes)
			continue
		}
		if !utf8.ValidString(v) {
			invalid(in.Name, "encoding", "%q is not valid UTF-8", in.Name)
			continue
		}
		if v == "" && strings.EqualFold(in.Type, "radio") {
			// No button checked (none given, none the page checks): a
			// browser sends nothing for the group. A <select> is another
			// matter: a browser sends its selected option, else its first.
			// The action records the selected one as the default, and not
			// the empty placeholder ("Choose…") that mostly comes first,
			// so a select without a default is sent "", as a browser
			// sends such a placeholder (not what it sends for a select
			// whose first option is a value: the action does not say).
			values[in.Name] = "" // what a required rule reads
			continue
		}
		values[in.Name] = v
		fields = append(fields, planned{name: in.Name, value: v, from: fromAgent, number: isNumeric(in.Type)})
		// The options of a select or radio group are what the markup accepts.
		if t := strings.ToLower(in.Type); (t == "select" || t == "radio") && v != "" {
			if opts := optionsOf(in); opts != nil && !slices.Contains(opts, v) {
				invalid(in.Name, "one-of", "%q must be one of %s (the page's options), not %q", in.Name, quoteList(opts), shared.Clip(v, 80))
			}
		}
	}

	for _, val := range a.Validations {
		in, ok := byName[val.Target()]
		if !ok || !in.AgentFillable {
			continue // a rule on a field the agent does not fill is the page's business
		}
		v, ok := values[in.Name]
		if !ok {
			continue // a value already refused
		}
		var rule shared.Rule
		declared := false
		switch x := val.(type) {
		case shared.DeclaredValidation:
			rule, declared = x.Rule, true
		case *shared.DeclaredValidation:
			rule, declared = x.Rule, true
		case shared.InferredValidation:
			rule = x.Rule
		case *shared.InferredValidation:
			rule = x.Rule
		default:
			continue
		}
		if multi[in.Name] && rule.Kind != shared.RuleRequired {
			continue // each value is one of the options (chooseOptions); other rules are the page's
		}
		var msg string
		var checked bool
		if strings.EqualFold(in.Type, "file") && rule.Kind != shared.RuleRequired {
			msg, checked = checkFiles(in.Name, rule, files[in.Name])
		} else {
			msg, checked = check(in, rule, v)
		}
		switch {
		case !checked:
			warnings = append(warnings, fmt.Sprintf("%s: the %s rule %s could not be checked here; the site will check it", in.Name, rule.Kind, ruleValue(rule)))
		case msg == "":
		case declared:
			invalid(in.Name, string(rule.Kind), "%s", msg)
		default:
			warnings = append(warnings, msg+" (an inferred rule: not enforced)")
		}
	}
	return fields, warnings, reasons
}

// check applies one rule to a value with HTML's semantics: only required
// looks at an empty value. It returns a message naming the field and the
// rule when the value breaks it, and checked=false for a rule it cannot
// evaluate.
func check(in *shared.Input, rule shared.Rule, v string) (msg string, checked bool) {
	rv := ""
	if rule.Value != nil {
		rv = *rule.Value
	}
	name := in.Name
	if rule.Kind == shared.RuleRequired {
		if strings.TrimSpace(v) == "" {
			if in.MultiValued() {
				return fmt.Sprintf("%q is required: choose at least one of %s", name, quoteList(optionsOf(in))), true
			}
			if strings.EqualFold(in.Type, "checkbox") {
				return fmt.Sprintf("%q is required: it must be checked (true)", name), true
			}
			return fmt.Sprintf("%q is required and was not given", name), true
		}
		return "", true
	}
	if v == "" {
		return "", true
	}
	switch rule.Kind {
	case shared.RulePattern:
		re, err := compilePattern(rv)
		if err != nil {
			return "", false
		}
		if re == nil {
			return "", true // no browser checks it, so the page takes any value
		}
		if !re.MatchString(v) {
			return fmt.Sprintf("%q must match the pattern %s (the whole value), not %q", name, rv, shared.Clip(v, 80)), true
		}
	case shared.RuleMinLength, shared.RuleMaxLength:
		n, err := strconv.Atoi(strings.TrimSpace(rv))
		if err != nil {
			return "", false
		}
		l := utf16Len(v)
		if rule.Kind == shared.RuleMinLength && l < n {
			return fmt.Sprintf("%q must be at least %d characters long (min-length), not %d", name, n, l), true
		}
		if rule.Kind == shared.RuleMaxLength && l > n {
			return fmt.Sprintf("%q must be at most %d characters long (max-length), not %d", name, n, l), true
		}
	case shared.RuleMin, shared.RuleMax:
		cmp, ok := compareBound(in.Type, v, rv)
		if !ok {
			if _, err := strconv.ParseFloat(v, 64); err != nil && isNumeric(in.Type) {
				return fmt.Sprintf("%q must be a number, not %q", name, shared.Clip(v, 80)), true
			}
			return "", false
		}
		if rule.Kind == shared.RuleMin && cmp < 0 {
			return fmt.Sprintf("%q must be at least %s (min), not %s", name, rv, shared.Clip(v, 40)), true
		}
		if rule.Kind == shared.RuleMax && cmp > 0 {
			return fmt.Sprintf("%q must be at most %s (max), not %s", name, rv, shared.Clip(v, 40)), true
		}
	case shared.RuleStep:
		if strings.EqualFold(strings.TrimSpace(rv), "any") {
			return "", true
		}
		step, err1 := strconv.ParseFloat(rv, 64)
		x, err2 := strconv.ParseFloat(v, 64)
		if err1 != nil || err2 != nil || step <= 0 {
			return "", false
		}
		base := 0.0
		for _, vs := range in.ValueSpace {
			if r, ok := vs.(shared.RangeSpace); ok && r.Min != nil {
				if b, err := strconv.ParseFloat(*r.Min, 64); err == nil {
					base = b
				}
			}
		}
		q := (x - base) / step
		if math.Abs(q-math.Round(q)) > 1e-9 {
			return fmt.Sprintf("%q must be a multiple of %s (step), not %s", name, rv, shared.Clip(v, 40)), true
		}
	case shared.RuleFormat:
		ok, known := formatHolds(rv, v)
		if !known {
			return "", false
		}
		if !ok {
			return fmt.Sprintf("%q must be a valid %s (format), not %q", name, rv, shared.Clip(v, 80)), true
		}
	case shared.RuleOneOf:
		opts := oneOfValues(rv)
		if opts == nil {
			opts = optionsOf(in)
		}
		if opts == nil {
			return "", false
		}
		if !slices.Contains(opts, v) {
			return fmt.Sprintf("%q must be one of %s (one-of), not %q", name, quoteList(opts), shared.Clip(v, 80)), true
		}
	default:
		return "", false
	}
	return "", true
}

var (
	patternMu    sync.Mutex
	patternCache = map[string]*regexp.Regexp{}
)

// compilePattern is shared.CompileHTMLPattern (the reading the compiler's
// schemas state too), kept for the process: nil and no error for a pattern
// no browser checks, an error for one Go's regexp cannot run, which the
// site checks.
func compilePattern(p string) (*regexp.Regexp, error) {
	patternMu.Lock()
	defer patternMu.Unlock()
	if re, ok := patternCache[p]; ok {
		return re, nil
	}
	re, err := shared.CompileHTMLPattern(p)
	if err != nil {
		return nil, err
	}
	if len(patternCache) < 1024 {
		patternCache[p] = re
	}
	return re, nil
}

// utf16Len is a value's length as HTML counts it (UTF-16 code units).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// checkable reports whether an input of type typ is a checkbox or a radio
// button: one a browser sends only when it is checked.
func checkable(typ string) bool {
	return strings.EqualFold(typ, "checkbox") || strings.EqualFold(typ, "radio")
}

func isNumeric(typ string) bool {
	t := strings.ToLower(typ)
	return t == "number" || t == "range"
}

// compareBound compares a value with a min/max bound: as numbers, or as
// ISO dates and times (which order lexicographically) for those types.
func compareBound(typ, v, bound string) (int, bool) {
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		if b, err := strconv.ParseFloat(bound, 64); err == nil {
			switch {
			case x < b:
				return -1, true
			case x > b:
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	t := strings.ToLower(typ)
	if (t == "date" || t == "time" || t == "datetime-local" || t == "month" || t == "week") && len(v) == len(bound) {
		return strings.Compare(v, bound), true
	}
	return 0, false
}

var (
	// emailRE is the HTML specification's valid e-mail address.
	emailRE = regexp.MustCompile(`^[a-zA-Z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)
	telRE   = regexp.MustCompile(`^\+?[0-9 ().\-/]{3,32}$`)
)

// formatHolds checks a value against a well-known format; known is false
// for a format it does not know.
func formatHolds(format, v string) (ok, known bool) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "email":
		// One address, as an <input type=email> without the multiple
		// attribute takes (the action does not record that attribute): a
		// list would have the site write to recipients the one field does
		// not name.
		return emailRE.MatchString(strings.TrimSpace(v)), true
	case "date":
		_, err := time.Parse("2006-01-02", v)
		return err == nil, true
	case "time":
		_, err1 := time.Parse("15:04", v)
		_, err2 := time.Parse("15:04:05", v)
		return err1 == nil || err2 == nil, true
	case "datetime-local", "date-time":
		_, err1 := time.Parse("2006-01-02T15:04", v)
		_, err2 := time.Parse("2006-01-02T15:04:05", v)
		_, err3 := time.Parse(time.RFC3339, v)
		return err1 == nil || err2 == nil || err3 == nil, true
	case "url", "uri":
		u, err := url.Parse(v)
		return err == nil && u.Scheme != "" && u.Host != "", true
	case "tel", "phone":
		return telRE.MatchString(v) && strings.ContainsAny(v, "0123456789"), true
	case "number":
		_, err := strconv.ParseFloat(v, 64)
		return err == nil, true
	}
	return false, false
}

// optionsOf returns the values of an input's options (shared.Input.Options),
// or nil.
func optionsOf(in *shared.Input) []string {
	var out []string
	for _, o := range in.Options() {
		out = append(out, o.Value)
	}
	return out
}

// chooseOptions reads the agent's choice for a multi-valued input
// (shared.Input.MultiValued: a checkbox group, a <select multiple>): a list
// of option values, each at most once. It returns them in the options'
// order — the page's, as a browser sends them — whatever the list's order;
// not given, the option the page pre-selects, if any. ok is false when the
// choice was refused (invalid was called).
func chooseOptions(in *shared.Input, raw any, given bool, invalid func(field, rule, format string, args ...any)) (chosen []string, ok bool) {
	opts := optionsOf(in)
	if !given {
		if in.DefaultValue != nil && slices.Contains(opts, *in.DefaultValue) {
			return []string{*in.DefaultValue}, true
		}
		return nil, true
	}
	var list []any
	switch x := raw.(type) {
	case []any:
		list = x
	case []string:
		for _, v := range x {
			list = append(list, v)
		}
	default:
		invalid(in.Name, "type", "%q takes a list of its options (any of %s), not %s", in.Name, quoteList(opts), jsonKind(raw))
		return nil, false
	}
	if len(list) > len(opts) {
		invalid(in.Name, "size", "%q has %d options; a list of %d was given", in.Name, len(opts), len(list))
		return nil, false
	}
	picked := map[string]bool{}
	for _, x := range list {
		v, isString := x.(string)
		switch {
		case !isString:
			invalid(in.Name, "type", "%q takes a list of strings, not a list holding %s", in.Name, jsonKind(x))
			return nil, false
		case !slices.Contains(opts, v):
			invalid(in.Name, "one-of", "%q takes any of %s (the page's options), not %q", in.Name, quoteList(opts), shared.Clip(v, 80))
			return nil, false
		case picked[v]:
			invalid(in.Name, "unique", "%q lists %q twice", in.Name, shared.Clip(v, 80))
			return nil, false
		}
		picked[v] = true
	}
	for _, o := range opts {
		if picked[o] {
			chosen = append(chosen, o)
			delete(picked, o) // an option listed twice by the page is sent once
		}
	}
	return chosen, true
}

// oneOfValues reads a one-of rule's value: a JSON list of strings, or a
// comma-separated list.
func oneOfValues(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var list []string
	if json.Unmarshal([]byte(v), &list) == nil {
		return list
	}
	for _, p := range strings.Split(v, ",") {
		list = append(list, strings.TrimSpace(p))
	}
	return list
}

// scalar renders a JSON-decoded string or number as the text a form sends.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", false
		}
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

// jsonKind names the JSON kind of a decoded value, for a message.
func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case float64, float32, int, int64, json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("a %T", v)
}

// agentInputs lists the inputs an agent may fill.
func agentInputs(a *shared.Action) string {
	var names []string
	for _, in := range a.Inputs {
		if in.AgentFillable && !slices.Contains(names, strconv.Quote(in.Name)) {
			names = append(names, strconv.Quote(in.Name))
		}
	}
	if len(names) == 0 {
		return "no input from an agent"
	}
	return strings.Join(names, ", ")
}

func ruleValue(r shared.Rule) string {
	if r.Value == nil {
		return "(no value)"
	}
	return strconv.Quote(shared.Clip(*r.Value, 80))
}

func quoteList(xs []string) string {
	q := make([]string, 0, len(xs))
	for i, x := range xs {
		if i == 12 {
			q = append(q, fmt.Sprintf("… %d more", len(xs)-i))
			break
		}
		q = append(q, strconv.Quote(shared.Clip(x, 60)))
	}
	return strings.Join(q, ", ")
}

// fieldName is how an agent-chosen key is named in a Reason's Field:
// bounded, and quoted as a Go string literal (strconv.Quote: a NUL byte is
// \x00, an invalid UTF-8 byte \xff, a control character escaped) when it
// is not plain printable text — so that the audit store, which takes no
// NUL and only UTF-8, keeps every refusal, and no terminal or log reading
// the field is steered by it.
func fieldName(k string) string {
	k = shared.Clip(k, 64)
	if plainText(k) {
		return k
	}
	return strconv.Quote(k)
}

// plainText reports whether s is valid UTF-8 made only of printable
// characters (strconv.IsPrint: letters, marks, numbers, punctuation,
// symbols and the ASCII space).
func plainText(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return false // RuneError: an invalid byte (or U+FFFD itself, quoted the same)
		}
	}
	return true
}

// clipName bounds an agent-chosen key before it appears, quoted (%q), in a
// message.
func clipName(k string) string {
	if !utf8.ValidString(k) {
		k = strings.ToValidUTF8(k, "\uFFFD")
	}
	return shared.Clip(k, 64)
}
