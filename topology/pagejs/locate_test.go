package pagejs_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology/pagejs"
)

// locatePage has a hidden copy of a form in a closed modal and a visible
// one in a footer, a form inside an open shadow root with a label, test id
// and button of its own, a closed root, a form holding fewer of the
// fields, and controls outside any form named in the other ways of the
// accessible-name steps, or of a role only topology's roleOf gives them. Every element a locator may answer carries data-k.
const locatePage = `<!doctype html><html><body>
<div style="display:none"><form class="quote" data-k="modal-form"><input name="email" data-k="modal-email"></form></div>
<footer><form class="quote" data-k="footer-form"><input name="email" data-k="footer-email"><button data-k="footer-send">Send</button></form></footer>
<form id="news" data-k="news-form"><label>Newsletter <input name="email" data-k="news-email"></label></form>
<booking-widget><template shadowrootmode="open"><form id="book" data-k="shadow-form">
  <label for="when">Preferred day</label><input id="when" name="day" data-k="shadow-day" data-testid="day-field">
  <input name="email" aria-label="Your email" data-k="shadow-email">
  <button type="submit" data-k="shadow-send">Book now</button>
</form></template></booking-widget>
<section><span id="ph-l">Phone</span><input name="phone" aria-labelledby="ph-l" data-k="phone">
  <input name="city" value="Sydney" placeholder="Your city" data-k="city">
  <button name="via" value="quote-button" data-k="valued-send">Get a quote</button><input type="submit" data-k="default-submit"><input type="submit" value="Request a  callback" data-k="valued-submit"></section>
<aside><input type="search" aria-label="Find" data-k="find"><select multiple aria-label="Services" data-k="services"><option>Wiring</option></select>
  <button data-k="arrow-send"><span aria-label="Send now">→</span></button><button data-k="partly-hidden">Book<span style="display:none"> (members)</span></button>
  <div role="button link" tabindex="0" data-k="two-roles">Go</div></aside>
<sealed-box><template shadowrootmode="closed"><form data-k="closed-form"><input name="email" data-testid="day-field" data-k="closed-email"></form></template></sealed-box>
</body></html>`

// TestLocate resolves contract locators with locate and picks doors with
// doorOf in Chromium: over the document and its open shadow roots, never
// a closed one; xpath in the document only; a visible copy of a repeated
// door before a hidden one; without a locator, the form holding the most
// of the fields.
func TestLocate(t *testing.T) {
	ctx, page := openTestPage(t, locatePage)
	type loc struct {
		Strategy string `json:"strategy"`
		Value    string `json:"value"`
	}
	tests := []struct {
		name  string
		loc   *loc
		names []string // doorOf's field names
		want  []string // locate: data-k of the elements, in order
		door  string   // doorOf's element
		count int      // doorOf's count
	}{
		{name: "css: both copies, the visible one is the door", loc: &loc{"css", "form.quote"}, want: []string{"modal-form", "footer-form"}, door: "footer-form", count: 2},
		{name: "css: shadow-including", loc: &loc{"css", "booking-widget form#book"}, want: []string{"shadow-form"}, door: "shadow-form", count: 1},
		{name: "css: invalid names nothing", loc: &loc{"css", "form["}, want: []string{}, count: 0},
		{name: "xpath: the document only", loc: &loc{"xpath", "//form"}, want: []string{"modal-form", "footer-form", "news-form"}, door: "footer-form", count: 3},
		{name: "testid: open roots, not closed ones", loc: &loc{"testid", "day-field"}, want: []string{"shadow-day"}, door: "shadow-day", count: 1},
		{name: "label: bound within the label's tree", loc: &loc{"label", "Preferred  day"}, want: []string{"shadow-day"}, door: "shadow-day", count: 1},
		{name: "label: aria-label too", loc: &loc{"label", "Your email"}, want: []string{"shadow-email"}, door: "shadow-email", count: 1},
		{name: "label: a wrapping label", loc: &loc{"label", "Newsletter"}, want: []string{"news-email"}, door: "news-email", count: 1},
		{name: "role with a name, in a shadow root", loc: &loc{"role", `button "Book now"`}, want: []string{"shadow-send"}, door: "shadow-send", count: 1},
		{name: "role: a button is named by its content, not its value", loc: &loc{"role", `button "Get a quote"`}, want: []string{"valued-send"}, door: "valued-send", count: 1},
		{name: "role: a button's value is no name", loc: &loc{"role", `button "quote-button"`}, want: []string{}, count: 0},
		{name: "role: a submit input without a value is named Submit", loc: &loc{"role", `button "Submit"`}, want: []string{"default-submit"}, door: "default-submit", count: 1},
		{name: "role: aria-labelledby", loc: &loc{"role", `textbox "Phone"`}, want: []string{"phone"}, door: "phone", count: 1},
		{name: "role: a textbox is named by its placeholder, not its value", loc: &loc{"role", `textbox "Your city"`}, want: []string{"city"}, door: "city", count: 1},
		{name: "role: a textbox's value is no name", loc: &loc{"role", `textbox "Sydney"`}, want: []string{}, count: 0},
		{name: "role: a search input is a searchbox", loc: &loc{"role", `searchbox "Find"`}, want: []string{"find"}, door: "find", count: 1},
		{name: "role: a multiple select is a listbox", loc: &loc{"role", `listbox "Services"`}, want: []string{"services"}, door: "services", count: 1},
		{name: "role: a descendant's aria-label is its text", loc: &loc{"role", `button "Send now"`}, want: []string{"arrow-send"}, door: "arrow-send", count: 1},
		{name: "role: hidden content is no part of a name", loc: &loc{"role", `button "Book"`}, want: []string{"partly-hidden"}, door: "partly-hidden", count: 1},
		{name: "role: the first token of a role attribute", loc: &loc{"role", `button "Go"`}, want: []string{"two-roles"}, door: "two-roles", count: 1},
		{name: "text: a button input by its value", loc: &loc{"text", "Request a callback"}, want: []string{"valued-submit"}, door: "valued-submit", count: 1},
		{name: "text", loc: &loc{"text", "Send"}, want: []string{"footer-send"}, door: "footer-send", count: 1},
		{name: "an unknown strategy names nothing", loc: &loc{"nearby", "x"}, want: []string{}, count: 0},
		{name: "no locator: the form with the most fields, any open tree", names: []string{"day", "email"}, door: "shadow-form", count: 4},
		{name: "no locator: a visible form before a hidden one among equals", names: []string{"email"}, door: "footer-form", count: 4},
		{name: "no locator, no fields: the first visible form", door: "footer-form", count: 4},
	}
	js := pagejs.MustInline(`(casesJSON) => {
  //pagejs:include pierce
  //pagejs:include norm
  //pagejs:include labels
  //pagejs:include accname
  //pagejs:include locate
  const key = (e) => e && e.getAttribute("data-k");
  return JSON.stringify(JSON.parse(casesJSON).map((c) => {
    const d = doorOf(c.loc, c.names);
    return { all: c.loc ? locate(c.loc).map(key) : [], door: key(d.el) || "", count: d.count };
  }));
}`)
	type tcase struct {
		Loc   *loc     `json:"loc"`
		Names []string `json:"names"`
	}
	cases := make([]tcase, len(tests))
	for i, tt := range tests {
		cases[i] = tcase{tt.loc, tt.names}
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	res, err := page.Context(ctx).Timeout(10*time.Second).Eval(js, string(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		All   []string `json:"all"`
		Door  string   `json:"door"`
		Count int      `json:"count"`
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.loc != nil {
				if diff := cmp.Diff(tt.want, got[i].All); diff != "" {
					t.Errorf("locate(%+v) (-want +got):\n%s", *tt.loc, diff)
				}
			}
			if got[i].Door != tt.door || got[i].Count != tt.count {
				t.Errorf("doorOf = %q of %d, want %q of %d", got[i].Door, got[i].Count, tt.door, tt.count)
			}
		})
	}
}
