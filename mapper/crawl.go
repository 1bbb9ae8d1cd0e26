package mapper

import (
	"container/heap"
	"net/url"
	"path"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// Crawl scores: a link whose words name an action beats one whose path
// does; booking and quote pages come first because they carry the richest
// forms; any other page link (the navigation) is visited last, while the
// page budget lasts — an enquiry often sits on a "Private dining" or
// "Weddings" page whose link names no action.
const (
	scoreTextIntent = 10
	scorePathIntent = 8
	scoreRichKind   = 3
	scoreOtherPage  = 1
	// A same-site page shown in an iframe is part of the page a person
	// sees (an embedded booking or contact page): read it early.
	scoreFrame = scoreTextIntent
)

// pageExtensions are the path extensions of pages (no extension is a page too).
var pageExtensions = map[string]bool{"": true, ".html": true, ".htm": true, ".php": true, ".asp": true, ".aspx": true, ".jsp": true, ".cfm": true}

// scoreLink returns the URL of a same-site page link and how likely it
// leads to an action; 0 means do not follow (another site, a file).
func scoreLink(site *url.URL, l extract.Link) (string, int) {
	u, ok := sitePage(site, l.Href)
	if !ok {
		return "", 0
	}
	score := scoreOtherPage
	kind := shared.KindUnknown
	if k, _, ok := intentOf(l.Text); ok {
		score, kind = scoreTextIntent, k
	}
	if k, _, ok := intentOf(strings.NewReplacer("-", " ", ".", " ").Replace(u.Path)); ok && score == scoreOtherPage {
		score, kind = scorePathIntent, k
	}
	if kind == shared.KindBooking || kind == shared.KindQuote {
		score += scoreRichKind
	}
	return u.String(), score
}

// scoreFrameSrc returns the URL of a same-site page shown in an iframe and
// its crawl score; 0 for a frame of another site (a vendor widget, read
// as an opaque door) or a file.
func scoreFrameSrc(site *url.URL, f extract.Frame) (string, int) {
	u, ok := sitePage(site, f.Src)
	if !ok {
		return "", 0
	}
	return u.String(), scoreFrame
}

// sitePage parses href as a page of site, fragment dropped; false for
// another site or a file that is not a page.
func sitePage(site *url.URL, href string) (*url.URL, bool) {
	u, err := url.Parse(href)
	if err != nil || !sameSite(site, u) {
		return nil, false
	}
	u.Fragment = ""
	return u, pageExtensions[strings.ToLower(path.Ext(u.Path))]
}

// queue is a priority queue of pages to visit: best score first, then the
// order links were found in, so a crawl is deterministic.
type queue []queued

type queued struct {
	url   string
	score int
	seq   int
}

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].score != q[j].score {
		return q[i].score > q[j].score
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// frontier holds the queue and what has been queued.
type frontier struct {
	q      queue
	queued map[string]bool
	seq    int
}

func newFrontier() *frontier { return &frontier{queued: map[string]bool{}} }

func (f *frontier) push(u string, score int) {
	key := canonicalPage(u)
	if f.queued[key] {
		return
	}
	f.queued[key] = true
	f.seq++
	heap.Push(&f.q, queued{url: u, score: score, seq: f.seq})
}

func (f *frontier) pop() (queued, bool) {
	if f.q.Len() == 0 {
		return queued{}, false
	}
	return heap.Pop(&f.q).(queued), true
}

// canonicalPage identifies a page for the visited set: host without www,
// path without a trailing slash or index file, query kept.
func canonicalPage(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	p := strings.TrimSuffix(u.Path, "/")
	for _, idx := range []string{"/index.html", "/index.htm", "/index.php"} {
		p = strings.TrimSuffix(p, idx)
	}
	return strings.TrimPrefix(strings.ToLower(u.Host), "www.") + p + "?" + u.RawQuery
}
