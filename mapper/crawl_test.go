package mapper

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// contactForm is one contact form, repeated identically wherever it appears.
const contactForm = `<form id="enquiry-form" action="/send" method="post" aria-label="Contact us">
<label for="n">Your name</label><input id="n" name="your-name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="your-email" type="email" required>
<label for="m">Message</label><textarea id="m" name="your-message" required></textarea>
<button type="submit">Send message</button></form>`

// The same form in a hidden header modal, in the footer and on the contact
// page is one action: one door with occurrences 3.
func TestFoldingAcrossPages(t *testing.T) {
	home := page("Acme", `<nav><a href="/">Home</a> <a href="/contact/">Contact</a> <a href="/about/">About</a></nav>
<div class="modal" role="dialog" hidden>`+contactForm+`</div><main><h1>Acme</h1></main><footer>`+contactForm+`</footer>`)
	contact := page("Contact", `<h1>Contact us</h1>`+contactForm)
	g := mapSite(t, site{pages: map[string]string{"/": home, "/contact/": contact, "/about/": page("About", "<h1>About</h1>")}}, nil)
	want := []actionSummary{{Kind: shared.KindContact,
		Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/send", Occurrences: 3}},
		Fillable: []string{"your-name:person-name!", "your-email:email!", "your-message:message!"},
		Effects:  []shared.EffectKind{shared.EffectSendsEmailToBusiness}}}
	if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
		t.Fatalf("graph (-want +got):\n%s", diff)
	}
	ev := *g.Actions[0].Access[0].Provenance.Evidence
	if !strings.Contains(ev, "folded to occurrences: 3") || !strings.Contains(ev, "/contact/") {
		t.Errorf("door evidence %q does not explain the fold", ev)
	}
}

// Fields and a send button in a plain container, sent by script, are a
// form too: javascript-only, or json-endpoint when the container names one.
func TestFormlessGroups(t *testing.T) {
	fields := `<label for="qn">Name</label><input id="qn" name="name" autocomplete="name" required>
<label for="qe">Email</label><input id="qe" name="email" type="email" required>
<label for="qm">Message</label><textarea id="qm" name="message" required></textarea>
<button type="button" class="btn">Send message</button>`
	cases := []struct {
		name      string
		container string
		transport shared.Transport
		endpoint  string
	}{
		{"script only", `<div class="quick-message"><h2>Quick message</h2>` + fields + `</div>`, shared.TransportJavascriptOnly, ""},
		{"named endpoint", `<div class="quick-message" data-endpoint="/api/messages"><h2>Quick message</h2>` + fields + `</div>`, shared.TransportJSONEndpoint, "/api/messages"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Acme", tc.container)}}, nil)
			want := []actionSummary{{Kind: shared.KindContact,
				Doors:    []doorSummary{{Method: shared.AccessHTMLForm, Transport: tc.transport, Endpoint: tc.endpoint, Occurrences: 1}},
				Fillable: []string{"name:person-name!", "email:email!", "message:message!"},
				Effects:  []shared.EffectKind{shared.EffectSendsEmailToBusiness}}}
			if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
				t.Fatalf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

// A form that exists only once "Book now" is clicked is found through
// topology's safe exploration, and only with it.
func TestRevealedModal(t *testing.T) {
	home := page("Acme Dental", `<h1>Acme Dental</h1>`+bookNowModal)
	srv := serveSite(t, site{pages: map[string]string{"/": home}})
	for _, explore := range []bool{true, false} {
		g := mapTest(t, srv.URL+"/", func(o *Options) { o.NoExplore = !explore })
		got := len(g.Actions)
		if want := map[bool]int{true: 1, false: 0}[explore]; got != want {
			t.Errorf("explore=%v: %d actions %+v, want %d", explore, got, summaryOf(g), want)
		}
	}
}

// bookNowModal is a "Book now" button whose booking form exists only
// once it is clicked.
const bookNowModal = `<button type="button" id="open" aria-haspopup="dialog">Book now</button><div id="slot"></div>
<script>document.getElementById("open").addEventListener("click", function () {
  document.getElementById("slot").innerHTML = '<div role="dialog" aria-modal="true" aria-label="Book an appointment"><h2>Book an appointment</h2>' +
  '<form id="appt" action="/appointments" method="post"><label for="n">Name</label><input id="n" name="name" autocomplete="name" required>' +
  '<label for="p">Phone</label><input id="p" name="phone" type="tel" required><label for="d">Date</label><input id="d" name="date" type="date">' +
  '<button type="submit">Request appointment</button></form></div>';
});</script>`

// Pages beyond the entry page are explored when the link that led there
// named an action; a page reached only through the navigation is not.
func TestRevealBeyondEntryPage(t *testing.T) {
	cases := []struct {
		name, path, text string
		want             int
	}{
		{"link names an action", "/visit/", "Book an appointment", 1},
		{"path names an action", "/appointments/", "Visit us", 1},
		{"plain navigation", "/visit/", "Our practice", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pages := map[string]string{
				"/":     page("Acme Dental", `<h1>Acme Dental</h1><nav><a href="`+tc.path+`">`+tc.text+`</a></nav>`),
				tc.path: page("Acme Dental", `<h1>Visit us</h1>`+bookNowModal),
			}
			srv := serveSite(t, site{pages: pages})
			g := mapTest(t, srv.URL+"/", func(o *Options) { o.NoExplore = false })
			if got := len(g.Actions); got != tc.want {
				t.Errorf("%d actions %+v, want %d", got, summaryOf(g), tc.want)
			}
		})
	}
}

// A booking link that lands on a login form is a link-to-page door with a
// login barrier: the booking exists, behind an account.
func TestLoginWall(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page("Forge", `<nav><a href="/members/book/">Book a class</a></nav><h1>Forge Strength</h1>`)))
	})
	mux.HandleFunc("/members/book/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/login/", http.StatusFound) })
	mux.HandleFunc("/login/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page("Member login", `<h1>Member login</h1><form action="/login/" method="post"><label for="e">Email</label><input id="e" name="email" type="email" autocomplete="username" required>
<label for="p">Password</label><input id="p" name="password" type="password" autocomplete="current-password" required><button type="submit">Log in</button></form>`)))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	g := mapStatic(t, srv.URL+"/", func(o *Options) { o.NoExplore = true })
	want := []actionSummary{{Kind: shared.KindBooking,
		Doors:    []doorSummary{{Method: shared.AccessLinkToPage, Occurrences: 1}},
		Effects:  []shared.EffectKind{shared.EffectRequestsAppointment},
		Barriers: []shared.BarrierKind{shared.BarrierLogin}}}
	if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
		t.Fatalf("graph (-want +got):\n%s", diff)
	}
}

// A page of the site that leads to another site — an HTTP redirect seen
// by the pre-flight or by the browser, or a script that sends the browser
// on — is not mapped as this site's: the crawl follows no link off the
// site, and a redirect does not get round that. The link that named it is
// still the site's door to the action.
func TestOffSiteRedirect(t *testing.T) {
	other := serveSite(t, site{pages: map[string]string{"/acme/": page("Booking platform", bookingForm(""))}})
	elsewhere := other.URL + "/acme/"
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page("Acme", `<a href="/book/">Book online</a> <a href="/contact/">Contact us</a>`)))
	})
	mux.HandleFunc("/book/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, elsewhere, http.StatusFound) })
	mux.HandleFunc("/contact/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page("Contact", `<script>location.replace(`+strconv.Quote(elsewhere)+`)</script><p>Taking you to our booking page</p>`)))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	links := []actionSummary{
		{Kind: shared.KindBooking, Doors: []doorSummary{{Method: shared.AccessLinkToPage, Occurrences: 1}}, Effects: []shared.EffectKind{shared.EffectRequestsAppointment}},
	}
	tests := []struct {
		name      string
		browser   bool
		wantNotes string
	}{
		{"pre-flight", false, "/book/ was not mapped: it redirects to " + elsewhere + ", another site."},
		{"browser", true, "/book/ was not mapped: it led to " + elsewhere + ", another site. /contact/ was not mapped: it led to " + elsewhere + ", another site."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			if tc.browser {
				o = browserOptions(t)
			}
			g := mapWith(t, o, srv.URL+"/", func(o *Options) { o.NoExplore, o.Offline = true, false })
			if diff := cmp.Diff(links, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
			var notes string
			if g.Notes != nil {
				notes = *g.Notes
			}
			if notes != tc.wantNotes {
				t.Errorf("notes %q, want %q", notes, tc.wantNotes)
			}
		})
	}
}

// The crawl goes to the pages whose links name an action first, then to
// the rest of the navigation, stops at MaxPages and says what it left out.
func TestPageBudget(t *testing.T) {
	home := page("Acme", `<a href="/team/">Our team</a> <a href="/contact/">Contact us</a> <a href="/book/">Book online</a> <a href="/brochure.pdf">Brochure</a> <a href="https://elsewhere.example/">Partner</a>`)
	pages := map[string]string{"/": home, "/contact/": page("Contact", contactForm), "/book/": page("Book", bookingForm("")), "/team/": page("Team", "<h1>Team</h1>")}
	cases := []struct {
		pages int
		kinds []shared.ActionKind
		left  []string
	}{
		{2, []shared.ActionKind{shared.KindBooking}, []string{"/contact/ was not opened", "/team/ was not opened"}},
		{3, []shared.ActionKind{shared.KindBooking, shared.KindContact}, []string{"/team/ was not opened"}},
		{6, []shared.ActionKind{shared.KindBooking, shared.KindContact}, nil},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.pages), func(t *testing.T) {
			g := mapSite(t, site{pages: pages}, func(o *Options) { o.MaxPages = tc.pages })
			var kinds []shared.ActionKind
			for _, a := range g.Actions {
				kinds = append(kinds, a.Kind)
			}
			if diff := cmp.Diff(tc.kinds, kinds); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
			notes := ""
			if g.Notes != nil {
				notes = *g.Notes
			}
			for _, l := range tc.left {
				if !strings.Contains(notes, l) {
					t.Errorf("notes %q do not say %q", notes, l)
				}
			}
			if tc.left == nil && strings.Contains(notes, "not opened") {
				t.Errorf("notes %q: nothing should be left out", notes)
			}
		})
	}
}

// A same-site page shown in an iframe is part of what a person sees: its
// form is mapped even when no link leads to it and the budget is tight.
func TestSameSiteFrame(t *testing.T) {
	pages := map[string]string{
		"/":                   page("Acme", `<h1>Acme</h1><a href="/team/">Our team</a><a href="/news/">News</a><iframe src="/embed/enquiry.html" title="Enquiry"></iframe>`),
		"/embed/enquiry.html": page("Enquiry", contactForm),
		"/team/":              page("Team", "<h1>Team</h1>"),
		"/news/":              page("News", "<h1>News</h1>"),
	}
	g := mapSite(t, site{pages: pages}, func(o *Options) { o.MaxPages = 2 })
	if len(g.Actions) != 1 || g.Actions[0].Kind != shared.KindContact {
		t.Fatalf("actions %+v, want the framed contact form", summaryOf(g))
	}
}

// Only pages that may hide an action are worth a second load.
func TestWorthRevealing(t *testing.T) {
	contact := extract.Form{Visible: true, Heading: "Contact us", Submits: []extract.Submit{{Tag: "button", Type: "submit", Text: "Send message", Visible: true}},
		Fields: []extract.Field{
			{Tag: "input", Type: "text", Name: "name", Label: "Your name", LabelSource: extract.LabelFor},
			{Tag: "input", Type: "email", Name: "email", Label: "Email", LabelSource: extract.LabelFor},
			{Tag: "textarea", Type: "textarea", Name: "message", Label: "Message", LabelSource: extract.LabelFor},
		}}
	search := extract.Form{Visible: true, Fields: []extract.Field{{Tag: "input", Type: "search", Name: "q", Label: "Search"}}}
	shown := &extract.Page{Forms: []extract.Form{search}}
	showsAction := &extract.Page{Forms: []extract.Form{search, contact}}
	hiddenContact := contact
	hiddenContact.Visible = false
	closed := &extract.Page{Forms: []extract.Form{search, hiddenContact}}
	cases := []struct {
		name  string
		entry bool
		score int
		p     *extract.Page
		want  bool
	}{
		{"entry page", true, 0, showsAction, true},
		{"link named an action", false, scoreTextIntent, shown, true},
		{"path named an action", false, scorePathIntent, shown, true},
		{"link named an action, its form is shown", false, scoreTextIntent, showsAction, false},
		{"navigation page", false, scoreOtherPage, shown, false},
		{"link named an action, its form is in a closed modal", false, scoreTextIntent, closed, false},
	}
	site, _ := url.Parse("https://acme.example/")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// whether the page shows an action is what the crawl asks of its forms
			page := *tc.p
			page.URL = site.String()
			page.Forms = append([]extract.Form(nil), page.Forms...)
			for i := range page.Forms {
				page.Forms[i].Index = i // as the extractor numbers them
			}
			shows := holdsAction(&page, map[string]bool{}, newClassifier())
			if got := worthRevealing(tc.entry, tc.score, shows); got != tc.want {
				t.Errorf("worthRevealing = %v (page shows an action: %v), want %v", got, shows, tc.want)
			}
		})
	}
}

// slowEntryLoader reads pages as staticLoader does, but holds the entry
// page until the run's time is up: the crawl then meets the end of the run
// with pages still queued.
type slowEntryLoader struct{ staticLoader }

func (l slowEntryLoader) load(ctx context.Context, u string, f *fetched, capture bool) (*observation, error) {
	obs, err := l.staticLoader.load(ctx, u, f, capture)
	if pathOf(u) == "/" {
		<-ctx.Done()
	}
	return obs, err
}

// The pages left queued when the crawl stops are named with the reason it
// stopped: the page budget, or the run's time (RunTimeout), not the budget
// when it was time that ran out.
func TestCrawlStops(t *testing.T) {
	home := page("Acme", `<a href="/team/">Our team</a> <a href="/contact/">Contact us</a> <a href="/book/">Book online</a>`)
	pages := map[string]string{"/": home, "/contact/": page("Contact", contactForm), "/book/": page("Book", bookingForm("")), "/team/": page("Team", "<h1>Team</h1>")}
	cases := []struct {
		name  string
		mod   func(*Options)
		notes string
	}{
		{"the page budget", func(o *Options) { o.MaxPages = 1 },
			"Page budget (1) reached; /book/ was not opened. Page budget (1) reached; /contact/ was not opened. Page budget (1) reached; /team/ was not opened."},
		{"the run's time", func(o *Options) { o.loader, o.RunTimeout = slowEntryLoader{}, 100*time.Millisecond },
			"The run ran out of time before /book/ was mapped. The run ran out of time before /contact/ was mapped. The run ran out of time before /team/ was mapped."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: pages}, tc.mod)
			notes := ""
			if g.Notes != nil {
				notes = *g.Notes
			}
			if diff := cmp.Diff(tc.notes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
