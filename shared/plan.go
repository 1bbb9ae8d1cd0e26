package shared

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/frontlatch/frontlatch/shared/internal/rules"
)

// A plan is what the reader and the writer know about one Go type of the
// contract, derived once by reflection from the json and contract tags of
// types.go. There is no hand-written key list anywhere else: the structs are
// the field list, Unions is the variant list.
type plan struct {
	kind   planKind
	typ    reflect.Type
	elem   *plan          // kPtr, kSlice
	fields []fieldPlan    // kStruct, in canonical order
	byKey  map[string]int // kStruct: json key -> index into fields
	// required has bit i set when fields[i] must be present (not a pointer).
	required uint64
	union    *unionPlan // kUnion
	vocab    Vocabulary // kVocab: a zero value, for Valid/Members
	check    func(r *reader, v reflect.Value)
}

type planKind uint8

const (
	kString planKind = iota
	kTimestamp
	kVocab
	kReversible
	kBool
	kInt
	kFloat
	kPtr
	kSlice
	kStruct
	kUnion
)

type fieldPlan struct {
	key   string
	index int
	plan  *plan
	rules rules.Rules
}

type unionPlan struct {
	key      string
	vocab    Vocabulary
	variants map[string]*plan        // discriminator value -> variant struct plan
	byType   map[reflect.Type]string // variant type -> discriminator value
}

var (
	plansOnce sync.Once
	plans     map[reflect.Type]*plan
	plansErr  error
)

// planFor returns the plan of t. Plans are built on first use for every type
// reachable from ActionGraph (and ConsentSubject); a type the builder cannot handle is a bug in
// this package, reported as an error (and caught by TestPlans) rather than a
// panic at a user's call.
func planFor(t reflect.Type) (*plan, error) {
	plansOnce.Do(func() {
		b := planBuilder{plans: map[reflect.Type]*plan{}}
		_, plansErr = b.build(reflect.TypeFor[ActionGraph]())
		if plansErr == nil { // the consent digest's input (digest.go)
			_, plansErr = b.build(consentSubjectType)
		}
		for _, d := range unionDecls {
			if plansErr == nil {
				_, plansErr = b.build(d.iface)
			}
		}
		plans = b.plans
	})
	if plansErr != nil {
		return nil, plansErr
	}
	p, ok := plans[t]
	if !ok {
		return nil, fmt.Errorf("shared: no plan for %v: it is not reachable from ActionGraph", t)
	}
	return p, nil
}

type planBuilder struct{ plans map[reflect.Type]*plan }

var (
	timestampType  = reflect.TypeFor[Timestamp]()
	reversibleType = reflect.TypeFor[Reversible]()
	vocabularyType = reflect.TypeFor[Vocabulary]()
)

func (b *planBuilder) build(t reflect.Type) (*plan, error) {
	if p, ok := b.plans[t]; ok {
		return p, nil
	}
	p := &plan{typ: t, check: structCheck(t)}
	b.plans[t] = p // before recursing, so a recursive type would terminate
	switch {
	case t == timestampType:
		p.kind = kTimestamp
	case t == reversibleType:
		p.kind = kReversible
	case t.Kind() == reflect.String && t.Implements(vocabularyType):
		p.kind = kVocab
		p.vocab = reflect.Zero(t).Interface().(Vocabulary)
	case t.Kind() == reflect.String:
		p.kind = kString
	case t.Kind() == reflect.Bool:
		p.kind = kBool
	case t.Kind() == reflect.Int:
		p.kind = kInt
	case t.Kind() == reflect.Float64:
		p.kind = kFloat
	case t.Kind() == reflect.Pointer:
		p.kind = kPtr
		e, err := b.build(t.Elem())
		if err != nil {
			return nil, err
		}
		p.elem = e
	case t.Kind() == reflect.Slice:
		p.kind = kSlice
		e, err := b.build(t.Elem())
		if err != nil {
			return nil, err
		}
		p.elem = e
	case t.Kind() == reflect.Struct:
		p.kind = kStruct
		if err := b.buildStruct(p); err != nil {
			return nil, err
		}
	case t.Kind() == reflect.Interface:
		p.kind = kUnion
		if err := b.buildUnion(p); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("shared: the contract cannot carry %v (%v); use a string, bool, int, float64, pointer, slice, struct or a declared union", t, t.Kind())
	}
	return p, nil
}

func (b *planBuilder) buildStruct(p *plan) error {
	t := p.typ
	if t.NumField() > 64 {
		return fmt.Errorf("shared: %v has more than 64 fields; the reader tracks seen keys in a uint64", t)
	}
	p.byKey = map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			return fmt.Errorf("shared: %v.%s is unexported; every contract field is on the wire", t, f.Name)
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if key == "" || key == "-" {
			return fmt.Errorf("shared: %v.%s has no json key; every contract field needs one", t, f.Name)
		}
		rs, err := rules.Parse(f.Tag.Get("contract"))
		if err != nil {
			return fmt.Errorf("shared: %v.%s: %w", t, f.Name, err)
		}
		for _, c := range []string{rs.EmptyCode, rs.MissingCode} {
			if c != "" && !IssueCode(c).Valid() {
				return fmt.Errorf("shared: %v.%s: contract tag names %q, which is not an IssueCode in vocab.go", t, f.Name, c)
			}
		}
		fp, err := b.build(f.Type)
		if err != nil {
			return err
		}
		if _, dup := p.byKey[key]; dup {
			return fmt.Errorf("shared: %v has json key %q twice", t, key)
		}
		p.byKey[key] = len(p.fields)
		if fp.kind != kPtr {
			p.required |= 1 << len(p.fields)
		}
		p.fields = append(p.fields, fieldPlan{key: key, index: i, plan: fp, rules: rs})
	}
	return nil
}

func (b *planBuilder) buildUnion(p *plan) error {
	for _, u := range Unions() {
		if u.Interface != p.typ {
			continue
		}
		up := &unionPlan{key: u.Key, vocab: u.Vocabulary, variants: map[string]*plan{}, byType: map[reflect.Type]string{}}
		for _, v := range u.Variants {
			vp, err := b.build(v.Type)
			if err != nil {
				return err
			}
			if _, clash := vp.byKey[u.Key]; clash {
				return fmt.Errorf("shared: variant %v has a field with the discriminator key %q", v.Type, u.Key)
			}
			up.variants[v.Value] = vp
			up.byType[v.Type] = v.Value
		}
		p.union = up
		return nil
	}
	return fmt.Errorf("shared: interface %v is not a declared union (union.go)", p.typ)
}
