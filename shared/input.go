package shared

import "strings"

// Options returns the values in accepts when its value space lists them (a
// select, a radio group, a group of same-name checkboxes): the options of
// its first one-of space, else nil.
func (in *Input) Options() []Option {
	for _, vs := range in.ValueSpace {
		switch v := vs.(type) {
		case OneOfSpace:
			return v.Options
		case *OneOfSpace:
			if v != nil {
				return v.Options
			}
		}
	}
	return nil
}

// MultiValued reports whether in takes several values at once: a
// <select multiple> (type "select-multiple") or a group of same-name
// checkboxes (type "checkbox" with at least two options; a lone checkbox
// has none and takes true or false). A caller gives such an input a list of
// option values, and each one chosen is sent under the input's name, in the
// order of the options, as a browser sends them (decision 0006). The type
// is compared ASCII case-insensitively, as HTML reads a type attribute.
func (in *Input) MultiValued() bool {
	switch strings.ToLower(in.Type) {
	case "select-multiple":
		return true
	case "checkbox":
		return len(in.Options()) > 1
	}
	return false
}
