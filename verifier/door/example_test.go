package door_test

import (
	"fmt"
	"net/url"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/verifier/door"
)

// An action a site offers as a documented JSON endpoint and as a form: the
// form is its door, since the sandbox can show the owner what it sends, and
// so it is the door the executor fires.
func ExampleOf() {
	a := &shared.Action{ID: "plumber01:quote:job", Access: []shared.Access{
		access(shared.AccessDocumentedEndpoint, shared.TransportJSONEndpoint, "/api/quotes"),
		access(shared.AccessHTMLForm, shared.TransportFormPost, "/quote-request"),
	}}
	d, i := door.Of(a)
	fmt.Println(i, d.Method, *d.Submission.Endpoint, door.Runnable(d))
	// Output: 1 html-form https://example.test/quote-request true
}

// A page's send to WordPress's admin-ajax.php reaches the confirmed
// endpoint only with the confirmed action.
func ExampleSameEndpoint() {
	confirmed, _ := url.Parse("https://example.test/wp-admin/admin-ajax.php?action=quote_submit")
	for _, sent := range []string{
		"https://example.test:443/wp-admin/admin-ajax.php?action=quote_submit",
		"https://example.test/wp-admin/admin-ajax.php?action=newsletter_subscribe",
	} {
		got, _ := url.Parse(sent)
		fmt.Println(door.SameEndpoint(got, confirmed, false))
	}
	// Output:
	// true
	// false
}
