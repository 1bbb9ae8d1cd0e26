package extract

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/go-rod/rod"
)

//go:embed extract.js
var extractSource string

// extractJS is extract.js with its pagejs helpers (topology's norm and
// labelsOf) inlined.
var extractJS = pagejs.MustInline(extractSource)

// DefaultEvalTimeout bounds the one Evaluate FromPage runs when ctx carries
// no deadline of its own.
const DefaultEvalTimeout = 20 * time.Second

// ErrNilPage reports a nil *rod.Page given to FromPage.
var ErrNilPage = errors.New("extract: FromPage was given a nil page")

// ErrParse reports markup FromHTML could not read.
var ErrParse = errors.New("extract: cannot parse HTML")

// Error is an extraction failure for one page: the in-page script did not
// run (page closed, navigated away, timed out, blocked by a dialog) or
// returned something unreadable. Unwrap gives the cause.
type Error struct {
	URL string
	Op  string // "evaluate", "decode", "parse"
	Err error
}

func (e *Error) Error() string {
	if e.URL == "" {
		return fmt.Sprintf("extract: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("extract: %s %s: %v", e.Op, e.URL, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// FromPage extracts a Page from a loaded document with one in-page
// Evaluate (PageScript: the extraction and the forms' submit listeners). It
// does not navigate or wait for load: the caller owns the page and its
// lifecycle. The call is bounded by ctx, or DefaultEvalTimeout when ctx has
// no deadline.
func FromPage(ctx context.Context, page *rod.Page) (*Page, error) {
	p, _, err := FromPageWith(ctx, page, "")
	return p, err
}

func pageURL(p *rod.Page) string {
	defer func() { _ = recover() }() // rod panics on a closed target; only a label is at stake
	if info, err := p.Timeout(2 * time.Second).Info(); err == nil && info != nil {
		return info.URL
	}
	return "" // Error leaves out a URL it could not learn
}

// normalize makes nil slices empty so JSON output never says null for a
// list, and keeps Index consistent with position.
func (p *Page) normalize() {
	if p.Forms == nil {
		p.Forms = []Form{}
	}
	if p.Groups == nil {
		p.Groups = []Form{}
	}
	for i := range p.Forms {
		p.Forms[i].Index = i
		p.Forms[i].normalize()
	}
	for i := range p.Groups {
		p.Groups[i].Index = -1
		p.Groups[i].Formless = true
		p.Groups[i].normalize()
	}
	if p.Links == nil {
		p.Links = []Link{}
	}
	if p.Scripts == nil {
		p.Scripts = []Script{}
	}
	if p.Frames == nil {
		p.Frames = []Frame{}
	}
	if p.JSONLD == nil {
		p.JSONLD = []string{}
	}
	if p.LinkRels == nil {
		p.LinkRels = []LinkRel{}
	}
	if p.Meta == nil {
		p.Meta = []Meta{}
	}
	if p.Embeds == nil {
		p.Embeds = []Element{}
	}
	if p.Truncated == nil {
		p.Truncated = []string{}
	}
}

func (f *Form) normalize() {
	if f.Fields == nil {
		f.Fields = []Field{}
	}
	if f.Submits == nil {
		f.Submits = []Submit{}
	}
	if f.Wrappers == nil {
		f.Wrappers = []Element{}
	}
	if f.Widgets == nil {
		f.Widgets = []Element{}
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.Options == nil {
			fl.Options = []Option{}
		}
		if fl.AutocompleteTokens == nil {
			fl.AutocompleteTokens = []string{}
		}
		if fl.WrapperClasses == nil {
			fl.WrapperClasses = []string{}
		}
		if fl.Visibility.Reasons == nil {
			fl.Visibility.Reasons = []string{}
		}
	}
	if f.Visibility.Reasons == nil {
		f.Visibility.Reasons = []string{}
	}
}
