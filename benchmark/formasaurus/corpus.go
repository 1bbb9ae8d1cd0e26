package formasaurus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/frontlatch/frontlatch/fixtures"
)

// ErrNoCorpus reports that the corpus directory or its index is missing.
var ErrNoCorpus = errors.New("formasaurus: corpus not found")

// Page is one labelled page of the corpus.
type Page struct {
	// File is the page's path relative to the corpus ("html/x.html").
	File string
	// URL is where the page was crawled from (not fetched: pages are served
	// from the corpus).
	URL string
	// Forms[i] labels the i-th <form> start tag of the raw markup.
	Forms []string
	// Fields[i] maps field names of form i to field labels.
	Fields []map[string]string
	// Split is "dev" or "holdout", fixed by a hash of File.
	Split string
}

// Corpus is the loaded index.
type Corpus struct {
	Dir   string
	Pages []Page
}

// DefaultDir is where every developer and CI have the corpus:
// ../shared/corpora/formasaurus-dev beside the repository root.
func DefaultDir() (string, error) {
	root, err := fixtures.RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "corpora", "formasaurus-dev"), nil
}

// Load reads dir/index.json.
func Load(dir string) (*Corpus, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoCorpus, err)
	}
	var idx map[string]struct {
		URL    string              `json:"url"`
		Forms  []string            `json:"forms"`
		Fields []map[string]string `json:"visible_html_fields"`
	}
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, fmt.Errorf("formasaurus: %s/index.json: %w", dir, err)
	}
	c := &Corpus{Dir: dir}
	for file, e := range idx {
		c.Pages = append(c.Pages, Page{File: file, URL: e.URL, Forms: e.Forms, Fields: e.Fields, Split: SplitOf(file)})
	}
	sort.Slice(c.Pages, func(i, j int) bool { return c.Pages[i].File < c.Pages[j].File })
	return c, nil
}

// SplitOf puts one page in five into "holdout" by a hash of its file name,
// so that tuning on "dev" shows up as a gap between the two.
func SplitOf(file string) string {
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(file)))
	if h.Sum32()%5 == 0 {
		return "holdout"
	}
	return "dev"
}

// DroppedForms reports, for each <form> start tag of the raw markup in
// order, whether a browser never builds it: inside <noscript> (raw text
// when scripting is on) or opened while another form is open (the HTML
// parser ignores it). Labels index these start tags; the browser's
// document.forms does not contain the dropped ones.
func DroppedForms(markup []byte) []bool {
	var out []bool
	z := html.NewTokenizer(bytes.NewReader(markup))
	open := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Form && tt == html.StartTagToken:
				out = append(out, open > 0)
				open++
			case a == atom.Form && tt == html.EndTagToken:
				if open > 0 {
					open = 0 // </form> clears the form element pointer
				}
			case a == atom.Noscript && tt == html.StartTagToken:
				// The tokenizer reads noscript content as raw text: count
				// the forms written in it, all dropped.
				if z.Next() == html.TextToken {
					n := countFormTags(z.Text())
					for i := 0; i < n; i++ {
						out = append(out, true)
					}
				}
			}
		}
	}
}

func countFormTags(b []byte) int {
	n := 0
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return n
		}
		if tt == html.StartTagToken {
			if name, _ := z.TagName(); strings.EqualFold(string(name), "form") {
				n++
			}
		}
	}
}
