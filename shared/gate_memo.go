package shared

import "sync"

// The consent gate's memo. Of what the gate does on each call, the strict
// read of the action and its consent digest depend on nothing but the
// action's bytes: the same bytes always read as the same action with the
// same digest (the reader and CanonicalConsent consult no clock, file or
// setting). The memo keeps that work for bytes the gate has read in full,
// keyed by the bytes themselves — compared whole, so a document that
// differs by one byte is a miss and is read afresh. Everything else runs on
// every call: the checks that consult the clock, the audit lookup (so a
// revocation or a changed record takes effect on the next call) and the
// comparison of the digest the store answers with the action's.
//
// Only documents without a single issue are kept, so a kept entry is always
// a valid action, and the gate never changes a kept *Action (it only reads
// it); the entries are shared by concurrent calls.

// gateMemoEntries and gateMemoBytes bound the memo: at most this many
// documents, holding at most this many bytes of keys; a document larger
// than gateMemoMaxDoc is never kept.
const (
	gateMemoEntries = 128
	gateMemoBytes   = 8 << 20
	gateMemoMaxDoc  = 1 << 20
)

// gateParse is what the gate derived from one document's bytes.
type gateParse struct {
	act     *Action
	subject ConsentSubject // ConsentSubjectOf(act, the confirmation's limits)
	digest  string         // ConsentDigest(subject)
	err     error          // ConsentDigest's error, when it failed
}

type gateMemo struct {
	mu    sync.Mutex
	m     map[string]*gateParse
	bytes int
}

var theGateMemo = &gateMemo{m: map[string]*gateParse{}}

// get returns the entry for exactly these bytes, or nil.
func (g *gateMemo) get(doc []byte) *gateParse {
	if len(doc) > gateMemoMaxDoc {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m[string(doc)]
}

// put keeps p for a copy of doc, making room by dropping other entries.
func (g *gateMemo) put(doc []byte, p *gateParse) {
	if len(doc) > gateMemoMaxDoc {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.m[string(doc)]; ok {
		return
	}
	for k := range g.m {
		if len(g.m) < gateMemoEntries && g.bytes+len(doc) <= gateMemoBytes {
			break
		}
		g.bytes -= len(k)
		delete(g.m, k)
	}
	g.m[string(doc)] = p
	g.bytes += len(doc)
}

// consentOf returns the subject and digest of a valid action for the
// gate's audit check, from the memo when p is an entry for its bytes.
func (p *gateParse) consentOf(act *Action, c *OwnerConfirmation) (ConsentSubject, string, error) {
	if p != nil {
		return p.subject, p.digest, p.err
	}
	subject := ConsentSubjectOf(act, c.Limits)
	digest, err := ConsentDigest(subject)
	return subject, digest, err
}
