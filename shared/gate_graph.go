package shared

import (
	"context"
	"errors"
	"strings"
)

// RefusedActions puts every action g says is verified to the consent gate
// (AssertLiveExecutionAllowedContext), with audit as its audit store, and
// returns why the gate refused each one it refused, by action id: every
// reason, as Refusal.String writes it, joined by "; ". An action the gate
// grants is not in it, and neither is one the graph does not say is
// verified. compiler.Options.Unconfirmed and the portal's report take it.
//
// A graph file is only the word of whoever wrote it last: a confirmation
// copied from another graph, invented, revoked since or made for what the
// action did before an edit is refused here, as the executor refuses it
// at call time, so that nothing compiled or reported from the file offers
// it or says the business confirmed it. A store that cannot answer refuses
// too (its error is in the reason). When ctx ends before every action was
// checked, the error is ctx's and the map still names every verified
// action not granted, the unchecked ones with a reason saying so: a caller
// that shows what it has (the portal's report) fails closed.
func RefusedActions(ctx context.Context, g *ActionGraph, audit AuditLookup) (map[string]string, error) {
	out := map[string]string{}
	if g == nil {
		return out, nil
	}
	if ctx == nil {
		ctx = context.Background() // as the gate takes it
	}
	var ended error // ctx's, once an action went unchecked for it
	for i := range g.Actions {
		a := &g.Actions[i]
		if c, _ := confirmationOf(a.Verification); c == nil {
			// Not verified — or a typed nil *Verified, which says nothing.
			if v, ok := a.Verification.(*Verified); !ok || v != nil {
				continue
			}
			out[a.ID] = "its verification is a nil *Verified: it records no confirmation"
			continue
		}
		if err := ctx.Err(); err != nil {
			out[a.ID], ended = notChecked(err), err
			continue
		}
		doc, err := WriteAction(a)
		if err != nil {
			out[a.ID] = "it does not validate: " + err.Error()
			continue
		}
		err = AssertLiveExecutionAllowedContext(ctx, doc, audit)
		if err == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			out[a.ID], ended = notChecked(err), err
			continue
		}
		var ue *UnverifiedActionError
		if !errors.As(err, &ue) {
			out[a.ID] = err.Error()
			continue
		}
		reasons := make([]string, len(ue.Reasons))
		for j, r := range ue.Reasons {
			reasons[j] = r.String()
		}
		out[a.ID] = strings.Join(reasons, "; ")
	}
	return out, ended
}

// notChecked is the reason for a verified action the gate was not asked
// about, or did not answer for, before ctx ended (err).
func notChecked(err error) string {
	return "the audit store did not answer before the check ended (" + err.Error() + "), so its confirmation could not be checked"
}
