package formasaurus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/go-rod/rod/lib/proto"
)

// Options configures Run.
type Options struct {
	// Static extracts with extract.FromHTML instead of Chromium (fast, but
	// blind to computed visibility); the headline figures use the browser.
	Static bool
	// Workers is the number of pages loaded at once (default 2).
	Workers int
	// PageTimeout bounds one page: load and extraction (default 30s).
	PageTimeout time.Duration
	// Progress receives one line per 50 pages; nil is silent.
	Progress io.Writer
	// Only, when non-empty, restricts the run to pages of that split.
	Only string
	// Explain, when set, receives one line per wrong field and form of the
	// dev split (never the holdout: looking at it would tune to it).
	Explain io.Writer
}

// Report is what Run measured.
type Report struct {
	Command  string             `json:"command"`
	Date     string             `json:"date"`
	Mode     string             `json:"mode"`
	Chromium string             `json:"chromium"`
	Corpus   string             `json:"corpus"`
	Pages    int                `json:"pages"`
	Seconds  float64            `json:"seconds"`
	Splits   map[string]Figures `json:"splits"`
	Method   string             `json:"method"`
	Failures []string           `json:"failures"`
}

// Figures are the scores of one split.
type Figures struct {
	Pages                int                `json:"pages"`
	PagesFailed          int                `json:"pagesFailed"`
	PagesStaticFallback  int                `json:"pagesStaticFallback"`
	FormsLabelled        int                `json:"formsLabelled"`
	FormsAligned         int                `json:"formsAligned"`
	FormsUnaligned       int                `json:"formsUnaligned"`
	FormsDroppedByParser int                `json:"formsDroppedByParser"`
	FieldAccuracy        float64            `json:"fieldAccuracy"`
	FieldsScored         int                `json:"fieldsScored"`
	FieldsRight          int                `json:"fieldsRight"`
	FieldsNotFound       int                `json:"fieldsNotFound"`
	UnknownLabelAccuracy float64            `json:"unknownLabelAccuracy"`
	UnknownLabelFields   int                `json:"unknownLabelFields"`
	HoneypotRecall       float64            `json:"honeypotRecall"`
	HoneypotPrecision    float64            `json:"honeypotPrecision"`
	Honeypots            int                `json:"honeypots"`
	PurposeAccuracy      float64            `json:"purposeAccuracy"`
	PurposeScored        int                `json:"purposeScored"`
	CustomerAction       PRF                `json:"customerAction"`
	CustomerActionStrict PRF                `json:"customerActionStrict"`
	PerType              map[string]TypePRF `json:"perType"`
	TopFieldConfusions   []string           `json:"topFieldConfusions"`
	TopFormConfusions    []string           `json:"topFormConfusions"`
	// Intervals95 are 95% bootstrap intervals (pages resampled, see
	// bootstrap) of fieldAccuracy, customerActionF1 and honeypotRecall: how
	// far the figure could move on another sample of pages like these.
	Intervals95 map[string][2]float64 `json:"intervals95"`
}

// PRF is precision, recall and F1 of a binary decision.
type PRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
}

// TypePRF is precision and recall of one semantic type.
type TypePRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	Support   int     `json:"support"`
}

// Method describes the scoring, recorded with the figures.
const Method = "Pages served from the corpus on 127.0.0.1 as text/html; charset=utf-8, third-party requests blocked; " +
	"labelled forms the browser never builds (in <noscript>, nested in an open form; found by tokenising the raw HTML) dropped; " +
	"labelled forms aligned with document.forms by order when counts agree, else by field-name overlap (Jaccard >= 0.5, monotone). " +
	"fieldAccuracy: fields whose label maps to one of our semantic types (README table), right when our semantic equals it; a labelled field we did not find counts wrong. " +
	"unknownLabelAccuracy: labels mapped to 'unknown', right when we say unknown. " +
	"purposeAccuracy: labels s,l,r,p,m,b,c,o (P,V,N,C simplified to o); c is right as any customer action or comment. " +
	"customerAction: label c positive, s,l,r,p,m,b negative, o,-,X not scored; predicted positive = customerAction or comment (README: c is contact/comment); customerActionStrict counts customerAction only. " +
	"A page the browser cannot render (endless script, redirect) is scored from its markup (extract.FromHTML) and counted in pagesStaticFallback. " +
	"Splits: holdout = FNV-32a(file name) % 5 == 0, never used for tuning."

// Run loads every page (or the split in o.Only), extracts and classifies
// it, and scores it against the labels.
func Run(ctx context.Context, c *Corpus, o Options) (*Report, error) {
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = 30 * time.Second
	}
	start := time.Now()
	rep := &Report{Date: time.Now().UTC().Format(time.RFC3339), Mode: "browser", Corpus: c.Dir, Method: Method, Failures: []string{}}
	var pages []Page
	for _, p := range c.Pages {
		if o.Only == "" || p.Split == o.Only {
			pages = append(pages, p)
		}
	}
	rep.Pages = len(pages)

	var load func(ctx context.Context, p Page) (*extract.Page, error)
	if o.Static {
		rep.Mode = "static"
		load = func(_ context.Context, p Page) (*extract.Page, error) {
			raw, err := os.ReadFile(filepath.Join(c.Dir, p.File))
			if err != nil {
				return nil, err
			}
			return extract.FromHTML("http://127.0.0.1/"+p.File, raw)
		}
	} else {
		srv := httptest.NewServer(utf8Files(c.Dir))
		defer srv.Close()
		b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
		if err != nil {
			return nil, err
		}
		defer b.Close()
		if v, err := (proto.BrowserGetVersion{}).Call(b.Rod()); err == nil {
			rep.Chromium = v.Product
		}
		load = func(ctx context.Context, p Page) (*extract.Page, error) {
			pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
			defer cancel()
			page, err := b.OpenPage(pctx, srv.URL+"/"+p.File, topology.PageOptions{Offline: true, LoadTimeout: 5 * time.Second})
			if err != nil {
				return nil, err
			}
			defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
			return extract.FromPage(pctx, page)
		}
	}

	counts := map[string]*Counts{"all": newCounts(), "dev": newCounts(), "holdout": newCounts()}
	counts["dev"].explain = o.Explain
	var mu sync.Mutex
	jobs := make(chan Page)
	var wg sync.WaitGroup
	done := 0
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				raw, rerr := os.ReadFile(filepath.Join(c.Dir, p.File))
				var ep *extract.Page
				err := rerr
				fallback := false
				if err == nil {
					ep, err = load(ctx, p)
					if err != nil && !o.Static && ctx.Err() == nil {
						// A page the browser could not render (an endless
						// script, a redirect away) is still scored, from its
						// markup, so failures do not drop hard pages.
						if sp, serr := extract.FromHTML("http://127.0.0.1/"+p.File, raw); serr == nil {
							ep, fallback = sp, true
						}
					}
				}
				mu.Lock()
				done++
				if o.Progress != nil && done%50 == 0 {
					fmt.Fprintf(o.Progress, "formeval: %d/%d pages\n", done, len(pages))
				}
				if err != nil && !fallback {
					for _, k := range []string{"all", p.Split} {
						counts[k].Pages++
						counts[k].PagesFailed++
					}
					rep.Failures = append(rep.Failures, p.File+": "+firstLine(err.Error()))
					mu.Unlock()
					continue
				}
				if fallback {
					for _, k := range []string{"all", p.Split} {
						counts[k].PagesStatic++
					}
					rep.Failures = append(rep.Failures, p.File+": "+firstLine(err.Error())+" (scored from its markup)")
				}
				r := read(p, DroppedForms(raw), ep)
				for _, k := range []string{"all", p.Split} {
					counts[k].scorePage(r)
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range pages {
		if ctx.Err() != nil {
			break
		}
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.Strings(rep.Failures)
	rep.Splits = map[string]Figures{}
	for k, c := range counts {
		rep.Splits[k] = c.figures()
	}
	rep.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	return rep, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// utf8Files serves dir with every .html page declared UTF-8: the corpus
// stores pages in UTF-8 whatever charset their markup declares.
func utf8Files(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fs.ServeHTTP(w, r)
	})
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return math.Round(float64(a)/float64(b)*1000) / 1000
}

func prf(tp, fp, fn int) PRF {
	p, r := ratio(tp, tp+fp), ratio(tp, tp+fn)
	f := 0.0
	if p+r > 0 {
		f = math.Round(2*p*r/(p+r)*1000) / 1000
	}
	return PRF{Precision: p, Recall: r, F1: f, TP: tp, FP: fp, FN: fn}
}

func (c *Counts) figures() Figures {
	f := Figures{
		Pages: c.Pages, PagesFailed: c.PagesFailed, PagesStaticFallback: c.PagesStatic, FormsLabelled: c.FormsLabelled, FormsAligned: c.FormsAligned,
		FormsUnaligned: c.FormsUnaligned, FormsDroppedByParser: c.FormsDropped,
		FieldAccuracy: ratio(c.FieldsRight, c.FieldsScored), FieldsScored: c.FieldsScored, FieldsRight: c.FieldsRight, FieldsNotFound: c.FieldsMissing,
		UnknownLabelAccuracy: ratio(c.UnknownRight, c.UnknownScored), UnknownLabelFields: c.UnknownScored,
		HoneypotRecall: ratio(c.HoneypotsFound, c.Honeypots), HoneypotPrecision: ratio(c.HoneypotsClaimedRight, c.HoneypotsClaimed), Honeypots: c.Honeypots,
		PurposeAccuracy: ratio(c.PurposeRight, c.PurposeScored), PurposeScored: c.PurposeScored,
		CustomerAction: prf(c.TP, c.FP, c.FN), CustomerActionStrict: prf(c.StrictTP, c.StrictFP, c.StrictFN),
		PerType: map[string]TypePRF{},
	}
	for s, t := range c.perType {
		if t.tp+t.fn == 0 && t.fp == 0 {
			continue
		}
		f.PerType[string(s)] = TypePRF{Precision: ratio(t.tp, t.tp+t.fp), Recall: ratio(t.tp, t.tp+t.fn), Support: t.tp + t.fn}
	}
	f.TopFieldConfusions = top(c.Confusions, 15)
	f.TopFormConfusions = top(c.PurposeConfusions, 15)
	f.Intervals95 = bootstrap(c.tallies, bootstrapRounds)
	return f
}

// bootstrapRounds resamples; the seed is fixed so a run is reproducible.
const (
	bootstrapRounds = 2000
	bootstrapSeed   = 2016
)

// bootstrap resamples pages with replacement and returns the 2.5th and
// 97.5th percentiles of each headline figure. Pages, not fields, are the
// unit: the fields of one page share a site's habits, so treating them as
// independent would claim more certainty than the data holds.
func bootstrap(pages []tally, rounds int) map[string][2]float64 {
	out := map[string][2]float64{}
	if len(pages) == 0 {
		return out
	}
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(pages))))
	// A resample with nothing to score (no honeypot drawn) says nothing
	// about that figure and is left out of its distribution.
	var fields, f1, hp []float64
	for range rounds {
		var sum tally
		for range pages {
			sum = sum.plus(pages[rng.IntN(len(pages))])
		}
		if sum.fieldsScored > 0 {
			fields = append(fields, ratio(sum.fieldsRight, sum.fieldsScored))
		}
		if sum.tp+sum.fp+sum.fn > 0 {
			f1 = append(f1, prf(sum.tp, sum.fp, sum.fn).F1)
		}
		if sum.honeypots > 0 {
			hp = append(hp, ratio(sum.honeypotsFound, sum.honeypots))
		}
	}
	for name, xs := range map[string][]float64{"fieldAccuracy": fields, "customerActionF1": f1, "honeypotRecall": hp} {
		if len(xs) == 0 {
			continue
		}
		sort.Float64s(xs)
		out[name] = [2]float64{xs[len(xs)*25/1000], xs[(len(xs)*975+999)/1000-1]}
	}
	return out
}

func top(m map[string]int, n int) []string {
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool {
		if kvs[i].v != kvs[j].v {
			return kvs[i].v > kvs[j].v
		}
		return kvs[i].k < kvs[j].k
	})
	out := []string{}
	for i, e := range kvs {
		if i >= n {
			break
		}
		out = append(out, fmt.Sprintf("%s ×%d", e.k, e.v))
	}
	return out
}

// ErrResults reports a results file that exists but is not a JSON object.
var ErrResults = errors.New("formasaurus: results file is not a JSON object; fix or move it, it is shared with the benchmark")

// WriteResults stores rep under the "classifier" key of the JSON object in
// path, keeping every other top-level key (read-modify-write).
func WriteResults(path string, rep *Report) error {
	doc := map[string]json.RawMessage{}
	raw, err := os.ReadFile(path)
	switch {
	case err == nil && len(strings.TrimSpace(string(raw))) > 0:
		if err := json.Unmarshal(raw, &doc); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrResults, path, err)
		}
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	doc["classifier"] = b
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
