package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Rules is the parsed contract tag of one field.
type Rules struct {
	NonEmpty    bool
	EmptyCode   string // "" means the default, value.empty
	Min, Max    *int64
	MissingCode string // "" means the default, key.missing
}

// Parse parses one contract tag value. An empty tag is no rules.
func Parse(tag string) (Rules, error) {
	var r Rules
	if tag == "" {
		return r, nil
	}
	for _, item := range strings.Split(tag, ",") {
		name, arg, hasArg := strings.Cut(item, "=")
		switch name {
		case "nonempty":
			r.NonEmpty = true
			r.EmptyCode = arg
		case "min", "max":
			n, err := strconv.ParseInt(arg, 10, 64)
			if err != nil || !hasArg {
				return Rules{}, fmt.Errorf("rules: %s needs an integer argument, got %q", name, arg)
			}
			if name == "min" {
				r.Min = &n
			} else {
				r.Max = &n
			}
		case "missing":
			if arg == "" {
				return Rules{}, fmt.Errorf("rules: missing needs an issue code, e.g. missing=verification.missing")
			}
			r.MissingCode = arg
		default:
			return Rules{}, fmt.Errorf("rules: unknown contract tag item %q: use nonempty[=CODE], min=N, max=N or missing=CODE", item)
		}
	}
	return r, nil
}
