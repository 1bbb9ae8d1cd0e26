package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
)

const formsUsage = "frontlatch forms [--json] [--offline] URL|FILE..."

func init() {
	register(command{
		name:    "forms",
		usage:   formsUsage,
		summary: "list every form of a page (then every formless group) with its purpose and each field's semantic type",
		run:     runForms,
	})
}

// formsPageTimeout bounds one page: load, extraction and classification.
const formsPageTimeout = 45 * time.Second

// formsLine is one page of `forms --json` output. The shape is relied on
// by independent checks: keep it exactly.
type formsLine struct {
	URL   string      `json:"url"`
	Error *string     `json:"error"`
	Forms []formsForm `json:"forms"`
}

type formsForm struct {
	Index          *int                `json:"index"`
	Formless       bool                `json:"formless"`
	Purpose        classify.Purpose    `json:"purpose"`
	CustomerAction bool                `json:"customerAction"`
	Kind           *shared.ActionKind  `json:"kind"`
	Fields         []formsField        `json:"fields"`
	locator        string              // readable output only
	evidence       []string            // readable output only
	fieldEvidence  map[string][]string // readable output only
}

type formsField struct {
	Name          string              `json:"name"`
	Label         string              `json:"label"`
	Type          string              `json:"type"`
	Semantic      shared.SemanticType `json:"semantic"`
	Required      bool                `json:"required"`
	AgentFillable bool                `json:"agentFillable"`
	Confidence    float64             `json:"confidence"`
}

func runForms(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("forms", stderr)
	asJSON := fs.Bool("json", false, "one JSON object per page and line")
	offline := fs.Bool("offline", false, "block every request outside the page's origin (and resolve no host but loopback)")
	targets, perr := parseInterspersed(fs, args)
	if perr != nil {
		return parseExit(perr)
	}
	if len(targets) == 0 {
		fs.Usage()
		return exitUsage
	}

	// Files are served from one loopback server, as UTF-8, so they load in
	// the browser like pages.
	files := map[string]string{} // URL path → file
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeFile(w, r, f)
	}))
	defer srv.Close()

	// Every target is resolved first, and Chromium launched only if one of
	// them is a page to open: a line of arguments that are neither files nor
	// URLs launches nothing (each is still reported on its own line).
	urls := make([]string, len(targets))
	errs := make([]error, len(targets))
	open := 0
	for i, t := range targets {
		if urls[i], errs[i] = targetURL(t, i, srv.URL, files); errs[i] == nil {
			open++
		}
	}
	var b *topology.Browser
	if open > 0 {
		var err error
		if b, err = newBrowser(ctx, topology.BrowserOptions{Offline: *offline}); err != nil {
			return launchFailed(stderr, "forms", err)
		}
		defer b.Close()
	}

	failed := false
	for i, t := range targets {
		line := formsLine{URL: t, Forms: []formsForm{}}
		err := errs[i]
		if err == nil {
			line.Forms, err = formsOf(ctx, b, urls[i], *offline)
		}
		if err != nil {
			failed = true
			msg := err.Error()
			line.Error = &msg
			line.Forms = []formsForm{}
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(line); err != nil {
				fmt.Fprintln(stderr, "frontlatch forms:", err)
				return exitUsage
			}
		} else {
			printForms(stdout, line)
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "frontlatch forms: interrupted")
			return exitFail
		}
	}
	if failed {
		return exitFail
	}
	return exitOK
}

// ErrNotATarget reports an argument that is neither an existing file nor
// an http(s) URL.
var ErrNotATarget = errors.New("not a file and not an http(s) URL: give a path to an HTML file or a URL such as https://example.com/contact")

func targetURL(t string, i int, base string, files map[string]string) (string, error) {
	if st, err := os.Stat(t); err == nil && !st.IsDir() {
		abs, err := filepath.Abs(t)
		if err != nil {
			return "", err
		}
		p := fmt.Sprintf("/%d/%s", i, url.PathEscape(filepath.Base(t)))
		files[p] = abs
		return base + p, nil
	}
	u, err := url.Parse(t)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q: %w", t, ErrNotATarget)
	}
	return u.String(), nil
}

func formsOf(ctx context.Context, b *topology.Browser, u string, offline bool) ([]formsForm, error) {
	pctx, cancel := context.WithTimeout(ctx, formsPageTimeout)
	defer cancel()
	page, err := b.OpenPage(pctx, u, topology.PageOptions{Offline: offline})
	if err != nil {
		return nil, err
	}
	defer page.Context(context.Background()).Timeout(5 * time.Second).Close()
	p, err := extract.FromPage(pctx, page)
	if err != nil {
		return nil, err
	}
	out := make([]formsForm, 0, len(p.Forms)+len(p.Groups))
	for _, f := range p.Forms {
		out = append(out, formView(f, p))
	}
	for _, f := range p.Groups {
		out = append(out, formView(f, p))
	}
	return out, nil
}

func formView(f extract.Form, p *extract.Page) formsForm {
	fields := classify.Fields(f, p)
	fr := classify.FormWith(f, p, fields)
	v := formsForm{Formless: f.Formless, Purpose: fr.Purpose, CustomerAction: fr.CustomerAction, Kind: fr.Kind,
		Fields: make([]formsField, 0, len(f.Fields)), locator: f.Locator, evidence: fr.Evidence, fieldEvidence: map[string][]string{}}
	if !f.Formless {
		i := f.Index
		v.Index = &i
	}
	for i, fl := range f.Fields {
		r := fields[i]
		v.Fields = append(v.Fields, formsField{Name: fl.Name, Label: fl.Label, Type: fl.Type, Semantic: r.Semantic,
			Required: fl.Required, AgentFillable: r.AgentFillable, Confidence: r.Confidence})
		v.fieldEvidence[fl.Name] = r.Evidence
	}
	return v
}

func printForms(w io.Writer, l formsLine) {
	w = termSafe(w) // labels, ids and locators came from the page
	fmt.Fprintln(w, l.URL)
	if l.Error != nil {
		fmt.Fprintf(w, "  error: %s\n\n", *l.Error)
		return
	}
	if len(l.Forms) == 0 {
		fmt.Fprintln(w, "  no forms")
	}
	for _, f := range l.Forms {
		head := "formless group"
		if f.Index != nil {
			head = fmt.Sprintf("form #%d", *f.Index)
		}
		action := "not a customer action"
		if f.CustomerAction {
			action = "customer action: " + string(*f.Kind)
		}
		fmt.Fprintf(w, "  %s  %s  (%s)  %s\n", head, f.Purpose, action, f.locator)
		if len(f.evidence) > 0 {
			fmt.Fprintf(w, "    because: %s\n", strings.Join(f.evidence, "; "))
		}
		for _, fl := range f.Fields {
			flags := []string{}
			if fl.Required {
				flags = append(flags, "required")
			}
			if !fl.AgentFillable {
				flags = append(flags, "not agent-fillable")
			}
			fmt.Fprintf(w, "    %-24s %-10s %-22s %.2f  %q %s\n", trunc(fl.Name, 24), fl.Type, fl.Semantic, fl.Confidence, trunc(fl.Label, 40), strings.Join(flags, ", "))
		}
	}
	fmt.Fprintln(w)
}

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
