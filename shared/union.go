package shared

import "reflect"

// Union describes one sealed union of the contract: the Go interface, the
// wire key that discriminates it, and every variant. The reader, the writer
// and the JSON-Schema generator all dispatch through Unions, so this table is
// the one list of variants; a test checks it against the discriminator's
// vocabulary, so a member without a variant (or the reverse) fails the build's
// tests.
type Union struct {
	// Interface is the sealed interface type, e.g. VerificationState.
	Interface reflect.Type
	// Key is the discriminator key on the wire, written first.
	Key string
	// Vocabulary is the discriminator's closed list.
	Vocabulary Vocabulary
	// Variants are the variant struct types with their discriminator values,
	// in vocabulary order.
	Variants []UnionVariant
}

// UnionVariant is one variant of a Union.
type UnionVariant struct {
	Value string
	Type  reflect.Type
}

// unionDecls is the declaration behind Unions: for each interface, the wire
// key and one zero value per variant. The discriminator value of a variant is
// not written here; it comes from the variant's own method.
var unionDecls = [...]struct {
	iface    reflect.Type
	key      string
	vocab    Vocabulary
	variants []any
}{
	{reflect.TypeFor[ValueSpace](), "kind", ValueSpaceKind(""),
		[]any{LengthSpace{}, PatternSpace{}, RangeSpace{}, OneOfSpace{}, FormatSpace{}, UnknownSpace{}}},
	{reflect.TypeFor[Validation](), "source", ValidationSource(""),
		[]any{DeclaredValidation{}, InferredValidation{}}},
	{reflect.TypeFor[VerificationState](), "status", VerificationStatus(""),
		[]any{Unverified{}, SandboxTested{}, Verified{}}},
}

// discriminatorMethod finds the interface method that returns the union's
// discriminator (ValueSpaceKind, ValidationSource, Status): the variant says
// its own discriminator, nothing here restates it.
func discriminatorMethod(iface, vocab reflect.Type) (int, bool) {
	for m := range iface.NumMethod() {
		mt := iface.Method(m).Type
		if mt.NumIn() == 0 && mt.NumOut() == 1 && mt.Out(0) == vocab {
			return m, true
		}
	}
	return 0, false
}

// Unions returns the sealed unions of the contract. The result is a fresh
// copy on every call.
func Unions() []Union {
	out := make([]Union, len(unionDecls))
	for i, d := range unionDecls {
		u := Union{Interface: d.iface, Key: d.key, Vocabulary: d.vocab}
		m, _ := discriminatorMethod(d.iface, reflect.TypeOf(d.vocab))
		for _, v := range d.variants {
			iv := reflect.New(d.iface).Elem()
			iv.Set(reflect.ValueOf(v))
			disc := iv.Method(m).Call(nil)[0].String()
			u.Variants = append(u.Variants, UnionVariant{Value: disc, Type: reflect.TypeOf(v)})
		}
		out[i] = u
	}
	return out
}
