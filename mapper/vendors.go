package mapper

import "strings"

// vendor is a third party whose widget or page takes the customer's data
// out of the site's own markup. Each is recognised by substrings of the URLs
// its embeds load (scripts, iframes, links, form actions) and by marks in
// the host page (element ids, classes, data attributes, inline script).
type vendor struct {
	name string
	// urls are lower-case substrings of a script/iframe/link/form URL.
	urls []string
	// marks are lower-case substrings of an embed's id, class or data-*
	// names, or of inline script text.
	marks []string
	// role says what the vendor does with the customer's data.
	role vendorRole
}

type vendorRole int

const (
	// roleScheduler books a slot in the vendor's calendar.
	roleScheduler vendorRole = iota
	// roleFormHost collects a form (Jotform, Typeform, Google Forms).
	roleFormHost
)

// vendors is the one list of third-party schedulers and form hosts the
// mapper recognises (REFERENCE.md, "Third-party schedulers" and the opaque
// rows of "Form plugins").
var vendors = []vendor{
	{name: "Calendly", urls: []string{"calendly.com/", "assets.calendly.com"}, marks: []string{"calendly-inline-widget", "calendly.initpopupwidget", "calendly.initinlinewidget", "calendly-badge"}},
	{name: "Acuity Scheduling", urls: []string{"acuityscheduling.com", "squarespacescheduling.com"}, marks: []string{"acuity-embed"}},
	{name: "Square Appointments", urls: []string{"squareup.com/appointments", "square.site/book"}},
	{name: "Setmore", urls: []string{"setmore.com/"}, marks: []string{"setmore_button_iframe", "setmore_script"}},
	{name: "SimplyBook.me", urls: []string{"simplybook.me", "simplybook.it"}, marks: []string{"simplybookwidget"}},
	{name: "Fresha", urls: []string{"fresha.com/book-now", "fresha.com/a/", "widgets.fresha.com"}},
	{name: "Cliniko", urls: []string{".cliniko.com/bookings"}},
	{name: "HotDoc", urls: []string{"hotdoc.com.au/medical-centres", "hotdoc.com.au/request"}, marks: []string{"hotdoc-widget"}},
	{name: "HealthEngine", urls: []string{"healthengine.com.au/webplugin", "healthengine.com.au/appointments"}, marks: []string{"he-id"}},
	{name: "OpenTable", urls: []string{"opentable.com/widget", "opentable.com/restref", "opentable.com/r/", "opentable.com/booking", "opentable.co.uk/", "opentable.com.au/"}},
	{name: "Resy", urls: []string{"widgets.resy.com", "resy.com/cities"}, marks: []string{"resybutton-"}},
	{name: "Jotform", urls: []string{"form.jotform.com/", "jotform.com/jsform", "jotform.com/form"}, role: roleFormHost},
	{name: "Typeform", urls: []string{".typeform.com/to/", "embed.typeform.com"}, marks: []string{"data-tf-live", "data-tf-widget", "tf-live", "tf-widget"}, role: roleFormHost},
	{name: "Google Forms", urls: []string{"docs.google.com/forms/", "forms.gle/"}, role: roleFormHost},
}

// vendorByURL returns the vendor whose URL signature raw carries.
func vendorByURL(raw string) (*vendor, bool) {
	u := strings.ToLower(raw)
	if u == "" {
		return nil, false
	}
	for i := range vendors {
		for _, s := range vendors[i].urls {
			if strings.Contains(u, s) {
				return &vendors[i], true
			}
		}
	}
	return nil, false
}

// vendorByMark returns the vendor whose page mark text carries.
func vendorByMark(text string) (*vendor, bool) {
	t := strings.ToLower(text)
	if t == "" {
		return nil, false
	}
	for i := range vendors {
		for _, s := range vendors[i].marks {
			if strings.Contains(t, s) {
				return &vendors[i], true
			}
		}
	}
	return nil, false
}
