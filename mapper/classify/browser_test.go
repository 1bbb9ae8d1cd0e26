package classify_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/frontlatch/frontlatch/mapper/classify"
	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
	"github.com/frontlatch/frontlatch/topology"
	"github.com/frontlatch/frontlatch/topology/topologytest"
	"github.com/google/go-cmp/cmp"
)

// The pages are extract's test pages: what extraction reads from them is
// tested there; here, what the classifier makes of it in a real browser.
const pages = "../extract/testdata"

// loadPages extracts each page once in Chromium (one browser for all).
func loadPages(t *testing.T, names ...string) map[string]*extract.Page {
	t.Helper()
	topologytest.NeedChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeFile(w, r, filepath.Join(pages, filepath.Base(r.URL.Path)))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := topology.NewBrowser(ctx, topology.BrowserOptions{Offline: true})
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	defer b.Close()
	out := map[string]*extract.Page{}
	for _, n := range names {
		page, err := b.OpenPage(ctx, srv.URL+"/"+n, topology.PageOptions{Offline: true})
		if err != nil {
			t.Fatalf("open %s: %v", n, err)
		}
		p, err := extract.FromPage(ctx, page)
		page.Context(context.Background()).Timeout(5 * time.Second).Close()
		if err != nil {
			t.Fatalf("extract %s: %v", n, err)
		}
		out[n] = p
	}
	return out
}

func staticPage(t *testing.T, name string) *extract.Page {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(pages, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := extract.FromHTML("http://127.0.0.1/"+name, raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// semantics maps "formID/field" to the classifier's semantic for every
// field of every form (formless groups keyed by their first field).
func semantics(p *extract.Page) map[string]shared.SemanticType {
	out := map[string]shared.SemanticType{}
	for _, f := range append(append([]extract.Form{}, p.Forms...), p.Groups...) {
		res := classify.Fields(f, p)
		for i, fl := range f.Fields {
			out[f.ID+"/"+fl.Name] = res[i].Semantic
		}
	}
	return out
}

func TestHoneypotsInChromium(t *testing.T) {
	honeypots := map[string]bool{
		"inline/website": true, "sheet/your-name": true, "offscreen/email_confirm": true,
		"tabindex/company2": true, "gform_3/input_7": true, "wpforms-form-12/wpforms[hp]": true,
		"/form_fields[field_a1b2]": true, "formspree/_gotcha": true, "leave/url": true,
		"margin/tx_field[uid99]": true, "nl/nl_check": true,
	}
	check := func(t *testing.T, p *extract.Page, skip map[string]bool) {
		got := semantics(p)
		for key, sem := range got {
			want := honeypots[key] && !skip[key]
			if (sem == shared.SemanticHoneypot) != want {
				t.Errorf("%s: %s, honeypot wanted %v", key, sem, want)
			}
		}
		for key := range honeypots {
			if _, ok := got[key]; !ok {
				t.Errorf("%s not extracted", key)
			}
		}
		if got["legit/consent"] != shared.SemanticConsent || got["legit/nonce"] != shared.SemanticSystemToken || got["legit/email"] != shared.SemanticEmail {
			t.Errorf("legit form = consent %s, nonce %s, email %s", got["legit/consent"], got["legit/nonce"], got["legit/email"])
		}
	}
	t.Run("browser", func(t *testing.T) {
		check(t, loadPages(t, "honeypots.html")["honeypots.html"], nil)
	})
	t.Run("static", func(t *testing.T) {
		// The page's own rules hide .trap-wrap statically too (sheet.go).
		check(t, staticPage(t, "honeypots.html"), nil)
	})
}

func TestLabelsAndGroupsInChromium(t *testing.T) {
	ps := loadPages(t, "labels.html", "formless.html", "contact.html")
	got := semantics(ps["labels.html"])
	want := map[string]shared.SemanticType{
		"labels/n1": shared.SemanticPersonName, "labels/n2": shared.SemanticEmail, "labels/n3": shared.SemanticPhone,
		"labels/n4": shared.SemanticCompany, "labels/n5": shared.SemanticPostcode, "labels/n6": shared.SemanticLocality,
		"labels/n7": shared.SemanticStreetAddress, "labels/slot": shared.SemanticPreferredTimeWindow,
		"labels/service": shared.SemanticServiceRequested, "labels/ship": shared.SemanticPostcode, "labels/ac-email": shared.SemanticEmail,
		"labels/de1": shared.SemanticFamilyName, "labels/fr1": shared.SemanticGivenName, "labels/ja1": shared.SemanticEmail,
		"labels/ru1": shared.SemanticPhone, "labels/es1": shared.SemanticMessage, "labels/cv": shared.SemanticFileAttachment,
		"labels/party": shared.SemanticPartySize, "labels/code": shared.SemanticUnknown, "labels/news": shared.SemanticMarketingOptIn,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels.html semantics (-want +got):\n%s", diff)
	}
	if r := classify.Form(ps["labels.html"].Forms[0], ps["labels.html"]); r.Purpose != classify.PurposeBooking {
		t.Errorf("labels form purpose = %s (%v), want booking", r.Purpose, r.Evidence)
	}

	type view struct {
		Purpose        classify.Purpose
		CustomerAction bool
	}
	var groups []view
	for _, g := range ps["formless.html"].Groups {
		r := classify.Form(g, ps["formless.html"])
		groups = append(groups, view{r.Purpose, r.CustomerAction})
	}
	if diff := cmp.Diff([]view{{classify.PurposeCallback, true}, {classify.PurposeNewsletter, false}}, groups); diff != "" {
		t.Errorf("formless groups (-want +got):\n%s", diff)
	}

	var forms []view
	for _, f := range ps["contact.html"].Forms {
		r := classify.Form(f, ps["contact.html"])
		forms = append(forms, view{r.Purpose, r.CustomerAction})
	}
	if diff := cmp.Diff([]view{{classify.PurposeSearch, false}, {classify.PurposeBooking, true}}, forms); diff != "" {
		t.Errorf("contact.html forms (-want +got):\n%s", diff)
	}
	cf7 := semantics(ps["contact.html"])
	for key, want := range map[string]shared.SemanticType{
		"/your-name": shared.SemanticPersonName, "/your-email": shared.SemanticEmail, "/your-phone": shared.SemanticPhone,
		"/your-message": shared.SemanticMessage, "/website": shared.SemanticHoneypot, "/email2": shared.SemanticHoneypot,
		"/url_field": shared.SemanticHoneypot, "/consent": shared.SemanticConsent, "/_wpcf7": shared.SemanticSystemToken,
		"/g-recaptcha-response": shared.SemanticSystemToken,
	} {
		if got, ok := cf7[key]; ok && got != want || !ok && key != "/g-recaptcha-response" {
			t.Errorf("contact.html %s = %q, want %s", key, got, want)
		}
	}
}
