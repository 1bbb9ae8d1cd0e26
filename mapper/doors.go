package mapper

import (
	"net/url"
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// pageDoors is the doors stage's output for one page: every door it
// offers, read from the page alone, as plain values. Nothing is grouped
// yet: a door seen on several pages is in each page's pageDoors, and the
// actions stage (actionSet) makes it one. A door left out carries the note
// that says why, so nothing is dropped in silence.
type pageDoors struct {
	url        string         // the page as visited
	siteName   string         // og:site_name or application-name, "" when none
	forms      []formDoor     // the forms of the page as loaded, in document order
	revealed   []formDoor     // the forms only a revealed state showed
	loginPages []string       // canonicalPage of each state whose form signs a member in
	links      []linkSighting // tel:, mailto: and link-out links
	vendors    []vendorSighting
	structured []ldDoor   // potentialActions of the page's JSON-LD
	ldNotes    []string   // JSON-LD blocks that could not be read
	tools      []toolDoor // WebMCP tools the page registered
}

// findDoors is the doors stage of one page visit: its forms (and those a
// click revealed), links, widgets, structured data and WebMCP tools. seen
// records the form elements already read, so one element seen in several
// states, or on a page reached twice, counts once; it is the only thing
// the stage changes.
func findDoors(s signer, site *url.URL, cls classifier, v *pageVisit, seen map[string]bool) pageDoors {
	pd := pageDoors{url: v.url, siteName: siteNameOf(v.doc)}
	pd.forms, pd.loginPages = formDoors(s, site, cls, v.doc, v.challenge, seen)
	pd.links = linkSightings(site, v.doc)
	pd.vendors = vendorSightings(v.doc)
	pd.structured, pd.ldNotes = structuredDoors(s, site, cls, v.doc)
	pd.tools = webmcpDoors(s, site, cls, v.url, v.tools)
	for _, st := range v.revealed {
		fs, login := formDoors(s, site, cls, st, v.challenge, seen)
		pd.revealed = append(pd.revealed, fs...)
		pd.loginPages = append(pd.loginPages, login...)
		// a modal may hold a widget or a link the page as loaded did not
		// show (a "Book now" that opens a scheduler's frame); a vendor is
		// counted once per page, and a link the page already showed is
		// not counted again
		pd.vendors = append(pd.vendors, vendorSightings(st)...)
		pd.links = append(pd.links, newLinks(pd.links, linkSightings(site, st))...)
	}
	return pd
}

// newLinks are the sightings of more that are of a link (key and page)
// not in have.
func newLinks(have, more []linkSighting) []linkSighting {
	seen := map[string]bool{}
	for _, l := range have {
		seen[l.key+" "+l.page] = true
	}
	var out []linkSighting
	for _, l := range more {
		if !seen[l.key+" "+l.page] {
			out = append(out, l)
		}
	}
	return out
}

// siteNameOf is the name a page gives its site in its metadata, "" when
// it gives none.
func siteNameOf(p *extract.Page) string {
	for _, m := range p.Meta {
		if strings.EqualFold(m.Property, "og:site_name") || strings.EqualFold(m.Name, "application-name") {
			if n := strings.TrimSpace(m.Content); n != "" {
				return clip(n, 120)
			}
		}
	}
	return ""
}

// keyedDoor is a door and the key that tells its copies apart within one
// action ("html-form", "webmcp|<tool>", "ld"…).
type keyedDoor struct {
	key    string
	access shared.Access
}

// actionHead is what a door says about the action it opens, used when the
// door is the first of that action: its key (doors of one action share
// it), kind, label, page and id part, and the provenance of the action.
type actionHead struct {
	key        string
	kind       shared.ActionKind
	label      string
	page       string
	idPart     string
	provenance shared.Provenance
}

// lowerHost is the site's host name in lower case (effects compare the
// hosts data is sent to with it).
func lowerHost(site *url.URL) string { return strings.ToLower(site.Hostname()) }
