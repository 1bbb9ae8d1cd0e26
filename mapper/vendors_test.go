package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// Every scheduler vendor of REFERENCE.md is an opaque scheduler-widget door
// with empty inputs and the vendor named; a third-party form host likewise.
func TestSchedulerVendors(t *testing.T) {
	cases := []struct {
		vendor string
		body   string
	}{
		{"Calendly", `<div class="calendly-inline-widget" data-url="https://calendly.com/acme/30min" style="min-width:320px;height:630px;"></div><script src="https://assets.calendly.com/assets/external/widget.js" async></script>`},
		{"Acuity Scheduling", `<iframe src="https://app.acuityscheduling.com/schedule.php?owner=21394387" title="Schedule Appointment" width="100%" height="800"></iframe><script src="https://embed.acuityscheduling.com/js/embed.js"></script>`},
		{"Acuity Scheduling", `<iframe src="https://app.squarespacescheduling.com/schedule.php?owner=123" title="Schedule" width="100%" height="800"></iframe>`},
		{"Square Appointments", `<script src="https://app.squareup.com/appointments/buyer/widget/abc123/LXYZ.js"></script>`},
		{"Setmore", `<script id="setmore_script" src="https://assets.setmore.com/integration/static/setmoreIframeLive.js"></script><a id="Setmore_button_iframe" href="https://my.setmore.com/bookingpage/6b0e1f3a"><img src="/book-now.png" alt="Book now"></a>`},
		{"SimplyBook.me", `<script src="https://widget.simplybook.me/v2/widget/widget.js"></script><script>var widget = new SimplybookWidget({"widget_type":"iframe","url":"https://acme.simplybook.me"});</script>`},
		{"Fresha", `<iframe src="https://widgets.fresha.com/widget/abc" title="Book"></iframe>`},
		{"Cliniko", `<iframe src="https://acme.cliniko.com/bookings?embedded=true" title="Book online" width="100%" height="1000"></iframe>`},
		{"HotDoc", `<iframe src="https://www.hotdoc.com.au/medical-centres/sydney-NSW-2000/acme/doctors?wp=w_iframe" title="Book with HotDoc"></iframe>`},
		{"HealthEngine", `<script src="https://healthengine.com.au/webplugin/appointments.js" data-he-id="12345" data-he-button="true"></script>`},
		{"OpenTable", `<script type="text/javascript" src="//www.opentable.com/widget/reservation/loader?rid=412810&type=standard&theme=standard&overlay=false&iframe=true"></script>`},
		{"Resy", `<script src="https://widgets.resy.com/embed.js"></script><a href="https://resy.com/cities/ny/acme" id="resyButton-xyz">Book your ResyRequest a table</a>`},
	}
	for _, tc := range cases {
		t.Run(tc.vendor, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Book online", "<h1>Book online</h1>"+tc.body)}}, nil)
			want := []actionSummary{{Kind: shared.KindBooking,
				Doors:   []doorSummary{{Method: shared.AccessSchedulerWidget, Vendor: tc.vendor, Opaque: true, Occurrences: 1}},
				Effects: []shared.EffectKind{shared.EffectBooksAppointment, shared.EffectSharesDataWithThirdParty}}}
			if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
			if n := len(g.Actions[0].Inputs); n != 0 {
				t.Errorf("an opaque door's action has %d inputs, want 0", n)
			}
		})
	}
}

// Forms hosted by Jotform, Typeform or Google Forms live in a frame nobody
// outside it can read: an opaque door of an enquiry.
func TestThirdPartyFormHosts(t *testing.T) {
	cases := []struct{ vendor, body string }{
		{"Jotform", `<iframe id="JotFormIFrame-231" title="Contact" src="https://form.jotform.com/231234567890" style="width:100%;height:539px"></iframe>`},
		{"Google Forms", `<iframe src="https://docs.google.com/forms/d/e/1FAIpQLSf/viewform?embedded=true" width="640" height="800">Loading…</iframe>`},
	}
	for _, tc := range cases {
		t.Run(tc.vendor, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Contact", "<h1>Contact</h1>"+tc.body)}}, nil)
			want := []actionSummary{{Kind: shared.KindEnquiry,
				Doors:   []doorSummary{{Method: shared.AccessSchedulerWidget, Vendor: tc.vendor, Opaque: true, Occurrences: 1}},
				Effects: []shared.EffectKind{shared.EffectSendsEmailToBusiness, shared.EffectSharesDataWithThirdParty}}}
			if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

// tel: and mailto: links and link-outs to booking pages elsewhere.
func TestLinkDoors(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []actionSummary
	}{
		{"phone and email only", `<footer><h3>Contact</h3><p><a href="tel:+61 2 9247 1234">(02) 9247 1234</a><br><a href="mailto:Hello@Example.com?subject=Hi">hello@example.com</a></p></footer>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:   []doorSummary{{Method: shared.AccessTelLink, Occurrences: 1}, {Method: shared.AccessMailtoLink, Occurrences: 1}},
				Effects: []shared.EffectKind{shared.EffectSendsEmailToBusiness}}}},
		{"phone only", `<p><a href="tel:0292471234">Call us</a></p><p><a href="tel:02-9247-1234">02 9247 1234</a></p>`,
			[]actionSummary{{Kind: shared.KindContact,
				Doors:   []doorSummary{{Method: shared.AccessTelLink, Occurrences: 2}},
				Effects: []shared.EffectKind{shared.EffectUnknown}}}},
		{"booking link to a vendor page", `<p><a class="btn" href="https://acme-physio.cliniko.com/bookings" target="_blank">Book online</a></p>`,
			[]actionSummary{{Kind: shared.KindBooking,
				Doors:   []doorSummary{{Method: shared.AccessLinkToPage, Vendor: "Cliniko", Occurrences: 1}},
				Effects: []shared.EffectKind{shared.EffectBooksAppointment, shared.EffectSharesDataWithThirdParty}}}},
		{"quote link to another site", `<p><a href="https://quotes.example.net/acme">Get a free quote</a></p>`,
			[]actionSummary{{Kind: shared.KindQuote,
				Doors:   []doorSummary{{Method: shared.AccessLinkToPage, Occurrences: 1}},
				Effects: []shared.EffectKind{shared.EffectRequestsQuote}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Acme", tc.body)}}, nil)
			if diff := cmp.Diff(tc.want, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

// A phone number offered for a specific action is a door of that action;
// one offered as the general way to reach the business is a contact door.
// The words read are the sentence around the link, and the heading above
// it when its block holds nothing but links.
func TestPhoneDoorPlacement(t *testing.T) {
	quoteForm := `<h2>Request a quote</h2><form id="quote" action="/quote" method="post"><label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="e">Email</label><input id="e" name="email" type="email" required><label for="m">Describe the job</label><textarea id="m" name="message" required></textarea><button type="submit">Get a quote</button></form>`
	formDoor := doorSummary{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/book", Occurrences: 1}
	booking := func(doors ...doorSummary) actionSummary {
		return actionSummary{Kind: shared.KindBooking, Doors: doors, Fillable: []string{"name:person-name!", "phone:phone!", "date:date"},
			Effects: []shared.EffectKind{shared.EffectRequestsAppointment}}
	}
	tel := doorSummary{Method: shared.AccessTelLink, Occurrences: 1}
	cases := []struct {
		name string
		body string
		want []actionSummary
	}{
		{"offered to book", bookingForm("") + `<p>Book online above or call <a href="tel:+61292471234">(02) 9247 1234</a>.</p>`,
			[]actionSummary{booking(formDoor, tel)}},
		{"under a Bookings heading", bookingForm("") + `<footer><div><h3>Bookings</h3><p><a href="tel:+61292471234">(02) 9247 1234</a></p></div></footer>`,
			[]actionSummary{booking(formDoor, tel)}},
		{"general contact", bookingForm("") + `<footer><div><h3>Visit us</h3><p>Phone <a href="tel:+61292471234">(02) 9247 1234</a></p></div></footer>`,
			[]actionSummary{booking(formDoor), {Kind: shared.KindContact, Doors: []doorSummary{tel}, Effects: []shared.EffectKind{shared.EffectUnknown}}}},
		{"another sentence names the action", quoteForm + `<p>Free quotes in your area. For a burst pipe, call <a href="tel:+61733915820">(07) 3391 5820</a> now.</p>`,
			[]actionSummary{
				{Kind: shared.KindQuote, Doors: []doorSummary{{Method: shared.AccessHTMLForm, Transport: shared.TransportFormPost, Endpoint: "/quote", Occurrences: 1}},
					Fillable: []string{"name:person-name!", "email:email!", "message:message!"}, Effects: []shared.EffectKind{shared.EffectRequestsQuote}},
				{Kind: shared.KindContact, Doors: []doorSummary{tel}, Effects: []shared.EffectKind{shared.EffectUnknown}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mapSite(t, site{pages: map[string]string{"/": page("Acme", tc.body)}}, nil)
			if diff := cmp.Diff(tc.want, summaryOf(g)); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

// A link-out door's part of the action id names what it leads to, never
// this site's own host (the id already starts with the site).
func TestLinkOutPart(t *testing.T) {
	cases := []struct {
		name string
		l    linkDoor
		want string
	}{
		{"page of this site", linkDoor{href: "http://127.0.0.1:8080/members/book/", sameSite: true}, "members-book"},
		{"home page of this site", linkDoor{href: "https://acme.example/", sameSite: true}, "home"},
		{"another site", linkDoor{href: "https://bookings.example.net/acme"}, "bookings-example-net-acme"},
		{"a vendor", linkDoor{href: "https://calendly.com/acme/30min", vendor: &vendor{name: "Calendly"}}, "calendly"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := linkOutPart(&tc.l); got != tc.want {
				t.Errorf("linkOutPart = %q, want %q", got, tc.want)
			}
		})
	}
}
