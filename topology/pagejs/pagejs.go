package pagejs

import (
	"embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

//go:embed json.js norm.js labels.js accname.js modelcontext.js pierce.js locate.js control.js press.js
var files embed.FS

// ErrUnknownHelper reports an include line naming no helper of this package.
var ErrUnknownHelper = errors.New("pagejs: unknown helper")

// ErrDuplicateInclude reports a helper included twice in one script: its
// declarations would clash.
var ErrDuplicateInclude = errors.New("pagejs: helper included twice")

// ErrMissingHelper reports a helper included without a helper it needs
// (named on its //pagejs:needs line) included before it.
var ErrMissingHelper = errors.New("pagejs: helper included without one it needs")

// needsLine matches a helper's line naming the helpers it reads; its one
// group is their names, separated by white space.
var needsLine = regexp.MustCompile(`(?m)^[ \t]*//pagejs:needs[ \t]+(.+?)[ \t]*$`)

// includeLine matches an include line; its one group is the helper's name.
var includeLine = regexp.MustCompile(`(?m)^[ \t]*//pagejs:include[ \t]+(\S+)[ \t]*$`)

// Inline returns src with every include line replaced by the source of the
// helper it names. It fails, wrapping ErrUnknownHelper or
// ErrDuplicateInclude, when a line names no helper or a helper twice, or
// ErrMissingHelper, when a helper is included before (or without) a helper
// its //pagejs:needs line names.
// Source without include lines comes back unchanged.
func Inline(src string) (string, error) {
	seen := map[string]bool{}
	var err error
	out := includeLine.ReplaceAllStringFunc(src, func(line string) string {
		name := includeLine.FindStringSubmatch(line)[1]
		if err != nil {
			return line
		}
		if seen[name] {
			err = fmt.Errorf("%w: %q", ErrDuplicateInclude, name)
			return line
		}
		seen[name] = true
		if strings.ContainsAny(name, `./\`) {
			err = fmt.Errorf("%w: %q", ErrUnknownHelper, name)
			return line
		}
		body, rerr := files.ReadFile(name + ".js")
		if rerr != nil {
			err = fmt.Errorf("%w: %q", ErrUnknownHelper, name)
			return line
		}
		for _, m := range needsLine.FindAllStringSubmatch(string(body), -1) {
			for _, need := range strings.Fields(m[1]) {
				if !seen[need] || need == name {
					err = fmt.Errorf("%w: %q needs %q included before it", ErrMissingHelper, name, need)
					return line
				}
			}
		}
		return strings.TrimSuffix(string(body), "\n")
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// MustInline is Inline for a script known when the program is built (an
// embedded file): it panics when Inline fails, as regexp.MustCompile does.
func MustInline(src string) string {
	out, err := Inline(src)
	if err != nil {
		panic(err)
	}
	return out
}
