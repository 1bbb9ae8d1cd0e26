package mapper

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// maxRedirects bounds a redirect chain: that many redirects are followed,
// and one more is treated as a loop.
const maxRedirects = 10

// errRedirect marks a redirect chain the client refused to follow.
var errRedirect = errors.New("redirect chain")

// fetched is one plain HTTP response read within bounds.
type fetched struct {
	URL         string // final URL after redirects
	Status      int
	ContentType string // media type without parameters, lower case
	Header      http.Header
	Body        []byte
}

// defaultClient is the keep-alive client of every Map that names none: one
// transport, so the connections to a site are reused across its pre-flights,
// robots.txt and catalog fetches.
var defaultClient = &http.Client{CheckRedirect: checkRedirect, Transport: &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	MaxIdleConnsPerHost: 8,
	IdleConnTimeout:     30 * time.Second,
	ForceAttemptHTTP2:   true,
}}

// httpClient returns the caller's client or the bounded keep-alive one
// that detects loops.
func (o Options) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return defaultClient
}

// fetcher runs one Map's plain HTTP requests: paced per host, and able to
// start a request ahead (robots.txt, the well-known catalogs) while the
// browser loads a page, the answer waiting until the crawl asks for it.
type fetcher struct {
	mu    sync.Mutex
	ahead map[string]*pendingFetch
}

type pendingFetch struct {
	done chan struct{}
	f    *fetched
	err  error
}

// prefetch starts GETting raw now; fetch of the same URL and accept later
// takes its answer.
func (o Options) prefetch(ctx context.Context, raw, accept string) {
	if o.fetcher == nil {
		return
	}
	key := accept + " " + raw
	o.fetcher.mu.Lock()
	defer o.fetcher.mu.Unlock()
	if _, ok := o.fetcher.ahead[key]; ok {
		return
	}
	p := &pendingFetch{done: make(chan struct{})}
	o.fetcher.ahead[key] = p
	go func() {
		p.f, p.err = fetchNow(ctx, o, raw, accept)
		close(p.done)
	}()
}

// taken returns a prefetched answer, waiting for it if needed (kept for
// the Map's life: robots.txt is read for its rules and its Agentmap lines).
func (o Options) taken(ctx context.Context, raw, accept string) (*pendingFetch, bool) {
	if o.fetcher == nil {
		return nil, false
	}
	key := accept + " " + raw
	o.fetcher.mu.Lock()
	p, ok := o.fetcher.ahead[key]
	o.fetcher.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-p.done:
		return p, true
	case <-ctx.Done():
		return &pendingFetch{err: &FetchError{URL: raw, Kind: ErrUnreachable, Cause: ctx.Err()}}, true
	}
}

// checkRedirect refuses a redirect back to a URL already visited in the
// chain, and chains longer than maxRedirects.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects { // req is redirect number len(via) of the chain
		return fmt.Errorf("%w: more than %d redirects", errRedirect, maxRedirects)
	}
	for _, v := range via {
		if v.URL.String() == req.URL.String() {
			return fmt.Errorf("%w: %s is visited twice", errRedirect, req.URL)
		}
	}
	return nil
}

// parseSiteURL checks that raw is an absolute http(s) URL with a host.
func parseSiteURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &FetchError{URL: raw, Kind: ErrInvalidURL, Cause: err}
	}
	u.Fragment = ""
	return u, nil
}

// fetch GETs raw within o.FetchTimeout and o.MaxFetchBytes. It returns a
// *FetchError for no answer, an error status or a redirect loop; the
// content type is the caller's to judge.
func fetch(ctx context.Context, o Options, raw string, accept string) (*fetched, error) {
	if p, ok := o.taken(ctx, raw, accept); ok {
		return p.f, p.err
	}
	return fetchNow(ctx, o, raw, accept)
}

func fetchNow(ctx context.Context, o Options, raw string, accept string) (*fetched, error) {
	req, err := http.NewRequest(http.MethodGet, raw, nil)
	if err != nil {
		return nil, &FetchError{URL: raw, Kind: ErrInvalidURL, Cause: err}
	}
	// Waiting for the host's turn is the run's time, not the request's:
	// FetchTimeout starts once the turn has come.
	if err := o.Limiter.Wait(ctx, req.URL.Host); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.FetchTimeout)
	defer cancel()
	req = req.WithContext(ctx)
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", o.UserAgent)
	resp, err := o.httpClient().Do(req)
	if err != nil {
		if errors.Is(err, errRedirect) {
			return nil, &FetchError{URL: raw, Kind: ErrRedirectLoop, Cause: err}
		}
		return nil, &FetchError{URL: raw, Kind: ErrUnreachable, Cause: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, o.MaxFetchBytes))
	if err != nil {
		return nil, &FetchError{URL: raw, Kind: ErrUnreachable, Status: resp.StatusCode, Cause: fmt.Errorf("reading the body: %w", err)}
	}
	f := &fetched{URL: resp.Request.URL.String(), Status: resp.StatusCode, Header: resp.Header, Body: body}
	f.ContentType = mediaType(resp.Header.Get("Content-Type"), body)
	if err := statusError(raw, f); err != nil {
		return f, err
	}
	return f, nil
}

// statusError is the *FetchError of an error status (nil below 400).
func statusError(raw string, f *fetched) error {
	if f.Status >= 400 {
		return &FetchError{URL: raw, Kind: ErrHTTPStatus, Status: f.Status, ContentType: f.ContentType}
	}
	return nil
}

// checkHTML says why a page's response is not one to map: an error status
// or a body that is not HTML (nil when it is).
func checkHTML(raw string, f *fetched) error {
	if err := statusError(raw, f); err != nil {
		return err
	}
	if !isHTML(f.ContentType) {
		return &FetchError{URL: raw, Kind: ErrNotHTML, Status: f.Status, ContentType: f.ContentType}
	}
	return nil
}

// fetchHTML is fetch that also insists on an HTML page.
func fetchHTML(ctx context.Context, o Options, raw string) (*fetched, error) {
	f, err := fetch(ctx, o, raw, acceptHTML)
	if err != nil {
		return f, err
	}
	return f, checkHTML(raw, f)
}

// mediaType is the declared media type, or a sniffed one when none is declared.
func mediaType(header string, body []byte) string {
	if header == "" {
		header = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(header, ";")[0]))
	}
	return mt
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }
