package compiler

import (
	"errors"
	"fmt"
	"strings"

	"github.com/frontlatch/frontlatch/shared"
)

// ErrUnknownFormat is wrapped by the *FormatError ParseFormat and
// CompileFormat return for a format the compiler does not know.
var ErrUnknownFormat = errors.New("compiler: unknown format")

// ErrNameCollision is wrapped by a *GraphError when two doors would get the
// same tool name.
var ErrNameCollision = errors.New("compiler: tool name collision")

// ErrUnknownMCPVersion is returned for an Options.MCPVersion the compiler
// cannot write.
var ErrUnknownMCPVersion = errors.New("compiler: unknown MCP protocol version")

// FormatError reports a format name the compiler does not know.
type FormatError struct {
	Format string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("compiler: unknown format %q: use one of %s", e.Format, strings.Join(formatNames(), ", "))
}

// Unwrap makes errors.Is(err, ErrUnknownFormat) hold.
func (e *FormatError) Unwrap() error { return ErrUnknownFormat }

// GraphError reports why a graph cannot be compiled: the reader's issues, or
// a problem only the compiler sees (two doors that would share a tool name).
type GraphError struct {
	// Issues are the problems found, each with a JSON path.
	Issues []shared.Issue
	// Err is shared.ErrInvalidGraph (the graph does not validate, so
	// nothing is compiled from it) or ErrNameCollision.
	Err error
}

func (e *GraphError) Error() string {
	var b strings.Builder
	b.WriteString("compiler: cannot compile the graph")
	if e.Err == ErrNameCollision {
		b.WriteString(": tool names collide")
	} else {
		b.WriteString(": it does not validate")
	}
	for i, is := range e.Issues {
		if i == 5 {
			fmt.Fprintf(&b, "; … and %d more", len(e.Issues)-5)
			break
		}
		b.WriteString("; ")
		b.WriteString(is.String())
	}
	return b.String()
}

// Unwrap makes errors.Is(err, shared.ErrInvalidGraph) (or
// ErrNameCollision) hold.
func (e *GraphError) Unwrap() error {
	if e.Err == nil {
		return shared.ErrInvalidGraph
	}
	return e.Err
}
