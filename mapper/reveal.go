package mapper

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/go-rod/rod"
)

// Exploration bounds: one click deep (a "Book now" button opening a modal,
// a tab revealing a form) and a handful of states, so revealing never costs
// more than a few page loads.
const (
	revealMaxStates = 8
	revealMaxEdges  = 10
	revealMaxDepth  = 1
)

// worthRevealing says whether a crawled page is worth exploring, which
// costs a second load and a few clicks. The entry page always is: its
// header carries the site-wide "Book now". Another page is when the link
// that led there named an action and no form in its document, shown or
// hidden, is one (showsAction false: a booking page whose form a button
// builds). A form already in the document is read whether its modal is
// open or closed, so a page holding one, or a team or news page, is not
// explored again.
func worthRevealing(entry bool, linkScore int, showsAction bool) bool {
	return entry || linkScore >= scorePathIntent && !showsAction
}

// reveal explores the page the session's tab shows, as loaded: it clicks
// the page's safe triggers through topology's exploration (it never clicks
// submit, payment, auth or destructive controls) and extracts each new
// state it reaches while that state is live. A failed exploration costs
// only what it revealed: the entry state is already read, and the states
// read before the failure are returned. The error says what went wrong —
// the exploration's own error, observations it could not make, states that
// could not be read — for the graph's notes.
func reveal(ctx context.Context, sess *topology.Session, o Options) ([]*extract.Page, error) {
	var mu sync.Mutex
	var states []*extract.Page
	var unread []error
	g, err := sess.Explore(ctx, topology.ExploreOptions{
		MaxStates: revealMaxStates,
		MaxEdges:  revealMaxEdges,
		MaxDepth:  revealMaxDepth,
		// Only disclosure clicks (a "Book now" button, a tab): following
		// links is the crawl's job and would make every page several
		// times slower.
		ExploreOnly: []topology.RiskCategory{topology.RiskDisclosure},
		ScanOptions: topology.ScanOptions{RunTimeout: o.PageTimeout, Light: true,
			// Each state reached is read in the engine's own capture of
			// it: one Evaluate per state.
			StateScript: pageScript,
			OnStateScript: func(_ context.Context, _ *rod.Page, st *topology.StateNode, raw string, scriptErr error) error {
				if st.OpenedByEdgeID == nil {
					return nil // the entry state: already read
				}
				var p *extract.Page
				err := scriptErr
				if err == nil {
					p, _, err = extract.Decode(raw)
					if errors.Is(err, extract.ErrAlso) {
						err = nil // the page is read; only its tools are not
					}
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					unread = append(unread, fmt.Errorf("a revealed state could not be read: %w", err))
					return nil // the other states are still worth reading
				}
				states = append(states, p)
				return nil
			}},
	})
	errs := unread
	if err != nil {
		errs = append(errs, fmt.Errorf("exploration stopped: %w", err))
	}
	if g != nil {
		errs = append(errs, failedObservations(g)...)
	}
	return states, errors.Join(errs...)
}

// routineFailures are failed observations that are the exploration
// working as meant: a control it would not click (hidden, disabled,
// covered, gone, ambiguous), a click that left the page (following links
// is the crawl's job), or the state and edge budget reached.
var routineFailures = map[topology.FailReason]bool{
	topology.FailHidden: true, topology.FailDisabled: true, topology.FailCovered: true,
	topology.FailNotFound: true, topology.FailAmbiguous: true, topology.FailNavigatedAway: true,
	topology.FailBudgetExhausted: true,
}

// failedObservations are the observations an exploration could not make
// for a reason other than a routine one (timeouts, navigation, dialogs,
// extraction…), by reason.
func failedObservations(g *topology.Graph) []error {
	var reasons []string
	for r := range g.Summary.FailedObservationsByReason {
		if !routineFailures[topology.FailReason(r)] {
			reasons = append(reasons, r)
		}
	}
	sort.Strings(reasons)
	var out []error
	for _, r := range reasons {
		out = append(out, fmt.Errorf("%d observations failed (%s)", g.Summary.FailedObservationsByReason[r], r))
	}
	return out
}
