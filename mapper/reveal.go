package mapper

import (
	"context"
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

// reveal explores the page the session's tab shows, as loaded: it clicks the page's safe triggers through topology's exploration
// (it never clicks submit, payment, auth or destructive controls) and
// extracts each new state it reaches while that state is live. A failed
// exploration costs only what it revealed: the entry state is already read.
func reveal(ctx context.Context, sess *topology.Session, o Options) []*extract.Page {
	var mu sync.Mutex
	var states []*extract.Page
	_, _ = sess.Explore(ctx, topology.Options{
		MaxStates:  revealMaxStates,
		MaxEdges:   revealMaxEdges,
		MaxDepth:   revealMaxDepth,
		RunTimeout: o.PageTimeout,
		// Only disclosure clicks (a "Book now" button, a tab): following
		// links is the crawl's job and would make every page several
		// times slower.
		ExploreOnly: []topology.RiskCategory{topology.RiskDisclosure},
		Light:       true,
		OnState: func(ctx context.Context, page *rod.Page, st *topology.StateNode) error {
			if st.OpenedByEdgeID == nil {
				return nil // the entry state: already extracted
			}
			p, err := extract.FromPage(ctx, page)
			if err != nil {
				return nil // a state that cannot be read reveals nothing
			}
			mu.Lock()
			states = append(states, p)
			mu.Unlock()
			return nil
		},
	})
	return states
}
