package executor

import (
	"encoding/json"
	"fmt"

	"github.com/frontlatch/frontlatch/shared"
)

// ActionBytes returns the raw bytes of one action of a graph document, as
// they are in the document (no re-encoding), so the gate sees exactly what
// is on disk. The document must be a valid 0.1 graph (shared.Read: which
// also refuses duplicate and case-variant keys, so the action found here is
// the one every strict reader finds). An unknown id is an
// *UnknownActionError matching ErrUnknownAction.
func ActionBytes(graph []byte, actionID string) ([]byte, error) {
	if len(graph) > shared.MaxDocumentBytes {
		return nil, fmt.Errorf("%w: the graph is %d bytes; at most %d (shared.MaxDocumentBytes) are read", ErrInvalidInput, len(graph), shared.MaxDocumentBytes)
	}
	g, issues := shared.Read(graph)
	if len(issues) > 0 {
		return nil, fmt.Errorf("executor: the graph is not a valid 0.1 Action Graph (first of its issues: %s): %w", issues[0], shared.ErrInvalidGraph)
	}
	var doc struct {
		Actions []json.RawMessage `json:"actions"`
	}
	if err := json.Unmarshal(graph, &doc); err != nil || len(doc.Actions) != len(g.Actions) {
		return nil, fmt.Errorf("executor: the graph's actions could not be delimited: %v: %w", err, shared.ErrInvalidGraph)
	}
	known := make([]string, len(g.Actions))
	for i, a := range g.Actions {
		known[i] = a.ID
		if a.ID == actionID {
			return append([]byte(nil), doc.Actions[i]...), nil
		}
	}
	return nil, &UnknownActionError{ID: clipName(actionID), Known: known}
}
