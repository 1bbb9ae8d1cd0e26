package mapper

import (
	"testing"

	"github.com/frontlatch/frontlatch/shared"
	"github.com/google/go-cmp/cmp"
)

// Schema.org potentialAction: an EntryPoint with -input specs written as
// PropertyValueSpecification objects (the misspelt valueMaxlength too) and
// as shorthand strings.
func TestJSONLDPotentialAction(t *testing.T) {
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Restaurant","name":"Saltbush",
"potentialAction":[{"@type":"ReserveAction","name":"Reserve a table",
 "target":{"@type":"EntryPoint","urlTemplate":"https://book.saltbush.example/reserve","httpMethod":"POST","encodingType":"application/json"},
 "name-input":{"@type":"PropertyValueSpecification","valueRequired":true,"valueName":"name","valueMaxlength":80},
 "email-input":"required name=email maxlength=120",
 "partySize-input":{"@type":"PropertyValueSpecification","valueRequired":true,"valueName":"party_size","minValue":1,"maxValue":10}},
 {"@type":"SearchAction","target":"https://saltbush.example/?s={q}","query-input":"required name=q"}]}</script>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Saltbush", "<h1>Saltbush</h1>"+ld)}}, nil)
	want := []actionSummary{{Kind: shared.KindBooking,
		Doors:    []doorSummary{{Method: shared.AccessDocumentedEndpoint, Transport: shared.TransportJSONEndpoint, Endpoint: "/reserve", Occurrences: 1}},
		Fillable: []string{"email:email!", "name:person-name!", "party_size:party-size!"},
		Effects:  []shared.EffectKind{shared.EffectRequestsAppointment}}}
	if diff := cmp.Diff(want, summaryOf(g)); diff != "" {
		t.Fatalf("graph (-want +got):\n%s", diff)
	}
	a := g.Actions[0]
	if m := a.Access[0].Provenance.Method; m != shared.MethodParsedStructuredData {
		t.Errorf("door provenance %s, want parsed-structured-data", m)
	}
	wantSpaces := map[string][]shared.ValueSpace{
		"email":      {shared.LengthSpace{MaxLength: ptr(120)}},
		"name":       {shared.LengthSpace{MaxLength: ptr(80)}},
		"party_size": {shared.RangeSpace{Min: ptr("1"), Max: ptr("10")}},
	}
	for _, in := range a.Inputs {
		if diff := cmp.Diff(wantSpaces[in.Name], in.ValueSpace); diff != "" {
			t.Errorf("%s value space (-want +got):\n%s", in.Name, diff)
		}
	}
}

// A potentialAction whose target is a form's own endpoint is another door
// of that form's action, not a second action.
func TestJSONLDJoinsMatchingForm(t *testing.T) {
	body := `<form id="reserve" action="/reserve/" method="post" aria-label="Book a table">
<label for="n">Name</label><input id="n" name="name" autocomplete="name" required>
<label for="g">Guests</label><input id="g" name="guests" type="number" min="1" max="10" required>
<label for="d">Date</label><input id="d" name="date" type="date" required>
<label for="p">Phone</label><input id="p" name="phone" type="tel" required>
<button type="submit">Book a table</button></form>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Restaurant","potentialAction":{"@type":"ReserveAction","target":{"@type":"EntryPoint","urlTemplate":"/reserve/","httpMethod":"POST"},"name-input":"required name=name"}}</script>`
	g := mapSite(t, site{pages: map[string]string{"/": page("Book", body)}}, nil)
	got := summaryOf(g)
	if len(got) != 1 || len(got[0].Doors) != 2 || got[0].Doors[1].Method != shared.AccessDocumentedEndpoint {
		t.Fatalf("want one booking action with an html-form and a documented-endpoint door, got %+v (notes %v)", got, *g.Notes)
	}
}
