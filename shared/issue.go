package shared

import (
	"errors"
	"fmt"
	"strings"
)

// Issue is one problem the reader found in a document. Every issue carries
// where it is, a code from the closed IssueCode vocabulary, and a message
// for a person that says what to change.
//
// Path is a JSONPath-style location rooted at "$" (the document Read or
// ReadAction was given): object keys follow a dot when they are plain
// identifiers ($.actions[0].inputs[1].semantic) and are bracket-quoted
// otherwise ($["weird key"]); list elements are [index]. An issue about the
// document as a whole (syntax, trailing data, version) has Path "$" or the
// nearest enclosing value.
type Issue struct {
	Path    string    `json:"path"`
	Code    IssueCode `json:"code"`
	Message string    `json:"message"`
}

// String formats the issue as "PATH: CODE: message", the form the
// frontlatch check command prints after the file name.
func (i Issue) String() string {
	return i.Path + ": " + string(i.Code) + ": " + i.Message
}

// ErrInvalidGraph is wrapped by every *ValidationError, so callers may test
// errors.Is(err, ErrInvalidGraph) without caring about the issues.
var ErrInvalidGraph = errors.New("shared: invalid action graph")

// ValidationError is returned by Write and WriteAction when asked to write a
// graph or action that does not validate. That is a bug in the program that
// built it, not in the user's data: the issues say what is wrong.
type ValidationError struct {
	// What is "graph" or "action".
	What   string
	Issues []Issue
}

func (e *ValidationError) Error() string {
	what := e.What
	if what == "" {
		what = "graph"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "shared: refusing to write an invalid %s (%d issue", what, len(e.Issues))
	if len(e.Issues) != 1 {
		b.WriteByte('s')
	}
	b.WriteString("); fix the code that built it:")
	for i, is := range e.Issues {
		if i == 5 {
			fmt.Fprintf(&b, "; … and %d more", len(e.Issues)-5)
			break
		}
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteByte(' ')
		b.WriteString(is.String())
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalidGraph) hold.
func (e *ValidationError) Unwrap() error { return ErrInvalidGraph }
