package shared

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ConsentSubject is everything an owner confirms when they say yes to an
// action: the input of ConsentDigest. It is built from the action with
// ConsentSubjectOf, never by hand, so the verifier that writes a digest and
// the gate, the executor or a third party that re-checks it derive the same
// bytes from the same action.
//
// What is bound, and why (docs/decisions/0003-consent-digest.md): the
// action's identity (id and kind), the disclosure the owner acknowledged (the
// consent-bound SideEffects keys), the limits they set, where the action's
// data goes (each door's method, url, tool name, submission transport,
// endpoint and enctype), each effect's target and the kinds of its barriers.
// Provenance, locators, labels, inputs and validations are not bound: they
// describe how to fill the action in, not what it does.
type ConsentSubject struct {
	ActionID   string                 `json:"actionId"`
	Kind       ActionKind             `json:"kind"`
	Disclosure AcknowledgedDisclosure `json:"disclosure"`
	Limits     ConfirmationLimits     `json:"limits"`
	Doors      []ConsentDoor          `json:"doors"`
	Effects    []ConsentEffect        `json:"effects"`
	// Barriers are the kinds of the barriers the action had when shown
	// (captcha, login…), in order: an executor refuses an action with a
	// barrier it cannot pass, so removing one from the file must not pass
	// as what the owner confirmed.
	Barriers []BarrierKind `json:"barriers"`
}

// ConsentDoor is what the owner was shown of one door: how it is reached
// and where a submission through it goes. Transport, Endpoint and Enctype are
// null for a door without a submission (a tel: link, an opaque widget).
type ConsentDoor struct {
	Method    AccessMethod `json:"method"`
	URL       string       `json:"url"`
	ToolName  *string      `json:"toolName"`
	Transport *Transport   `json:"transport"`
	Endpoint  *string      `json:"endpoint"`
	Enctype   *string      `json:"enctype"`
}

// ConsentEffect is one effect's kind and target, in the action's order.
type ConsentEffect struct {
	Kind   EffectKind `json:"kind"`
	Target *string    `json:"target"`
}

// ConsentDigestPrefix begins every digest ConsentDigest returns: the
// algorithm, so a later one can be told apart.
const ConsentDigestPrefix = "sha256:"

var consentSubjectType = reflect.TypeFor[ConsentSubject]()

// ConsentSubjectOf returns what an owner confirms when they confirm a as it
// is now with the given limits: a's disclosure (DisclosureOf), its doors,
// its effects' targets and its barriers' kinds. Nil lists come out empty, so the subject of an action
// and of its re-read copy are equal.
func ConsentSubjectOf(a *Action, limits ConfirmationLimits) ConsentSubject {
	s := ConsentSubject{
		Limits:   cloneLimits(limits),
		Doors:    []ConsentDoor{},
		Effects:  []ConsentEffect{},
		Barriers: []BarrierKind{},
	}
	if a == nil {
		s.Disclosure = DisclosureOf(SideEffects{})
		return s
	}
	s.ActionID, s.Kind = a.ID, a.Kind
	s.Disclosure = DisclosureOf(a.SideEffects)
	for _, d := range a.Access {
		cd := ConsentDoor{Method: d.Method, URL: d.URL, ToolName: cloneString(d.ToolName)}
		if sub := d.Submission; sub != nil {
			t := sub.Transport
			cd.Transport, cd.Endpoint, cd.Enctype = &t, cloneString(sub.Endpoint), cloneString(sub.Enctype)
		}
		s.Doors = append(s.Doors, cd)
	}
	for _, e := range a.SideEffects.Effects {
		s.Effects = append(s.Effects, ConsentEffect{Kind: e.Kind, Target: cloneString(e.Target)})
	}
	for _, b := range a.Barriers {
		s.Barriers = append(s.Barriers, b.Kind)
	}
	return s
}

func cloneString(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

func cloneLimits(l ConfirmationLimits) ConfirmationLimits {
	out := ConfirmationLimits{Notify: cloneString(l.Notify)}
	if l.VolumeCap != nil {
		vc := *l.VolumeCap
		out.VolumeCap = &vc
	}
	return out
}

// CanonicalConsent returns the canonical bytes of s: the contract's
// canonical JSON (Write's form — keys in struct order, every key written, two
// spaces, no HTML escaping, a trailing newline), made by the same writer that
// writes graphs. These are the bytes ConsentDigest hashes, and what an audit
// store keeps beside the digest so a mismatch can say what differs.
//
// Like Write, it re-reads what it wrote with the strict reader and refuses
// (*ValidationError) a subject that does not read back as itself — a string
// that is not valid UTF-8, a kind outside its vocabulary — since its digest
// would not be the digest of anything the owner could have been shown.
func CanonicalConsent(s ConsentSubject) ([]byte, error) {
	return write(consentSubjectType, reflect.ValueOf(&s).Elem(), "consent subject", func(b []byte) []Issue {
		_, is := ReadConsentSubject(b)
		return is
	})
}

// ConsentDigest returns ConsentDigestPrefix followed by the lower-case hex
// SHA-256 of CanonicalConsent(s).
func ConsentDigest(s ConsentSubject) (string, error) {
	b, err := CanonicalConsent(s)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return ConsentDigestPrefix + hex.EncodeToString(sum[:]), nil
}

// ReadConsentSubject reads canonical (or any strictly valid) JSON of a
// ConsentSubject with the rules of Read: unknown, duplicate and case-variant
// keys, invalid UTF-8 and wrong types are issues with a path.
func ReadConsentSubject(data []byte) (*ConsentSubject, []Issue) {
	s, _, issues := readDocument[ConsentSubject](consentSubjectType, data)
	if len(issues) > 0 {
		return nil, issues
	}
	return s, nil
}

// ConsentChange is one difference between what an owner confirmed and what
// an action is now: a JSON path into ConsentSubject ("$.doors[0].endpoint")
// and both values as JSON text ("null" when absent).
type ConsentChange struct {
	Path      string `json:"path"`
	Confirmed string `json:"confirmed"`
	Now       string `json:"now"`
}

// String formats the change as `path: confirmed X, now Y`.
func (c ConsentChange) String() string {
	return c.Path + ": confirmed " + c.Confirmed + ", now " + c.Now
}

// CompareConsent lists every difference between a confirmed subject and the
// subject of the action now, in canonical key order; nil when they are
// equal. It is the one comparison behind the gate's digest-mismatch detail
// and the verifier's drift notes. Two subjects with no change have the same
// digest, and two with a change have different digests.
func CompareConsent(confirmed, now ConsentSubject) []ConsentChange {
	p, err := planFor(consentSubjectType)
	if err != nil {
		return []ConsentChange{{Path: "$", Confirmed: "?", Now: "? (" + err.Error() + ")"}}
	}
	var out []ConsentChange
	compareValue(p, reflect.ValueOf(confirmed), reflect.ValueOf(now), "$", &out)
	return out
}

func compareValue(p *plan, a, b reflect.Value, path string, out *[]ConsentChange) {
	switch p.kind {
	case kStruct:
		for i := range p.fields {
			f := &p.fields[i]
			compareValue(f.plan, a.Field(f.index), b.Field(f.index), path+"."+f.key, out)
		}
	case kSlice:
		n := max(a.Len(), b.Len())
		for i := range n {
			ip := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= a.Len():
				*out = append(*out, ConsentChange{Path: ip, Confirmed: "(absent)", Now: jsonText(p.elem, b.Index(i))})
			case i >= b.Len():
				*out = append(*out, ConsentChange{Path: ip, Confirmed: jsonText(p.elem, a.Index(i)), Now: "(absent)"})
			default:
				compareValue(p.elem, a.Index(i), b.Index(i), ip, out)
			}
		}
	case kPtr:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, ConsentChange{Path: path, Confirmed: jsonText(p, a), Now: jsonText(p, b)})
			}
			return
		}
		compareValue(p.elem, a.Elem(), b.Elem(), path, out)
	default:
		if ra, rb := rawJSON(p, a), rawJSON(p, b); ra != rb {
			ca, cb := clipPair(ra, rb)
			*out = append(*out, ConsentChange{Path: path, Confirmed: ca, Now: cb})
		}
	}
}

// rawJSON is the writer's rendering of one value.
func rawJSON(p *plan, v reflect.Value) string {
	w := writer{}
	w.value(p, v, 0)
	return string(w.buf)
}

// jsonText is the writer's compact rendering of one value, for a change
// report.
func jsonText(p *plan, v reflect.Value) string {
	return clip(strings.Join(strings.Fields(rawJSON(p, v)), " "))
}

// clipPair shortens two differing values for a change report so that where
// they differ stays in view: a long common beginning becomes "…".
func clipPair(a, b string) (string, string) {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if n > 60 {
		start := n - 40
		for start > 0 && !utf8.RuneStart(a[start]) {
			start--
		}
		a, b = "…"+a[start:], "…"+b[start:]
	}
	return clip(a), clip(b)
}

// clip shortens a value for a change report.
func clip(s string) string { return Clip(s, 160) }
