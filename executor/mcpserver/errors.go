package mcpserver

import (
	"errors"
	"fmt"
)

// ErrGraph is wrapped by every *GraphError: the graph cannot be read or
// compiled into tool definitions, so nothing is listed.
var ErrGraph = errors.New("mcpserver: graph unavailable")

// ErrNoToken is returned by HTTPHandler when HTTPOptions.Token is empty: the
// HTTP transport never runs without authentication.
var ErrNoToken = errors.New("mcpserver: the HTTP transport needs a bearer token")

// ErrOptions is wrapped by the error New or HTTPHandler returns for an
// option that cannot be used.
var ErrOptions = errors.New("mcpserver: invalid options")

// GraphError says why the graph could not be turned into tools.
type GraphError struct {
	// Source names where the graph was read from.
	Source string
	// Err is the underlying error (a read error, a *compiler.GraphError…).
	Err error
}

func (e *GraphError) Error() string {
	return fmt.Sprintf("mcpserver: graph %s: %v", e.Source, e.Err)
}

// Unwrap makes errors.Is(err, ErrGraph) hold and keeps the cause reachable.
func (e *GraphError) Unwrap() []error { return []error{ErrGraph, e.Err} }
